import { Alert, App, Typography } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAdminRight, useUserInfo } from '../../../lib/session.ts';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { PageLoading } from '../../../ui/PageLoading.tsx';
import { useCompanyInfo, useCreateCompany, useUpdateCompany } from '../api.ts';
import { CompanyForm } from '../components/CompanyForm.tsx';
import { DiagnosticsCard } from '../components/DiagnosticsCard.tsx';
import { ParkingBindings } from '../../parking/components/ParkingBindings.tsx';

/** /company/create and /company/update share this page and its form (spec §2). */
export default function CompanyFormPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const creating = useLocation().pathname === '/company/create';
  const user = useUserInfo().data;
  const noCompany = !user || user.company === 0;
  const info = useCompanyInfo(!creating && !noCompany);
  const right = useAdminRight(!creating && !noCompany);
  const create = useCreateCompany();
  const update = useUpdateCompany();
  // A created company's form stays busy until the dashboard replaces it: that page may still be loading, and a second
  // submit would create a second company.
  const busy = create.isPending || (creating && create.isSuccess) || update.isPending;

  // a form without the company's values would read as a blank company: the failure is shown instead
  if (!creating && info.error) return <ErrorState error={info.error} onRetry={info.refetch} retrying={info.isFetching} />;
  if (!creating && info.isPending) return <PageLoading />;

  return (
    <div>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {creating ? t('route.companyCreate') : t('route.companyUpdate')}
      </Typography.Title>
      {creating && noCompany && <Alert type="info" showIcon title={t('company.firstCompanyHint')} style={{ marginBottom: 16, maxWidth: 880 }} />}
      {!creating && right.data && right.data.role !== 'main' && (
        <Alert type="warning" showIcon title={t('company.mainOnly')} style={{ marginBottom: 16, maxWidth: 880 }} />
      )}
      <CompanyForm
        key={creating ? 'create' : 'update'}
        company={creating ? undefined : info.data}
        readOnly={!creating && right.data?.role !== 'main'}
        submitting={busy}
        onSubmit={(input) => {
          if (busy) return; // Enter in a field submits even while the button spins
          if (creating) {
            create.mutate(input, {
              onSuccess: () => {
                message.success(t('company.created'));
                void navigate('/dashboard', { replace: true });
              },
            });
          } else {
            update.mutate(input, { onSuccess: () => void message.success(t('common.saved')) });
          }
        }}
      />
      {!creating && right.data?.role === 'main' && info.data && <ParkingBindings companyId={info.data.id} />}
      {/* spec §6: internal testing shows pre-release diagnostics (user.debug is the company's option) */}
      {!creating && right.data?.role === 'main' && user?.debug === 1 && <DiagnosticsCard />}
    </div>
  );
}
