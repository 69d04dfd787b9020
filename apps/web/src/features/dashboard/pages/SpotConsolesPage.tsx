import { Button, ConfigProvider, Empty, Result, Select, Space, Spin } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useRightLevel } from '../../../lib/session.ts';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { useSites } from '../api.ts';
import { BigScreen } from '../components/BigScreen.tsx';
import { DARK_THEME } from '../../../ui/darkTheme.ts';

/**
 * /spotconsoles?site=<id>: the big screen of one site (its devices and breakers; attendance stays the company's).
 * Without a site, a picker of the company's sites (GET /dashboard/sites: the device map's sites).
 */
export default function SpotConsolesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const sites = useSites();
  const raw = params.get('site');
  const siteId = raw && /^\d+$/.test(raw) ? Number(raw) : undefined;
  const items = sites.data?.items ?? [];
  const site = items.find((s) => s.id === siteId);
  const choose = (id: number) => setParams({ site: String(id) });
  // the device map is read with face-device view or the breaker right (routeTable BREAKER_READ)
  const face = useRightLevel('face').canView;
  const breaker = useRightLevel('breaker').canView;
  const canMap = face || breaker;

  if (site) return <BigScreen siteId={site.id} siteName={site.name} />;
  const picker = (
    <Select
      style={{ minWidth: 260 }}
      placeholder={t('dashboard.big.chooseSite')}
      aria-label={t('dashboard.big.chooseSite')}
      options={items.map((s) => ({ value: s.id, label: s.name }))}
      onChange={choose}
      data-testid="spot-site"
    />
  );
  return (
    <ConfigProvider theme={DARK_THEME}>
      <div
        style={{ position: 'fixed', inset: 0, zIndex: 1000, background: '#061329', display: 'flex', alignItems: 'center', justifyContent: 'center' }}
        data-testid="spot-picker"
      >
        {sites.isPending ? (
          <Spin size="large" />
        ) : sites.error ? (
          <ErrorState error={sites.error} onRetry={sites.refetch} retrying={sites.isFetching} />
        ) : items.length === 0 ? (
          <Empty description={<span style={{ color: 'rgba(255,255,255,0.75)' }}>{t('dashboard.big.noSites')}</span>} data-testid="spot-no-sites">
            <Space>
              {canMap && (
                <Link to="/map">
                  <Button type="primary">{t('dashboard.big.toMap')}</Button>
                </Link>
              )}
              <Link to="/dashboard">
                <Button>{t('dashboard.big.exit')}</Button>
              </Link>
            </Space>
          </Empty>
        ) : (
          <Result
            status={siteId ? 'warning' : 'info'}
            title={<span style={{ color: 'rgba(255,255,255,0.9)' }}>{siteId ? t('dashboard.big.siteMissing') : t('dashboard.big.chooseSite')}</span>}
            extra={
              <Space>
                {picker}
                <Link to="/dashboard">
                  <Button>{t('dashboard.big.exit')}</Button>
                </Link>
              </Space>
            }
          />
        )}
      </div>
    </ConfigProvider>
  );
}
