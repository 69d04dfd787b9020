import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CODES } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { useCaptcha, useLogin } from '../api.ts';
import { accountProblem, captchaNeeded, passwordProblem, problemMessage, type LoginProblem } from '../logic.ts';
import { CaptchaField } from './CaptchaField.tsx';

interface Values {
  username: string;
  password: string;
  icode?: string;
}

/**
 * Sign-in form. Refuses what spec §5 refuses before sending anything; the captcha appears once the server asks for it
 * or announces it (docs/sign-in-protection.md); a wait the server asks for is shown as its message says.
 */
export function LoginForm({ onToken }: { onToken: (token: string) => void }) {
  const { t } = useTranslation();
  const rule = (problem: (v: string | undefined) => LoginProblem | null) => ({
    validator: (_: unknown, v: string | undefined) => {
      const p = problem(v);
      if (!p) return Promise.resolve();
      const [key, values] = problemMessage(p);
      return Promise.reject(new Error(t(key, values)));
    },
  });
  const [form] = Form.useForm<Values>();
  const [needCaptcha, setNeedCaptcha] = useState(false);
  const [error, setError] = useState('');
  const captcha = useCaptcha(needCaptcha);
  const login = useLogin();

  const submit = async (v: Values) => {
    setError('');
    try {
      const res = await login.mutateAsync({
        username: v.username.trim(),
        password: v.password,
        ...(needCaptcha ? { icode: v.icode?.trim() ?? '', captcha_id: captcha.data?.captcha_id ?? '' } : {}),
      });
      onToken(res.token);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.code === CODES.CAPTCHA_REQUIRED) setError(e.message || t('auth.captchaRequired'));
      else if (e.code === CODES.BAD_CREDENTIALS) setError(t('auth.badCredentials'));
      else setError(e.message);
      // a captcha is single-use: fetch a fresh one after any failed attempt
      form.setFieldValue('icode', '');
      if (needCaptcha) void captcha.refetch();
      else if (captchaNeeded(e.code, e.data)) setNeedCaptcha(true);
    }
  };

  return (
    <Form form={form} layout="vertical" onFinish={submit} autoComplete="on" data-testid="login-form">
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="login-error" />}
      <Form.Item name="username" label={t('auth.fields.username')} required rules={[rule(accountProblem)]}>
        <Input prefix={<UserOutlined />} autoComplete="username" placeholder={t('auth.fields.username')} />
      </Form.Item>
      <Form.Item name="password" label={t('auth.fields.password')} required rules={[rule(passwordProblem)]}>
        <Input.Password prefix={<LockOutlined />} autoComplete="current-password" placeholder={t('auth.fields.password')} />
      </Form.Item>
      {needCaptcha && <CaptchaField captcha={captcha.data} onRefresh={() => void captcha.refetch()} />}
      <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="login-submit">
        {t('auth.signIn')}
      </Button>
    </Form>
  );
}
