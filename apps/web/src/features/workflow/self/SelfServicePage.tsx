import { useEffect, useRef, useState } from 'react';
import { Alert, App, Badge, Button, Card, Drawer, Empty, Form, Input, List, Modal, Result, Segmented, Select, Space, Spin, Tag, Typography } from 'antd';
import { AuditOutlined, BellOutlined, FileDoneOutlined, FormOutlined, LeftOutlined, LogoutOutlined, TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authApi, selfApi, WORKFLOW_LIMITS, type ApplicationDetail, type ApplicationRow, type SelfApp } from '@faceadmin/shared';
import { setLanguage, useLanguage } from '../../../lib/i18n.ts';
import { LANGUAGE_LABEL, LANGUAGES } from '../../../lib/languages.ts';
import { call, ApiError } from '../../../lib/request.ts';
import { displayTimeZone, formatDateTime, setDisplayTimeZone } from '../../../ui/format.ts';
import { AppIcon } from '../components/AppIcon.tsx';
import { DepartmentPick, PersonPick, type PickSource } from '../components/Pickers.tsx';
import { FormRenderer } from '../components/FormRenderer.tsx';
import { StatusTag, TimelineView, ValuesView } from '../components/Timeline.tsx';
import { durationText, fromUiValues } from '../schema.ts';
import { selfCall, selfTokenStore, selfUpload, useSelfToken } from './selfClient.ts';
import { LeaveBalanceNote } from '../../leave/components/LeaveBalanceNote.tsx';
import { SelfLeaveBalances } from '../../leave/components/SelfLeaveBalances.tsx';
import { SelfVisitorsTab } from '../../visitors/self/SelfVisitorsTab.tsx';

/**
 * /self: the employees' self-service page (issue #11), mobile first. Sign in with the phone on one's record and an
 * SMS code, or with a one-time link (/self?link=…); then apply, follow one's applications, decide one's tasks and
 * read one's inbox. Only the person token (X-Person-Token) is sent from here.
 */
export default function SelfServicePage() {
  const token = useSelfToken();
  const { t } = useTranslation();
  useEffect(() => {
    document.title = t('workflow.self.title');
  }, [t]);
  return (
    <div style={{ minHeight: '100vh', background: '#f5f6f8' }}>
      <div style={{ maxWidth: 520, margin: '0 auto', minHeight: '100vh', background: '#f5f6f8' }} data-testid="self-page">
        {token ? <SignedIn /> : <SignIn />}
      </div>
    </div>
  );
}

function LanguagePicker() {
  const { t } = useTranslation();
  const lang = useLanguage();
  return (
    <Select
      size="small"
      value={lang}
      onChange={(l) => void setLanguage(l)}
      options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_LABEL[l] }))}
      aria-label={t('layout.language')}
      style={{ width: 110 }}
      data-testid="self-language"
    />
  );
}

function SignIn() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ phone: string; icode: string; code: string }>();
  const [linkError, setLinkError] = useState<string>();
  const [cooldown, setCooldown] = useState(0);
  const qc = useQueryClient();
  // a new session never sees what the previous one loaded
  const signedIn = (token: string) => {
    qc.removeQueries({ queryKey: ['self'] });
    selfTokenStore.set(token);
  };
  const captcha = useQuery({ queryKey: ['self-captcha'], queryFn: () => call(authApi.captcha, undefined, { silent: true }), staleTime: 0 });
  const linkTried = useRef(false);

  // a one-time link signs in by itself
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const link = params.get('link');
    if (!link || linkTried.current) return;
    linkTried.current = true;
    window.history.replaceState(null, '', '/self');
    selfCall(selfApi.linkLogin, { token: link }).then(
      (s) => signedIn(s.token),
      (e: unknown) => setLinkError(e instanceof Error ? e.message : String(e)),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);
  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = setTimeout(() => setCooldown((c) => c - 1), 1000);
    return () => clearTimeout(timer);
  }, [cooldown]);

  const send = useMutation({
    mutationFn: async () => {
      const v = await form.validateFields(['phone', 'icode']);
      return selfCall(selfApi.sendCode, { phone: v.phone.trim(), icode: v.icode.trim(), captcha_id: captcha.data?.captcha_id ?? '' });
    },
    onSuccess: (r) => {
      setCooldown(r.cooldown);
      message.success(t('workflow.self.codeSent'));
    },
    onError: (e) => {
      if (e instanceof ApiError) message.error(e.message);
      void captcha.refetch();
    },
  });
  const login = useMutation({
    mutationFn: async () => {
      const v = await form.validateFields();
      return selfCall(selfApi.login, { phone: v.phone.trim(), code: v.code.trim() });
    },
    onSuccess: (s) => signedIn(s.token),
    onError: (e) => e instanceof ApiError && message.error(e.message),
  });

  return (
    <div style={{ padding: 20 }}>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('workflow.self.title')}
        </Typography.Title>
        <LanguagePicker />
      </Space>
      {linkError && <Alert type="error" showIcon title={linkError} style={{ marginBottom: 12 }} data-testid="self-link-error" />}
      <Card title={t('workflow.self.signIn')}>
        <Form form={form} layout="vertical" data-testid="self-signin">
          <Form.Item name="phone" label={t('workflow.self.phone')} rules={[{ required: true, message: t('common.validation.mobile') }]}>
            <Input inputMode="tel" autoComplete="tel" data-testid="self-phone" />
          </Form.Item>
          <Form.Item label={t('workflow.self.captcha')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="icode" noStyle rules={[{ required: true }]}>
                <Input data-testid="self-icode" />
              </Form.Item>
              {captcha.data ? (
                <img
                  src={captcha.data.image}
                  alt={t('workflow.self.captcha')}
                  height={32}
                  style={{ cursor: 'pointer' }}
                  onClick={() => void captcha.refetch()}
                />
              ) : (
                <Spin />
              )}
            </Space.Compact>
          </Form.Item>
          <Form.Item label={t('workflow.self.code')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="code" noStyle rules={[{ required: true }]}>
                <Input inputMode="numeric" autoComplete="one-time-code" data-testid="self-code" />
              </Form.Item>
              <Button disabled={cooldown > 0} loading={send.isPending} onClick={() => send.mutate()} data-testid="self-send-code">
                {cooldown > 0 ? t('workflow.self.resend', { seconds: cooldown }) : t('workflow.self.sendCode')}
              </Button>
            </Space.Compact>
          </Form.Item>
          <Button type="primary" block size="large" loading={login.isPending} onClick={() => login.mutate()} data-testid="self-login">
            {t('workflow.self.signIn')}
          </Button>
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, fontSize: 12 }}>
          {t('workflow.self.linkHint')}
        </Typography.Paragraph>
      </Card>
    </div>
  );
}

type Tab = 'apply' | 'mine' | 'tasks' | 'inbox' | 'visitors';

/** People and departments a person may name in a form (searched by name or number only). */
const selfSource: PickSource = {
  scope: 'self',
  people: (q) => selfCall(selfApi.people, q),
  departments: () => selfCall(selfApi.departments),
};

function SignedIn() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const me = useQuery({ queryKey: ['self', 'info'], queryFn: () => selfCall(selfApi.info), refetchInterval: 15_000 });
  const [tab, setTab] = useState<Tab>('apply');
  const [detail, setDetail] = useState<number>();
  const logout = async () => {
    await selfCall(selfApi.logout).catch(() => undefined);
    selfTokenStore.set('');
  };
  if (me.isLoading) return <Spin size="large" style={{ display: 'block', margin: '120px auto' }} />;
  if (me.error || !me.data)
    return <Result status="warning" title={me.error?.message} extra={<Button onClick={() => selfTokenStore.set('')}>{t('workflow.self.signIn')}</Button>} />;
  const p = me.data;
  // Times are the company's (issue #17 item 7): a leave entered as 09:00–18:00 is 09:00–18:00 in the console, whatever
  // the phone's zone. Set before the tabs render, which show every time in it.
  if (displayTimeZone() !== p.time_zone) setDisplayTimeZone(p.time_zone);
  const opened = (id: number) => {
    setDetail(id);
    void qc.invalidateQueries({ queryKey: ['self', 'info'] });
  };
  return (
    <>
      <div style={{ background: '#1677ff', color: '#fff', padding: '14px 16px' }}>
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          <div>
            <div style={{ fontSize: 17, fontWeight: 600 }} data-testid="self-name">
              {p.name}
            </div>
            <div style={{ opacity: 0.85, fontSize: 12 }}>
              {p.company.name}
              {p.departments.length > 0 && ` · ${p.departments.map((d) => d.name).join(', ')}`}
            </div>
          </div>
          <Space>
            <LanguagePicker />
            <Button
              size="small"
              ghost
              icon={<LogoutOutlined />}
              onClick={() => void logout()}
              aria-label={t('workflow.self.signOut')}
              data-testid="self-logout"
            />
          </Space>
        </Space>
      </div>
      <div style={{ padding: '12px 12px 84px' }}>
        {tab === 'apply' && <ApplyTab zone={p.time_zone} onApplied={(id) => (setTab('mine'), opened(id))} />}
        {tab === 'mine' && <MineTab onOpen={opened} />}
        {tab === 'tasks' && <TasksTab onOpen={opened} />}
        {tab === 'inbox' && <InboxTab onOpen={opened} />}
        {tab === 'visitors' && <SelfVisitorsTab zone={p.time_zone} />}
      </div>
      <DetailDrawer id={detail} onClose={() => setDetail(undefined)} />
      {/* the phone's tab bar */}
      <nav
        style={{
          position: 'fixed',
          bottom: 0,
          left: 0,
          right: 0,
          background: '#fff',
          borderTop: '1px solid #f0f0f0',
          display: 'flex',
          justifyContent: 'center',
          paddingBottom: 'env(safe-area-inset-bottom)',
          zIndex: 10,
        }}
      >
        <div style={{ display: 'flex', width: '100%', maxWidth: 520 }}>
          {(
            [
              ['apply', <FormOutlined key="i" />, 0],
              ['mine', <FileDoneOutlined key="i" />, 0],
              ['tasks', <AuditOutlined key="i" />, p.pending_tasks],
              ['visitors', <TeamOutlined key="i" />, 0],
              ['inbox', <BellOutlined key="i" />, p.unread],
            ] as const
          ).map(([key, icon, count]) => (
            <button
              key={key}
              type="button"
              onClick={() => setTab(key)}
              data-testid={`self-tab-${key}`}
              aria-current={tab === key ? 'page' : undefined}
              style={{
                flex: 1,
                border: 0,
                background: 'none',
                padding: '8px 0 6px',
                cursor: 'pointer',
                color: tab === key ? '#1677ff' : '#595959',
                display: 'flex',
                flexDirection: 'column',
                alignItems: 'center',
                gap: 2,
              }}
            >
              <Badge count={count} size="small" offset={[4, 0]}>
                <span style={{ fontSize: 20, color: tab === key ? '#1677ff' : '#595959' }}>{icon}</span>
              </Badge>
              <span style={{ fontSize: 12 }}>{t(`workflow.self.tabs.${key}`)}</span>
            </button>
          ))}
        </div>
      </nav>
    </>
  );
}

function ApplyTab({ zone, onApplied }: { zone: string; onApplied: (id: number) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lang = useLanguage();
  const qc = useQueryClient();
  const apps = useQuery({ queryKey: ['self', 'apps'], queryFn: () => selfCall(selfApi.apps) });
  const [app, setApp] = useState<SelfApp>();
  const [form] = Form.useForm();
  const [error, setError] = useState<string>();
  const apply = useMutation({
    mutationFn: async () => {
      const raw = (await form.validateFields()) as Record<string, unknown>;
      return selfCall(selfApi.apply, { app_id: app!.id, values: fromUiValues(app!.form, raw, zone) });
    },
    onSuccess: (d) => {
      message.success(t('workflow.apply.submitted'));
      void qc.invalidateQueries({ queryKey: ['self'] });
      setApp(undefined);
      form.resetFields();
      onApplied(d.id);
    },
    onError: (e) => {
      if (!(e instanceof ApiError)) return; // the form marks its own fields
      const field = (e.data as { field?: string } | null)?.field;
      if (field && app?.form.fields.some((f) => f.key === field)) form.setFields([{ name: field, errors: [e.message] }]);
      else setError(e.message);
    },
  });

  if (apps.isLoading) return <Spin style={{ display: 'block', marginTop: 40 }} />;
  if (apps.error) return <Alert type="error" title={apps.error.message} />;
  if (app)
    return (
      <Card
        title={
          <Space>
            <Button type="text" icon={<LeftOutlined />} onClick={() => (setApp(undefined), setError(undefined))} aria-label={t('workflow.self.back')} />
            <AppIcon icon={app.icon} size={24} />
            {app.name}
          </Space>
        }
        data-testid="self-apply-form"
      >
        {app.description && <Typography.Paragraph type="secondary">{app.description}</Typography.Paragraph>}
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
        {app.kind === 'leave' && <SelfLeaveBalances />}
        <FormRenderer
          schema={app.form}
          lang={lang}
          form={form}
          durationOf={(from, to) => selfCall(selfApi.duration, { from, to })}
          zone={zone}
          uploadFile={selfUpload}
          personInput={() => <PersonPick source={selfSource} initial={[]} />}
          departmentInput={() => <DepartmentPick source={selfSource} multiple />}
        />
        <Button type="primary" block size="large" loading={apply.isPending} onClick={() => (setError(undefined), apply.mutate())} data-testid="self-submit">
          {t('workflow.apply.submit')}
        </Button>
      </Card>
    );
  const items = apps.data?.items ?? [];
  if (!items.length) return <Empty description={t('workflow.self.noApps')} />;
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 10 }} data-testid="self-apps">
      {items.map((a) => (
        <button
          key={a.id}
          type="button"
          onClick={() => setApp(a)}
          data-testid={`self-app-${a.id}`}
          style={{
            border: 0,
            background: '#fff',
            borderRadius: 10,
            padding: '14px 6px',
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            gap: 8,
            cursor: 'pointer',
          }}
        >
          <AppIcon icon={a.icon} size={40} />
          <span style={{ fontSize: 13 }}>{a.name}</span>
        </button>
      ))}
    </div>
  );
}

function RowCard({ row, onOpen, extra }: { row: ApplicationRow; onOpen: () => void; extra?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Card size="small" hoverable onClick={onOpen} style={{ marginBottom: 8 }} data-testid="self-row">
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <strong>{row.app.name}</strong>
        <StatusTag status={row.status} />
      </Space>
      <div style={{ fontSize: 13, color: '#595959' }}>
        {row.applicant.name}
        {row.period && ` · ${formatDateTime(row.period.from)} – ${formatDateTime(row.period.to)}`}
        {row.duration && ` · ${durationText(t, row.duration)}`}
      </div>
      <div style={{ fontSize: 12, color: '#595959' }}>
        {row.order_no} · {formatDateTime(row.created_at)}
        {row.current && ` · ${t('workflow.self.waitingFor', { names: row.current.approvers.map((a) => a.name).join(', ') })}`}
      </div>
      {extra}
    </Card>
  );
}

function MineTab({ onOpen }: { onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState('all');
  const list = useQuery({
    queryKey: ['self', 'mine', status],
    queryFn: () => selfCall(selfApi.applications, { page: 1, pageSize: 50, ...(status === 'all' ? {} : { status: Number(status) }) }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  return (
    <>
      <Segmented
        block
        value={status}
        onChange={setStatus}
        options={[
          { value: 'all', label: t('workflow.self.all') },
          { value: '0', label: t('workflow.status.0') },
          { value: '1', label: t('workflow.status.1') },
          { value: '-1', label: t('workflow.status.-1') },
        ]}
        style={{ marginBottom: 10 }}
      />
      {list.isLoading ? <Spin /> : list.data?.items.length ? list.data.items.map((r) => <RowCard key={r.id} row={r} onOpen={() => onOpen(r.id)} />) : <Empty />}
    </>
  );
}

function TasksTab({ onOpen }: { onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const [done, setDone] = useState(false);
  const list = useQuery({
    queryKey: ['self', 'tasks', done],
    queryFn: () => selfCall(selfApi.tasks, { page: 1, pageSize: 50, done: done ? 1 : 0 }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  return (
    <>
      <Segmented
        block
        value={done ? 'done' : 'open'}
        onChange={(v) => setDone(v === 'done')}
        options={[
          { value: 'open', label: t('workflow.self.tasksOpen') },
          { value: 'done', label: t('workflow.self.tasksDone') },
        ]}
        style={{ marginBottom: 10 }}
      />
      {list.isLoading ? (
        <Spin />
      ) : list.data?.items.length ? (
        list.data.items.map((r) => (
          <RowCard
            key={`${r.id}-${r.task.step_id}`}
            row={r}
            onOpen={() => onOpen(r.id)}
            extra={r.task.open ? <Tag color="gold">{t('workflow.self.yourTurn')}</Tag> : <Tag>{t(`workflow.steps.${r.task.state}`)}</Tag>}
          />
        ))
      ) : (
        <Empty description={t('workflow.self.noTasks')} />
      )}
    </>
  );
}

function InboxTab({ onOpen }: { onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['self', 'inbox'], queryFn: () => selfCall(selfApi.inbox, { page: 1, pageSize: 50 }), refetchInterval: 15_000 });
  const read = useMutation({
    mutationFn: (body: { ids?: number[]; all?: boolean }) => selfCall(selfApi.read, body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['self'] }),
  });
  return (
    <>
      <Button size="small" onClick={() => read.mutate({ all: true })} style={{ marginBottom: 8 }} data-testid="self-read-all">
        {t('workflow.self.readAll')}
      </Button>
      <List
        data-testid="self-inbox"
        dataSource={list.data?.items ?? []}
        loading={list.isLoading}
        locale={{ emptyText: <Empty description={t('workflow.self.noMessages')} /> }}
        renderItem={(m) => (
          <List.Item
            style={{ background: '#fff', padding: 12, borderRadius: 8, marginBottom: 6, cursor: m.application_id ? 'pointer' : undefined }}
            onClick={() => {
              if (!m.read) read.mutate({ ids: [m.id] });
              if (m.application_id) onOpen(m.application_id);
            }}
            data-testid="self-message"
          >
            <List.Item.Meta
              title={
                <Space>
                  {!m.read && <Badge status="processing" />}
                  <span>{m.title}</span>
                </Space>
              }
              description={
                <>
                  <div>{m.content}</div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {formatDateTime(m.created_at)}
                  </Typography.Text>
                </>
              }
            />
          </List.Item>
        )}
      />
    </>
  );
}

function DetailDrawer({ id, onClose }: { id: number | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const lang = useLanguage();
  const qc = useQueryClient();
  const detail = useQuery({ queryKey: ['self', 'detail', id], queryFn: () => selfCall(selfApi.application, { id: id! }), enabled: !!id });
  const [comment, setComment] = useState('');
  const [rejecting, setRejecting] = useState(false);
  const done = (d: ApplicationDetail) => {
    qc.setQueryData(['self', 'detail', id], d);
    void qc.invalidateQueries({ queryKey: ['self'] });
  };
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') => {
      const d = detail.data!;
      return selfCall(selfApi.decide, { id: d.id, step_id: d.current!.step_id, decision, comment: comment.trim() });
    },
    onSuccess: (d, decision) => {
      setComment('');
      setRejecting(false);
      message.success(t(decision === 'approve' ? 'workflow.records.approved' : 'workflow.records.rejected'));
      done(d);
    },
    onError: (e) => message.error(e.message),
  });
  const withdraw = useMutation({
    mutationFn: () => selfCall(selfApi.withdraw, { id: id! }),
    onSuccess: (d) => (message.success(t('workflow.self.withdrawn')), done(d)),
    onError: (e) => message.error(e.message),
  });
  const d = detail.data;
  return (
    <Drawer open={!!id} onClose={onClose} placement="right" size="100%" title={d ? d.app.name : ''} destroyOnHidden styles={{ body: { padding: 12 } }}>
      {detail.isLoading && <Spin />}
      {detail.error && <Alert type="error" title={detail.error.message} />}
      {d && (
        <div data-testid="self-detail">
          <Space style={{ marginBottom: 8 }}>
            <StatusTag status={d.status} />
            <Typography.Text type="secondary">
              {d.order_no} · {formatDateTime(d.created_at)}
            </Typography.Text>
          </Space>
          <div style={{ marginBottom: 8 }}>
            {d.applicant.name} {d.departments.length > 0 && `· ${d.departments.map((x) => x.name).join(', ')}`}
          </div>
          <ValuesView detail={d} lang={lang} />
          <LeaveBalanceNote balance={d.leave_balance} waiting={d.status === 0} />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('workflow.records.timeline')}
          </Typography.Title>
          <TimelineView detail={d} />
          {d.can_decide && d.current && (
            <Card size="small" title={t('workflow.self.decide')} data-testid="self-decide">
              <Input.TextArea
                rows={2}
                value={comment}
                maxLength={WORKFLOW_LIMITS.commentMax}
                onChange={(e) => setComment(e.target.value)}
                placeholder={t('workflow.records.commentPlaceholder')}
                data-testid="self-comment"
              />
              <Space style={{ marginTop: 8, width: '100%' }} direction="horizontal">
                <Button
                  type="primary"
                  size="large"
                  loading={decide.isPending && decide.variables === 'approve'}
                  onClick={() => decide.mutate('approve')}
                  data-testid="self-approve"
                >
                  {t('workflow.records.approve')}
                </Button>
                <Button danger size="large" onClick={() => setRejecting(true)} data-testid="self-reject">
                  {t('workflow.records.reject')}
                </Button>
              </Space>
            </Card>
          )}
          {d.can_withdraw && (
            <Button
              block
              style={{ marginTop: 12 }}
              loading={withdraw.isPending}
              onClick={() => modal.confirm({ title: t('workflow.records.withdrawConfirm'), onOk: () => withdraw.mutateAsync() })}
              data-testid="self-withdraw"
            >
              {t('workflow.records.withdraw')}
            </Button>
          )}
          <Modal
            open={rejecting}
            title={t('workflow.records.rejectTitle')}
            onCancel={() => setRejecting(false)}
            onOk={() => decide.mutate('reject')}
            okButtonProps={{ danger: true, disabled: !comment.trim(), loading: decide.isPending }}
          >
            <Typography.Paragraph type="secondary">{t('workflow.records.reasonRequired')}</Typography.Paragraph>
            <Input.TextArea
              rows={3}
              value={comment}
              maxLength={WORKFLOW_LIMITS.commentMax}
              onChange={(e) => setComment(e.target.value)}
              data-testid="self-reject-reason"
            />
          </Modal>
        </div>
      )}
    </Drawer>
  );
}
