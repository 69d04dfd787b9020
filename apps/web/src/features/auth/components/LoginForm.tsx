import { useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CODES, type CaptchaImage } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { useCaptcha, useLogin } from '../api.ts';
import { accountProblem, captchaNeeded, passwordProblem, problemMessage, type LoginProblem } from '../logic.ts';
import { CaptchaIcon, ErrorIcon, EyeIcon, LockIcon, UserIcon } from './loginIcons.tsx';
import './loginForm.css';

type Name = 'username' | 'password' | 'icode';
type Values = Record<Name, string>;
type InputProps = InputHTMLAttributes<HTMLInputElement> & { 'data-testid'?: string };

const captchaProblem = (v: string): LoginProblem | null => (v.trim() ? null : 'required');
const PROBLEM: Record<Name, (v: string) => LoginProblem | null> = { username: accountProblem, password: passwordProblem, icode: captchaProblem };

/**
 * Sign-in form. Refuses what spec §5 refuses before sending anything; the captcha appears once the server asks for it
 * or announces it (docs/sign-in-protection.md); a wait the server asks for is shown as its message says.
 *
 * Plain elements, not antd's (#31's first load: the sign-in page comes without antd). As antd's form did: a field is
 * checked as it changes and all of them on submit; besides, the first refused field takes the focus, and each message
 * is tied to its field for screen readers.
 */
export function LoginForm({ onToken, onAttempt }: { onToken: (token: string) => void; onAttempt?: () => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>({ username: '', password: '', icode: '' });
  const [problems, setProblems] = useState<Partial<Record<Name, LoginProblem>>>({});
  const [needCaptcha, setNeedCaptcha] = useState(false);
  const [passwordShown, setPasswordShown] = useState(false);
  const [error, setError] = useState('');
  const captcha = useCaptcha(needCaptcha);
  const login = useLogin();
  const fields: Name[] = needCaptcha ? ['username', 'password', 'icode'] : ['username', 'password'];

  const change = (name: Name, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setProblems((p) => ({ ...p, [name]: PROBLEM[name](value) ?? undefined }));
  };

  const message = (name: Name): string | undefined => {
    const p = problems[name];
    if (!p) return undefined;
    if (name === 'icode') return t('auth.validation.captchaRequired');
    const [key, vars] = problemMessage(p);
    return t(key, vars);
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (login.isPending) return;
    onAttempt?.();
    const found = Object.fromEntries(fields.map((f) => [f, PROBLEM[f](values[f]) ?? undefined]));
    setProblems(found);
    const first = fields.find((f) => found[f]);
    if (first) return document.getElementById(first)?.focus();
    setError('');
    try {
      const res = await login.mutateAsync({
        username: values.username.trim(),
        password: values.password,
        ...(needCaptcha ? { icode: values.icode.trim(), captcha_id: captcha.data?.captcha_id ?? '' } : {}),
      });
      onToken(res.token);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === CODES.CAPTCHA_REQUIRED) setError(err.message || t('auth.captchaRequired'));
      else if (err.code === CODES.BAD_CREDENTIALS) setError(t('auth.badCredentials'));
      else setError(err.message);
      // a captcha is single-use: fetch a fresh one after any failed attempt
      setValues((v) => ({ ...v, icode: '' }));
      if (needCaptcha) void captcha.refetch();
      else if (captchaNeeded(err.code, err.data)) setNeedCaptcha(true);
    }
  };

  /** A field of the form: `suffix` inside its box, `after` beside it. */
  const field = (name: Name, label: string, icon: ReactNode, input: InputProps, { suffix, after }: { suffix?: ReactNode; after?: ReactNode } = {}) => {
    const problem = message(name);
    return (
      <div className="fa-field">
        <label htmlFor={name} className="fa-field-label">
          {label}
        </label>
        <div className="fa-field-row">
          <div className={problem ? 'fa-input fa-input-invalid' : 'fa-input'}>
            {icon}
            <input
              id={name}
              name={name}
              value={values[name]}
              onChange={(e) => change(name, e.target.value)}
              placeholder={label}
              aria-required
              aria-invalid={!!problem}
              aria-describedby={problem ? `${name}-problem` : undefined}
              {...input}
            />
            {suffix}
          </div>
          {after}
        </div>
        {problem && (
          <div id={`${name}-problem`} className="fa-field-problem">
            {problem}
          </div>
        )}
      </div>
    );
  };

  const passwordToggle = (
    <button
      type="button"
      className="fa-input-button"
      aria-label={t('auth.showPassword')} // a toggle: one name, pressed or not
      aria-pressed={passwordShown}
      onClick={() => setPasswordShown((v) => !v)}
    >
      <EyeIcon crossed={!passwordShown} />
    </button>
  );

  return (
    <form className="fa-login-form" onSubmit={(e) => void submit(e)} noValidate autoComplete="on" data-testid="login-form">
      {error && (
        <div className="fa-login-alert" role="alert" data-testid="login-error">
          <ErrorIcon />
          <span>{error}</span>
        </div>
      )}
      {field('username', t('auth.fields.username'), <UserIcon />, { autoComplete: 'username' })}
      {field(
        'password',
        t('auth.fields.password'),
        <LockIcon />,
        { type: passwordShown ? 'text' : 'password', autoComplete: 'current-password' },
        { suffix: passwordToggle },
      )}
      {needCaptcha &&
        field(
          'icode',
          t('auth.fields.captcha'),
          <CaptchaIcon />,
          { autoComplete: 'off', 'data-testid': 'captcha-input' },
          {
            after: <CaptchaImageButton captcha={captcha.data} onRefresh={() => void captcha.refetch()} />,
          },
        )}
      <button type="submit" className="fa-button-primary fa-login-submit" aria-busy={login.isPending} data-testid="login-submit">
        {login.isPending && <span className="fa-spinner fa-spinner-small" aria-hidden />}
        {t('auth.signIn')}
      </button>
    </form>
  );
}

/** The captcha's image: a button that asks for another. */
function CaptchaImageButton({ captcha, onRefresh }: { captcha: CaptchaImage | undefined; onRefresh: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="fa-captcha-button" onClick={onRefresh} title={t('auth.refreshCaptcha')} aria-label={t('auth.refreshCaptcha')}>
      {captcha ? <img className="fa-captcha" src={captcha.image} alt="" /> : <span className="fa-captcha fa-captcha-empty" />}
    </button>
  );
}
