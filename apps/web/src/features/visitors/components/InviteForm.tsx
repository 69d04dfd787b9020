import { useState } from 'react';
import { Alert, Button, DatePicker, Form, Input, Result, Select, Space, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { LIMITS, VISIT_MAX_DAYS, type Ref, type VisitorInvite, type VisitorInvited } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { isoToPicker, pickerToIso } from '../../../ui/format.ts';

interface Values {
  name: string;
  phone: string;
  company?: string;
  reason: string;
  from: Dayjs;
  until: Dayjs;
  device_ids: number[];
}

/** The one-time link once an invitation is made: sent by SMS where configured, else copied and passed on by the inviter. */
export function InvitedLink({ invited, onAgain }: { invited: VisitorInvited; onAgain: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invited.link);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Result
      status="success"
      title={t('visitor.invited', { name: invited.visitor.name })}
      subTitle={invited.sms_sent ? t('visitor.smsSent') : t('visitor.copyHint')}
      extra={
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph copyable={false} code style={{ wordBreak: 'break-all', margin: 0 }} data-testid="visitor-link">
            {invited.link}
          </Typography.Paragraph>
          <Space wrap style={{ justifyContent: 'center' }}>
            <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="visitor-link-copy">
              {copied ? t('visitor.copied') : t('visitor.copy')}
            </Button>
            <Button onClick={onAgain} data-testid="visitor-invite-again">
              {t('visitor.inviteAnother')}
            </Button>
          </Space>
        </Space>
      }
      data-testid="visitor-invited"
    />
  );
}

/**
 * The invitation (#19): name, phone, company, reason, the window (in the company's zone, `zone`) and the doors
 * (devices with "Allow visitors" on). Used by the console and, on a phone, by the self-service page.
 */
export function InviteForm(props: { doors: Ref[] | undefined; zone: string; submit: (v: VisitorInvite) => Promise<VisitorInvited>; onInvited?: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [invited, setInvited] = useState<VisitorInvited>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const fields = ['name', 'phone', 'company', 'reason', 'from', 'until', 'device_ids'] as const;
  const serverField: Record<string, (typeof fields)[number]> = { starts_at: 'from', ends_at: 'until' };

  const save = async () => {
    const v = await form.validateFields();
    setError(undefined);
    setSaving(true);
    try {
      const r = await props.submit({
        name: v.name.trim(),
        phone: v.phone.trim(),
        company: (v.company ?? '').trim(),
        reason: v.reason.trim(),
        starts_at: pickerToIso(v.from, props.zone),
        ends_at: pickerToIso(v.until, props.zone),
        device_ids: v.device_ids,
      });
      setInvited(r);
      props.onInvited?.();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const field = (e.data as { field?: string } | null)?.field?.split('.')[0];
      const name = field ? (serverField[field] ?? (fields as readonly string[]).find((f) => f === field)) : undefined;
      if (name) form.setFields([{ name: name as (typeof fields)[number], errors: [e.message] }]);
      else setError(e.message);
    } finally {
      setSaving(false);
    }
  };

  if (invited)
    return (
      <InvitedLink
        invited={invited}
        onAgain={() => {
          setInvited(undefined);
          form.resetFields();
        }}
      />
    );
  // now, as the company's clock reads it (the pickers show and mean the company's wall time)
  const start = isoToPicker(new Date().toISOString(), props.zone).second(0);
  return (
    <Form form={form} layout="vertical" data-testid="visitor-form" initialValues={{ from: start, until: start.add(2, 'hour') }}>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Form.Item name="name" label={t('visitor.fields.name')} rules={[{ required: true, whitespace: true, max: LIMITS.personNameMax }]}>
        <Input autoComplete="off" data-testid="visitor-name" />
      </Form.Item>
      <Form.Item
        name="phone"
        label={t('visitor.fields.phone')}
        rules={[{ required: true, pattern: /^[0-9+()\- ]{1,20}$/, message: t('common.validation.mobile') }]}
      >
        <Input inputMode="tel" data-testid="visitor-phone" />
      </Form.Item>
      <Form.Item name="company" label={t('visitor.fields.company')} rules={[{ max: LIMITS.textMax }]}>
        <Input data-testid="visitor-company" />
      </Form.Item>
      <Form.Item name="reason" label={t('visitor.fields.reason')} rules={[{ required: true, whitespace: true, max: LIMITS.textMax }]}>
        <Input data-testid="visitor-reason" />
      </Form.Item>
      <Form.Item name="from" label={t('visitor.fields.from')} rules={[{ required: true }]}>
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} inputReadOnly={false} data-testid="visitor-from" />
      </Form.Item>
      <Form.Item
        name="until"
        label={t('visitor.fields.until')}
        extra={t('visitor.maxDays', { count: VISIT_MAX_DAYS })}
        dependencies={['from']}
        rules={[
          { required: true },
          ({ getFieldValue }) => ({
            validator: (_, value?: Dayjs) => {
              const from = getFieldValue('from') as Dayjs | undefined;
              if (!value || !from) return Promise.resolve();
              if (!value.isAfter(from)) return Promise.reject(new Error(t('visitor.windowOrder')));
              if (value.diff(from, 'minute') > VISIT_MAX_DAYS * 24 * 60) return Promise.reject(new Error(t('visitor.maxDays', { count: VISIT_MAX_DAYS })));
              return Promise.resolve();
            },
          }),
        ]}
      >
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} data-testid="visitor-until" />
      </Form.Item>
      <Form.Item
        name="device_ids"
        label={t('visitor.fields.doors')}
        rules={[{ required: true, message: t('visitor.doorsRequired') }]}
        extra={props.doors && props.doors.length === 0 ? t('visitor.noDoors') : undefined}
      >
        <Select
          mode="multiple"
          loading={!props.doors}
          options={(props.doors ?? []).map((d) => ({ value: d.id, label: d.name }))}
          showSearch={{ optionFilterProp: 'label' }}
          data-testid="visitor-doors"
        />
      </Form.Item>
      <Button type="primary" block size="large" loading={saving} onClick={() => void save()} data-testid="visitor-submit">
        {t('visitor.invite')}
      </Button>
    </Form>
  );
}
