import { useState } from 'react';
import { Badge, Card, Col, Row, Select, Space, Statistic } from 'antd';
import { AuditOutlined, MailOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { DeviceCounts, LogItem } from '@faceadmin/shared';
import { useRightLevel } from '../../../lib/session.ts';
import { useLiveOpen } from '../../../lib/live.ts';
import { logColumns } from '../../logs/columns.ts';
import { DataTable } from '../../../ui/DataTable.tsx';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import {
  useAlarms,
  useAttendanceToday,
  useDashboardRights,
  useDashboardSummary,
  useDeviceFigures,
  useFlow,
  useLiveFigures,
  useRecognitions,
  useSites,
  useTrend,
} from '../api.ts';
import { AlarmList, AttendanceDonut, FlowChart, RecognitionGrid, SLICE_TEXT, TrendChart, useSliceColors } from '../components/Blocks.tsx';
import { resultLink, SLICES } from '../logic.ts';

/**
 * /dashboard (spec §2, issue #16): today's attendance, its 30-day trend, devices and breakers, alarms, the day's
 * in/out flow and the latest recognitions, each block shown when the administrator has its right and each figure
 * opening the list behind it; the administrators, messages and operation log below. Live: figures refetch when
 * the stream says something moved (polling every 30 s while it is down), recognitions arrive as they happen.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const rights = useDashboardRights();
  const live = useLiveOpen();
  const sites = useSites();
  const [siteId, setSiteId] = useState<number>();
  useLiveFigures();
  const att = useAttendanceToday(siteId, rights.attendance);
  const trend = useTrend(siteId, rights.attendance);
  const devices = useDeviceFigures(siteId, rights.terminals || rights.breakers);
  const alarms = useAlarms(siteId, rights.attendance || rights.breakers);
  const flow = useFlow(siteId, rights.attendance);
  const rec = useRecognitions(siteId, rights.attendance, 12);
  const colors = useSliceColors();
  const siteItems = sites.data?.items ?? [];

  return (
    <div data-testid="dashboard">
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }} wrap>
        {siteItems.length > 0 ? (
          <Select
            allowClear
            style={{ minWidth: 200 }}
            placeholder={t('dashboard.allSites')}
            aria-label={t('dashboard.site')}
            value={siteId}
            onChange={(v?: number) => setSiteId(v)}
            options={siteItems.map((s) => ({ value: s.id, label: s.name }))}
            data-testid="dashboard-site"
          />
        ) : (
          <span />
        )}
        <Badge status={live ? 'processing' : 'default'} text={t(live ? 'dashboard.live.open' : 'dashboard.live.down')} data-testid="dashboard-live" />
      </Space>

      {rights.attendance && (
        <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
          <Col xs={24} lg={9}>
            <Card title={t('dashboard.blocks.attendance')} extra={att.data ? <Link to={resultLink(att.data.date)}>{t('dashboard.view')}</Link> : null}>
              {att.error && !att.data ? (
                <ErrorState compact error={att.error} onRetry={att.refetch} retrying={att.isFetching} />
              ) : (
                <>
                  <AttendanceDonut data={att.data} loading={att.isPending} />
                  <Row gutter={[8, 8]} style={{ marginTop: 8 }}>
                    {SLICES.map((s) => (
                      <Col span={8} key={s}>
                        <Link to={att.data ? resultLink(att.data.date, s) : '/attendance/result'} data-testid={`dashboard-att-${s}`}>
                          <Statistic
                            title={t(`dashboard.att.${s}`)}
                            value={att.data?.[s] ?? 0}
                            styles={{ content: { color: s === 'leave' ? colors.leave : SLICE_TEXT[s], fontSize: 20 }, title: { fontSize: 12 } }}
                          />
                        </Link>
                      </Col>
                    ))}
                  </Row>
                </>
              )}
            </Card>
          </Col>
          <Col xs={24} lg={15}>
            <Card title={t('dashboard.blocks.trend')} style={{ height: '100%' }}>
              {trend.error && !trend.data ? (
                <ErrorState compact error={trend.error} onRetry={trend.refetch} retrying={trend.isFetching} />
              ) : (
                <TrendChart items={trend.data?.items} loading={trend.isPending} height={380} />
              )}
            </Card>
          </Col>
        </Row>
      )}

      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        {(rights.terminals || rights.breakers) && (
          <Col xs={24} lg={10}>
            <Card title={t('dashboard.blocks.devices')} style={{ height: '100%' }}>
              {devices.error && !devices.data ? (
                <ErrorState compact error={devices.error} onRetry={devices.refetch} retrying={devices.isFetching} />
              ) : (
                <Space orientation="vertical" style={{ width: '100%' }} size={16}>
                  {devices.data?.terminals && (
                    <DeviceRow title={t('dashboard.dev.terminals')} to="/device/list" counts={devices.data.terminals} testId="terminals" />
                  )}
                  {devices.data?.breakers && (
                    <DeviceRow title={t('dashboard.dev.breakers')} to="/circuitBreaker/index" counts={devices.data.breakers} testId="breakers" />
                  )}
                </Space>
              )}
            </Card>
          </Col>
        )}
        {(rights.attendance || rights.breakers) && (
          <Col xs={24} lg={rights.terminals || rights.breakers ? 14 : 24}>
            <Card title={t('dashboard.blocks.alarms')} style={{ height: '100%' }}>
              {alarms.error && !alarms.data ? (
                <ErrorState compact error={alarms.error} onRetry={alarms.refetch} retrying={alarms.isFetching} />
              ) : (
                <>
                  <Row gutter={8} style={{ marginBottom: 8 }}>
                    {alarms.data?.breakers != null && (
                      <Col span={8}>
                        <Link to="/circuitBreaker/index">
                          <Statistic title={t('dashboard.alarm.openBreaker')} value={alarms.data.breakers} styles={{ title: { fontSize: 12 } }} />
                        </Link>
                      </Col>
                    )}
                    {alarms.data?.overLimit != null && (
                      <Col span={8}>
                        <Link to="/attendance/list">
                          <Statistic title={t('dashboard.alarm.overLimit')} value={alarms.data.overLimit} styles={{ title: { fontSize: 12 } }} />
                        </Link>
                      </Col>
                    )}
                    {alarms.data?.strangers != null && (
                      <Col span={8}>
                        <Link to="/stranger">
                          <Statistic title={t('dashboard.alarm.strangers')} value={alarms.data.strangers} styles={{ title: { fontSize: 12 } }} />
                        </Link>
                      </Col>
                    )}
                  </Row>
                  <AlarmList alarms={alarms.data?.items} />
                </>
              )}
            </Card>
          </Col>
        )}
      </Row>

      {rights.attendance && (
        <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
          {flow.data?.enabled && (
            <Col xs={24} lg={12}>
              <Card
                title={t('dashboard.blocks.flow')}
                extra={
                  <span data-testid="dashboard-inside">
                    {t('dashboard.flow.inside')}: <b>{flow.data.inside}</b>
                  </span>
                }
              >
                <FlowChart flow={flow.data} loading={flow.isPending} />
              </Card>
            </Col>
          )}
          <Col xs={24} lg={flow.data?.enabled ? 12 : 24}>
            <Card title={t('dashboard.blocks.recognitions')} extra={<Link to="/attendance/list">{t('dashboard.view')}</Link>} style={{ height: '100%' }}>
              {rec.error && !rec.data ? (
                <ErrorState compact error={rec.error} onRetry={rec.refetch} retrying={rec.isFetching} />
              ) : (
                <RecognitionGrid items={rec.items} photo={88} columns={12} />
              )}
            </Card>
          </Col>
        </Row>
      )}

      <AdminBlock />
    </div>
  );
}

function DeviceRow({ title, to, counts, testId }: { title: string; to: string; counts: DeviceCounts; testId: string }) {
  const { t } = useTranslation();
  return (
    <Link to={to} data-testid={`dashboard-${testId}`} style={{ display: 'block', color: 'inherit' }}>
      <div style={{ fontWeight: 500, marginBottom: 4 }}>
        {title} · {counts.total}
      </div>
      <Row gutter={8}>
        <Col span={8}>
          <Statistic title={t('dashboard.dev.online')} value={counts.online} styles={{ content: { color: SLICE_TEXT.present }, title: { fontSize: 12 } }} />
        </Col>
        <Col span={8}>
          <Statistic title={t('dashboard.dev.offline')} value={counts.offline} styles={{ content: { color: '#595959' }, title: { fontSize: 12 } }} />
        </Col>
        <Col span={8}>
          <Statistic
            title={t('dashboard.dev.abnormal')}
            value={counts.abnormal}
            styles={{ content: { color: counts.abnormal ? '#cf1322' : undefined }, title: { fontSize: 12 } }}
          />
        </Col>
      </Row>
    </Link>
  );
}

/** The administrators, messages and today's operations, and the latest operation-log entries (GET /dashboard/summary). */
function AdminBlock() {
  const { t } = useTranslation();
  const summary = useDashboardSummary();
  // The log page's rule in the route table: /system/log needs the log right.
  const canSeeLog = useRightLevel('log').canView;
  const d = summary.data;
  const cards = [
    { key: 'managers', icon: <TeamOutlined />, value: d?.managers },
    { key: 'subManagers', icon: <UserOutlined />, value: d?.subManagers },
    { key: 'unreadMessages', icon: <MailOutlined />, value: d?.unreadMessages },
    { key: 'operationsToday', icon: <AuditOutlined />, value: d?.operationsToday },
  ] as const;
  if (summary.error && !d) return <ErrorState error={summary.error} onRetry={summary.refetch} retrying={summary.isFetching} />;
  return (
    <>
      {summary.error && <ErrorState compact error={summary.error} onRetry={summary.refetch} retrying={summary.isFetching} />}
      <Row gutter={[16, 16]}>
        {cards.map((c) => (
          <Col xs={24} sm={12} lg={6} key={c.key}>
            <Card loading={summary.isPending}>
              <Statistic title={t(`dashboard.${c.key}`)} value={c.value ?? 0} prefix={c.icon} />
            </Card>
          </Col>
        ))}
      </Row>
      {/* the server sends log lines only to administrators with the log right */}
      {canSeeLog && (
        <Card title={t('dashboard.recentLogs')} style={{ marginTop: 16 }} extra={<Link to="/system/log">{t('dashboard.allLogs')}</Link>}>
          <DataTable<LogItem>
            rowKey="id"
            cardTitle="description"
            loading={summary.isPending}
            dataSource={d?.recentLogs ?? []}
            columns={logColumns(t, { ip: false })}
            pagination={false}
            scroll={{ x: 'max-content' }}
          />
        </Card>
      )}
    </>
  );
}
