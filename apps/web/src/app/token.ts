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

function writeCookie(token: string): void {
  if (token) document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; path=/; SameSite=Lax`;
  else document.cookie = `${TOKEN_COOKIE}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax`;
}

export const tokenStore = createStore<string>(readCookie(), writeCookie);

export const getToken = (): string => tokenStore.get();
export const setToken = (token: string): void => tokenStore.set(token);
export const clearToken = (): void => tokenStore.set('');
export const useToken = (): string => useStore(tokenStore);
