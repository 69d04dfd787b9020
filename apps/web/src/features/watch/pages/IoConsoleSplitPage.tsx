import { useTranslation } from 'react-i18next';
import { GuardDesk } from '../components/GuardDesk.tsx';

/** /ioconsoles2: the guard desk split in entrances and exits, side by side (issue #16). */
export default function IoConsoleSplitPage() {
  const { t } = useTranslation();
  return <GuardDesk split title={t('route.ioconsoles2')} storageKey="faceadmin.guard2.doors" testId="ioconsole-split-page" />;
}
