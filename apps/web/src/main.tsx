import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './lib/i18n.ts';
import './app/global.css';
import { AppProviders } from './app/AppProviders.tsx';
import { installClientErrorReporting, reportClientError } from './lib/clientErrors.ts';
import { getToken } from './lib/token.ts';

installClientErrorReporting();
// A signed-in visit needs the console's shell (a chunk of its own) next: fetched beside the texts, not after them.
if (getToken()) import('./app/layout/Layout.tsx').catch(() => undefined); // a failure shows when the shell is drawn

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
