import { useState } from 'react';
import { App, Badge, Button, Card, Popconfirm, Space, Switch, Tag, Typography, type TableProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { WorkflowApp } from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';
import { DateTime } from '../../../ui/DateTime.tsx';
import { useApps, useCopyApp, useDeleteApp, useEnableApp } from '../api.ts';
import { AppDrawer } from '../components/AppDrawer.tsx';
import { AppIcon } from '../components/AppIcon.tsx';

/** /workflow/index: approval management (spec §2) — the company's approval apps, built-in ones marked. */
export default function WorkflowIndexPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const apps = useApps();
  const enable = useEnableApp();
  const copy = useCopyApp();
  const remove = useDeleteApp();
  const [editing, setEditing] = useState<{ app?: WorkflowApp } | null>(null);

  const scopeText = (a: WorkflowApp) =>
    a.scope === 'everyone'
      ? t('workflow.scope.everyone')
      : a.scope === 'departments'
        ? `${t('workflow.scope.departments')}: ${a.departments.map((d) => d.name).join(', ')}`
        : `${t('workflow.scope.people')}: ${a.persons.map((p) => p.name).join(', ')}`;

  const columns: TableProps<WorkflowApp>['columns'] = [
    {
      title: t('workflow.app.name'),
      key: 'name',
      render: (_, a) => (
        <Space>
          <AppIcon icon={a.icon} />
          <span data-testid="app-row-name">{a.name}</span>
          {a.builtin && <Tag color="blue">{t('workflow.app.builtin')}</Tag>}
        </Space>
      ),
    },
    { title: t('workflow.app.kind'), key: 'kind', render: (_, a) => t(`workflow.kinds.${a.kind}`) },
    { title: t('workflow.app.scope'), key: 'scope', ellipsis: true, render: (_, a) => scopeText(a) },
    { title: t('workflow.app.sort'), dataIndex: 'sort', key: 'sort' },
    {
      title: t('workflow.app.enabled'),
      key: 'enabled',
      render: (_, a) => (
        <Switch
          checked={a.enabled}
          loading={enable.isPending && enable.variables?.id === a.id}
          onChange={(enabled) => enable.mutate({ id: a.id, enabled })}
          checkedChildren={t('workflow.app.on')}
          unCheckedChildren={t('workflow.app.off')}
          data-testid="app-enabled"
        />
      ),
    },
    {
      title: t('workflow.app.versions'),
      key: 'versions',
      render: (_, a) => (
        <Typography.Text type="secondary">{t('workflow.app.versionText', { form: a.form_version, process: a.process_version })}</Typography.Text>
      ),
    },
    {
      title: t('workflow.app.pending'),
      key: 'pending',
      render: (_, a) => (a.pending ? <Badge count={a.pending} color="orange" /> : <Typography.Text type="secondary">0</Typography.Text>),
    },
    { title: t('workflow.app.updated'), key: 'updated', render: (_, a) => <DateTime value={a.updated_at} /> },
    {
      title: t('common.actions.title'),
      key: 'actions',
      fixed: 'right',
      width: 300,
      render: (_, a) => (
        <Space wrap size={4}>
          <Button size="small" type="link" onClick={() => setEditing({ app: a })} data-testid="app-edit">
            {t('common.actions.edit')}
          </Button>
          <Button size="small" type="link" onClick={() => void navigate(`/workflow/form/${a.id}`)} data-testid="app-form-design">
            {t('workflow.app.designForm')}
          </Button>
          <Button size="small" type="link" onClick={() => void navigate(`/workflow/flow/${a.id}`)} data-testid="app-flow-design">
            {t('workflow.app.designFlow')}
          </Button>
          <Button size="small" type="link" onClick={() => void navigate(`/workflow/approval/${a.id}`)} data-testid="app-records">
            {t('workflow.app.records')}
          </Button>
          <Button
            size="small"
            type="link"
            loading={copy.isPending && copy.variables?.id === a.id}
            onClick={() => copy.mutate({ id: a.id }, { onSuccess: () => void message.success(t('workflow.app.copied')) })}
            data-testid="app-copy"
          >
            {t('workflow.app.copy')}
          </Button>
          {!a.builtin && (
            <Popconfirm title={t('workflow.app.deleteConfirm', { name: a.name })} onConfirm={() => remove.mutate(a.id)}>
              <Button size="small" type="link" danger data-testid="app-delete">
                {t('common.actions.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('route.workflowIndex')}
      data-testid="workflow-index-page"
      extra={
        <Space>
          <Button onClick={() => void navigate('/workflow/approval/0')} data-testid="all-records">
            {t('workflow.app.allRecords')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})} data-testid="app-create">
            {t('workflow.app.create')}
          </Button>
        </Space>
      }
    >
      <DataTable<WorkflowApp>
        rowKey="id"
        loading={apps.isLoading}
        error={apps.error}
        onRetry={apps.refetch}
        retrying={apps.isFetching}
        dataSource={apps.data?.items ?? []}
        columns={columns}
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="app-table"
      />
      {editing && <AppDrawer open app={editing.app} onClose={() => setEditing(null)} />}
    </Card>
  );
}
