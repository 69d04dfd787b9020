import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './lib/i18n.ts';
import './app/global.css';
import { AppProviders } from './app/AppProviders.tsx';
import { installClientErrorReporting } from './lib/clientErrors.ts';

installClientErrorReporting();

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

createRoot(root).render(
  <StrictMode>
    <AppProviders />
  </StrictMode>,
);
