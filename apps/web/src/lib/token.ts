import { createStore, useStore } from './store.ts';

// spec §9: the session token lives in the Admin-Token cookie and in session state.
export const TOKEN_COOKIE = 'Admin-Token';

function readCookie(): string {
  const prefix = `${TOKEN_COOKIE}=`;
  for (const part of document.cookie.split(';')) {
    const p = part.trim();
    if (p.startsWith(prefix)) return decodeURIComponent(p.slice(prefix.length));
  }
  return '';
}

/**
 * The console's script reads the token (spec §9), so the cookie cannot be HttpOnly: the server's CSP is what keeps
 * other script away from it (docs/deploy.md "Security headers"). Served over https (directly or behind the proxy, the
 * page's own protocol either way) it is Secure: the browser never sends it over plain http.
 */
const attributes = (): string => `path=/; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;

function writeCookie(token: string): void {
  if (token) document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; ${attributes()}`;
  else document.cookie = `${TOKEN_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; ${attributes()}`;
}

export const tokenStore = createStore<string>(readCookie(), writeCookie);

export const getToken = (): string => tokenStore.get();
export const setToken = (token: string): void => tokenStore.set(token);
export const clearToken = (): void => tokenStore.set('');
export const useToken = (): string => useStore(tokenStore);
