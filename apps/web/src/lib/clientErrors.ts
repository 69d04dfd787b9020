import { CLIENT_ERROR_LIMITS as L, systemApi, type ClientErrorKind, type ClientErrorReport } from '@faceadmin/shared';
import { call } from './request.ts';

/** The console build (vite.config.ts defines it: version + build time). */
declare const __FACEADMIN_RELEASE__: string;
const RELEASE = typeof __FACEADMIN_RELEASE__ === 'string' ? __FACEADMIN_RELEASE__ : '';

// What the server's text fields refuse (packages/shared contracts/request.ts): control characters except tab and
// line breaks, and bidirectional overrides.

const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
const clean = (s: string, max: number) => s.replace(FORBIDDEN, '').slice(0, max);

/** One page load sends each error once and at most this many in all: a render loop must not flood the server. */
const PER_PAGE_LOAD = 20;
const sent = new Set<string>();

/** The page's address without its query string and fragment (they may carry a token or a person's id). */
const pageUrl = () => `${location.origin}${location.pathname}`.slice(0, L.urlMax);

function describe(reason: unknown): { message: string; stack: string } {
  if (reason instanceof Error) return { message: `${reason.name}: ${reason.message}`, stack: reason.stack ?? '' };
  if (typeof reason === 'string') return { message: reason, stack: '' };
  try {
    return { message: JSON.stringify(reason) ?? String(reason), stack: '' };
  } catch {
    return { message: String(reason), stack: '' };
  }
}

/**
 * spec §8: in production, the console's errors go to the server's internal list (System → Client errors); the server
 * deduplicates and limits them. Never throws and never shows anything: reporting must not make things worse.
 */
export function reportClientError(kind: ClientErrorKind, reason: unknown, componentStack?: string): void {
  if (!import.meta.env.PROD) return;
  const { message, stack } = describe(reason);
  const body: ClientErrorReport = {
    kind,
    message: clean(message, L.messageMax) || kind,
    stack: clean(stack, L.stackMax),
    url: pageUrl(),
    ...(componentStack ? { component_stack: clean(componentStack, L.stackMax) } : {}),
    ...(RELEASE ? { release: RELEASE.slice(0, L.releaseMax) } : {}),
  };
  const key = `${body.message}\n${body.stack?.split('\n')[1] ?? ''}`;
  if (sent.has(key) || sent.size >= PER_PAGE_LOAD) return;
  sent.add(key);
  call(systemApi.reportClientError, body, { silent: true }).catch(() => {});
}

let installed = false;
/** Uncaught errors and unhandled promise rejections of the whole page (main.tsx installs it once). */
export function installClientErrorReporting(): void {
  if (installed) return;
  installed = true;
  window.addEventListener('error', (e) => {
    // A failed <img>/<script> load also fires 'error' (without an Error): not a program error.
    if (e.error === undefined && !e.message) return;
    reportClientError('error', e.error ?? e.message);
  });
  window.addEventListener('unhandledrejection', (e) => {
    // The API client's refusals are shown to the user already (toast, relogin): not a program error.
    if (e.reason instanceof Error && e.reason.name === 'ApiError') return;
    reportClientError('rejection', e.reason);
  });
}
