import {
  API_PREFIX,
  CODES,
  RELOGIN_CODES,
  selfApi,
  TIMING,
  type CallEndpoint,
  type Envelope,
  type InputOf,
  type ResponseOf,
  type WorkflowFile,
} from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { getLanguage, i18next } from '../../../lib/i18n.ts';
import { createStore, useStore } from '../../../lib/store.ts';

/**
 * The self-service page's client (issue #11): employees' own session, sent as X-Person-Token and kept apart from
 * the console's administrator token (which is never sent from this page).
 */
const KEY = 'faceadmin.selfToken';

function readToken(): string {
  try {
    return localStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export const selfTokenStore = createStore<string>(readToken(), (token) => {
  try {
    if (token) localStorage.setItem(KEY, token);
    else localStorage.removeItem(KEY);
  } catch {
    // not persisted
  }
});
export const useSelfToken = () => useStore(selfTokenStore);

/** Calls a self-service contract entry; a session that ended signs the person out (the page shows the sign-in). */
export async function selfCall<E extends CallEndpoint>(entry: E, input?: InputOf<E>): Promise<ResponseOf<E>> {
  const token = selfTokenStore.get();
  const headers: Record<string, string> = { 'X-Lang': getLanguage(), Accept: 'application/json' };
  if (token) headers['X-Person-Token'] = token;
  let url = `${API_PREFIX}${entry.path}`;
  let body: string | undefined;
  if (entry.method === 'GET') {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(input ?? {})) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    if (qs.size) url += `?${qs.toString()}`;
  } else {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(input ?? {});
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMING.requestTimeout);
  let envelope: Envelope<ResponseOf<E>>;
  try {
    const res = await fetch(url, { method: entry.method, headers, body, signal: controller.signal });
    envelope = (await res.json().catch(() => null)) as Envelope<ResponseOf<E>>;
    if (typeof envelope?.code !== 'number') throw new ApiError('network', i18next.t('errors.http', { status: res.status }));
  } catch (e) {
    if (controller.signal.aborted) throw new ApiError('timeout', i18next.t('errors.timeout'));
    if (e instanceof ApiError) throw e;
    throw new ApiError('network', i18next.t('errors.network'));
  } finally {
    clearTimeout(timer);
  }
  if (envelope.code !== CODES.OK) {
    if (RELOGIN_CODES.includes(envelope.code) && token === selfTokenStore.get()) selfTokenStore.set('');
    throw new ApiError('api', envelope.message || i18next.t('errors.error'), envelope.code, envelope.data);
  }
  return envelope.data;
}

/** A picture or attachment for the form being filled (multipart, the person's session). */
export async function selfUpload(kind: 'picture' | 'attachment', file: File): Promise<WorkflowFile> {
  const form = new FormData();
  form.append('kind', kind);
  form.append('file', file);
  const headers: Record<string, string> = { 'X-Lang': getLanguage(), Accept: 'application/json' };
  const token = selfTokenStore.get();
  if (token) headers['X-Person-Token'] = token;
  let envelope: Envelope<WorkflowFile> | null;
  try {
    const res = await fetch(`${API_PREFIX}${selfApi.upload.path}`, { method: 'POST', headers, body: form });
    envelope = (await res.json().catch(() => null)) as Envelope<WorkflowFile> | null;
  } catch {
    throw new ApiError('network', i18next.t('errors.network'));
  }
  if (!envelope || typeof envelope.code !== 'number') throw new ApiError('network', i18next.t('errors.network'));
  if (envelope.code !== CODES.OK) throw new ApiError('api', envelope.message || i18next.t('errors.error'), envelope.code, envelope.data);
  return envelope.data;
}
