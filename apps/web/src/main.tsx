import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './lib/i18n.ts';
// antd's component styles as one stylesheet (AppProviders sets zeroRuntime): the theme colour, sizes and the dark
// screens still apply, through the CSS variables antd writes for each theme at run time.
import 'antd/dist/antd.css';
import './app/global.css';
import { AppProviders } from './app/AppProviders.tsx';
import { installClientErrorReporting } from './lib/clientErrors.ts';

installClientErrorReporting();

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

// Drawn once the console's language has arrived (a failed fetch draws anyway: the texts come with the next switch).
void i18nReady
  .catch(() => undefined)
  .then(() =>
    createRoot(root).render(
      <StrictMode>
        <AppProviders />
      </StrictMode>,
    ),
  );
