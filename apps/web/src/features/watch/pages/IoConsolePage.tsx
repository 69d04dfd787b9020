import { useTranslation } from 'react-i18next';
import { GuardDesk } from '../components/GuardDesk.tsx';

/** /ioconsoles: the guard desk, the current recognition large beside the latest ones (issue #16). */
export default function IoConsolePage() {
  const { t } = useTranslation();
  return <GuardDesk title={t('route.ioconsoles')} storageKey="faceadmin.guard.doors" testId="ioconsole-page" />;
}
