import { Button, Form, Input } from 'antd';
import type { ForgetBody } from '@faceadmin/shared';
import { useTranslation } from 'react-i18next';
import { ruleSet } from '../../../ui/rules.ts';
import { useCaptcha, useForget } from '../api.ts';
import { CaptchaField } from './CaptchaField.tsx';
import { SmsCodeField } from './SmsCodeField.tsx';

type Values = ForgetBody & { icode: string };

/** Password reset by SMS code (mobile, code, new password twice); `onDone` once the new password is set. */
export function ForgotForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const rules = ruleSet(t);
  const [form] = Form.useForm<Values>();
  const captcha = useCaptcha(true);
  const forget = useForget();

  const submit = async ({ mobile, smscode, password, repassword }: Values) => {
    await forget.mutateAsync({ mobile, smscode, password, repassword });
    onDone(); // the sign-in view says the password was reset
  };

  return (
    <Form form={form} layout="vertical" onFinish={(v) => void submit(v).catch(() => undefined)} autoComplete="off">
      <Form.Item name="mobile" label={t('auth.fields.mobile')} rules={rules.mobile}>
        <Input autoComplete="tel" />
      </Form.Item>
      <CaptchaField captcha={captcha.data} onRefresh={() => void captcha.refetch()} />
      <SmsCodeField form={form} purpose="forget" captchaId={captcha.data?.captcha_id} onCaptchaUsed={() => void captcha.refetch()} />
      <Form.Item name="password" label={t('auth.fields.newPassword')} rules={rules.password}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="repassword" label={t('auth.fields.repassword')} dependencies={['password']} rules={rules.repeat('password')}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={forget.isPending}>
        {t('auth.resetPassword')}
      </Button>
    </Form>
  );
}
