import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '@faceadmin/shared';
import { useSwitchCompany } from '../../features/companies/api.ts';

/** spec §2: changing company calls the default-company endpoint, confirms, and reloads the app at /. */
export function CompanySwitcher({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const switchCompany = useSwitchCompany();
  return (
    <Select
      aria-label={t('layout.company.switch')}
      data-testid="company-switcher"
      style={{ minWidth: 140, maxWidth: 220 }}
      value={user.company || undefined}
      placeholder={t('layout.company.choose')}
      loading={switchCompany.isPending}
      options={user.companys.map((c) => ({ value: c.id, label: c.name }))}
      // the mutation reloads the app at / and the message follows (useSwitchCompany)
      onChange={(id: number) => switchCompany.mutate(id)}
    />
  );
}
