import { Card, Flex, Space, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../../../ui/LanguageSelect.tsx';
import { useSystemConfig } from '../../../lib/session.ts';
import { setToken } from '../../../lib/token.ts';
import { ForgotForm } from '../components/ForgotForm.tsx';
import { LoginForm } from '../components/LoginForm.tsx';
import { RegisterForm } from '../components/RegisterForm.tsx';

type Mode = 'login' | 'register' | 'forgot';

/** /login, /login?mode=register, /login?mode=forgot — one page, three views. */
export default function LoginPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const config = useSystemConfig().data;
  const requested = params.get('mode');
  const mode: Mode = requested === 'register' && config?.registration ? 'register' : requested === 'forgot' && config?.sms ? 'forgot' : 'login';

  const setMode = (m: Mode) => {
    const next = new URLSearchParams(params);
    if (m === 'login') next.delete('mode');
    else next.set('mode', m);
    setParams(next, { replace: true });
  };

  // The Guard sends a signed-in user from /login to ?redirect= (or /); navigating here as well would race it.
  const signedIn = (token: string) => setToken(token);

  const title = { login: t('auth.signInTitle'), register: t('auth.registerTitle'), forgot: t('auth.forgotTitle') }[mode];

  return (
    <div className="fa-login">
      <Card
        className="fa-login-card"
        title={
          <Flex justify="space-between" align="center">
            <span>{config?.title || t('layout.appName')}</span>
            <LanguageSelect />
          </Flex>
        }
      >
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {title}
        </Typography.Title>
        {mode === 'login' && <LoginForm onToken={signedIn} />}
        {mode === 'register' && <RegisterForm onToken={signedIn} />}
        {mode === 'forgot' && <ForgotForm onDone={() => setMode('login')} />}
        <Flex justify="space-between" style={{ marginTop: 16 }}>
          <Space>
            {mode !== 'login' && <Typography.Link onClick={() => setMode('login')}>{t('auth.backToSignIn')}</Typography.Link>}
            {mode === 'login' && config?.registration && <Typography.Link onClick={() => setMode('register')}>{t('auth.register')}</Typography.Link>}
          </Space>
          {mode === 'login' && config?.sms && <Typography.Link onClick={() => setMode('forgot')}>{t('auth.forgot')}</Typography.Link>}
        </Flex>
        {config?.version && (
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 16, fontSize: 12, textAlign: 'center' }}>
            {t('auth.version', { version: config.version })}
          </Typography.Text>
        )}
      </Card>
    </div>
  );
}
