import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSystemConfig } from '../../../lib/session.ts';
import { setToken } from '../../../lib/token.ts';
import { PageLoading } from '../../../ui/PageLoading.tsx';
import { LoginForm } from '../components/LoginForm.tsx';
import { LoginLanguage } from '../components/LoginLanguage.tsx';
import './login.css';

type Mode = 'login' | 'register' | 'forgot';

// Registration and the password reset are antd forms, with antd's providers: fetched when asked for. The sign-in view
// itself is drawn without antd, so a first visit goes without it (#31's first load).
const AccountForms = lazy(() => import('../components/AccountForms.tsx'));

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

  // after a password reset, the sign-in view says so until the next attempt (the reset form and its antd messages are
  // gone by then)
  const [reset, setReset] = useState(false);

  const title = { login: t('auth.signInTitle'), register: t('auth.registerTitle'), forgot: t('auth.forgotTitle') }[mode];

  return (
    <div className="fa-login">
      <main className="fa-login-card">
        <header className="fa-login-head">
          <span className="fa-login-app">{config?.title || t('layout.appName')}</span>
          <LoginLanguage />
        </header>
        <div className="fa-login-body">
          <h1 className="fa-login-title">{title}</h1>
          {/* a live region present from the start, so the notice put in it is announced */}
          <div role="status">{mode === 'login' && reset && <p className="fa-login-notice">{t('auth.passwordReset')}</p>}</div>
          {mode === 'login' ? (
            <LoginForm onToken={signedIn} onAttempt={() => setReset(false)} />
          ) : (
            <Suspense fallback={<PageLoading />}>
              <AccountForms
                mode={mode}
                onToken={signedIn}
                onReset={() => {
                  setReset(true);
                  setMode('login');
                }}
              />
            </Suspense>
          )}
          <div className="fa-login-links">
            <span>
              {mode !== 'login' && (
                <button type="button" className="fa-link" onClick={() => setMode('login')}>
                  {t('auth.backToSignIn')}
                </button>
              )}
              {mode === 'login' && config?.registration && (
                <button type="button" className="fa-link" onClick={() => setMode('register')}>
                  {t('auth.register')}
                </button>
              )}
            </span>
            {mode === 'login' && config?.sms && (
              <button type="button" className="fa-link" onClick={() => setMode('forgot')}>
                {t('auth.forgot')}
              </button>
            )}
          </div>
          {config?.version && <p className="fa-login-version">{t('auth.version', { version: config.version })}</p>}
        </div>
      </main>
    </div>
  );
}
