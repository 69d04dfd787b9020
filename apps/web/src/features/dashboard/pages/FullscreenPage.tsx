import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BigScreen } from '../components/BigScreen.tsx';

/** /fullscreen: the big screen, which also asks the browser for full screen on a click (browsers allow it only then). */
export default function FullscreenPage() {
  const { t } = useTranslation();
  const [full, setFull] = useState(() => Boolean(document.fullscreenElement));
  useEffect(() => {
    const on = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);
  const enter = () => {
    if (document.fullscreenElement || !document.documentElement.requestFullscreen) return;
    // refused (an iframe, a browser setting): the screen stays as it is
    document.documentElement.requestFullscreen().catch(() => undefined);
  };
  return <BigScreen onClick={enter} hint={full ? undefined : t('dashboard.big.clickFullscreen')} />;
}
