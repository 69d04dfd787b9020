import { Empty, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePersonDevices } from '../../devices/api.ts';
import { LedgerStateTag, OnlineBadge } from '../../devices/components/DeviceStatus.tsx';
import type { PersonDevice } from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';

/** The person drawer's device list: on which devices this person is, and how far the sync got (GET /person/personSelectedDevice). */
export function PersonDevices({ personId }: { personId: number }) {
  const { t } = useTranslation();
  const devices = usePersonDevices(personId);
  if (!devices.isLoading && !devices.isError && !devices.data?.length)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('person.devices.none')} />;
  return (
    <DataTable<PersonDevice>
      rowKey="id"
      size="small"
      pagination={false}
      loading={devices.isLoading}
      error={devices.error}
      onRetry={devices.refetch}
      dataSource={devices.data ?? []}
      data-testid="person-devices"
      columns={[
        { title: t('device.fields.name'), dataIndex: 'name', key: 'name' },
        {
          title: t('device.fields.online'),
          key: 'online',
          render: (_, d) => <OnlineBadge device={d} />,
        },
        {
          title: t('device.ledger.state'),
          key: 'state',
          render: (_, d) => (
            <>
              <LedgerStateTag value={d.state} />
              {d.removing && <Tag color="orange">{t('device.ledger.removing')}</Tag>}
            </>
          ),
        },
        {
          title: t('device.ledger.reason'),
          key: 'reason',
          render: (_, d) => (d.reason ? <Typography.Text type="danger">{d.code !== null ? `${d.reason} (${d.code})` : d.reason}</Typography.Text> : ''),
        },
      ]}
    />
  );
}
