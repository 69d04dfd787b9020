import { useEffect, useState } from 'react';
import { Alert, App, Button, Form, InputNumber, Popconfirm, Radio, Select, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, SettingOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LEAVE_LIMITS, type LeaveBalance, type LeaveBalanceQuery, type LeavePolicy, type LeavePolicyView } from '@faceadmin/shared';
import { displayTimeZone } from '../../../ui/format.ts';
import { ImportDialog, ImportPanel } from '../../../ui/ImportDialog.tsx';
import { IMPORT_MAX_MB } from '../../../ui/importFile.ts';
import { ListPage, useListQuery, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { SaveModal } from '../../../ui/SaveModal.tsx';
import { zonedToday } from '../../attendance/logic.ts';
import { departmentFilter } from '../../persons/components/DepartmentSelect.tsx';
import { useExportLeaveBalances, useImportLeaveBalances, useLeaveBalances, useLeavePolicies, useSaveLeavePolicy, useSetLeaveBalance } from '../api.ts';

type Filters = Omit<LeaveBalanceQuery, 'leave_type' | 'page' | 'pageSize'> & { leave_type?: string | undefined };
const days = (d: number) => String(Math.round(d * 100) / 100);

/** /attendance/balance: leave balances per person for a leave type and year; quotas by hand or import, the rule per type, the export. */
export default function LeaveBalancePage() {
  const { t } = useTranslation();
  const thisYear = Number(zonedToday(displayTimeZone()).slice(0, 4));
  const state = useListQuery<Filters>({ year: thisYear }, 20);
  const query = state.query;
  const policies = useLeavePolicies();
  const types = policies.data?.items ?? [];
  // Opens on the first tracked type (else the first type of the leave form).
  const chosen = query.leave_type ?? (types.find((x) => x.tracked) ?? types[0])?.leave_type;
  const type = types.find((x) => x.leave_type === chosen);
  const list = useLeaveBalances({ ...query, leave_type: chosen ?? '' }, Boolean(chosen));
  const exportXlsx = useExportLeaveBalances();
  const [editing, setEditing] = useState<LeaveBalance>();
  const [dialog, setDialog] = useState<'policy' | 'import'>();

  const columns: ListColumn<LeaveBalance>[] = [
    { title: t('leave.fields.number'), dataIndex: 'number', key: 'number' },
    { title: t('leave.fields.name'), dataIndex: 'name', key: 'name' },
    { title: t('leave.fields.department'), dataIndex: 'department', key: 'department', hideOnPhone: true },
    {
      title: t('leave.fields.quota'),
      key: 'quota',
      render: (_, b) => (
        <Space size={4}>
          {b.quota !== b.annual ? `${days(b.quota)} / ${days(b.annual)}` : days(b.quota)}
          <Tag>{t(`leave.source.${b.source}`)}</Tag>
        </Space>
      ),
    },
    {
      title: t('leave.fields.carried'),
      key: 'carried',
      render: (_, b) => (b.carry_expires ? <Tooltip title={t('leave.expires', { date: b.carry_expires })}>{days(b.carried)}</Tooltip> : days(b.carried)),
    },
    { title: t('leave.fields.used'), dataIndex: 'used', key: 'used', render: days },
    { title: t('leave.fields.pending'), dataIndex: 'pending', key: 'pending', render: days },
    {
      title: t('leave.fields.remaining'),
      dataIndex: 'remaining',
      key: 'remaining',
      render: (v: number) => <Typography.Text type={v < 0 ? 'danger' : undefined}>{days(v)}</Typography.Text>,
    },
  ];
  const actions: ListAction<LeaveBalance>[] = [{ key: 'quota', label: t('leave.setQuota'), run: (b) => setEditing(b), testId: 'balance-edit' }];

  return (
    <ListPage<LeaveBalance, Filters>
      title={t('route.attendanceBalance')}
      testId="leave-balance-page"
      tableTestId="balance-table"
      rowKey="person_id"
      extra={
        <Space>
          <Button icon={<UploadOutlined />} onClick={() => setDialog('import')} data-testid="balance-import-open">
            {t('leave.import.title')}
          </Button>
          <Button icon={<SettingOutlined />} disabled={!type} onClick={() => setDialog('policy')} data-testid="balance-policy-open">
            {t('leave.policy.title')}
          </Button>
        </Space>
      }
      columns={columns}
      actions={actions}
      state={state}
      list={list}
      pageSizeOptions={[20, 50, 100]}
      filters={[
        {
          kind: 'select',
          param: 'year',
          clearable: false,
          // never empty, so this only names the box
          placeholder: t('leave.year'),
          width: 110,
          options: Array.from({ length: 5 }, (_, i) => thisYear - 3 + i).map((y) => ({ value: y, label: String(y) })),
          testId: 'balance-year',
        },
        {
          // opens on a type chosen from the policies, so the box shows that one before any pick
          kind: 'custom',
          testId: 'balance-type',
          render: (set) => (
            <Select
              value={chosen}
              onChange={(leave_type: string) => set({ leave_type })}
              aria-label={t('leave.type')}
              style={{ width: 180 }}
              loading={policies.isLoading}
              options={types.map((x) => ({ value: x.leave_type, label: x.tracked ? x.label : `${x.label} (${t('leave.untracked')})` }))}
              data-testid="balance-type"
            />
          ),
        },
        departmentFilter(t('leave.department'), 'balance-department'),
        { kind: 'keyword', param: 'keyword', placeholder: t('leave.keyword'), width: 220, testId: 'balance-keyword' },
      ]}
      exporter={{
        pending: exportXlsx.isPending,
        bytes: exportXlsx.bytes,
        run: () => exportXlsx.mutate({ year: query.year, department_id: query.department_id, keyword: query.keyword }),
        testId: 'balance-export',
      }}
      notice={type && !type.tracked && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('leave.untrackedHint', { type: type.label })} />}
    >
      <QuotaDialog balance={editing} onClose={() => setEditing(undefined)} />
      {type && <PolicyDialog open={dialog === 'policy'} policy={type} onClose={() => setDialog(undefined)} />}
      <BalanceImportDialog open={dialog === 'import'} onClose={() => setDialog(undefined)} />
    </ListPage>
  );
}

/** A person's quota for the year set by hand (or back to the rule). */
function QuotaDialog({ balance, onClose }: { balance: LeaveBalance | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ quota: number; carried: number | null }>();
  const save = useSetLeaveBalance();
  useEffect(() => {
    if (balance) form.setFieldsValue({ quota: balance.annual, carried: balance.source === 'rule' ? null : balance.carried });
  }, [balance, form]);
  if (!balance) return null;
  const submit = async () => {
    const v = await form.validateFields();
    await save.mutateAsync({ person_id: balance.person_id, leave_type: balance.leave_type, year: balance.year, quota: v.quota, carried: v.carried ?? null });
    message.success(t('common.saved'));
    onClose();
  };
  return (
    <SaveModal
      title={t('leave.quotaTitle', { name: balance.name, type: balance.label, year: balance.year })}
      open
      onClose={onClose}
      onSave={() => void submit()}
      saving={save.isPending}
      testId="quota-save"
    >
      <Form form={form} layout="vertical">
        <Form.Item name="quota" label={t('leave.fields.quota')} rules={[{ required: true, message: t('leave.required') }]} extra={t('leave.halfDays')}>
          <InputNumber min={0} max={LEAVE_LIMITS.daysMax} step={0.5} precision={1} style={{ width: 160 }} data-testid="quota-days" />
        </Form.Item>
        <Form.Item name="carried" label={t('leave.fields.carried')} extra={t('leave.carriedHint')}>
          <InputNumber min={0} max={LEAVE_LIMITS.daysMax} step={0.5} precision={1} style={{ width: 160 }} />
        </Form.Item>
      </Form>
      {balance.source !== 'rule' && (
        <Popconfirm
          title={t('leave.backToRuleConfirm')}
          okText={t('common.actions.ok')}
          cancelText={t('common.actions.cancel')}
          onConfirm={async () => {
            await save.mutateAsync({ person_id: balance.person_id, leave_type: balance.leave_type, year: balance.year, quota: null });
            message.success(t('common.saved'));
            onClose();
          }}
        >
          <Button danger icon={<DeleteOutlined />} data-testid="quota-back-to-rule">
            {t('leave.backToRule')}
          </Button>
        </Popconfirm>
      )}
    </SaveModal>
  );
}

/** The balance rule of a leave type. */
function PolicyDialog({ open, policy, onClose }: { open: boolean; policy: LeavePolicyView; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<LeavePolicy>();
  const save = useSaveLeavePolicy();
  useEffect(() => {
    if (open) form.setFieldsValue(policy);
  }, [open, policy, form]);
  const mode = Form.useWatch('mode', form);
  const tracked = Form.useWatch('tracked', form);
  const submit = async () => {
    const v = await form.validateFields();
    await save.mutateAsync({ ...v, leave_type: policy.leave_type, tiers: v.tiers ?? [] });
    message.success(t('common.saved'));
    onClose();
  };
  const dayInput = (testId?: string) => <InputNumber min={0} max={LEAVE_LIMITS.daysMax} step={0.5} precision={1} style={{ width: 120 }} data-testid={testId} />;
  return (
    <SaveModal
      title={t('leave.policy.titleOf', { type: policy.label })}
      open={open}
      onClose={onClose}
      onSave={() => void submit()}
      saving={save.isPending}
      testId="policy-save"
      width={620}
    >
      <Form form={form} layout="vertical" initialValues={policy}>
        <Form.Item name="tracked" label={t('leave.policy.tracked')} valuePropName="checked" extra={t('leave.policy.trackedHint')}>
          <Switch data-testid="policy-tracked" />
        </Form.Item>
        {tracked && (
          <>
            <Form.Item name="allow_negative" label={t('leave.policy.allowNegative')} valuePropName="checked" extra={t('leave.policy.allowNegativeHint')}>
              <Switch />
            </Form.Item>
            <Form.Item name="mode" label={t('leave.policy.mode')}>
              <Radio.Group
                options={(['manual', 'fixed', 'seniority'] as const).map((m) => ({ value: m, label: t(`leave.policy.modes.${m}`) }))}
                data-testid="policy-mode"
              />
            </Form.Item>
            {mode === 'fixed' && (
              <Form.Item name="days" label={t('leave.policy.days')}>
                {dayInput('policy-days')}
              </Form.Item>
            )}
            {mode === 'seniority' && (
              <Form.Item label={t('leave.policy.tiers')} extra={t('leave.policy.tiersHint')}>
                <Form.List name="tiers">
                  {(fields, { add, remove }) => (
                    <Space orientation="vertical">
                      {fields.map((f) => (
                        <Space key={f.key} align="baseline">
                          {t('leave.policy.fromYears')}
                          <Form.Item name={[f.name, 'years']} noStyle rules={[{ required: true, message: t('leave.required') }]}>
                            <InputNumber min={0} max={60} precision={0} style={{ width: 80 }} />
                          </Form.Item>
                          {t('leave.policy.yearsDays')}
                          <Form.Item name={[f.name, 'days']} noStyle rules={[{ required: true, message: t('leave.required') }]}>
                            {dayInput()}
                          </Form.Item>
                          <Button size="small" icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t('common.actions.delete')} />
                        </Space>
                      ))}
                      <Button
                        icon={<PlusOutlined />}
                        disabled={fields.length >= LEAVE_LIMITS.tiersMax}
                        onClick={() => add({ years: fields.length ? fields.length * 5 : 0, days: 5 })}
                        data-testid="policy-tier-add"
                      >
                        {t('leave.policy.addTier')}
                      </Button>
                    </Space>
                  )}
                </Form.List>
              </Form.Item>
            )}
            <Form.Item name="accrual" label={t('leave.policy.accrual')}>
              <Radio.Group options={(['year', 'month'] as const).map((m) => ({ value: m, label: t(`leave.policy.accruals.${m}`) }))} />
            </Form.Item>
            <Space size="large" wrap>
              <Form.Item name="carry_max" label={t('leave.policy.carryMax')} extra={t('leave.policy.carryMaxHint')}>
                {dayInput()}
              </Form.Item>
              <Form.Item name="carry_months" label={t('leave.policy.carryMonths')} extra={t('leave.policy.carryMonthsHint')}>
                <InputNumber min={0} max={12} precision={0} style={{ width: 120 }} />
              </Form.Item>
            </Space>
          </>
        )}
      </Form>
    </SaveModal>
  );
}

/** Quotas from a sheet: number, leave type, year, quota, carried over. */
function BalanceImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const run = useImportLeaveBalances();
  return (
    <ImportDialog open={open} onClose={onClose} title={t('leave.import.title')} closeLabel={t('leave.import.close')}>
      <ImportPanel
        hint={t('leave.import.hint', { mb: IMPORT_MAX_MB })}
        upload={(file, onProgress) => run.mutateAsync({ file, onProgress })}
        testId="balance-import"
        startTestId="balance-import-start"
      />
    </ImportDialog>
  );
}
