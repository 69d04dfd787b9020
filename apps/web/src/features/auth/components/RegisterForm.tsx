import { Button, Form, Input } from 'antd';
import type { RegisterBody } from '@faceadmin/shared';
import { useTranslation } from 'react-i18next';
import { ruleSet } from '../../../ui/rules.ts';
import { useCaptcha, useRegister } from '../api.ts';
import { CaptchaField } from './CaptchaField.tsx';
import { SmsCodeField } from './SmsCodeField.tsx';

type Values = Omit<RegisterBody, 'captcha_id'>;

/**
 * Registration of a new main administrator (spec §5 rules); shown only when PublicConfig.registration. `send`
 * replaces /admin/register (the parking binding page registers through /dzg/register with its code).
 */
export function RegisterForm({ onToken, send }: { onToken: (token: string) => void; send?: (body: RegisterBody) => Promise<{ token: string }> }) {
  const { t } = useTranslation();
  const rules = ruleSet(t);
  const [form] = Form.useForm<Values>();
  const captcha = useCaptcha(true);
  const register = useRegister();

  const submit = async (v: Values) => {
    try {
      const body = { ...v, username: v.username.trim(), captcha_id: captcha.data?.captcha_id ?? '' };
      const res = send ? await send(body) : await register.mutateAsync(body);
      onToken(res.token);
    } catch {
      form.setFieldValue('icode', '');
      void captcha.refetch();
    }
  };

  return (
    <Form form={form} layout="vertical" onFinish={submit} autoComplete="off" data-testid="register-form">
      <Form.Item name="name" label={t('auth.fields.name')} rules={rules.name}>
        <Input />
      </Form.Item>
      <Form.Item name="username" label={t('auth.fields.username')} rules={rules.account}>
        <Input autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" label={t('auth.fields.password')} rules={rules.password}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="repassword" label={t('auth.fields.repassword')} dependencies={['password']} rules={rules.repeat('password')}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="mobile" label={t('auth.fields.mobile')} rules={rules.mobile}>
        <Input autoComplete="tel" />
      </Form.Item>
      <CaptchaField captcha={captcha.data} onRefresh={() => void captcha.refetch()} />
      <SmsCodeField form={form} purpose="register" captchaId={captcha.data?.captcha_id} onCaptchaUsed={() => void captcha.refetch()} />
      <Button type="primary" htmlType="submit" block loading={register.isPending}>
        {t('auth.register')}
      </Button>
    </Form>
  );
}
