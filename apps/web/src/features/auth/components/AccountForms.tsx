import AntdProviders from '../../../ui/AntdProviders.tsx';
import { ForgotForm } from './ForgotForm.tsx';
import { RegisterForm } from './RegisterForm.tsx';

/**
 * The sign-in page's antd views, registration and the password reset, with antd's providers around them: a chunk the
 * page fetches when one is asked for (the sign-in view goes without antd: #31's first load).
 */
export default function AccountForms({ mode, onToken, onReset }: { mode: 'register' | 'forgot'; onToken: (token: string) => void; onReset: () => void }) {
  return <AntdProviders>{mode === 'register' ? <RegisterForm onToken={onToken} /> : <ForgotForm onDone={onReset} />}</AntdProviders>;
}
