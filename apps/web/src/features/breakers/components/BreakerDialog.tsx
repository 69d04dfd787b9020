import { useEffect } from 'react';
import { App, Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { SaveModal } from '../../../ui/SaveModal.tsx';
import { BREAKER_LIMITS, CODES, type Breaker, type BrokerAddress } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { useSaveBreaker } from '../api.ts';
import { UUID_RE } from '../logic.ts';

interface Values {
  alias: string;
  uuid: string;
  sort: number | null;
  linenum: number | null;
}

interface Props {
  open: boolean;
  /** undefined: register a new breaker */
  breaker: Breaker | undefined;
  onClose: () => void;
  /** A new breaker's MQTT password, shown once (the server never answers it again). */
  onCreated: (breaker: Breaker, password: string, broker: BrokerAddress) => void;
}

/** Register / edit a breaker. spec §5: uuid (device number) and sort are required. */
export function BreakerDialog({ open, breaker, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const save = useSaveBreaker();
  const editing = Boolean(breaker);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      breaker ? { alias: breaker.alias, uuid: breaker.uuid, sort: breaker.sort, linenum: breaker.linenum } : { alias: '', uuid: '', sort: 1, linenum: 4 },
    );
  }, [open, breaker, form]);

  const submit = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = { alias: v.alias.trim(), uuid: v.uuid.trim(), sort: v.sort ?? 0, ...(v.linenum ? { linenum: v.linenum } : {}) };
    try {
      const r = await save.mutateAsync({ id: breaker?.id, body });
      message.success(t('common.saved'));
      onClose();
      if ('password' in r) onCreated(r.breaker, r.password, r.broker);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const field = (e.data as { field?: string } | null)?.field?.replace(/^\/+/, '').split('.')[0];
      if ((e.code === CODES.VALIDATION || e.code === CODES.RULE) && field && field in form.getFieldsValue())
        form.setFields([{ name: field as keyof Values, errors: [e.message] }]);
      else if (e.code === CODES.CONFLICT) form.setFields([{ name: 'uuid', errors: [e.message] }]);
      message.error(e.message);
    }
  };

  const required = { required: true, message: t('common.validation.required') };
  return (
    <SaveModal
      title={editing ? t('breaker.edit') : t('breaker.create')}
      open={open}
      onClose={onClose}
      onSave={() => void submit()}
      saving={save.isPending}
      testId="breaker-save"
    >
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="alias" label={t('breaker.fields.alias')} rules={[{ max: BREAKER_LIMITS.aliasMax }]}>
          <Input maxLength={BREAKER_LIMITS.aliasMax} placeholder={t('breaker.aliasHint')} />
        </Form.Item>
        <Form.Item
          name="uuid"
          label={t('breaker.fields.uuid')}
          extra={editing ? t('breaker.uuidChangeHint') : t('breaker.uuidHint')}
          rules={[
            { ...required, whitespace: true },
            { pattern: UUID_RE, message: t('breaker.validation.uuid', { min: 4, max: BREAKER_LIMITS.uuidMax }) },
          ]}
        >
          <Input maxLength={BREAKER_LIMITS.uuidMax} autoComplete="off" />
        </Form.Item>
        <Form.Item name="sort" label={t('breaker.fields.sort')} rules={[required]}>
          <InputNumber min={0} max={BREAKER_LIMITS.sortMax} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="linenum" label={t('breaker.fields.linenum')} extra={editing ? t('breaker.linenumHint') : undefined}>
          <InputNumber min={BREAKER_LIMITS.linesMin} max={BREAKER_LIMITS.linesMax} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </SaveModal>
  );
}
