import { App, Button, Card, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ParkingBinding } from '@faceadmin/shared';
import { formatDateTime } from '../../../ui/format.ts';
import { useParkingBindings, useUnbindParking } from '../api.ts';

/** The company page's parking accounts (spec §2 /dzg): who is bound, the people push's state, unbinding (asks first). */
export function ParkingBindings({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const list = useParkingBindings(true);
  const unbind = useUnbindParking();
  const push = list.data?.push;
  return (
    <Card
      title={t('parking.bindings.title')}
      style={{ marginTop: 16, maxWidth: 880 }}
      data-testid="parking-bindings"
      extra={
        <Typography.Text type="secondary" data-testid="parking-company-id">
          {t('parking.bindings.companyId', { id: companyId })}
        </Typography.Text>
      }
    >
      <Table<ParkingBinding>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        pagination={false}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: t('parking.bindings.empty') }}
        columns={[
          { title: t('parking.fields.dzgId'), dataIndex: 'dzg_id', key: 'dzg_id' },
          { title: t('parking.fields.lotName'), dataIndex: 'lot_name', key: 'lot_name' },
          { title: t('parking.fields.boundBy'), dataIndex: 'bound_by', key: 'bound_by' },
          { title: t('parking.fields.boundAt'), dataIndex: 'created_at', key: 'created_at', render: (v: string) => formatDateTime(v) },
          {
            title: t('common.actions.title'),
            key: 'actions',
            render: (_, r) => (
              <Popconfirm
                title={t('parking.bindings.unbindConfirm', { id: r.dzg_id })}
                okButtonProps={{ danger: true }}
                onConfirm={() => unbind.mutateAsync(r.id).then(() => void message.success(t('parking.bindings.unbound')))}
              >
                <Button danger size="small" data-testid={`parking-unbind-${r.dzg_id}`}>
                  {t('parking.bindings.unbind')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      {push && (list.data?.total ?? 0) > 0 && (
        <Space style={{ marginTop: 12 }} wrap>
          <Typography.Text type="secondary">{t('parking.push.title')}</Typography.Text>
          {push.pending > 0 ? (
            <Tag color="processing">{t('parking.push.pending', { n: push.pending })}</Tag>
          ) : (
            <Tag color="success">{t('parking.push.upToDate')}</Tag>
          )}
          {push.last_pushed_at && <Typography.Text type="secondary">{t('parking.push.last', { time: formatDateTime(push.last_pushed_at) })}</Typography.Text>}
          {push.last_error && <Tag color="error">{t('parking.push.failing', { error: push.last_error, attempts: push.attempts })}</Tag>}
        </Space>
      )}
    </Card>
  );
}
