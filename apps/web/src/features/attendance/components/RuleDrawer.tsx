import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Checkbox, Col, Divider, Drawer, Form, Input, InputNumber, Radio, Row, Select, Space, Switch, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ATTENDANCE_LIMITS, ATTENDANCE_MODELS, AUTO_SHIFT_KEY, DEVICE_OPTION_RANGES, RULE_MODES, type Rule } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { ruleSet } from '../../../ui/rules.ts';
import { DepartmentSelect } from '../../persons/components/DepartmentSelect.tsx';
import { useSaveRule } from '../api.ts';
import {
  crossesMidnight,
  emptyRule,
  formToInput,
  newKey,
  newShift,
  ruleToForm,
  usesAutoShift,
  WEEKDAYS,
  zonedToday,
  type CycleForm,
  type RuleForm,
  type ShiftForm,
} from '../logic.ts';
import { displayTimeZone } from '../../../ui/format.ts';
import { MemberPicker } from './MemberPicker.tsx';
import { RuleCountingFields } from './RuleCountingFields.tsx';
import { DateInput, HmInput } from './TimeInputs.tsx';

interface Props {
  open: boolean;
  /** undefined = create */
  rule: Rule | undefined;
  onClose: () => void;
}

/** A weekday marked Auto has no other shift: ticking Auto clears the others, ticking a shift clears Auto (#17). */
const autoAlone = (value: string[] | undefined, prev: string[] | undefined): string[] => {
  const v = value ?? [];
  if (!v.includes(AUTO_SHIFT_KEY)) return v;
  return (prev ?? []).includes(AUTO_SHIFT_KEY) ? v.filter((k) => k !== AUTO_SHIFT_KEY) : [AUTO_SHIFT_KEY];
};

/** spec §3 "Attendance rule": how many shifts a fixed day may have, and a shift rule in all. */
const maxShifts = (mode: Rule['mode']) => (mode === 'fixed' ? ATTENDANCE_LIMITS.shiftsPerDayMax : ATTENDANCE_LIMITS.shiftsPerRuleMax);

/** Create / edit an attendance rule: every mode, shifts, windows, graces, cycles, thresholds, members (issue #10). */
export function RuleDrawer({ open, rule, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<RuleForm>();
  const save = useSaveRule();
  const [error, setError] = useState<string>();
  const { required } = ruleSet(t);

  // preserve: the shifts' and cycles' keys have no field of their own, and a hidden mode's lists stay in the store
  const watch = { form, preserve: true };
  const mode = Form.useWatch('mode', watch) ?? 'fixed';
  const model = Form.useWatch('model', watch) ?? 'default';
  const shifts = Form.useWatch('shifts', watch) ?? [];
  const cycles = Form.useWatch('cycles', watch) ?? [];
  const cycleKey = Form.useWatch('cycle_key', watch);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(rule ? ruleToForm(rule) : emptyRule(t('att.rule.shiftName', { n: 1 })));
    // #17: an edit applies from today (company zone) unless told otherwise; a new rule from the start unless dated
    form.setFieldValue('effective_from', rule ? zonedToday(displayTimeZone()) : null);
    // a new opening starts without the last refusal
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setError(undefined);
  }, [open, rule, form, t]);

  const submit = async () => {
    let v: RuleForm;
    try {
      await form.validateFields();
      // validateFields leaves out lists the current mode hides; the whole store is the rule
      v = form.getFieldsValue(true) as RuleForm;
    } catch {
      return;
    }
    setError(undefined);
    try {
      const effective = form.getFieldValue('effective_from') as string | null;
      await save.mutateAsync({ id: rule?.id, body: { ...formToInput(v), ...(effective ? { effective_from: effective } : {}) } });
      message.success(t('common.saved'));
      onClose();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };

  const shiftOptions = shifts.filter(Boolean).map((s) => ({ value: s.key, label: s.name || '—' }));
  const running = cycles.find((c) => c?.key === cycleKey);
  const minutes = (max: number) => <InputNumber min={0} max={max} precision={0} style={{ width: 110 }} suffix={t('att.min')} />;
  const optionalMinutes = (max: number, testId: string) => (
    <InputNumber min={0} max={max} precision={0} style={{ width: 140 }} suffix={t('att.min')} placeholder={t('att.rule.off')} data-testid={testId} />
  );

  return (
    <Drawer
      title={rule ? t('att.rule.edit') : t('att.rule.create')}
      open={open}
      onClose={onClose}
      size={920}
      forceRender
      destroyOnHidden={false}
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.actions.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="rule-save">
            {t('common.actions.save')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" autoComplete="off" data-testid="rule-form" scrollToFirstError>
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="rule-error" />}
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={t('att.rule.fields.name')} rules={[required, { max: 40 }]}>
              <Input maxLength={40} data-testid="rule-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="model" label={t('att.rule.fields.model')} tooltip={t('att.rule.help.model')}>
              <Select options={ATTENDANCE_MODELS.map((m) => ({ value: m, label: t(`att.model.${m}`) }))} data-testid="rule-model" />
            </Form.Item>
          </Col>
          {model === 'temperature' && (
            <Col xs={24} md={12}>
              <Form.Item name="alarm_temp" label={t('att.rule.fields.alarmTemp')} extra={t('att.rule.help.alarmTemp')} rules={[required]}>
                <InputNumber
                  min={DEVICE_OPTION_RANGES.alarmTemp[0]}
                  max={DEVICE_OPTION_RANGES.alarmTemp[1]}
                  step={0.1}
                  precision={1}
                  suffix="℃"
                  style={{ width: 140 }}
                  data-testid="rule-alarm-temp"
                />
              </Form.Item>
            </Col>
          )}
          <Col span={24}>
            <Form.Item name="mode" label={t('att.rule.fields.mode')} extra={t(`att.rule.help.mode.${mode}`)}>
              <Radio.Group
                optionType="button"
                options={RULE_MODES.map((m) => ({ value: m, label: t(`att.mode.${m}`) }))}
                onChange={(e) => {
                  // a fixed day has at most 3 shifts
                  const m = e.target.value as Rule['mode'];
                  const list = (form.getFieldValue('shifts') ?? []) as ShiftForm[];
                  if (list.length > maxShifts(m)) form.setFieldValue('shifts', list.slice(0, maxShifts(m)));
                  if (m !== 'free' && list.length === 0) form.setFieldValue('shifts', [newShift(t('att.rule.shiftName', { n: 1 }))]);
                }}
                data-testid="rule-mode"
              />
            </Form.Item>
          </Col>
        </Row>

        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('att.rule.help.title')}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }} data-testid="rule-conventions">
              {mode !== 'free' && <li>{t('att.rule.help.late')}</li>}
              {mode !== 'free' && <li>{t('att.rule.help.early')}</li>}
              {mode !== 'free' && <li>{t('att.rule.help.overtime')}</li>}
              {mode !== 'free' && <li>{t('att.rule.help.dayBelongs')}</li>}
              {mode !== 'free' && <li>{t('att.rule.help.windows')}</li>}
              {mode === 'free' && <li>{t('att.rule.help.free')}</li>}
              <li>{t('att.rule.help.thresholds')}</li>
            </ul>
          }
        />

        {mode !== 'free' && (
          <>
            <Divider titlePlacement="start">{t('att.rule.sections.shifts')}</Divider>
            <Form.List name="shifts">
              {(fields, { add, remove }) => (
                <>
                  {fields.map((field, i) => {
                    const s = shifts[i];
                    return (
                      <Card
                        key={field.key}
                        size="small"
                        style={{ marginBottom: 12 }}
                        data-testid={`shift-${i}`}
                        title={t('att.rule.shiftN', { n: i + 1 })}
                        extra={
                          fields.length > 1 && (
                            <Button
                              size="small"
                              type="text"
                              danger
                              icon={<DeleteOutlined />}
                              onClick={() => remove(field.name)}
                              aria-label={t('common.actions.delete')}
                            />
                          )
                        }
                      >
                        <Row gutter={12}>
                          <Col xs={24} sm={8}>
                            <Form.Item name={[field.name, 'name']} label={t('att.rule.fields.shiftName')} rules={[required, { max: 20 }]}>
                              <Input maxLength={20} data-testid={`shift-${i}-name`} />
                            </Form.Item>
                          </Col>
                          <Col xs={12} sm={8}>
                            <Form.Item name={[field.name, 'start']} label={t('att.rule.fields.start')} rules={[required]}>
                              <HmInput data-testid={`shift-${i}-start`} />
                            </Form.Item>
                          </Col>
                          <Col xs={12} sm={8}>
                            <Form.Item
                              name={[field.name, 'end']}
                              label={t('att.rule.fields.end')}
                              rules={[
                                required,
                                {
                                  validator: (_, v?: string) =>
                                    v && v === form.getFieldValue(['shifts', field.name, 'start'])
                                      ? Promise.reject(new Error(t('att.rule.validation.sameTime')))
                                      : Promise.resolve(),
                                },
                              ]}
                              extra={s && crossesMidnight(s.start, s.end) ? <Tag color="purple">{t('att.rule.nextDay')}</Tag> : undefined}
                            >
                              <HmInput data-testid={`shift-${i}-end`} />
                            </Form.Item>
                          </Col>
                          <Col xs={12} sm={6}>
                            <Form.Item name={[field.name, 'late_grace_min']} label={t('att.rule.fields.lateGrace')}>
                              <InputNumber min={0} max={240} precision={0} style={{ width: 110 }} suffix={t('att.min')} data-testid={`shift-${i}-late-grace`} />
                            </Form.Item>
                          </Col>
                          <Col xs={12} sm={6}>
                            <Form.Item name={[field.name, 'early_grace_min']} label={t('att.rule.fields.earlyGrace')}>
                              {minutes(240)}
                            </Form.Item>
                          </Col>
                        </Row>
                        <Typography.Text type="secondary">{t('att.rule.windowsTitle')}</Typography.Text>
                        <Row gutter={12} style={{ marginTop: 4 }}>
                          <Col xs={12} sm={6}>
                            <Form.Item name={[field.name, 'check_in_before_min']} label={t('att.rule.fields.inBefore')}>
                              {minutes(ATTENDANCE_LIMITS.windowMax)}
                            </Form.Item>
                          </Col>
                          <Col xs={12} sm={6}>
                            <Form.Item name={[field.name, 'check_in_after_min']} label={t('att.rule.fields.inAfter')}>
                              {minutes(ATTENDANCE_LIMITS.windowMax)}
                            </Form.Item>
                          </Col>
                          <Col xs={12} sm={6}>
                            <Form.Item name={[field.name, 'check_out_before_min']} label={t('att.rule.fields.outBefore')}>
                              {minutes(ATTENDANCE_LIMITS.windowMax)}
                            </Form.Item>
                          </Col>
                          <Col xs={12} sm={6}>
                            <Form.Item name={[field.name, 'check_out_after_min']} label={t('att.rule.fields.outAfter')}>
                              {minutes(ATTENDANCE_LIMITS.windowMax)}
                            </Form.Item>
                          </Col>
                        </Row>
                        <Form.List name={[field.name, 'breaks']}>
                          {(breaks, b) => (
                            <>
                              {breaks.map((bf) => (
                                <Space key={bf.key} align="baseline" wrap>
                                  <Typography.Text>{t('att.rule.break')}</Typography.Text>
                                  <Form.Item name={[bf.name, 'start']} rules={[required]}>
                                    <HmInput />
                                  </Form.Item>
                                  –
                                  <Form.Item name={[bf.name, 'end']} rules={[required]}>
                                    <HmInput />
                                  </Form.Item>
                                  <Form.Item name={[bf.name, 'deducted']} valuePropName="checked">
                                    <Checkbox>{t('att.rule.fields.deducted')}</Checkbox>
                                  </Form.Item>
                                  <Button
                                    size="small"
                                    type="text"
                                    danger
                                    icon={<DeleteOutlined />}
                                    onClick={() => b.remove(bf.name)}
                                    aria-label={t('common.actions.delete')}
                                  />
                                </Space>
                              ))}
                              {breaks.length < 3 && (
                                <Button size="small" icon={<PlusOutlined />} onClick={() => b.add({ start: '12:00', end: '13:00', deducted: true })}>
                                  {t('att.rule.addBreak')}
                                </Button>
                              )}
                            </>
                          )}
                        </Form.List>
                      </Card>
                    );
                  })}
                  {fields.length < maxShifts(mode) && (
                    <Button
                      icon={<PlusOutlined />}
                      onClick={() => add(newShift(t('att.rule.shiftName', { n: fields.length + 1 }), '13:00', '18:00'))}
                      data-testid="shift-add"
                    >
                      {t('att.rule.addShift')}
                    </Button>
                  )}
                </>
              )}
            </Form.List>
          </>
        )}

        {mode === 'fixed' && (
          <>
            <Divider titlePlacement="start">{t('att.rule.sections.weekdays')}</Divider>
            <Typography.Paragraph type="secondary">{t('att.rule.help.weekdays')}</Typography.Paragraph>
            <table style={{ width: '100%', maxWidth: 600, borderCollapse: 'collapse', marginBottom: 8 }} data-testid="weekday-grid">
              <thead>
                <tr>
                  <th style={{ width: 110 }} />
                  {shiftOptions.map((s) => (
                    <th key={s.value} style={{ textAlign: 'start', fontWeight: 500 }}>
                      {s.label}
                    </th>
                  ))}
                  <th style={{ textAlign: 'start', fontWeight: 500 }}>{t('att.rule.autoDay')}</th>
                </tr>
              </thead>
              <tbody>
                {WEEKDAYS.map((d) => (
                  <tr key={d}>
                    <th style={{ textAlign: 'start', fontWeight: 400, padding: '4px 0' }}>{t(`att.weekday.${d}`)}</th>
                    <td colSpan={Math.max(1, shiftOptions.length) + 1}>
                      <Form.Item name={['weekdays', d]} noStyle normalize={autoAlone}>
                        <Checkbox.Group data-testid={`weekday-${d}`} style={{ display: 'flex' }}>
                          {shiftOptions.map((s) => (
                            <Checkbox key={s.value} value={s.value} style={{ flex: 1 }} aria-label={`${t(`att.weekday.${d}`)} ${s.label}`} />
                          ))}
                          <Checkbox
                            value={AUTO_SHIFT_KEY}
                            style={{ flex: 1 }}
                            aria-label={`${t(`att.weekday.${d}`)} ${t('att.rule.autoDay')}`}
                            data-testid={`weekday-${d}-auto`}
                          />
                        </Checkbox.Group>
                      </Form.Item>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}

        {mode === 'shift' && (
          <>
            <Divider titlePlacement="start">{t('att.rule.sections.cycles')}</Divider>
            <Typography.Paragraph type="secondary">{t('att.rule.help.cycles')}</Typography.Paragraph>
            <Form.List name="cycles">
              {(fields, { add, remove }) => (
                <>
                  {fields.map((field, i) => (
                    <Card
                      key={field.key}
                      size="small"
                      style={{ marginBottom: 12 }}
                      data-testid={`cycle-${i}`}
                      extra={
                        <Button
                          size="small"
                          type="text"
                          danger
                          icon={<DeleteOutlined />}
                          onClick={() => remove(field.name)}
                          aria-label={t('common.actions.delete')}
                        />
                      }
                      title={
                        <Form.Item
                          name={[field.name, 'name']}
                          rules={[
                            required,
                            { max: ATTENDANCE_LIMITS.cycleNameMax, message: t('att.rule.validation.cycleName', { max: ATTENDANCE_LIMITS.cycleNameMax }) },
                          ]}
                          style={{ margin: '8px 0' }}
                        >
                          <Input placeholder={t('att.rule.fields.cycleName')} style={{ width: 200 }} data-testid={`cycle-${i}-name`} />
                        </Form.Item>
                      }
                    >
                      <Form.List name={[field.name, 'days']}>
                        {(days, d) => (
                          <Space wrap>
                            {days.map((df, j) => (
                              <Space.Compact key={df.key}>
                                <Button disabled>{t('att.rule.dayN', { n: j + 1 })}</Button>
                                <Form.Item name={df.name} noStyle>
                                  <Select
                                    style={{ width: 130 }}
                                    options={[
                                      ...shiftOptions,
                                      { value: AUTO_SHIFT_KEY, label: t('att.rule.autoDay') },
                                      { value: '', label: t('att.rule.restDay') },
                                    ]}
                                    aria-label={t('att.rule.dayN', { n: j + 1 })}
                                    data-testid={`cycle-${i}-day-${j}`}
                                  />
                                </Form.Item>
                                {days.length > 1 && (
                                  <Button icon={<DeleteOutlined />} onClick={() => d.remove(df.name)} aria-label={t('common.actions.delete')} />
                                )}
                              </Space.Compact>
                            ))}
                            {days.length < ATTENDANCE_LIMITS.cycleDaysMax && (
                              <Button icon={<PlusOutlined />} onClick={() => d.add(shiftOptions[0]?.value ?? '')} data-testid={`cycle-${i}-add-day`}>
                                {t('att.rule.addDay')}
                              </Button>
                            )}
                          </Space>
                        )}
                      </Form.List>
                    </Card>
                  ))}
                  {fields.length < ATTENDANCE_LIMITS.cyclesPerRuleMax && (
                    <Button
                      icon={<PlusOutlined />}
                      onClick={() => add({ key: newKey('c'), name: '', days: [shiftOptions[0]?.value ?? ''] } satisfies CycleForm)}
                      data-testid="cycle-add"
                    >
                      {t('att.rule.addCycle')}
                    </Button>
                  )}
                </>
              )}
            </Form.List>
            <Row gutter={16} style={{ marginTop: 16 }}>
              <Col xs={24} sm={8}>
                <Form.Item name="cycle_key" label={t('att.rule.fields.runningCycle')} tooltip={t('att.rule.help.running')}>
                  <Select allowClear options={cycles.filter(Boolean).map((c) => ({ value: c.key, label: c.name || '—' }))} data-testid="rule-running-cycle" />
                </Form.Item>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item name="start_date" label={t('att.rule.fields.startDate')} rules={cycleKey ? [required] : []}>
                  <DateInput data-testid="rule-start-date" />
                </Form.Item>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item name="start_index" label={t('att.rule.fields.startDay')}>
                  <Select
                    disabled={!running}
                    options={(running?.days ?? []).map((k, j) => ({
                      value: j,
                      label: `${t('att.rule.dayN', { n: j + 1 })} · ${k === AUTO_SHIFT_KEY ? t('att.rule.autoDay') : k ? (shiftOptions.find((s) => s.value === k)?.label ?? '—') : t('att.rule.restDay')}`,
                    }))}
                    data-testid="rule-start-day"
                  />
                </Form.Item>
              </Col>
            </Row>
          </>
        )}

        {mode !== 'free' && (
          <>
            <Divider titlePlacement="start">{t('att.rule.sections.auto')}</Divider>
            <Typography.Paragraph type="secondary">{t('att.rule.help.auto')}</Typography.Paragraph>
            <Form.Item
              name="auto_shifts"
              label={t('att.rule.fields.autoShifts')}
              dependencies={['weekdays', 'cycles']}
              rules={[
                {
                  validator: (_, v: string[] | undefined) =>
                    usesAutoShift(form.getFieldsValue(true) as RuleForm) && (v ?? []).filter((k) => shiftOptions.some((s) => s.value === k)).length < 2
                      ? Promise.reject(new Error(t('att.rule.validation.autoFew')))
                      : Promise.resolve(),
                },
              ]}
            >
              <Select mode="multiple" allowClear options={shiftOptions} style={{ maxWidth: 600 }} data-testid="rule-auto-shifts" />
            </Form.Item>
          </>
        )}

        {mode === 'free' && (
          <>
            <Divider titlePlacement="start">{t('att.rule.sections.free')}</Divider>
            <Row gutter={16}>
              <Col xs={12} sm={8}>
                <Form.Item name="day_boundary" label={t('att.rule.fields.dayBoundary')} tooltip={t('att.rule.help.dayBoundary')} rules={[required]}>
                  <HmInput data-testid="rule-day-boundary" />
                </Form.Item>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item name="required_min" label={t('att.rule.fields.required')} rules={[required]}>
                  <InputNumber min={1} max={1440} precision={0} style={{ width: 140 }} suffix={t('att.min')} data-testid="rule-required" />
                </Form.Item>
              </Col>
            </Row>
          </>
        )}

        <Divider titlePlacement="start">{t('att.rule.sections.thresholds')}</Divider>
        <Row gutter={16}>
          {mode !== 'free' && (
            <Col xs={12} sm={6}>
              <Form.Item name="overtime_min_min" label={t('att.rule.fields.overtimeMin')} tooltip={t('att.rule.help.overtime')}>
                {minutes(600)}
              </Form.Item>
            </Col>
          )}
          {mode !== 'free' && (
            <Col xs={12} sm={6}>
              <Form.Item name="late_absent_after_min" label={t('att.rule.fields.lateAbsent')}>
                {optionalMinutes(720, 'rule-late-absent')}
              </Form.Item>
            </Col>
          )}
          <Col xs={12} sm={6}>
            <Form.Item name="half_day_below_min" label={t('att.rule.fields.halfDayBelow')}>
              {optionalMinutes(1440, 'rule-half-day')}
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item
              name="absent_below_min"
              label={t('att.rule.fields.absentBelow')}
              dependencies={['half_day_below_min']}
              rules={[
                {
                  validator: (_, v?: number | null) => {
                    const half = form.getFieldValue('half_day_below_min') as number | null | undefined;
                    return v != null && half != null && v > half ? Promise.reject(new Error(t('att.rule.validation.absentAboveHalf'))) : Promise.resolve();
                  },
                },
              ]}
            >
              {optionalMinutes(1440, 'rule-absent-below')}
            </Form.Item>
          </Col>
          {mode !== 'free' && (
            <Col span={24}>
              <Form.Item name="use_direction" label={t('att.rule.fields.useDirection')} valuePropName="checked" extra={t('att.rule.help.useDirection')}>
                <Switch />
              </Form.Item>
            </Col>
          )}
        </Row>
        <RuleCountingFields />

        <Divider titlePlacement="start">{t('att.rule.sections.members')}</Divider>
        <Typography.Paragraph type="secondary">{t('att.rule.help.members')}</Typography.Paragraph>
        <Form.Item name="department_ids" label={t('att.rule.fields.departments')}>
          <DepartmentSelect multiple allowClear placeholder={t('att.rule.departmentsPlaceholder')} data-testid="rule-departments" />
        </Form.Item>
        <Form.Item name="person_ids" label={t('att.rule.fields.people')}>
          <MemberPicker initial={rule?.persons ?? []} />
        </Form.Item>

        <Divider titlePlacement="start">{t('att.rule.sections.history')}</Divider>
        <Form.Item
          name="effective_from"
          label={t('att.rule.fields.effectiveFrom')}
          extra={rule ? t('att.rule.help.effectiveFrom') : t('att.rule.help.effectiveFromNew')}
          rules={rule ? [required] : []}
        >
          <DateInput allowClear={!rule} data-testid="rule-effective-from" />
        </Form.Item>
        {rule && (
          <div data-testid="rule-history">
            {rule.versions.length ? (
              <Space size={[4, 4]} wrap>
                {rule.versions.map((v) => (
                  <Tag key={v.id}>{v.effective_from ? t('att.rule.versionFrom', { date: v.effective_from }) : t('att.rule.sinceAlways')}</Tag>
                ))}
              </Space>
            ) : (
              <Typography.Text type="secondary">{t('att.rule.noHistory')}</Typography.Text>
            )}
          </div>
        )}
      </Form>
    </Drawer>
  );
}
