import { useState } from 'react';
import { Button, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MANAGER_STATUSES, type Manager, type ManagerListQuery, type ManagerStatus } from '@faceadmin/shared';
import { useUserInfo } from '../../../lib/session.ts';
import { ListPage, useListQuery, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { deleteAction } from '../../../ui/listParts.tsx';
import { useDeleteManager, useManagers } from '../api.ts';
import { ManagerDialog } from '../components/ManagerDialog.tsx';

const STATUS_COLOR: Record<ManagerStatus, string> = { normal: 'blue', enabled: 'success', disabled: 'error' };

type Filters = Omit<ManagerListQuery, 'page' | 'pageSize'>;

/** /system/manager: administrators of the current company (right `manager`). */
export default function ManagerPage() {
  const { t } = useTranslation();
  const me = useUserInfo().data;
  const state = useListQuery<Filters>({});
  const [dialog, setDialog] = useState<{ open: boolean; manager?: Manager | undefined }>({ open: false });
  const list = useManagers(state.query);
  const remove = useDeleteManager();

  const columns: ListColumn<Manager>[] = [
    {
      title: t('manager.fields.name'),
      dataIndex: 'name',
      key: 'name',
      render: (name: string, row) => (
        <Space>
          {name}
          {row.is_init ? <Tag color="gold">{t('manager.initAdmin')}</Tag> : null}
        </Space>
      ),
    },
    { title: t('manager.fields.username'), dataIndex: 'username', key: 'username' },
    { title: t('manager.fields.mobile'), dataIndex: 'mobile', key: 'mobile' },
    {
      title: t('manager.fields.status'),
      dataIndex: 'status',
      key: 'status',
      render: (s: ManagerStatus) => <Tag color={STATUS_COLOR[s]}>{t(`manager.statuses.${s}`)}</Tag>,
    },
    { title: t('manager.fields.role'), dataIndex: 'role', key: 'role', render: (r: Manager['role']) => t(`manager.roles.${r}`) },
    {
      title: t('manager.fields.rights'),
      dataIndex: 'rights',
      key: 'rights',
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
  ];

  const actions: ListAction<Manager>[] = [
    { key: 'edit', label: t('common.actions.edit'), run: (row) => setDialog({ open: true, manager: row }) },
    // nobody deletes themselves, nor the company's first administrator
    deleteAction<Manager>(t, {
      disabled: (row) => row.id === me?.id || Boolean(row.is_init),
      confirm: (row) => ({ title: t('manager.deleteConfirm', { name: row.name }) }),
      remove: (id) => remove.mutateAsync(id),
    }),
  ];

  return (
    <ListPage<Manager, Filters>
      title={t('route.manager')}
      testId="manager-page"
      tableTestId="manager-table"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true })} data-testid="manager-create">
          {t('manager.create')}
        </Button>
      }
      columns={columns}
      actions={actions}
      state={state}
      list={list}
      filters={[
        { kind: 'keyword', param: 'keyword', placeholder: t('manager.keyword'), width: 240, testId: 'manager-keyword' },
        {
          kind: 'select',
          param: 'status',
          placeholder: t('manager.fields.status'),
          width: 140,
          options: MANAGER_STATUSES.map((s) => ({ value: s, label: t(`manager.statuses.${s}`) })),
          testId: 'manager-status-filter',
        },
      ]}
    >
      <ManagerDialog open={dialog.open} manager={dialog.manager} onClose={() => setDialog({ open: false })} />
    </ListPage>
  );
}
