import { useEffect, useState } from 'react';
import { App, Button, Card, Checkbox, DatePicker, Form, Radio, Space, Switch, Tag, TimePicker, Tooltip, Typography, type TableProps } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { SaveModal } from '../../../ui/SaveModal.tsx';
import { BREAKER_LIMITS, CODES, type BreakerLine, type Timer, type TimerSyncState } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { DataTable } from '../../../ui/DataTable.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { useDeleteTimer, useSaveTimer, useTimers } from '../api.ts';
import { useConfirmPowerOff } from '../confirmPowerOff.ts';
import { emptyTimer, timerBody, timerCutsPower, timerToValues, WEEK_ORDER, weekdayNames, weekdaysText, type TimerValues } from '../logic.ts';

const SYNC_COLOR: Record<TimerSyncState, string> = { pending: 'processing', synced: 'success', failed: 'error' };

/**
 * spec §3 Timer: a breaker's timers (kept on the breaker itself), with their update time and whether it holds them.
 * `breaker` is the breaker's name as the page shows it (a timer that cuts power names it when it asks first).
 */
export function TimerPanel({ breakerId, breaker, lines, canEdit }: { breakerId: number; breaker: string; lines: BreakerLine[]; canEdit: boolean }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const timers = useTimers(breakerId);
  const remove = useDeleteTimer();
  const [dialog, setDialog] = useState<{ open: boolean; timer?: Timer | undefined; values?: TimerValues }>({ open: false });
  const names = weekdayNames(t);
  const items = timers.data ?? [];

  const columns: TableProps<Timer>['columns'] = [
    {
      title: t('breaker.timer.when'),
      key: 'when',
      render: (_, x) => (
        <div className="fa-two-line">
          <strong data-testid="timer-time">{x.time}</strong>
          <Typography.Text type="secondary">{x.type === 'cyclic' ? weekdaysText(x.weekdays, names) : x.day}</Typography.Text>
        </div>
      ),
    },
    {
      title: t('breaker.timer.action'),
      key: 'action',
      render: (_, x) => <Tag color={x.action === 'on' ? 'green' : 'orange'}>{t(`breaker.timer.actions.${x.action}`)}</Tag>,
    },
    { title: t('breaker.timer.lines'), key: 'lines', render: (_, x) => x.line_titles.join(', ') },
    {
      title: t('breaker.timer.sync'),
      key: 'sync',
      render: (_, x) => (
        <Space orientation="vertical" size={0}>
          <Space size={4}>
            <Tag color={SYNC_COLOR[x.sync]} data-testid="timer-sync" data-sync={x.sync}>
              {t(`breaker.timer.syncStates.${x.sync}`)}
            </Tag>
            {!x.enabled && <Tag>{t('breaker.timer.disabled')}</Tag>}
          </Space>
          {x.sync === 'failed' && x.sync_error && <Typography.Text type="danger">{x.sync_error}</Typography.Text>}
        </Space>
      ),
    },
    { title: t('breaker.timer.updatedAt'), key: 'updated_at', render: (_, x) => formatDateTime(x.updated_at) },
  ];
  if (canEdit)
    columns.push({
      title: t('common.actions.title'),
      key: 'actions',
      render: (_, x) => (
        <Space size={4}>
          <Tooltip title={t('common.actions.edit')}>
            <Button
              size="small"
              icon={<EditOutlined />}
              aria-label={t('common.actions.edit')}
              onClick={() => setDialog({ open: true, timer: x, values: timerToValues(x) })}
            />
          </Tooltip>
          <Tooltip title={t('common.actions.delete')}>
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('common.actions.delete')}
              onClick={() =>
                modal.confirm({
                  title: t('breaker.timer.deleteConfirm', { time: x.time }),
                  okText: t('common.actions.delete'),
                  okButtonProps: { danger: true },
                  cancelText: t('common.actions.cancel'),
                  onOk: async () => {
                    try {
                      await remove.mutateAsync(x.id);
                      message.success(t('common.deleted'));
                    } catch {
                      // shown by the API client
                    }
                  },
                })
              }
            />
          </Tooltip>
        </Space>
      ),
    });

  return (
    <Card
      size="small"
      title={t('breaker.timer.title')}
      data-testid="timer-panel"
      extra={
        canEdit && (
          <Button
            size="small"
            type="primary"
            icon={<PlusOutlined />}
            disabled={items.length >= BREAKER_LIMITS.timersMax}
            onClick={() => setDialog({ open: true, values: emptyTimer(lines) })}
            data-testid="timer-create"
          >
            {t('breaker.timer.create')}
          </Button>
        )
      }
    >
      <DataTable<Timer>
        rowKey="id"
        cardTitle="when"
        size="small"
        loading={timers.isLoading}
        error={timers.error}
        onRetry={timers.refetch}
        retrying={timers.isFetching}
        dataSource={items}
        columns={columns}
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="timer-table"
      />
      <TimerDialog
        breakerId={breakerId}
        breaker={breaker}
        lines={lines}
        open={dialog.open}
        timer={dialog.timer}
        values={dialog.values}
        onClose={() => setDialog({ open: false })}
      />
    </Card>
  );
}

type FormValues = Omit<TimerValues, 'time' | 'day'> & { time: Dayjs | null; day: Dayjs | null };

function TimerDialog({
  breakerId,
  breaker,
  lines,
  open,
  timer,
  values,
  onClose,
}: {
  breakerId: number;
  breaker: string;
  lines: BreakerLine[];
  open: boolean;
  timer: Timer | undefined;
  values: TimerValues | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const save = useSaveTimer();
  const confirmOff = useConfirmPowerOff();
  const type = Form.useWatch('type', form);
  const names = weekdayNames(t);

  // `values` is taken when the dialog opens: the lines arrive anew with every live update and must not undo typing.
  useEffect(() => {
    if (!open || !values) return;
    form.resetFields();
    form.setFieldsValue({ ...values, time: dayjs(`2000-01-01 ${values.time}`), day: values.day ? dayjs(values.day) : null });
  }, [open, values, form]);

  const required = { required: true, message: t('common.validation.required') };
  const submit = async () => {
    let v: FormValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const r = timerBody({ ...v, time: v.time ? v.time.format('HH:mm') : '', day: v.day ? v.day.format('YYYY-MM-DD') : undefined });
    if (!r.ok) {
      form.setFields([{ name: r.field, errors: [t('common.validation.required')] }]);
      return;
    }
    const body = r.body;
    const send = async () => {
      try {
        await save.mutateAsync({ id: timer?.id, body: { breaker_id: breakerId, ...body } });
        message.success(t('common.saved'));
        onClose();
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        const field = (e.data as { field?: string } | null)?.field?.replace(/^\/+/, '').split(/[./]/)[0];
        if ((e.code === CODES.VALIDATION || e.code === CODES.RULE) && field && field in form.getFieldsValue())
          form.setFields([{ name: field as keyof FormValues, errors: [e.message] }]);
        message.error(e.message);
      }
    };
    // A timer that will cut power (new, enabled, or given more lines) asks first, naming its lines and the breaker.
    if (!timerCutsPower(timer, body)) return send();
    const titles = body.line_ids.map((id) => {
      const l = lines.find((x) => x.id === id);
      return l ? l.title || `#${l.addr}` : `#${id}`;
    });
    confirmOff({ kind: 'timer', breaker, lines: titles }, send);
  };

  return (
    <SaveModal
      title={timer ? t('breaker.timer.edit') : t('breaker.timer.create')}
      open={open}
      onClose={onClose}
      onSave={() => void submit()}
      saving={save.isPending}
      testId="timer-save"
    >
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="type" label={t('breaker.timer.type')} rules={[required]}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'cyclic', label: t('breaker.timer.types.cyclic') },
              { value: 'single', label: t('breaker.timer.types.single') },
            ]}
          />
        </Form.Item>
        {type === 'single' ? (
          <Form.Item name="day" label={t('breaker.timer.day')} rules={[required]}>
            <DatePicker style={{ width: '100%' }} data-testid="timer-day" />
          </Form.Item>
        ) : (
          <Form.Item name="weekdays" label={t('breaker.timer.weekdays')} rules={[{ ...required, type: 'array', min: 1 }]}>
            <Checkbox.Group options={WEEK_ORDER.map((d) => ({ value: d, label: names[d] }))} data-testid="timer-weekdays" />
          </Form.Item>
        )}
        <Form.Item name="time" label={t('breaker.timer.time')} rules={[required]}>
          <TimePicker format="HH:mm" minuteStep={1} needConfirm={false} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="line_ids" label={t('breaker.timer.lines')} rules={[{ ...required, type: 'array', min: 1 }]}>
          <Checkbox.Group options={lines.map((l) => ({ value: l.id, label: l.title }))} data-testid="timer-lines" />
        </Form.Item>
        <Form.Item name="action" label={t('breaker.timer.action')} rules={[required]}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'on', label: t('breaker.timer.actions.on') },
              { value: 'off', label: t('breaker.timer.actions.off') },
            ]}
            data-testid="timer-action"
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('breaker.timer.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </SaveModal>
  );
}
