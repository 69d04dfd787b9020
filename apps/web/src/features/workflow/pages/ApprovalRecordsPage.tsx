import { useState } from 'react';
import { Button, Select, Space, Typography } from 'antd';
import { LinkOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { APPROVAL_STATUSES, type ApplicationQuery, type ApplicationRow } from '@faceadmin/shared';
import { DateTime } from '../../../ui/DateTime.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { ListPage, useListQuery, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { durationText } from '../schema.ts';
import { DepartmentPick } from '../components/Pickers.tsx';
import { consoleSource, useApplications, useApps, useExportApplications } from '../api.ts';
import { ApplicationDrawer } from '../components/ApplicationDrawer.tsx';
import { ApplyForDialog, ImportApprovalsDialog, LinkDialog } from '../components/RecordDialogs.tsx';
import { StatusTag } from '../components/Timeline.tsx';

type Filters = Omit<ApplicationQuery, 'page' | 'pageSize'>;

/** /workflow/approval/{id}: an app's application records (0 = every app), with the detail, decisions, export and import. */
export default function ApprovalRecordsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const appId = Number(useParams().id) || undefined;
  const apps = useApps();
  const state = useListQuery<Filters>({}, 20);
  const query = state.query;
  const list = useApplications({ ...query, app_id: appId });
  const exportList = useExportApplications();
  const [open, setOpen] = useState<number>();
  const [dialog, setDialog] = useState<'apply' | 'link' | 'import'>();

  const columns: ListColumn<ApplicationRow>[] = [
    { title: t('workflow.records.orderNo'), dataIndex: 'order_no', key: 'order_no' },
    { title: t('workflow.records.app'), key: 'app', render: (_, r) => r.app.name },
    {
      title: t('workflow.records.applicant'),
      key: 'applicant',
      render: (_, r) => (
        <span data-testid="record-applicant">
          {r.applicant.name} <Typography.Text type="secondary">({r.applicant.number})</Typography.Text>
        </span>
      ),
    },
    { title: t('workflow.records.department'), key: 'departments', render: (_, r) => r.departments.map((d) => d.name).join(', ') },
    {
      title: t('workflow.records.period'),
      key: 'period',
      render: (_, r) =>
        r.period ? (
          <span>
            {formatDateTime(r.period.from)} – {formatDateTime(r.period.to)}
            {r.duration && <Typography.Text type="secondary"> ({durationText(t, r.duration)})</Typography.Text>}
          </span>
        ) : (
          ''
        ),
    },
    { title: t('workflow.records.status'), key: 'status', render: (_, r) => <StatusTag status={r.status} /> },
    {
      title: t('workflow.records.current'),
      key: 'current',
      render: (_, r) => (r.current ? `${r.current.node_name}: ${r.current.approvers.map((a) => a.name).join(', ')}` : ''),
    },
    { title: t('workflow.records.created'), key: 'created', render: (_, r) => <DateTime value={r.created_at} /> },
  ];
  const actions: ListAction<ApplicationRow>[] = [{ key: 'open', label: t('common.details'), run: (r) => setOpen(r.id), testId: 'record-open' }];

  return (
    <ListPage<ApplicationRow, Filters>
      title={t('route.workflowApproval')}
      testId="approval-records-page"
      tableTestId="records-table"
      extra={
        <Space wrap>
          <Button icon={<PlusOutlined />} onClick={() => setDialog('apply')} data-testid="apply-for">
            {t('workflow.apply.title')}
          </Button>
          <Button icon={<LinkOutlined />} onClick={() => setDialog('link')} data-testid="send-link">
            {t('workflow.link.title')}
          </Button>
          <Button icon={<UploadOutlined />} onClick={() => setDialog('import')} data-testid="import-open">
            {t('workflow.import.title')}
          </Button>
        </Space>
      }
      columns={columns}
      actions={actions}
      state={state}
      list={list}
      pageSizeOptions={[20, 50, 100]}
      table={{ onRow: (r) => ({ onDoubleClick: () => setOpen(r.id) }) }}
      filters={[
        {
          // the app is the page's address (/workflow/approval/{id}), not a parameter
          kind: 'custom',
          testId: 'records-app',
          render: () => (
            <Select
              style={{ width: 180 }}
              value={appId ?? 0}
              aria-label={t('workflow.records.app')}
              onChange={(id: number) => void navigate(`/workflow/approval/${id}`)}
              options={[{ value: 0, label: t('workflow.records.allApps') }, ...(apps.data?.items ?? []).map((a) => ({ value: a.id, label: a.name }))]}
              data-testid="records-app"
            />
          ),
        },
        {
          kind: 'select',
          param: 'status',
          placeholder: t('workflow.records.status'),
          options: APPROVAL_STATUSES.map((s) => ({ value: s, label: t(`workflow.status.${s}`) })),
          testId: 'records-status',
        },
        { kind: 'keyword', param: 'keyword', placeholder: t('workflow.records.keyword'), width: 220, testId: 'records-keyword' },
        {
          kind: 'custom',
          testId: 'records-department',
          render: (set) => (
            <DepartmentPick
              source={consoleSource}
              allowClear
              style={{ width: 180 }}
              placeholder={t('workflow.records.department')}
              onChange={(department_id?: number) => set({ department_id })}
              data-testid="records-department"
            />
          ),
        },
        { kind: 'dayRange', from: 'from', to: 'to', testId: 'records-range' },
      ]}
      exporter={{
        pending: exportList.isPending,
        bytes: exportList.bytes,
        run: () =>
          exportList.mutate({
            app_id: appId,
            status: query.status,
            keyword: query.keyword,
            department_id: query.department_id,
            from: query.from,
            to: query.to,
          }),
        testId: 'records-export',
      }}
    >
      <ApplicationDrawer id={open} onClose={() => setOpen(undefined)} />
      {dialog === 'apply' && <ApplyForDialog open apps={apps.data?.items ?? []} appId={appId} onClose={() => setDialog(undefined)} />}
      <LinkDialog open={dialog === 'link'} onClose={() => setDialog(undefined)} />
      <ImportApprovalsDialog open={dialog === 'import'} onClose={() => setDialog(undefined)} />
    </ListPage>
  );
}
