import { useEffect, useState } from 'react';
import { App, Button, Tooltip } from 'antd';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** Whether the page is full screen, a toggle, and the toggle's label (spec §2: unsupported → a warning). */
export function useFullscreen(): { full: boolean; toggle: () => Promise<void>; label: string } {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [full, setFull] = useState(Boolean(document.fullscreenElement));
  useEffect(() => {
    const onChange = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = async () => {
    // spec §2: a browser without the Fullscreen API gets a warning.
    if (!document.fullscreenEnabled) {
      message.warning(t('layout.fullscreen.unsupported'));
      return;
    }
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen();
    } catch {
      message.warning(t('layout.fullscreen.unsupported'));
    }
  };
  const label = full ? t('layout.fullscreen.exit') : t('layout.fullscreen.enter');
  return { full, toggle, label };
}

export function FullscreenToggle() {
  const { full, toggle, label } = useFullscreen();
  return (
    <Tooltip title={label}>
      <Button type="text" aria-label={label} icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={toggle} />
    </Tooltip>
  );
}
