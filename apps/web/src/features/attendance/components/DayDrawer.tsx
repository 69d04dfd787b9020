import { useEffect, useState } from 'react';
import {
  Alert,
  App,
  Button,
  DatePicker,
  Descriptions,
  Divider,
  Drawer,
  Empty,
  Form,
  Input,
  List,
  Popconfirm,
  Select,
  Space,
  Spin,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ABSENCE_KINDS, LEAVE_OTHER, type DayDetail } from '@faceadmin/shared';
import { i18next } from '../../../lib/i18n.ts';
import { displayTimeZone, formatDateTime } from '../../../ui/format.ts';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { ruleSet } from '../../../ui/rules.ts';
import { useAbsences, useCreateAbsence, useDay, useDeleteAbsence, useLeaveTypes, useRefreshDayList, useSetManual } from '../api.ts';
import { crossesMidnight, hm, whyText, zonedIso } from '../logic.ts';
import { LeaveTime } from './LeaveFigures.tsx';
import { StatusTag } from './StatusTag.tsx';

type Kind = (typeof ABSENCE_KINDS)[number];
interface AbsenceValues {
  kind: Kind;
  range?: [Dayjs, Dayjs];
  at?: Dayjs;
  reason: string;
  /** a leave's type (the company's leave types; none: "other") */
  leave_type?: string;
}

/** How long the drawer watches a person-day after a recorded change (the recompute job runs every second). */
const POLL_MS = 1000;
const POLL_FOR_MS = 10_000;

/** One person-day explained: shifts, punches used and ignored, the arithmetic; record or remove an absence. */
export function DayDrawer({ day, onClose }: { day: { person_id: number; date: string } | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const [polling, setPolling] = useState(false);
  const detail = useDay(day, polling ? POLL_MS : false);
  const d = detail.data;

  // a recomputed day changes the day view's row too
  const refreshDays = useRefreshDayList();
  const computedAt = d?.computed_at;
  useEffect(() => {
    if (computedAt) void refreshDays();
  }, [computedAt, refreshDays]);

  useEffect(() => {
    if (!polling) return;
    const timer = setTimeout(() => setPolling(false), POLL_FOR_MS);
    return () => clearTimeout(timer);
  }, [polling]);

  const has = (key: string) => i18next.exists(key);
  const why = (line: DayDetail['why'][number]) => whyText(line, t, has);

  return (
    <Drawer
      title={d ? `${d.name} (${d.number}) · ${d.date}` : t('att.day.title')}
      open={Boolean(day)}
      onClose={onClose}
      size={760}
      destroyOnHidden
      data-testid="day-drawer"
    >
      {detail.error && !d ? (
        <ErrorState error={detail.error} onRetry={() => void detail.refetch()} retrying={detail.isFetching} />
      ) : !d ? (
        <Spin />
      ) : (
        <>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('att.day.fields.status')}>
              <Space>
                <StatusTag row={d} />
                {d.manual && <Tag>{t('att.day.manual')}</Tag>}
                {d.temperature_alarm && (
                  <Tag color="red" data-testid="day-temperature-alarm">
                    {t('att.day.temperatureAlarm')}
                  </Tag>
                )}
                {d.closed && (
                  <Tag color="blue" data-testid="day-closed">
                    {t('att.day.closed', { from: d.closed.from, to: d.closed.to })}
                  </Tag>
                )}
                {polling && <Spin size="small" />}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('att.day.fields.rule')}>{d.rule ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('att.day.fields.worked')}>{hm(d.worked_min)}</Descriptions.Item>
            <Descriptions.Item label={t('att.day.fields.overtime')}>{hm(d.overtime_min)}</Descriptions.Item>
            {(d.leave_min > 0 || d.out_min > 0 || d.absent_min > 0) && (
              <>
                <Descriptions.Item label={t('att.day.fields.leave')}>
                  <LeaveTime minutes={d.leave_min} kinds={d.leave_kinds} />
                </Descriptions.Item>
                <Descriptions.Item label={t('att.day.fields.out')}>{hm(d.out_min, true)}</Descriptions.Item>
                <Descriptions.Item label={t('att.day.fields.absent')}>
                  <span data-testid="day-absent-min">{hm(d.absent_min, true)}</span>
                </Descriptions.Item>
              </>
            )}
            {d.manual && d.manual_reason && (
              <Descriptions.Item label={t('att.day.fields.manualReason')} span={2}>
                {d.manual_reason}
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('att.day.fields.computedAt')} span={2}>
              {formatDateTime(d.computed_at)}
            </Descriptions.Item>
          </Descriptions>
          <ManualResult day={d} onChanged={() => setPolling(true)} />

          <Divider titlePlacement="start">{t('att.day.why')}</Divider>
          <ol data-testid="day-why" style={{ paddingInlineStart: 20 }}>
            {d.why.map((w, i) => (
              <li key={i} data-key={w.key} style={w.key === 'att.why.shift' || w.key === 'att.why.rule' ? { fontWeight: 600 } : undefined}>
                {why(w)}
              </li>
            ))}
          </ol>

          {d.shifts.length > 0 && (
            <>
              <Divider titlePlacement="start">{t('att.day.shifts')}</Divider>
              <Table
                size="small"
                rowKey={(s) => `${s.shift_id}-${s.start}`}
                pagination={false}
                scroll={{ x: 'max-content' }}
                dataSource={d.shifts}
                data-testid="day-shifts"
                columns={[
                  {
                    title: t('att.rule.fields.shiftName'),
                    key: 'name',
                    render: (_, s) => (
                      <Space orientation="vertical" size={0}>
                        {s.name}
                        <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
                          {`${s.start}–${s.end}${crossesMidnight(s.start, s.end) ? ` (${t('att.rule.nextDay')})` : ''}`}
                        </Typography.Text>
                      </Space>
                    ),
                  },
                  { title: t('att.day.fields.checkIn'), dataIndex: 'check_in', key: 'in', render: (v: string | null) => formatDateTime(v) || '—' },
                  { title: t('att.day.fields.checkOut'), dataIndex: 'check_out', key: 'out', render: (v: string | null) => formatDateTime(v) || '—' },
                  { title: t('att.day.fields.status'), key: 'status', render: (_, s) => <StatusTag row={s} /> },
                  { title: t('att.day.fields.worked'), dataIndex: 'worked_min', key: 'worked', render: (v: number) => hm(v) },
                  { title: t('att.day.fields.overtime'), dataIndex: 'overtime_min', key: 'ot', render: (v: number) => hm(v, true) },
                ]}
              />
            </>
          )}

          <Divider titlePlacement="start">{t('att.day.punches')}</Divider>
          {d.punches.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('att.day.noPunches')} />
          ) : (
            <Table
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={d.punches}
              data-testid="day-punches"
              columns={[
                { title: t('att.day.fields.time'), dataIndex: 'time', key: 'time', render: (v: string) => formatDateTime(v) },
                { title: t('att.day.fields.device'), dataIndex: 'device', key: 'device' },
                {
                  title: t('att.day.fields.use'),
                  key: 'use',
                  render: (_, p) =>
                    p.used ? (
                      <Tag color="green" data-testid="punch-used">
                        {t('att.day.used')}
                      </Tag>
                    ) : (
                      <Space orientation="vertical" size={0} data-testid="punch-ignored">
                        <Tag>{p.ignored ? t(`att.ignored.${p.ignored}`, { defaultValue: p.ignored }) : t('att.day.ignored')}</Tag>
                        {p.detail && <Typography.Text type="secondary">{why(p.detail)}</Typography.Text>}
                      </Space>
                    ),
                },
              ]}
            />
          )}

          <Absences detail={d} onChanged={() => setPolling(true)} />
        </>
      )}
    </Drawer>
  );
}

/** Leave, out-of-office and supplementary punches recorded by hand (until approvals write them), for this day. */
function Absences({ detail, onChanged }: { detail: DayDetail; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const absences = useAbsences(detail.person_id, detail.date);
  const create = useCreateAbsence();
  const remove = useDeleteAbsence();
  const leaveTypes = useLeaveTypes();
  const typeLabel = (v: string | null) => leaveTypes.data?.items.find((x) => x.value === v)?.label ?? v;
  const [form] = Form.useForm<AbsenceValues>();
  const kind = Form.useWatch('kind', form) ?? 'leave';
  const { required } = ruleSet(t);

  // The form proposes the day's first shift start to its last shift end (the next day for a night shift).
  const first = detail.shifts[0];
  const last = detail.shifts[detail.shifts.length - 1];
  const start = first?.start || '09:00';
  const end = last?.end || '18:00';
  const from = dayjs(`${detail.date}T${start}`);
  const to = dayjs(`${detail.date}T${end}`).add(crossesMidnight(start, end) ? 1 : 0, 'day');

  const submit = async () => {
    let v: AbsenceValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const zone = displayTimeZone();
    // the pickers hold wall-clock times; they mean that time in the company's zone
    const iso = (x: Dayjs) => zonedIso(x.format('YYYY-MM-DD'), x.format('HH:mm'), zone);
    const at = v.kind === 'supplement' ? v.at! : v.range![0];
    await create.mutateAsync({
      person_id: detail.person_id,
      kind: v.kind,
      from: iso(at),
      to: iso(v.kind === 'supplement' ? at : v.range![1]),
      reason: v.reason.trim(),
      ...(v.kind === 'leave' && v.leave_type ? { leave_type: v.leave_type } : {}),
    });
    message.success(t('att.absence.recorded'));
    form.setFieldValue('reason', '');
    onChanged();
  };

  return (
    <>
      <Divider titlePlacement="start">{t('att.absence.title')}</Divider>
      <List
        size="small"
        loading={absences.isLoading}
        dataSource={absences.data?.items ?? []}
        locale={{ emptyText: t('att.absence.none') }}
        data-testid="day-absences"
        renderItem={(a) => (
          <List.Item
            actions={[
              <Popconfirm
                key="delete"
                title={t('att.absence.deleteConfirm')}
                okText={t('common.actions.ok')}
                cancelText={t('common.actions.cancel')}
                onConfirm={async () => {
                  await remove.mutateAsync(a.id);
                  message.success(t('common.deleted'));
                  onChanged();
                }}
              >
                <Button size="small" danger data-testid="absence-delete">
                  {t('common.actions.delete')}
                </Button>
              </Popconfirm>,
            ]}
          >
            <Space wrap>
              <Tag color={a.kind === 'leave' ? 'orange' : a.kind === 'out' ? 'blue' : a.kind === 'overtime' ? 'purple' : 'green'}>
                {t(`att.absence.kinds.${a.kind}`)}
              </Tag>
              {a.leave_type && <Tag data-testid="absence-leave-type">{typeLabel(a.leave_type)}</Tag>}
              <span>{a.kind === 'supplement' ? formatDateTime(a.from) : `${formatDateTime(a.from)} – ${formatDateTime(a.to)}`}</span>
              <Typography.Text type="secondary">{a.reason}</Typography.Text>
            </Space>
          </List.Item>
        )}
      />
      <Alert type="info" showIcon style={{ margin: '8px 0' }} title={t('att.absence.help', { zone: displayTimeZone() })} />
      <Form
        form={form}
        layout="vertical"
        initialValues={{ kind: 'leave', range: [from, to], at: from, reason: '' }}
        data-testid="absence-form"
        autoComplete="off"
      >
        <Space wrap align="start">
          <Form.Item name="kind" label={t('att.absence.fields.kind')}>
            <Select style={{ width: 180 }} options={ABSENCE_KINDS.map((k) => ({ value: k, label: t(`att.absence.kinds.${k}`) }))} data-testid="absence-kind" />
          </Form.Item>
          {kind === 'leave' && (
            <Form.Item name="leave_type" label={t('att.absence.fields.leaveType')}>
              <Select
                allowClear
                style={{ width: 180 }}
                options={(leaveTypes.data?.items ?? []).filter((x) => x.value !== LEAVE_OTHER).map((x) => ({ value: x.value, label: x.label }))}
                data-testid="absence-leave-type-select"
              />
            </Form.Item>
          )}
          {kind === 'supplement' ? (
            <Form.Item name="at" label={t('att.absence.fields.at')} rules={[required]}>
              <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" data-testid="absence-at" />
            </Form.Item>
          ) : (
            <Form.Item name="range" label={t('att.absence.fields.range')} rules={[required]}>
              <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" data-testid="absence-range" />
            </Form.Item>
          )}
        </Space>
        <Form.Item name="reason" label={t('att.absence.fields.reason')} rules={[required, { max: 200 }]}>
          <Input maxLength={200} data-testid="absence-reason" />
        </Form.Item>
        <Button type="primary" loading={create.isPending} onClick={() => void submit().catch(() => undefined)} data-testid="absence-save">
          {t('att.absence.record')}
        </Button>
      </Form>
    </>
  );
}

const MANUAL_STATUSES = ['normal', 'late', 'early', 'absent', 'halfDay', 'leave', 'out', 'holiday', 'rest'] as const;

/** An administrator's result for the day, with a reason (in the operation log); it stands until removed. */
function ManualResult({ day, onChanged }: { day: DayDetail; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const setManual = useSetManual();
  const [form] = Form.useForm<{ status: (typeof MANUAL_STATUSES)[number]; reason: string }>();
  const save = async (status: (typeof MANUAL_STATUSES)[number] | null, reason: string) => {
    try {
      await setManual.mutateAsync({ person_id: day.person_id, date: day.date, status, reason });
      message.success(t(status ? 'att.manual.saved' : 'att.manual.removed'));
      form.resetFields();
      onChanged();
    } catch {
      // shown by the API client
    }
  };
  return (
    <Form
      form={form}
      name="manual"
      layout="inline"
      style={{ marginTop: 12, rowGap: 8 }}
      onFinish={(v) => void save(v.status, v.reason)}
      data-testid="day-manual"
    >
      <Form.Item name="status" rules={[{ required: true, message: t('common.validation.required') }]}>
        <Select
          style={{ width: 150 }}
          placeholder={t('att.manual.status')}
          aria-label={t('att.manual.status')}
          options={MANUAL_STATUSES.map((s) => ({ value: s, label: t(`att.status.${s}`) }))}
        />
      </Form.Item>
      <Form.Item name="reason" rules={[{ required: true, whitespace: true, message: t('common.validation.required') }]}>
        <Input style={{ width: 220 }} maxLength={200} placeholder={t('att.manual.reason')} />
      </Form.Item>
      <Button htmlType="submit" loading={setManual.isPending}>
        {t('att.manual.set')}
      </Button>
      {day.manual && (
        <Popconfirm title={t('att.manual.removeConfirm')} onConfirm={() => void save(null, '')}>
          <Button danger style={{ marginInlineStart: 8 }}>
            {t('att.manual.remove')}
          </Button>
        </Popconfirm>
      )}
    </Form>
  );
}
