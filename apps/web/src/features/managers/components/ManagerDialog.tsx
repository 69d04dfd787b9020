import { useEffect } from 'react';
import { Checkbox, Col, Form, Input, Radio, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { SaveModal } from '../../../ui/SaveModal.tsx';
import { ADMIN_ROLES, FUNCTION_RIGHT_KEYS, LIMITS, MANAGER_STATUSES, MOBILE_PATTERN, type FunctionRight, type Manager } from '@faceadmin/shared';
import { ruleSet } from '../../../ui/rules.ts';
import { useCreateManager, useUpdateManager } from '../api.ts';
import type { ManagerFormValues } from '../logic.ts';

interface Props {
  open: boolean;
  /** undefined = create */
  manager: Manager | undefined;
  onClose: () => void;
}

// The mobile number is optional for administrators, but must be valid when given.
const OPTIONAL_MOBILE = new RegExp(`^$|${MOBILE_PATTERN}`);

const EMPTY: Partial<ManagerFormValues> = { status: 'normal', role: 'sub', rights: [] };

/** Create / edit an administrator (spec §5: password ≥ 6, repeated; blank on edit keeps it). */
export function ManagerDialog({ open, manager, onClose }: Props) {
  const { t } = useTranslation();
  const rules = ruleSet(t);
  const [form] = Form.useForm<ManagerFormValues>();
  const create = useCreateManager();
  const update = useUpdateManager();
  const editing = Boolean(manager);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(manager ? { ...manager, password: '', repassword: '' } : EMPTY);
  }, [open, manager, form]);

  const submit = async () => {
    const v = await form.validateFields();
    const body: ManagerFormValues = { ...v, name: v.name.trim(), username: v.username.trim(), mobile: v.mobile?.trim() ?? '', rights: v.rights ?? [] };
    if (manager) await update.mutateAsync({ id: manager.id, body });
    else await create.mutateAsync(body);
    onClose();
  };

  // "all" already grants everything, so it is exclusive with the individual boxes.
  const onRightsChange = (list: FunctionRight[]) => {
    const prev: FunctionRight[] = form.getFieldValue('rights') ?? [];
    const justAll = list.includes('all') && !prev.includes('all');
    form.setFieldValue('rights', justAll ? ['all'] : list.filter((r) => r !== 'all' || list.length === 1));
  };

  const passwordRules = editing ? [{ min: LIMITS.passwordMin, message: t('common.validation.passwordMin', { min: LIMITS.passwordMin }) }] : rules.password;

  return (
    <SaveModal
      title={editing ? t('manager.edit') : t('manager.create')}
      open={open}
      onClose={onClose}
      onSave={() => void submit().catch(() => undefined)}
      saving={create.isPending || update.isPending}
      width={640}
    >
      <Form form={form} layout="vertical" autoComplete="off" data-testid="manager-form">
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="name" label={t('manager.fields.name')} rules={rules.name}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="username" label={t('manager.fields.username')} rules={rules.account}>
              <Input disabled={editing} maxLength={LIMITS.accountMax} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="password" label={t('manager.fields.password')} rules={passwordRules}>
              <Input.Password placeholder={editing ? t('manager.passwordKeep') : undefined} autoComplete="new-password" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="repassword"
              label={t('manager.fields.repassword')}
              dependencies={['password']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: (_, v) => {
                    const pw = getFieldValue('password') as string | undefined;
                    if (!pw && !v) return editing ? Promise.resolve() : Promise.reject(new Error(t('common.validation.required')));
                    return v === pw ? Promise.resolve() : Promise.reject(new Error(t('common.validation.passwordMismatch')));
                  },
                }),
              ]}
            >
              <Input.Password placeholder={editing ? t('manager.passwordKeep') : undefined} autoComplete="new-password" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="mobile" label={t('manager.fields.mobile')} rules={[{ pattern: OPTIONAL_MOBILE, message: t('common.validation.mobile') }]}>
              <Input autoComplete="off" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="status" label={t('manager.fields.status')} rules={[rules.required]}>
              <Select options={MANAGER_STATUSES.map((s) => ({ value: s, label: t(`manager.statuses.${s}`) }))} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="role" label={t('manager.fields.role')} rules={[rules.required]}>
              <Radio.Group options={ADMIN_ROLES.map((r) => ({ value: r, label: t(`manager.roles.${r}`) }))} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="rights" label={t('manager.fields.rights')}>
              <Checkbox.Group onChange={(v) => onRightsChange(v)} options={FUNCTION_RIGHT_KEYS.map((k) => ({ value: k, label: t(`manager.rights.${k}`) }))} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </SaveModal>
  );
}
