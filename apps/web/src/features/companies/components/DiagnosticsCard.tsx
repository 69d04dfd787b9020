import { Card, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Diagnostics } from '@faceadmin/shared';
import { formatDateTime } from '../../../ui/format.ts';
import { useDiagnostics } from '../api.ts';

type Job = Diagnostics['jobs'][number];

/** spec §6 internal testing: the server's scheduled jobs, for pre-release testing; shown only with the option on. */
export function DiagnosticsCard() {
  const { t } = useTranslation();
  const d = useDiagnostics(true);
  return (
    <Card
      title={t('company.diagnostics.title')}
      style={{ marginTop: 16, maxWidth: 880 }}
      data-testid="company-diagnostics"
      extra={
        d.data && <Typography.Text type="secondary">{t('company.diagnostics.server', { version: d.data.version, database: d.data.database })}</Typography.Text>
      }
    >
      <Table<Job>
        rowKey="name"
        size="small"
        loading={d.isLoading}
        pagination={false}
        dataSource={d.data?.jobs ?? []}
        columns={[
          { title: t('company.diagnostics.job'), dataIndex: 'name', key: 'name' },
          { title: t('company.diagnostics.runs'), dataIndex: 'runs', key: 'runs' },
          { title: t('company.diagnostics.failures'), dataIndex: 'failures', key: 'failures' },
          { title: t('company.diagnostics.last'), dataIndex: 'last_started_at', key: 'last', render: (v: string | null) => (v ? formatDateTime(v) : '') },
          {
            title: t('company.diagnostics.error'),
            dataIndex: 'last_error',
            key: 'error',
            render: (v: string | null, r) =>
              v ? <Tag color="error">{v}</Tag> : r.running ? <Tag color="processing">{t('company.diagnostics.running')}</Tag> : null,
          },
        ]}
      />
    </Card>
  );
}
