import { useState } from 'react';
import { App, Badge, Button, Card, Dropdown, Select, Space, Tag, Tooltip, Typography, type TableProps } from 'antd';
import { DeleteOutlined, EditOutlined, KeyOutlined, MoreOutlined, PlusOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Breaker, BreakerListQuery, BrokerAddress } from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { KeywordSearch } from '../../../ui/KeywordSearch.tsx';
import { pagination, type PagedQuery } from '../../../ui/paging.ts';
import { useBreakerRights, useBreakers, useDeleteBreaker, useResetPassword } from '../api.ts';
import { BreakerDialog } from '../components/BreakerDialog.tsx';
import { PasswordDialog } from '../components/PasswordDialog.tsx';
import { formatPower } from '../logic.ts';

/** /circuitBreaker/index: the company's smart circuit breakers (spec §2; issue #12). */
export default function BreakerListPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { canEdit } = useBreakerRights();
  const [query, setQuery] = useState<PagedQuery<BreakerListQuery>>({ page: 1, pageSize: 10 });
  const [dialog, setDialog] = useState<{ open: boolean; breaker?: Breaker | undefined }>({ open: false });
  const [password, setPassword] = useState<{ uuid: string; password: string; broker: BrokerAddress }>();
  const list = useBreakers(query);
  const remove = useDeleteBreaker();
  const reset = useResetPassword();
  const items = list.data?.items ?? [];

  const onMore = (b: Breaker, key: string) => {
    const name = b.alias || b.uuid;
    if (key === 'edit') setDialog({ open: true, breaker: b });
    else if (key === 'password')
      modal.confirm({
        title: t('breaker.password.resetConfirm', { name }),
        content: t('breaker.password.resetHint'),
        okText: t('common.actions.ok'),
        cancelText: t('common.actions.cancel'),
        onOk: async () => {
          try {
            const r = await reset.mutateAsync(b.id);
            setPassword({ uuid: b.uuid, password: r.password, broker: r.broker });
          } catch {
            // shown by the API client
          }
        },
      });
    else if (key === 'delete')
      modal.confirm({
        title: t('breaker.deleteConfirm', { name }),
        content: t('breaker.deleteHint'),
        okText: t('common.actions.delete'),
        okButtonProps: { danger: true },
        cancelText: t('common.actions.cancel'),
        onOk: async () => {
          try {
            await remove.mutateAsync(b.id);
            message.success(t('common.deleted'));
          } catch {
            // shown by the API client
          }
        },
      });
  };

  const columns: TableProps<Breaker>['columns'] = [
    {
      title: t('breaker.fields.alias'),
      key: 'alias',
      fixed: 'left',
      render: (_, b) => (
        <div className="fa-two-line">
          <Link to={`/circuitBreaker/${b.id}`} data-testid="breaker-open">
            {b.alias || b.uuid}
          </Link>
          <Typography.Text type="secondary" data-testid="breaker-uuid">
            {b.uuid}
          </Typography.Text>
        </div>
      ),
    },
    { title: t('breaker.fields.sort'), dataIndex: 'sort', key: 'sort' },
    { title: t('breaker.fields.linenum'), dataIndex: 'linenum', key: 'linenum' },
    {
      title: t('breaker.fields.online'),
      key: 'online',
      render: (_, b) => (
        <Space orientation="vertical" size={0}>
          <Badge
            status={b.online ? 'success' : 'default'}
            text={b.online ? t('breaker.online.on') : t('breaker.online.off')}
            data-testid="breaker-online"
            data-online={b.online ? '1' : '0'}
          />
          {!b.online && b.last_seen_at && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('breaker.lastSeen', { time: formatDateTime(b.last_seen_at) })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('breaker.fields.power'),
      key: 'power',
      render: (_, b) => <span data-testid="breaker-power">{b.online ? formatPower(b.power) : '—'}</span>,
    },
    {
      title: t('breaker.fields.alarms'),
      key: 'alarms',
      render: (_, b) =>
        b.alarms > 0 ? (
          <Tag color="red" data-testid="breaker-alarms">
            {t('breaker.activeAlarms', { count: b.alarms })}
          </Tag>
        ) : (
          <Typography.Text type="secondary">{t('breaker.noAlarms')}</Typography.Text>
        ),
    },
    {
      title: t('common.actions.title'),
      key: 'actions',
      fixed: 'right',
      render: (_, b) => (
        <Space size={4}>
          <Link to={`/circuitBreaker/${b.id}`}>
            <Button size="small" type="primary" icon={<ThunderboltOutlined />}>
              {t('breaker.actions.detail')}
            </Button>
          </Link>
          {canEdit && (
            <Dropdown
              trigger={['click']}
              placement="bottomRight"
              menu={{
                items: [
                  { key: 'edit', icon: <EditOutlined />, label: t('common.actions.edit') },
                  { key: 'password', icon: <KeyOutlined />, label: t('breaker.actions.resetPassword') },
                  { type: 'divider' },
                  { key: 'delete', icon: <DeleteOutlined />, danger: true, label: t('common.actions.delete') },
                ],
                onClick: ({ key }) => onMore(b, key),
              }}
            >
              <Tooltip title={t('breaker.actions.more')}>
                <Button size="small" icon={<MoreOutlined />} aria-label={t('breaker.actions.more')} data-testid="breaker-more" />
              </Tooltip>
            </Dropdown>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('route.circuitBreakerList')} data-testid="breaker-list-page">
      <Space wrap style={{ marginBottom: 12 }}>
        <KeywordSearch
          placeholder={t('breaker.keyword')}
          width={240}
          onSearch={(keyword) => setQuery((q) => ({ ...q, page: 1, keyword }))}
          data-testid="breaker-keyword"
        />
        <Select
          allowClear
          placeholder={t('breaker.fields.online')}
          style={{ width: 140 }}
          options={[
            { value: 1, label: t('breaker.online.on') },
            { value: 0, label: t('breaker.online.off') },
          ]}
          onChange={(online?: 0 | 1) => setQuery((q) => ({ ...q, page: 1, online }))}
          data-testid="breaker-online-filter"
        />
        {canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true })} data-testid="breaker-create">
            {t('breaker.create')}
          </Button>
        )}
      </Space>
      <DataTable<Breaker>
        rowKey="id"
        cardTitle="alias"
        loading={list.isLoading}
        error={list.error}
        onRetry={list.refetch}
        retrying={list.isFetching}
        dataSource={items}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="breaker-table"
        pagination={pagination(query, setQuery, list.data?.total, t)}
      />
      <BreakerDialog
        open={dialog.open}
        breaker={dialog.breaker}
        onClose={() => setDialog({ open: false })}
        onCreated={(b, pw, broker) => setPassword({ uuid: b.uuid, password: pw, broker })}
      />
      <PasswordDialog shown={password} onClose={() => setPassword(undefined)} />
    </Card>
  );
}
