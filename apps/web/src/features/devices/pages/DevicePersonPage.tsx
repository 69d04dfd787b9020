import { useState } from 'react';
import { App, Avatar, Button, Descriptions, Image, Space, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, ReloadOutlined, UserOutlined } from '@ant-design/icons';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BackTitle } from '../../../ui/BackTitle.tsx';
import { ListPage, useListQuery, type ListColumn } from '../../../ui/ListPage.tsx';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { useDevice, useDeviceRights, useLedger, useRemoveDevicePersons, useRetryDevicePersons } from '../api.ts';
import { AddPersonsDialog } from '../components/AddPersonsDialog.tsx';
import { LedgerStateTag, OnlineBadge, SyncSummaryText, UserCount } from '../components/DeviceStatus.tsx';
import { needsRefresh } from '../logic.ts';
import { type LedgerItem, type LedgerQuery, type LedgerState } from '@faceadmin/shared';
import { DeviceNotFound, deviceUnknown } from '../components/DeviceNotFound.tsx';

const STATES: LedgerState[] = ['pending', 'synced', 'failed'];

/** /device/personManage/:id — the device's sync ledger: who should be on it and how far each person got. */
export default function DevicePersonPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const id = Number(useParams().id);
  const { canEdit } = useDeviceRights();
  const state = useListQuery<Omit<LedgerQuery, 'id' | 'page' | 'pageSize'>>({}, 20);
  const [selected, setSelected] = useState<number[]>([]);
  const [adding, setAdding] = useState(false);

  const device = useDevice(id, 5000);
  // spec: the ledger refreshes every 5 s while anything is still on its way to the device
  const ledger = useLedger({ id, ...state.query }, device.data?.sync);
  const items = ledger.data?.items ?? [];
  const autoRefresh = needsRefresh(items, device.data?.sync);

  const remove = useRemoveDevicePersons();
  const retry = useRetryDevicePersons();

  // An unknown id is one message, the page's own (its two queries do not toast: `inline`); any other failure
  // can be retried.
  if (deviceUnknown(id, device.error)) return <DeviceNotFound />;
  if (device.error) {
    const retryAll = () => Promise.all([device.refetch(), ledger.refetch()]);
    return <ErrorState error={device.error} onRetry={retryAll} retrying={device.isFetching} />;
  }

  const run = async (fn: () => Promise<string>) => {
    try {
      message.success(await fn());
      setSelected([]);
    } catch {
      // shown by the API client
    }
  };

  /** Sends again the chosen people, or (none given) everyone who failed. */
  const retryAgain = (person_ids?: number[]) =>
    run(async () => t('device.persons.retried', { count: (await retry.mutateAsync(person_ids ? { id, person_ids } : { id })).count }));

  const removeSelected = () =>
    modal.confirm({
      title: t('device.persons.removeConfirm', { count: selected.length }),
      content: t('device.persons.removeHint'),
      okText: t('common.actions.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.actions.cancel'),
      onOk: () => run(async () => t('device.persons.removed', { count: (await remove.mutateAsync({ id, person_ids: selected })).count })),
    });

  const columns: ListColumn<LedgerItem>[] = [
    {
      title: t('device.ledger.photo'),
      key: 'photo',
      width: 64,
      render: (_, r) =>
        r.pic_url ? (
          <Image src={r.pic_url} width={36} height={48} style={{ objectFit: 'cover', borderRadius: 4 }} alt={r.name} />
        ) : (
          <Avatar shape="square" size={36} icon={<UserOutlined />} />
        ),
    },
    { title: t('device.ledger.number'), dataIndex: 'number', key: 'number' },
    { title: t('device.ledger.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('device.ledger.state'),
      key: 'state',
      render: (_, r) => (
        <Space size={4}>
          <LedgerStateTag value={r.state} />
          {r.removing && (
            <Tag color="orange" data-testid="ledger-removing">
              {t('device.ledger.removing')}
            </Tag>
          )}
        </Space>
      ),
    },
    {
      title: t('device.ledger.reason'),
      key: 'reason',
      render: (_, r) => (r.reason ? <Typography.Text type="danger">{r.code !== null ? `${r.reason} (${r.code})` : r.reason}</Typography.Text> : ''),
    },
    { title: t('device.ledger.attempts'), dataIndex: 'attempts', key: 'attempts' },
    { title: t('device.ledger.lastAttempt'), dataIndex: 'last_attempt_at', key: 'last_attempt_at', render: (v: string | null) => formatDateTime(v) },
  ];

  const d = device.data;
  return (
    <ListPage<LedgerItem, Omit<LedgerQuery, 'id' | 'page' | 'pageSize'>>
      title={
        <BackTitle to="/device/list" back={t('device.back')}>
          {t('route.devicePersons')}
        </BackTitle>
      }
      testId="device-person-page"
      tableTestId="ledger-table"
      rowKey="person_id"
      cardTitle="name"
      columns={columns}
      state={state}
      list={ledger}
      pageSizeOptions={[20, 50, 100]}
      header={
        d && (
          <Descriptions size="small" column={{ xs: 1, md: 4 }} style={{ marginBottom: 16 }} data-testid="device-header">
            <Descriptions.Item label={t('device.fields.name')}>
              <strong>{d.name}</strong>&nbsp;
              <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
                {d.serial}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('device.fields.online')}>
              <OnlineBadge device={d} />
            </Descriptions.Item>
            <Descriptions.Item label={t('device.fields.sync')}>
              <SyncSummaryText sync={d.sync} />
            </Descriptions.Item>
            <Descriptions.Item label={t('device.fields.users')}>
              <UserCount device={d} />
            </Descriptions.Item>
          </Descriptions>
        )
      }
      filters={[
        { kind: 'keyword', param: 'keyword', placeholder: t('device.ledger.keyword'), testId: 'ledger-keyword' },
        {
          kind: 'select',
          param: 'state',
          placeholder: t('device.ledger.state'),
          width: 150,
          options: STATES.map((s) => ({ value: s, label: t(`device.ledger.states.${s}`) })),
          testId: 'ledger-state-filter',
        },
      ]}
      toolbar={
        <>
          {canEdit && (
            <>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="ledger-add">
                {t('device.persons.addButton')}
              </Button>
              <Button
                danger
                icon={<DeleteOutlined />}
                disabled={!selected.length}
                loading={remove.isPending}
                onClick={removeSelected}
                data-testid="ledger-remove"
              >
                {t('device.persons.remove')}
              </Button>
              <Button
                icon={<ReloadOutlined />}
                disabled={!selected.length}
                loading={retry.isPending}
                onClick={() => void retryAgain(selected)}
                data-testid="ledger-retry"
              >
                {t('device.persons.retry')}
              </Button>
              <Button icon={<ReloadOutlined />} disabled={!d?.sync.failed} onClick={() => void retryAgain()} data-testid="ledger-retry-failed">
                {t('device.persons.retryFailed')}
              </Button>
            </>
          )}
          {selected.length > 0 && <Typography.Text type="secondary">{t('person.selectedCount', { count: selected.length })}</Typography.Text>}
          {autoRefresh && <Typography.Text type="secondary">{t('device.ledger.autoRefresh')}</Typography.Text>}
        </>
      }
      table={
        canEdit ? { rowSelection: { selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys as number[]) } } : undefined
      }
    >
      <AddPersonsDialog deviceId={id} open={adding} onClose={() => setAdding(false)} />
    </ListPage>
  );
}
