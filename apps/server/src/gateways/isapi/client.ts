import { createHash, randomBytes } from 'node:crypto';
import { ISAPI_CODES, parseUserCheck } from './codec.ts';

/**
 * HTTP to ISAPI terminals with digest authentication (RFC 7616, the RFC 2617 forms Hikvision firmware
 * answers: qop=auth, MD5 or SHA-256, -sess variants). Written on node:crypto and the built-in fetch: the
 * whole scheme is one challenge parse and three hashes, not worth a dependency.
 *
 * Every terminal gets its own small queue (`perDevice` requests at once) and every request a deadline and a
 * body cap, so a slow, hung or hostile terminal only ever delays its own work, and an answer never grows
 * the server's memory past `maxBodyBytes`. A door open (`urgent`) has a slot of its own beside that queue: two
 * slow requests in flight never hold up the door.
 */

/** Where and as whom the server dials a terminal. */
export interface IsapiTarget {
  /** the device id: the key of its queue and of its digest session */
  id: number;
  host: string;
  port: number;
  user: string;
  password: string;
}

export interface IsapiHttpRequest {
  method: string;
  path: string;
  contentType?: string | undefined;
  body?: Buffer | undefined;
  /** this request's deadline when it is not the client's (a firmware upload takes minutes) */
  timeoutMs?: number | undefined;
  /** a door open: on the terminal's own urgent slot, never queued behind its other requests */
  urgent?: boolean | undefined;
  /** this answer's cap when lower than the client's (a face picture: a terminal's own file, not a document) */
  maxBodyBytes?: number | undefined;
}

export interface IsapiResponse {
  status: number;
  contentType: string;
  body: Buffer;
  text: string;
}

/** An answer read as it arrives (IsapiClient.stream). */
export interface IsapiStream {
  status: number;
  contentType: string;
  /** the body of an answer other than 2xx (capped), '' otherwise */
  text: string;
  chunks: AsyncGenerator<Buffer>;
  close(): void;
}

/** A request that did not get an answer to judge: unreachable, timed out, refused our password, or too big. */
export class IsapiTransportError extends Error {
  readonly code: number;
  /** a locked account: how long until the terminal unlocks it (trying earlier only prolongs the lock) */
  readonly retryAfterMs: number | undefined;
  constructor(code: number, message: string, retryAfterMs?: number) {
    super(message);
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The terminal gave no answer at all, or refused our account: not something an optional call may survive. */
export const silentOrRefused = (e: unknown): e is IsapiTransportError =>
  e instanceof IsapiTransportError &&
  (e.code === ISAPI_CODES.timeout || e.code === ISAPI_CODES.unreachable || e.code === ISAPI_CODES.wrongPassword || e.code === ISAPI_CODES.locked);

interface Challenge {
  realm: string;
  nonce: string;
  opaque: string | undefined;
  qop: string | undefined;
  algorithm: string;
  nc: number;
}

/** The parameters of each Digest challenge in a WWW-Authenticate value (several may be joined by commas). */
export function parseChallenges(header: string): Challenge[] {
  const out: Challenge[] = [];
  for (const chunk of header.split(/,?\s*(?=\bDigest\s)/i)) {
    if (!/^Digest\s/i.test(chunk)) continue;
    const params: Record<string, string> = {};
    const re = /([a-zA-Z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(chunk.slice(7)))) params[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? '';
    if (!params.nonce || params.realm === undefined) continue;
    const qops = (params.qop ?? '').split(',').map((q) => q.trim());
    out.push({
      realm: params.realm,
      nonce: params.nonce,
      opaque: params.opaque,
      qop: qops.includes('auth') ? 'auth' : undefined,
      algorithm: (params.algorithm ?? 'MD5').toUpperCase(),
      nc: 0,
    });
  }
  return out;
}

const HASHES: Record<string, string> = { MD5: 'md5', 'MD5-SESS': 'md5', 'SHA-256': 'sha256', 'SHA-256-SESS': 'sha256' };
/** Prefer SHA-256 where the terminal offers it (RFC 7616 §3.7: the client picks the strongest it knows). */
export function pickChallenge(cs: Challenge[]): Challenge | undefined {
  return cs.find((c) => c.algorithm.startsWith('SHA-256')) ?? cs.find((c) => c.algorithm in HASHES);
}

/** The Authorization header for one request under a challenge (increments its nonce count). */
export function digestAuthorization(
  c: Challenge,
  user: string,
  password: string,
  method: string,
  uri: string,
  cnonce = randomBytes(8).toString('hex'),
): string {
  const h = (s: string) =>
    createHash(HASHES[c.algorithm] ?? 'md5')
      .update(s, 'utf8')
      .digest('hex');
  let ha1 = h(`${user}:${c.realm}:${password}`);
  if (c.algorithm.endsWith('-SESS')) ha1 = h(`${ha1}:${c.nonce}:${cnonce}`);
  const ha2 = h(`${method}:${uri}`);
  c.nc++;
  const nc = c.nc.toString(16).padStart(8, '0');
  const response = c.qop ? h(`${ha1}:${c.nonce}:${nc}:${cnonce}:${c.qop}:${ha2}`) : h(`${ha1}:${c.nonce}:${ha2}`);
  const q = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;
  const parts = [`username=${q(user)}`, `realm=${q(c.realm)}`, `nonce=${q(c.nonce)}`, `uri=${q(uri)}`, `algorithm=${c.algorithm}`, `response=${q(response)}`];
  if (c.opaque !== undefined) parts.push(`opaque=${q(c.opaque)}`);
  if (c.qop) parts.push(`qop=${c.qop}`, `nc=${nc}`, `cnonce=${q(cnonce)}`);
  return `Digest ${parts.join(', ')}`;
}

/**
 * A tiny FIFO semaphore with a lane of one for urgent work: an urgent call never waits for the ordinary ones
 * (only for another urgent call), so a door open goes out while slow requests hold every ordinary slot.
 */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private urgentActive = 0;
  private readonly urgentWaiting: (() => void)[] = [];
  private readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  async run<T>(fn: () => Promise<T>, urgent = false): Promise<T> {
    if (urgent) {
      if (this.urgentActive >= 1) await new Promise<void>((r) => this.urgentWaiting.push(r));
      this.urgentActive++;
      try {
        return await fn();
      } finally {
        this.urgentActive--;
        this.urgentWaiting.shift()?.();
      }
    }
    if (this.active >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
  get idle() {
    return this.active === 0 && this.waiting.length === 0 && this.urgentActive === 0 && this.urgentWaiting.length === 0;
  }
}

export interface IsapiClientOptions {
  /** deadline of one request, answer body included */
  timeoutMs?: number;
  /** the largest answer read; a bigger one is cut off and refused */
  maxBodyBytes?: number;
  /** requests one terminal gets at once (terminals are small computers: 2 keeps one busy without drowning it) */
  perDevice?: number;
}

export type IsapiClient = ReturnType<typeof isapiClient>;

export function isapiClient(opts: IsapiClientOptions = {}) {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const maxBodyBytes = opts.maxBodyBytes ?? 4 * 1024 * 1024;
  const gates = new Map<number, Gate>();
  const sessions = new Map<string, Challenge>();
  const sessionKey = (t: IsapiTarget) => `${t.id}|${t.host}|${t.port}|${t.user}`;
  // Closing the server cuts every call at once instead of waiting for their deadlines.
  const closing = new AbortController();

  async function readCapped(res: Response, signal: AbortSignal, cap = maxBodyBytes): Promise<Buffer> {
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > cap) {
      await res.body?.cancel().catch(() => undefined);
      throw new IsapiTransportError(ISAPI_CODES.badResponse, `answer of ${declared} bytes is over the ${cap} cap`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    if (!res.body) return Buffer.alloc(0);
    const reader = res.body.getReader();
    for (;;) {
      if (signal.aborted) throw new IsapiTransportError(ISAPI_CODES.timeout, 'timed out');
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (e) {
        // a body cut off by our deadline, or by the terminal
        throw new IsapiTransportError(signal.aborted ? ISAPI_CODES.timeout : ISAPI_CODES.badResponse, `answer cut off: ${(e as Error).message}`);
      }
      const { done, value } = chunk;
      if (done) break;
      size += value.byteLength;
      if (size > cap) {
        await reader.cancel().catch(() => undefined);
        throw new IsapiTransportError(ISAPI_CODES.badResponse, `answer over the ${cap} byte cap`);
      }
      chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    }
    return Buffer.concat(chunks);
  }

  async function once(t: IsapiTarget, req: IsapiHttpRequest, auth: string | undefined, signal: AbortSignal) {
    const headers: Record<string, string> = {};
    if (auth) headers.authorization = auth;
    if (req.contentType) headers['content-type'] = req.contentType;
    const host = t.host.includes(':') ? `[${t.host}]` : t.host;
    let res: Response;
    try {
      res = await fetch(`http://${host}:${t.port}${req.path}`, {
        method: req.method,
        headers,
        ...(req.body ? { body: new Uint8Array(req.body) } : {}),
        signal,
        redirect: 'manual',
      });
    } catch (e) {
      if (signal.aborted) throw new IsapiTransportError(ISAPI_CODES.timeout, 'timed out');
      throw new IsapiTransportError(
        ISAPI_CODES.unreachable,
        `unreachable: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`,
      );
    }
    return res;
  }

  async function send(t: IsapiTarget, req: IsapiHttpRequest): Promise<IsapiResponse> {
    if (closing.signal.aborted) throw new IsapiTransportError(ISAPI_CODES.unreachable, 'closed');
    const signal = AbortSignal.any([AbortSignal.timeout(req.timeoutMs ?? timeoutMs), closing.signal]);
    const res = await authorized(t, req, signal);
    const body = await readCapped(res, signal, Math.min(req.maxBodyBytes ?? maxBodyBytes, maxBodyBytes));
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', body, text: body.toString('utf8') };
  }

  /** The answer to a request made under digest (a refused password throws): its body not read yet. */
  async function authorized(t: IsapiTarget, req: IsapiHttpRequest, signal: AbortSignal): Promise<Response> {
    const key = sessionKey(t);
    // Digest: reuse the last challenge (the nonce count goes up) and answer a fresh one when asked.
    for (let attempt = 0; attempt < 3; attempt++) {
      const c = sessions.get(key);
      const res = await once(t, req, c ? digestAuthorization(c, t.user, t.password, req.method, req.path) : undefined, signal);
      if (res.status === 401) {
        // The refusal's body says whether the account is locked after wrong passwords, and for how long.
        const lock = parseUserCheck(
          await readCapped(res, signal).then(
            (b) => b.toString('utf8'),
            () => '',
          ),
        );
        if (lock?.locked) {
          sessions.delete(key);
          const s = lock.unlockSeconds;
          throw new IsapiTransportError(
            ISAPI_CODES.locked,
            `the terminal locked the account after wrong passwords${s ? ` for ${s} s` : ''}`,
            s ? s * 1000 : undefined,
          );
        }
        const fresh = pickChallenge(parseChallenges(res.headers.get('www-authenticate') ?? ''));
        // A known nonce refused without `stale`: the password is wrong (retrying only counts towards the
        // terminal's lock-out).
        const stale = /stale\s*=\s*"?true/i.test(res.headers.get('www-authenticate') ?? '');
        if (!fresh || (c && !stale && attempt > 0) || (c && !stale && c.nonce === fresh.nonce)) {
          sessions.delete(key);
          throw new IsapiTransportError(ISAPI_CODES.wrongPassword, 'the terminal refused the account or password');
        }
        sessions.set(key, fresh);
        continue;
      }
      return res;
    }
    sessions.delete(key);
    throw new IsapiTransportError(ISAPI_CODES.wrongPassword, 'the terminal refused the account or password');
  }

  return {
    /** One request through the terminal's queue; throws IsapiTransportError when there is no answer to judge. */
    request(t: IsapiTarget, req: IsapiHttpRequest): Promise<IsapiResponse> {
      let gate = gates.get(t.id);
      if (!gate) gates.set(t.id, (gate = new Gate(opts.perDevice ?? 2)));
      const g = gate;
      return g
        .run(() => send(t, req), req.urgent === true)
        .finally(() => {
          if (g.idle) gates.delete(t.id);
        });
    },
    /**
     * A long-lived answer read as it comes (the alertStream): the same digest, a deadline only until the answer's
     * head arrives, then `idleMs` at most between two chunks instead of a deadline for the whole. Outside the
     * terminal's request queue (it would hold a slot for hours). An answer other than 2xx is read whole (capped)
     * into `text`, with no chunks. Chunks end when the terminal closes, throw IsapiTransportError on silence
     * (timeout) or a cut; `close()` (or closing the client) ends them.
     */
    async stream(t: IsapiTarget, req: IsapiHttpRequest, idleMs: number): Promise<IsapiStream> {
      if (closing.signal.aborted) throw new IsapiTransportError(ISAPI_CODES.unreachable, 'closed');
      const own = new AbortController();
      const signal = AbortSignal.any([own.signal, closing.signal]);
      const head = setTimeout(() => own.abort(), timeoutMs);
      let res: Response;
      try {
        res = await authorized(t, req, signal);
      } finally {
        clearTimeout(head);
      }
      const contentType = res.headers.get('content-type') ?? '';
      if (res.status < 200 || res.status >= 300) {
        const body = await readCapped(res, AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]));
        return { status: res.status, contentType, text: body.toString('utf8'), chunks: (async function* () {})(), close() {} };
      }
      const reader = res.body?.getReader();
      let idle = false;
      async function* chunks(): AsyncGenerator<Buffer> {
        if (!reader) return;
        for (;;) {
          const timer = setTimeout(() => {
            idle = true;
            own.abort();
          }, idleMs);
          let r: Awaited<ReturnType<typeof reader.read>>;
          try {
            r = await reader.read();
          } catch (e) {
            if (idle) throw new IsapiTransportError(ISAPI_CODES.timeout, `no bytes for ${idleMs} ms`);
            if (signal.aborted) return;
            throw new IsapiTransportError(ISAPI_CODES.unreachable, `stream cut: ${(e as Error).message}`);
          } finally {
            clearTimeout(timer);
          }
          if (r.done) return;
          yield Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength);
        }
      }
      return {
        status: res.status,
        contentType,
        text: '',
        chunks: chunks(),
        close() {
          own.abort();
          void reader?.cancel().catch(() => undefined);
        },
      };
    },
    /** Cuts every request in flight; later ones fail at once. */
    close() {
      closing.abort();
    },
    /** Forget a terminal's digest session (its address or password changed). */
    forget(id: number) {
      for (const k of sessions.keys()) if (k.startsWith(`${id}|`)) sessions.delete(k);
    },
  };
}
