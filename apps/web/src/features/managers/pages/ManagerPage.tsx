import { pagination, type PagedQuery } from '../../../ui/paging.ts';
import { useState } from 'react';
import { App, Button, Card, Popconfirm, Select, Space, Tag, type TableProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MANAGER_STATUSES, type Manager, type ManagerListQuery, type ManagerStatus } from '@faceadmin/shared';
import { useUserInfo } from '../../../lib/session.ts';
import { DataTable } from '../../../ui/DataTable.tsx';
import { KeywordSearch } from '../../../ui/KeywordSearch.tsx';
import { useDeleteManager, useManagers } from '../api.ts';
import { ManagerDialog } from '../components/ManagerDialog.tsx';

const STATUS_COLOR: Record<ManagerStatus, string> = { normal: 'blue', enabled: 'success', disabled: 'error' };

/** /system/manager: administrators of the current company (right `manager`). */
export default function ManagerPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const me = useUserInfo().data;
  const [query, setQuery] = useState<PagedQuery<ManagerListQuery>>({ page: 1, pageSize: 10 });
  const [dialog, setDialog] = useState<{ open: boolean; manager?: Manager | undefined }>({ open: false });
  const list = useManagers(query);
  const remove = useDeleteManager();

  const columns: TableProps<Manager>['columns'] = [
    {
      title: t('manager.fields.name'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <Space>
          {name}
          {row.is_init ? <Tag color="gold">{t('manager.initAdmin')}</Tag> : null}
        </Space>
      ),
    },
    { title: t('manager.fields.username'), dataIndex: 'username' },
    { title: t('manager.fields.mobile'), dataIndex: 'mobile' },
    {
      title: t('manager.fields.status'),
      dataIndex: 'status',
      render: (s: ManagerStatus) => <Tag color={STATUS_COLOR[s]}>{t(`manager.statuses.${s}`)}</Tag>,
    },
    { title: t('manager.fields.role'), dataIndex: 'role', render: (r: Manager['role']) => t(`manager.roles.${r}`) },
    {
      title: t('manager.fields.rights'),
      dataIndex: 'rights',
      render: (rights: Manager['rights'], row) =>
        row.role === 'main' ? (
          <Tag>{t('manager.rights.all')}</Tag>
        ) : (
          <Space size={[0, 4]} wrap>
            {rights.map((r) => (
              <Tag key={r}>{t(`manager.rights.${r}`)}</Tag>
            ))}
          </Space>
        ),
    },
    {
      title: t('common.actions.title'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space>
          <Button size="small" onClick={() => setDialog({ open: true, manager: row })}>
            {t('common.actions.edit')}
          </Button>
          <Popconfirm
            title={t('manager.deleteConfirm', { name: row.name })}
            okText={t('common.actions.ok')}
            cancelText={t('common.actions.cancel')}
            onConfirm={async () => {
              await remove.mutateAsync(row.id);
              message.success(t('common.deleted'));
            }}
            disabled={row.id === me?.id || Boolean(row.is_init)}
          >
            <Button size="small" danger disabled={row.id === me?.id || Boolean(row.is_init)}>
              {t('common.actions.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('route.manager')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true })} data-testid="manager-create">
          {t('manager.create')}
        </Button>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <KeywordSearch placeholder={t('manager.keyword')} width={240} onSearch={(keyword) => setQuery((q) => ({ ...q, page: 1, keyword }))} />
        <Select
          allowClear
          placeholder={t('manager.fields.status')}
          aria-label={t('manager.fields.status')}
          style={{ width: 140 }}
          options={MANAGER_STATUSES.map((s) => ({ value: s, label: t(`manager.statuses.${s}`) }))}
          onChange={(status?: ManagerStatus) => setQuery((q) => ({ ...q, page: 1, status }))}
        />
      </Space>
      <DataTable<Manager>
        rowKey="id"
        loading={list.isFetching}
        error={list.error}
        onRetry={list.refetch}
        data-testid="manager-table"
        dataSource={list.data?.items ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        pagination={pagination(query, setQuery, list.data?.total, t, [10, 20, 50, 100])}
      />
      <ManagerDialog open={dialog.open} manager={dialog.manager} onClose={() => setDialog({ open: false })} />
    </Card>
  );
}
