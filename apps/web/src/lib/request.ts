import {
  API_PREFIX,
  CODES,
  RELOGIN_CODES,
  TIMING,
  type CallEndpoint,
  type DownloadEndpoint,
  type Envelope,
  type InputOf,
  type ResponseOf,
  type UploadEndpoint,
} from '@faceadmin/shared';
import { parseEventStream, type StreamEvent } from './eventStream.ts';
import { confirm, toast } from './feedback.ts';
import { getLanguage, i18next } from './i18n.ts';
import { clearToken, getToken, setToken } from './token.ts';

type QueryValue = string | number | boolean | null | undefined;

interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Suppress the error toast (spec §7: "a request option can suppress the error toast"). */
  silent?: boolean;
  /**
   * The caller shows a failure where it happened (a page's or table's error state, ui/ErrorState), so no toast:
   * one message per failure. Unlike `silent`, a session that has ended still asks to sign in again.
   */
  inline?: boolean;
  timeout?: number;
}

/** kind 'api' = the envelope said no; 'timeout' and 'network' = no envelope at all. */
export class ApiError extends Error {
  readonly code: number;
  readonly data: unknown;
  readonly kind: 'api' | 'timeout' | 'network';
  constructor(kind: 'api' | 'timeout' | 'network', message: string, code = 0, data: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.code = code;
    this.data = data;
  }
}

const t = (key: string): string => i18next.t(key);
const ERROR_SECONDS = TIMING.errorToast / 1000;

/**
 * spec §8 error toast. Keyed by its text: the same failure reported by several calls at once (a page's
 * queries all refused, a poll failing again) stays one toast instead of a stack of identical ones.
 */
function toastError(msg: string): void {
  toast({ type: 'error', content: msg, duration: ERROR_SECONDS, key: `error:${msg}` });
}

let reloginOpen = false;

/** spec §8: 50008/50012/50014 ask the user to sign in again. Only one such dialog at a time. */
function askRelogin(msg: string): void {
  if (reloginOpen) return;
  reloginOpen = true;
  confirm({
    title: t('errors.sessionTitle'),
    content: msg || t('errors.relogin'),
    okText: t('errors.reloginButton'),
    cancelText: t('common.actions.cancel'),
    onOk: () => {
      clearToken();
      window.location.reload();
    },
    afterClose: () => {
      reloginOpen = false;
    },
  });
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  }
  const s = qs.toString();
  // spec §7/§9: every call goes to this base
  return `${API_PREFIX}${path}${s ? `?${s}` : ''}`;
}

/** Calls the management API and unwraps the envelope; throws ApiError when the call did not succeed. */
async function request<T>(method: 'GET' | 'POST', path: string, opts: RequestOptions = {}): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeout ?? TIMING.requestTimeout);
  const sent = getToken();
  const headers = apiHeaders(sent);
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';

  let envelope: Envelope<T>;
  try {
    const res = await fetch(buildUrl(path, opts.query), {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: controller.signal,
    });
    // The envelope is authoritative whatever the HTTP status (docs/api-foundation.md). Anything else (a proxy's
    // error page, an empty answer) is reported by its status, not by the JSON parser's complaint.
    envelope = (await res.json().catch(() => null)) as Envelope<T>;
    if (typeof envelope !== 'object' || envelope === null || typeof envelope.code !== 'number') {
      throw new Error(i18next.t('errors.http', { status: res.status }));
    }
  } catch (err) {
    if (controller.signal.aborted) {
      // spec §8: timeouts show nothing
      throw new ApiError('timeout', t('errors.timeout'));
    }
    throw transportError(err instanceof Error ? err.message : String(err), opts.silent || opts.inline);
  } finally {
    clearTimeout(timer);
  }

  return settle(envelope, opts, sent);
}

/**
 * Applies an envelope: refreshed token, error toast / re-login prompt, and the data on success.
 * `sent` is the token the request carried. When the session has changed since (signed out, signed in
 * again, password changed), the answer speaks of a session that is gone: it neither renews the token
 * nor asks to sign in again. A poll still in flight at sign-out used to open that prompt on the login page.
 */
function settle<T>(envelope: Envelope<T>, opts: { silent?: boolean | undefined; inline?: boolean | undefined }, sent: string): T {
  const current = sent === getToken();
  if (envelope.refreshToken && current) setToken(envelope.refreshToken);

  if (envelope.code !== CODES.OK) {
    const msg = envelope.message || t('errors.error');
    const relogin = RELOGIN_CODES.includes(envelope.code);
    if (!opts.silent && (current || !relogin)) {
      if (!opts.inline) toastError(msg);
      if (relogin) askRelogin(envelope.message);
    }
    throw new ApiError('api', msg, envelope.code, envelope.data);
  }
  return envelope.data;
}

function apiHeaders(token: string): Record<string, string> {
  const headers: Record<string, string> = { 'X-Lang': getLanguage(), Accept: 'application/json' };
  if (token) headers['X-Token'] = token;
  return headers;
}

function transportError(msg: string, quiet: boolean | undefined): ApiError {
  if (!quiet) toastError(msg || t('errors.network'));
  return new ApiError('network', msg || t('errors.network'));
}

/**
 * Multipart upload with progress (fetch cannot report upload progress, XMLHttpRequest can).
 * The answer is the usual envelope.
 */
function uploadForm<T>(path: string, form: FormData, opts: { onProgress?: (percent: number) => void; silent?: boolean; timeout?: number } = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(path));
    const sent = getToken();
    for (const [k, v] of Object.entries(apiHeaders(sent))) xhr.setRequestHeader(k, v);
    xhr.timeout = opts.timeout ?? TIMING.requestTimeout;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let envelope: Envelope<T>;
      try {
        envelope = JSON.parse(xhr.responseText) as Envelope<T>;
        if (typeof envelope?.code !== 'number') throw new Error(`HTTP ${xhr.status}`);
      } catch (err) {
        reject(transportError(err instanceof Error ? err.message : String(err), opts.silent));
        return;
      }
      try {
        resolve(settle(envelope, opts, sent));
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    };
    xhr.ontimeout = () => reject(new ApiError('timeout', t('errors.timeout')));
    xhr.onerror = () => reject(transportError(t('errors.network'), opts.silent));
    xhr.send(form);
  });
}

/**
 * Fetches a binary answer (xlsx template, export) and saves it as `filename`.
 * Failures still come as the JSON envelope (docs/api-people.md) and are handled like any call.
 */
/** Options of a download: `onProgress` hears the bytes received so far (a streamed export has no known length). */
export interface DownloadOptions {
  body?: unknown;
  timeout?: number;
  onProgress?: (bytes: number) => void;
}

async function downloadFile(method: 'GET' | 'POST', path: string, filename: string, opts: DownloadOptions = {}): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeout ?? TIMING.requestTimeout);
  const sent = getToken();
  const headers = apiHeaders(sent);
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  let blob: Blob;
  try {
    const res = await fetch(buildUrl(path), {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: controller.signal,
    });
    if ((res.headers.get('content-type') ?? '').includes('application/json')) {
      settle(await (res.json() as Promise<Envelope<unknown>>), {}, sent);
      throw transportError(`HTTP ${res.status}`, false);
    }
    if (!res.ok) throw transportError(`HTTP ${res.status}`, false);
    blob = opts.onProgress && res.body ? await readWithProgress(res.body, res.headers.get('content-type') ?? '', opts.onProgress) : await res.blob();
  } catch (err) {
    if (controller.signal.aborted) throw new ApiError('timeout', t('errors.timeout'));
    if (err instanceof ApiError) throw err;
    throw transportError(err instanceof Error ? err.message : String(err), false);
  } finally {
    clearTimeout(timer);
  }
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The body as a blob, telling `onProgress` the bytes received after each chunk. */
async function readWithProgress(body: ReadableStream<Uint8Array>, type: string, onProgress: (bytes: number) => void): Promise<Blob> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(received);
  }
  return new Blob(chunks as BlobPart[], { type });
}

export type CallOptions = Pick<RequestOptions, 'silent' | 'inline' | 'timeout'>;
/** The input may be left out when the route takes none. */
type CallArgs<E extends CallEndpoint> = undefined extends InputOf<E> ? [input?: InputOf<E>, opts?: CallOptions] : [input: InputOf<E>, opts?: CallOptions];

/** Calls a contract entry (packages/shared/src/contracts): its query (GET) or JSON body (POST) in, its response's data out. */
export function call<E extends CallEndpoint>(entry: E, ...args: CallArgs<E>): Promise<ResponseOf<E>> {
  const [input, opts] = args;
  if (entry.method === 'GET') return request(entry.method, entry.path, { ...opts, query: input as Record<string, QueryValue> | undefined });
  // A POST always carries a JSON body, {} when the route reads none.
  return request(entry.method, entry.path, { ...opts, body: input ?? {} });
}

/** Sends a form to a multipart contract entry (see uploadForm). */
export function upload<E extends UploadEndpoint>(entry: E, form: FormData, opts?: Parameters<typeof uploadForm>[2]): Promise<ResponseOf<E>> {
  return uploadForm(entry.path, form, opts);
}

/** Saves the file a download entry answers as `filename` (see downloadFile); `body` is the entry's JSON body. */
export function download<E extends DownloadEndpoint>(
  entry: E,
  filename: string,
  opts: { body?: InputOf<E>; timeout?: number; onProgress?: (bytes: number) => void } = {},
): Promise<void> {
  return downloadFile(entry.method, entry.path, filename, opts);
}

export type { StreamEvent };

/**
 * Follows a server-sent-events entry (`binary('text/event-stream')` in the contract) with the session's headers,
 * which EventSource cannot send (the token stays out of the URL and so out of access logs). Resolves when the
 * server ends the stream or the signal aborts; a refusal arrives as the envelope and rejects with its ApiError
 * (shown like any call's unless `silent`; `inline`: no toast, but an ended session asks to sign in again); a dropped
 * connection rejects with kind 'network'.
 */
export async function followStream<E extends DownloadEndpoint>(
  entry: E,
  input: InputOf<E>,
  onEvent: (e: StreamEvent) => void,
  opts: { signal: AbortSignal; silent?: boolean; inline?: boolean; lastEventId?: string; onOpen?: () => void },
): Promise<void> {
  const sent = getToken();
  const headers: Record<string, string> = { ...apiHeaders(sent), Accept: 'text/event-stream' };
  if (opts.lastEventId) headers['Last-Event-ID'] = opts.lastEventId;
  let res: Response;
  try {
    res = await fetch(buildUrl(entry.path, input), { headers, signal: opts.signal });
  } catch (err) {
    if (opts.signal.aborted) return;
    throw new ApiError('network', err instanceof Error ? err.message : String(err));
  }
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream') || !res.body) {
    const envelope = (await res.json().catch(() => null)) as Envelope<unknown> | null;
    if (envelope && typeof envelope.code === 'number') settle(envelope, { silent: opts.silent, inline: opts.inline }, sent);
    throw new ApiError('network', i18next.t('errors.http', { status: res.status }));
  }
  // The server answered with the stream: it is open now, before any event (an idle company may send none for long).
  opts.onOpen?.();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const { events, rest } = parseEventStream(buffer + value);
      buffer = rest;
      for (const e of events) onEvent(e);
    }
  } catch (err) {
    if (opts.signal.aborted) return;
    throw new ApiError('network', err instanceof Error ? err.message : String(err));
  }
}
