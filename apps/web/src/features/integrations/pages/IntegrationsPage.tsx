import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Checkbox, DatePicker, Drawer, Form, Input, Modal, Space, Tabs, Tag, Typography, type TableProps } from 'antd';
import { EditOutlined, KeyOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  API_SCOPES,
  LIMITS,
  WEBHOOK_EVENTS,
  INTEGRATION_LIMITS,
  type ApiKeyItem,
  type ApiScope,
  type DeliveryItem,
  type DeliveryStatus,
  type WebhookEvent,
  type WebhookItem,
} from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';
import { DateTime } from '../../../ui/DateTime.tsx';
import { ListPage, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { deleteAction } from '../../../ui/listParts.tsx';
import { SaveModal } from '../../../ui/SaveModal.tsx';
import { ruleSet } from '../../../ui/rules.ts';
import { pagination, type PagedQuery } from '../../../ui/paging.ts';
import {
  useApiKeys,
  useCreateKey,
  useCreateWebhook,
  useDeleteWebhook,
  useDeliveries,
  useRedeliver,
  useResumeWebhook,
  useRevokeKey,
  useRotateSecret,
  useTestWebhook,
  useUpdateWebhook,
  useWebhooks,
} from '../api.ts';

/** A secret the server shows once (a new API key, a webhook's signing secret): copy it now. */
function ShownOnce({ value, onClose, title }: { value: string | null; onClose: () => void; title: string }) {
  const { t } = useTranslation();
  return (
    <Modal
      title={title}
      open={value !== null}
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      okText={t('integrations.copied')}
    >
      <Alert type="warning" showIcon message={t('integrations.shownOnce')} style={{ marginBottom: 12 }} />
      <Typography.Paragraph copyable={{ text: value ?? '' }} code data-testid="integration-secret" style={{ wordBreak: 'break-all' }}>
        {value}
      </Typography.Paragraph>
    </Modal>
  );
}

function KeysTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const rules = ruleSet(t);
  const list = useApiKeys();
  const create = useCreateKey();
  const revoke = useRevokeKey();
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<string | null>(null);
  const [form] = Form.useForm<{ name: string; scopes: ApiScope[]; expires_on?: Dayjs | null }>();
  const today = new Date().toISOString().slice(0, 10);

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  const submit = async () => {
    const v = await form.validateFields();
    const r = await create.mutateAsync({ name: v.name.trim(), scopes: v.scopes, expires_on: v.expires_on ? v.expires_on.format('YYYY-MM-DD') : null });
    setOpen(false);
    setShown(r.key);
  };

  // expired once its instant has passed (the end of its date in the company's zone when it was made, #28)
  const stateOf = (k: ApiKeyItem) => (k.revoked_at ? 'revoked' : k.expires_at && Date.parse(k.expires_at) <= Date.now() ? 'expired' : 'active');
  const columns: ListColumn<ApiKeyItem>[] = [
    { title: t('integrations.fields.name'), dataIndex: 'name', key: 'name' },
    { title: t('integrations.fields.prefix'), dataIndex: 'prefix', key: 'prefix', render: (p: string) => <Typography.Text code>{p}…</Typography.Text> },
    {
      title: t('integrations.fields.scopes'),
      dataIndex: 'scopes',
      key: 'scopes',
      render: (scopes: ApiScope[]) => (
        <Space size={[0, 4]} wrap>
          {scopes.map((s) => (
            <Tag key={s}>{t(`integrations.scopes.${s.replace(':', '_')}`)}</Tag>
          ))}
        </Space>
      ),
    },
    { title: t('integrations.fields.created'), dataIndex: 'created_at', key: 'created_at', render: (v: string) => <DateTime value={v} /> },
    { title: t('integrations.fields.expires'), dataIndex: 'expires_on', key: 'expires_on', render: (v: string | null) => v ?? t('integrations.never') },
    {
      title: t('integrations.fields.lastUsed'),
      dataIndex: 'last_used_at',
      key: 'last_used_at',
      render: (v: string | null) => (v ? <DateTime value={v} /> : '—'),
    },
    {
      title: t('integrations.fields.status'),
      key: 'status',
      render: (_, k) => {
        const s = stateOf(k);
        return <Tag color={s === 'active' ? 'success' : 'default'}>{t(`integrations.keyStates.${s}`)}</Tag>;
      },
    },
  ];
  const actions: ListAction<ApiKeyItem>[] = [
    {
      key: 'revoke',
      label: t('integrations.revoke'),
      danger: true,
      disabled: (k) => Boolean(k.revoked_at),
      confirm: (k) => ({ title: t('integrations.revokeConfirm', { name: k.name }) }),
      run: async (k) => {
        await revoke.mutateAsync(k.id);
        message.success(t('integrations.revoked'));
      },
      testId: (k) => `key-revoke-${k.id}`,
    },
  ];

  return (
    <ListPage<ApiKeyItem, object>
      bare
      testId="key-list"
      tableTestId="key-table"
      columns={columns}
      actions={actions}
      list={list}
      paged={false}
      toolbar={
        <>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="key-create">
            {t('integrations.newKey')}
          </Button>
          <Typography.Text type="secondary">{t('integrations.keyHint', { max: INTEGRATION_LIMITS.keyPerMinute })}</Typography.Text>
        </>
      }
    >
      <SaveModal
        title={t('integrations.newKey')}
        open={open}
        onClose={() => setOpen(false)}
        onSave={() => void submit().catch(() => undefined)}
        saving={create.isPending}
        testId="key-save"
      >
        <Form form={form} layout="vertical" initialValues={{ scopes: [] }}>
          <Form.Item name="name" label={t('integrations.fields.name')} rules={[rules.required, { max: LIMITS.textMax }]}>
            <Input maxLength={LIMITS.textMax} data-testid="key-name" />
          </Form.Item>
          <Form.Item
            name="scopes"
            label={t('integrations.fields.scopes')}
            rules={[{ required: true, type: 'array', min: 1, message: t('integrations.pickScope') }]}
          >
            <Checkbox.Group options={API_SCOPES.map((s) => ({ value: s, label: t(`integrations.scopes.${s.replace(':', '_')}`) }))} data-testid="key-scopes" />
          </Form.Item>
          <Form.Item name="expires_on" label={t('integrations.fields.expires')} extra={t('integrations.expiresHint')}>
            <DatePicker disabledDate={(d) => d.format('YYYY-MM-DD') < today} data-testid="key-expires" />
          </Form.Item>
        </Form>
      </SaveModal>
      <ShownOnce title={t('integrations.keyCreated')} value={shown} onClose={() => setShown(null)} />
    </ListPage>
  );
}

const DELIVERY_COLOR: Record<DeliveryStatus, string> = { pending: 'processing', succeeded: 'success', failed: 'error' };

function DeliveriesDrawer({ endpoint, onClose }: { endpoint: WebhookItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  // the parent keys this drawer by endpoint, so another endpoint starts on page 1
  const [query, setQuery] = useState<PagedQuery<object>>({ page: 1, pageSize: 20 });
  const list = useDeliveries({ ...query, endpoint_id: endpoint?.id ?? 1 }, Boolean(endpoint));
  const redeliver = useRedeliver();
  const columns: TableProps<DeliveryItem>['columns'] = [
    { title: t('integrations.fields.created'), dataIndex: 'created_at', render: (v: string) => <DateTime value={v} /> },
    { title: t('integrations.fields.event'), dataIndex: 'type', render: (v: string) => <Tag>{v}</Tag> },
    {
      title: t('integrations.fields.status'),
      dataIndex: 'status',
      render: (s: DeliveryStatus) => <Tag color={DELIVERY_COLOR[s]}>{t(`integrations.deliveryStates.${s}`)}</Tag>,
    },
    { title: t('integrations.fields.attempts'), dataIndex: 'attempts' },
    { title: t('integrations.fields.code'), dataIndex: 'response_code', render: (v: number | null) => v ?? '—' },
    { title: t('integrations.fields.duration'), dataIndex: 'duration_ms', render: (v: number | null) => (v === null ? '—' : t('integrations.ms', { ms: v })) },
    { title: t('integrations.fields.nextAttempt'), dataIndex: 'next_attempt_at', render: (v: string | null) => (v ? <DateTime value={v} /> : '—') },
    {
      title: t('common.actions.title'),
      key: 'actions',
      render: (_, d) => (
        <Button
          size="small"
          data-testid={`delivery-redeliver-${d.id}`}
          onClick={async () => {
            await redeliver.mutateAsync(d.id);
            message.success(t('integrations.redelivered'));
          }}
        >
          {t('integrations.redeliver')}
        </Button>
      ),
    },
  ];
  return (
    <Drawer
      title={endpoint ? t('integrations.deliveriesOf', { name: endpoint.name }) : ''}
      open={Boolean(endpoint)}
      onClose={onClose}
      size="large"
      extra={<Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} aria-label={t('integrations.refresh')} />}
    >
      <DataTable<DeliveryItem>
        rowKey="id"
        loading={list.isFetching && !list.data}
        error={list.error}
        onRetry={list.refetch}
        data-testid="delivery-table"
        dataSource={list.data?.items ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        expandable={{
          expandedRowRender: (d) => (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Typography.Text type="secondary">{t('integrations.fields.response')}</Typography.Text>
              <Typography.Paragraph code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                {d.response_body || '—'}
              </Typography.Paragraph>
              <Typography.Text type="secondary">{t('integrations.fields.payload')}</Typography.Text>
              <Typography.Paragraph code copyable style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                {d.payload}
              </Typography.Paragraph>
            </Space>
          ),
        }}
        pagination={pagination(query, setQuery, list.data?.total, t, [20, 50, 100])}
      />
    </Drawer>
  );
}

function WebhooksTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const rules = ruleSet(t);
  const list = useWebhooks();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateSecret();
  const resume = useResumeWebhook();
  const test = useTestWebhook();
  const [dialog, setDialog] = useState<{ open: boolean; endpoint?: WebhookItem }>({ open: false });
  const [drawer, setDrawer] = useState<WebhookItem | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [form] = Form.useForm<{ name: string; url: string; events: WebhookEvent[] }>();

  useEffect(() => {
    if (!dialog.open) return;
    form.resetFields();
    if (dialog.endpoint) form.setFieldsValue({ name: dialog.endpoint.name, url: dialog.endpoint.url, events: dialog.endpoint.events });
  }, [dialog, form]);

  const submit = async () => {
    const v = await form.validateFields();
    const body = { name: v.name.trim(), url: v.url.trim(), events: v.events };
    if (dialog.endpoint) await update.mutateAsync({ id: dialog.endpoint.id, ...body });
    else setShown((await create.mutateAsync(body)).secret);
    setDialog({ open: false });
  };

  const columns: ListColumn<WebhookItem>[] = [
    { title: t('integrations.fields.name'), dataIndex: 'name', key: 'name' },
    { title: t('integrations.fields.url'), dataIndex: 'url', key: 'url', render: (u: string) => <Typography.Text code>{u}</Typography.Text> },
    {
      title: t('integrations.fields.events'),
      dataIndex: 'events',
      key: 'events',
      render: (events: WebhookEvent[]) => (
        <Space size={[0, 4]} wrap>
          {events.map((e) => (
            <Tag key={e}>{t(`integrations.events.${e.replace('.', '_')}`)}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('integrations.fields.status'),
      key: 'status',
      render: (_, w) =>
        w.status === 'paused' ? (
          <Tag color="error" data-testid={`webhook-status-${w.id}`}>
            {t('integrations.webhookStates.paused')}
          </Tag>
        ) : w.failing_since ? (
          <Tag color="warning" data-testid={`webhook-status-${w.id}`}>
            {t('integrations.failingSince')} <DateTime value={w.failing_since} />
          </Tag>
        ) : (
          <Tag color="success" data-testid={`webhook-status-${w.id}`}>
            {t('integrations.webhookStates.active')}
          </Tag>
        ),
    },
  ];
  const actions: ListAction<WebhookItem>[] = [
    { key: 'deliveries', label: t('integrations.deliveries'), run: (w) => setDrawer(w), testId: (w) => `webhook-deliveries-${w.id}` },
    {
      key: 'test',
      label: t('integrations.sendTest'),
      run: async (w) => {
        await test.mutateAsync(w.id);
        message.success(t('integrations.testQueued'));
      },
      testId: (w) => `webhook-test-${w.id}`,
    },
    {
      key: 'resume',
      label: t('integrations.resume'),
      look: 'primary',
      hidden: (w) => w.status !== 'paused',
      run: async (w) => {
        await resume.mutateAsync(w.id);
        message.success(t('integrations.resumed'));
      },
      testId: (w) => `webhook-resume-${w.id}`,
    },
    { key: 'edit', label: t('common.actions.edit'), icon: <EditOutlined />, inMenu: true, run: (w) => setDialog({ open: true, endpoint: w }) },
    {
      key: 'secret',
      label: t('integrations.newSecret'),
      icon: <KeyOutlined />,
      inMenu: true,
      confirm: (w) => ({ title: t('integrations.rotateConfirm', { name: w.name }) }),
      run: async (w) => setShown((await rotate.mutateAsync(w.id)).secret),
    },
    deleteAction<WebhookItem>(t, {
      inMenu: true,
      confirm: (w) => ({ title: t('integrations.deleteConfirm', { name: w.name }) }),
      remove: (id) => remove.mutateAsync(id),
    }),
  ];

  return (
    <ListPage<WebhookItem, object>
      bare
      testId="webhook-list"
      tableTestId="webhook-table"
      columns={columns}
      actions={actions}
      more={{ label: t('integrations.more'), testId: 'webhook-more' }}
      list={list}
      paged={false}
      toolbar={
        <>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true })} data-testid="webhook-create">
            {t('integrations.newWebhook')}
          </Button>
          <Typography.Text type="secondary">{t('integrations.webhookHint')}</Typography.Text>
        </>
      }
    >
      <SaveModal
        title={dialog.endpoint ? t('integrations.editWebhook') : t('integrations.newWebhook')}
        open={dialog.open}
        onClose={() => setDialog({ open: false })}
        onSave={() => void submit().catch(() => undefined)}
        saving={create.isPending || update.isPending}
        testId="webhook-save"
      >
        <Form form={form} layout="vertical" initialValues={{ events: [] }}>
          <Form.Item name="name" label={t('integrations.fields.name')} rules={[rules.required, { max: LIMITS.textMax }]}>
            <Input maxLength={LIMITS.textMax} data-testid="webhook-name" />
          </Form.Item>
          <Form.Item
            name="url"
            label={t('integrations.fields.url')}
            rules={[rules.required, { type: 'url', message: t('common.validation.url') }, { max: INTEGRATION_LIMITS.urlMax }]}
          >
            <Input placeholder="https://example.com/faceadmin/webhook" maxLength={INTEGRATION_LIMITS.urlMax} data-testid="webhook-url" />
          </Form.Item>
          <Form.Item
            name="events"
            label={t('integrations.fields.events')}
            rules={[{ required: true, type: 'array', min: 1, message: t('integrations.pickEvent') }]}
          >
            <Checkbox.Group
              options={WEBHOOK_EVENTS.map((e) => ({ value: e, label: t(`integrations.events.${e.replace('.', '_')}`) }))}
              data-testid="webhook-events"
            />
          </Form.Item>
        </Form>
      </SaveModal>
      <DeliveriesDrawer key={drawer?.id ?? 0} endpoint={drawer} onClose={() => setDrawer(null)} />
      <ShownOnce title={t('integrations.secretTitle')} value={shown} onClose={() => setShown(null)} />
    </ListPage>
  );
}

/** /system/integrations (issue #19): API keys and webhooks; main administrators, with the company option thirdParty on. */
export default function IntegrationsPage() {
  const { t } = useTranslation();
  return (
    <Card title={t('route.integrations')} data-testid="integrations-page">
      <Tabs
        items={[
          { key: 'keys', label: t('integrations.tabs.keys'), children: <KeysTab /> },
          { key: 'webhooks', label: t('integrations.tabs.webhooks'), children: <WebhooksTab /> },
        ]}
      />
    </Card>
  );
}
