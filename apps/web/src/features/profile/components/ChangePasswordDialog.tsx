import { useEffect } from 'react';
import { App, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { SaveModal } from '../../../ui/SaveModal.tsx';
import { LIMITS, TIMING, type ChangePwdBody } from '@faceadmin/shared';
import { ruleSet } from '../../../ui/rules.ts';
import { useChangePassword } from '../api.ts';

/** spec §2 profile dialog: current, new, repeated new password; closes 0.5 s after success. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<ChangePwdBody>();
  const change = useChangePassword();
  const rules = ruleSet(t);

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  const submit = async () => {
    const values = await form.validateFields();
    await change.mutateAsync(values);
    message.success(t('profile.passwordChanged'));
    setTimeout(onClose, TIMING.profileClose);
  };

  return (
    <SaveModal
      title={t('profile.changePassword')}
      open={open}
      onClose={onClose}
      onSave={() => void submit().catch(() => undefined)}
      saving={change.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" autoComplete="off" data-testid="change-password-form">
        <Form.Item name="orig" label={t('profile.fields.orig')} rules={[rules.required]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="new"
          label={t('profile.fields.new')}
          rules={[rules.required, { min: LIMITS.passwordMin, message: t('common.validation.passwordMin', { min: LIMITS.passwordMin }) }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="renew" label={t('profile.fields.renew')} dependencies={['new']} rules={rules.repeat('new')}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </SaveModal>
  );
}
