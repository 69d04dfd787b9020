import { useEffect, useState } from 'react';
import { Alert, App, Button, DatePicker, Form, Input, Radio, Select, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { SaveModal } from '../../../ui/SaveModal.tsx';
import { HOLIDAY_KINDS, type Holiday } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { ListPage, useListQuery, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { deleteAction } from '../../../ui/listParts.tsx';
import { ruleSet } from '../../../ui/rules.ts';
import { useDeleteHoliday, useHolidays, useRules, useSaveHoliday } from '../api.ts';
import { WEEKDAYS } from '../logic.ts';

type Kind = (typeof HOLIDAY_KINDS)[number];
interface Values {
  name: string;
  kind: Kind;
  range: [Dayjs, Dayjs];
  as_weekday: number | null;
  rule_ids: number[];
}

/** /attendance/holiday: holidays and working days moved onto a weekend (调休), by year. */
export default function HolidayPage() {
  const { t } = useTranslation();
  const thisYear = new Date().getFullYear();
  const state = useListQuery({ year: thisYear });
  const list = useHolidays(state.query.year);
  const remove = useDeleteHoliday();
  const [dialog, setDialog] = useState<{ open: boolean; holiday?: Holiday | undefined }>({ open: false });

  const columns: ListColumn<Holiday>[] = [
    { title: t('att.holiday.fields.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('att.holiday.fields.kind'),
      dataIndex: 'kind',
      key: 'kind',
      render: (k: Kind) => <Tag color={k === 'holiday' ? 'purple' : 'gold'}>{t(`att.holiday.kinds.${k}`)}</Tag>,
    },
    {
      title: t('att.holiday.fields.dates'),
      key: 'dates',
      render: (_, h) => (h.from_date === h.to_date ? h.from_date : `${h.from_date} – ${h.to_date}`),
    },
    {
      title: t('att.holiday.fields.asWeekday'),
      dataIndex: 'as_weekday',
      key: 'as_weekday',
      render: (d: number | null, h) => (h.kind === 'workday' ? t(`att.weekday.${d ?? 1}`) : ''),
    },
    {
      title: t('att.holiday.fields.rules'),
      key: 'rules',
      render: (_, h) =>
        h.rules.length ? (
          <Space size={[4, 4]} wrap>
            {h.rules.map((r) => (
              <Tag key={r.id}>{r.name}</Tag>
            ))}
          </Space>
        ) : (
          <Tag color="blue">{t('att.holiday.allRules')}</Tag>
        ),
    },
  ];
  const actions: ListAction<Holiday>[] = [
    { key: 'edit', label: t('common.actions.edit'), run: (h) => setDialog({ open: true, holiday: h }), testId: 'holiday-edit' },
    deleteAction<Holiday>(t, {
      testId: 'holiday-delete',
      confirm: (h) => ({ title: t('att.holiday.deleteConfirm', { name: h.name }) }),
      remove: (id) => remove.mutateAsync(id),
    }),
  ];

  return (
    <ListPage<Holiday, { year: number }>
      title={t('route.attendanceHoliday')}
      testId="holiday-page"
      tableTestId="holiday-table"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true })} data-testid="holiday-create">
          {t('att.holiday.create')}
        </Button>
      }
      columns={columns}
      actions={actions}
      state={state}
      list={list}
      paged={false}
      filters={[
        {
          kind: 'select',
          param: 'year',
          label: t('att.holiday.year'),
          clearable: false,
          width: 110,
          options: Array.from({ length: 7 }, (_, i) => thisYear - 3 + i).map((y) => ({ value: y, label: String(y) })),
          testId: 'holiday-year',
        },
      ]}
    >
      <HolidayDialog open={dialog.open} holiday={dialog.holiday} onClose={() => setDialog({ open: false })} />
    </ListPage>
  );
}

function HolidayDialog({ open, holiday, onClose }: { open: boolean; holiday: Holiday | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const save = useSaveHoliday();
  const rules = useRules();
  const kind = Form.useWatch('kind', form);
  const [error, setError] = useState<string>();
  const { required } = ruleSet(t);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      holiday
        ? {
            name: holiday.name,
            kind: holiday.kind,
            range: [dayjs(holiday.from_date), dayjs(holiday.to_date)],
            as_weekday: holiday.as_weekday,
            rule_ids: holiday.rules.map((r) => r.id),
          }
        : { kind: 'holiday', as_weekday: 1, rule_ids: [] },
    );
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setError(undefined);
  }, [open, holiday, form]);

  const submit = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setError(undefined);
    try {
      await save.mutateAsync({
        id: holiday?.id,
        body: {
          name: v.name.trim(),
          kind: v.kind,
          from_date: v.range[0].format('YYYY-MM-DD'),
          to_date: v.range[1].format('YYYY-MM-DD'),
          as_weekday: v.kind === 'workday' ? (v.as_weekday ?? 1) : null,
          rule_ids: v.rule_ids ?? [],
        },
      });
      message.success(t('common.saved'));
      onClose();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };

  return (
    <SaveModal
      title={holiday ? t('att.holiday.edit') : t('att.holiday.create')}
      open={open}
      onClose={onClose}
      onSave={() => void submit()}
      saving={save.isPending}
      testId="holiday-save"
    >
      <Form form={form} layout="vertical" autoComplete="off" data-testid="holiday-form">
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
        <Form.Item name="name" label={t('att.holiday.fields.name')} rules={[required, { max: 40 }]}>
          <Input maxLength={40} data-testid="holiday-name" />
        </Form.Item>
        <Form.Item name="kind" label={t('att.holiday.fields.kind')} extra={t(`att.holiday.help.${kind ?? 'holiday'}`)}>
          <Radio.Group options={HOLIDAY_KINDS.map((k) => ({ value: k, label: t(`att.holiday.kinds.${k}`) }))} data-testid="holiday-kind" />
        </Form.Item>
        <Form.Item name="range" label={t('att.holiday.fields.dates')} rules={[required]}>
          <DatePicker.RangePicker style={{ width: '100%' }} data-testid="holiday-range" />
        </Form.Item>
        {kind === 'workday' && (
          <Form.Item name="as_weekday" label={t('att.holiday.fields.asWeekday')}>
            <Select options={WEEKDAYS.map((d) => ({ value: Number(d), label: t(`att.weekday.${d}`) }))} data-testid="holiday-weekday" />
          </Form.Item>
        )}
        <Form.Item name="rule_ids" label={t('att.holiday.fields.rules')} extra={t('att.holiday.help.rules')}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('att.holiday.allRules')}
            options={(rules.data?.items ?? []).map((r) => ({ value: r.id, label: r.name }))}
            data-testid="holiday-rules"
          />
        </Form.Item>
      </Form>
    </SaveModal>
  );
}
