import { Card, Col, Row, Statistic } from 'antd';
import { AuditOutlined, MailOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { LogItem } from '@faceadmin/shared';
import { useAccessibleRoutes } from '../../../app/session.ts';
import { findRoute } from '../../../app/routes/routeTable.ts';
import { logColumns } from '../../logs/columns.ts';
import { DataTable } from '../../../ui/DataTable.tsx';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { useDashboardSummary } from '../api.ts';

/** /dashboard: the figures of GET /dashboard/summary and the latest operation-log entries. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const summary = useDashboardSummary();
  const routes = useAccessibleRoutes() ?? [];
  const canSeeLog = Boolean(findRoute(routes, '/system/log'));
  const d = summary.data;

  const cards = [
    { key: 'managers', icon: <TeamOutlined />, value: d?.managers },
    { key: 'subManagers', icon: <UserOutlined />, value: d?.subManagers },
    { key: 'unreadMessages', icon: <MailOutlined />, value: d?.unreadMessages },
    { key: 'operationsToday', icon: <AuditOutlined />, value: d?.operationsToday },
  ] as const;

  if (summary.error && !d) {
    return (
      <div data-testid="dashboard">
        <ErrorState error={summary.error} onRetry={summary.refetch} retrying={summary.isFetching} />
      </div>
    );
  }

  return (
    <div data-testid="dashboard">
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
      <Card title={t('dashboard.recentLogs')} style={{ marginTop: 16 }} extra={canSeeLog ? <Link to="/system/log">{t('dashboard.allLogs')}</Link> : null}>
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
    </div>
  );
}
