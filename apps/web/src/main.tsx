import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './lib/i18n.ts';
import './app/global.css';
import { AppProviders } from './app/AppProviders.tsx';
import { installClientErrorReporting, reportClientError } from './lib/clientErrors.ts';
import { getToken } from './lib/token.ts';

installClientErrorReporting();
// A signed-in visit needs the console's shell and antd (chunks of their own) next: fetched beside the texts, not after
// them. On the sign-in page (drawn without either: #31's first load), they are fetched once the user starts typing in
// its form, so signing in does not wait for them. A failure shows when the shell is drawn.
const fetchShell = () => {
  import('./app/layout/Layout.tsx').catch(() => undefined);
  import('./ui/AntdProviders.tsx').catch(() => undefined);
};
if (getToken()) fetchShell();
else {
  const typing = (e: Event) => {
    if (!(e.target instanceof Element) || !e.target.closest('[data-testid="login-form"]')) return;
    document.removeEventListener('input', typing);
    fetchShell();
  };
  document.addEventListener('input', typing);
}

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

// Drawn once the console's language has arrived. A failed fetch is reported and the console drawn anyway: its texts
// come with a reload or the next choice of a language (lib/i18n.ts redraws when they arrive).
void i18nReady
  .catch((err: unknown) => reportClientError('rejection', err))
  .then(() =>
    createRoot(root).render(
      <StrictMode>
        <AppProviders />
      </StrictMode>,
    ),
  );
