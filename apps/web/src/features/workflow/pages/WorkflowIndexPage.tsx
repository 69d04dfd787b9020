import { useState } from 'react';
import { App, Badge, Button, Space, Switch, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { WorkflowApp } from '@faceadmin/shared';
import { ListPage, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { deleteAction } from '../../../ui/listParts.tsx';
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

  const columns: ListColumn<WorkflowApp>[] = [
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
  ];

  const actions: ListAction<WorkflowApp>[] = [
    { key: 'edit', label: t('common.actions.edit'), run: (a) => setEditing({ app: a }), testId: 'app-edit' },
    { key: 'form', label: t('workflow.app.designForm'), to: (a) => `/workflow/form/${a.id}`, testId: 'app-form-design' },
    { key: 'flow', label: t('workflow.app.designFlow'), to: (a) => `/workflow/flow/${a.id}`, testId: 'app-flow-design' },
    { key: 'records', label: t('workflow.app.records'), to: (a) => `/workflow/approval/${a.id}`, testId: 'app-records' },
    {
      key: 'copy',
      label: t('workflow.app.copy'),
      loading: (a) => copy.isPending && copy.variables?.id === a.id,
      run: (a) => copy.mutateAsync({ id: a.id }).then(() => void message.success(t('workflow.app.copied'))),
      testId: 'app-copy',
    },
    // a built-in app is switched off, never deleted
    deleteAction<WorkflowApp>(t, {
      hidden: (a) => a.builtin,
      confirm: (a) => ({ title: t('workflow.app.deleteConfirm', { name: a.name }) }),
      remove: (id) => remove.mutateAsync(id),
      testId: 'app-delete',
    }),
  ];

  return (
    <ListPage<WorkflowApp, object>
      title={t('route.workflowIndex')}
      testId="workflow-index-page"
      tableTestId="app-table"
      cardTitle="name"
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
      columns={columns}
      actions={actions}
      list={apps}
      paged={false}
    >
      {editing && <AppDrawer open app={editing.app} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
