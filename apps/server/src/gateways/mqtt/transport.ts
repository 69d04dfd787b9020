import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { BREAKER_LIMITS } from '@faceadmin/shared';
import type { BreakerEvents, BreakerOp, OpResult } from '../breaker-events.ts';
import { decodeInbound, decodeResult, encodeRequest, parseTopic, type Inbound } from './codec.ts';

/** What both brokers share: request/reply correlation, the per-device budget, and the inbound dispatch. */

export interface TransportLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Counters a test or the bench reads. */
export interface GatewayStats {
  received: number;
  dropped: { invalid: number; flood: number };
  refused: { connect: number; publish: number; subscribe: number };
  /**
   * messages that did not count against the budget: replies to the server's requests, the status they caused, and
   * replies that came after the server stopped waiting (LATE_REPLY_MS)
   */
  exempt: { replies: number; caused: number; late: number };
}
export const newStats = (): GatewayStats => ({
  received: 0,
  dropped: { invalid: 0, flood: 0 },
  refused: { connect: 0, publish: 0, subscribe: 0 },
  exempt: { replies: 0, caused: 0, late: 0 },
});

/**
 * What a breaker publishes on its own when it connects (docs/breaker-protocol.md §7): `online`, the retained
 * status of each line, one `NotifyStatus`. The burst is never smaller, whatever MQTT_RATE says.
 */
export const CONNECT_MESSAGES = 1 + BREAKER_LIMITS.linesMax + 1;

/** A token bucket per device: `rate` messages a second, bursts of twice that (at least a connect's messages). */
export class DeviceBudget {
  private readonly buckets = new Map<string, { tokens: number; at: number; since: number; lastDrop: number }>();
  private readonly rate: number;
  private readonly now: () => number;
  constructor(rate: number, now: () => number = Date.now) {
    this.rate = rate;
    this.now = now;
  }
  /** 'ok', 'drop' (over budget), or 'kick' (dropping for 10 s with no quiet second between). */
  take(uuid: string): 'ok' | 'drop' | 'kick' {
    const now = this.now();
    const cap = Math.max(this.rate * 2, CONNECT_MESSAGES);
    let b = this.buckets.get(uuid);
    if (!b) {
      b = { tokens: cap, at: now, since: 0, lastDrop: -Infinity };
      this.buckets.set(uuid, b);
    }
    b.tokens = Math.min(cap, b.tokens + ((now - b.at) / 1000) * this.rate);
    b.at = now;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 'ok';
    }
    if (now - b.lastDrop > 1000) b.since = now;
    b.lastDrop = now;
    return now - b.since >= 10_000 ? 'kick' : 'drop';
  }
  forget(uuid: string) {
    this.buckets.delete(uuid);
  }
}

/**
 * How long after the server's last request to a breaker is settled (answered, timed out) the status messages
 * that request caused may still arrive free of the budget.
 */
export const CAUSED_WINDOW_MS = 2000;

/**
 * How long after a request timed out its reply, and the status messages it causes, are still known as the server's
 * own: a breaker on a slow link, or a server too busy to read its socket in time, answers late. The late reply settles
 * nothing (the caller was told "timeout"), but it is no flood: it passes free of the budget, once, and so do the
 * status messages the request causes (its credits) until then.
 */
export const LATE_REPLY_MS = 60_000;

/**
 * The status messages (retained `status/switch:<n>`, `NotifyStatus`, `NotifyEvent`) a request makes a breaker
 * send by the protocol (docs/breaker-protocol.md §3): a switch republishes and notifies the line's status (and
 * `alarm_cleared` when it closes a tripped line); a self-check does so twice (off, then the running check);
 * new limits are a status change. Nothing else changes a status.
 */
export function causedBy(op: BreakerOp): number {
  if (op.op === 'switch') return op.toggleAfter ? 4 : 3;
  if (op.op === 'limits') return 2;
  return 0;
}

/** Requests in flight by breaker and id; each resolves with the reply, or `timeout`. */
export class Rpc {
  private next = 1;
  private readonly pending = new Map<string, { op: BreakerOp; resolve: (r: OpResult) => void; timer: NodeJS.Timeout }>();
  /**
   * Per breaker: requests in flight, the status messages they may still cause (credits), and until when a settled
   * one's may arrive. Credits come only from the server's own requests, so a breaker cannot earn them.
   */
  private readonly windows = new Map<string, { open: number; credits: number; until: number }>();
  /**
   * Requests that timed out, by breaker, then id: until when their reply is still free (LATE_REPLY_MS), and the status
   * messages each may still cause then (its own credits: a breaker that never answers cannot pool them).
   */
  private readonly late = new Map<string, Map<number, { until: number; credits: number; answered: boolean }>>();
  private readonly now: () => number;
  constructor(now: () => number = Date.now) {
    this.now = now;
  }
  send(uuid: string, op: BreakerOp, timeoutMs: number, publish: (topic: string, payload: string) => void): Promise<OpResult> {
    const id = this.next++;
    if (this.next > 2_000_000_000) this.next = 1;
    const { topic, payload } = encodeRequest(uuid, id, op);
    return new Promise((resolve) => {
      const key = `${uuid}#${id}`;
      const timer = setTimeout(() => {
        this.pending.delete(key);
        this.settled(uuid);
        const late = this.lateOf(uuid) ?? new Map<number, { until: number; credits: number; answered: boolean }>();
        late.set(id, { until: this.now() + LATE_REPLY_MS, credits: causedBy(op), answered: false });
        this.late.set(uuid, late);
        resolve({ ok: false, reason: 'timeout' });
      }, timeoutMs);
      this.pending.set(key, { op, resolve, timer });
      const w = this.windows.get(uuid) ?? { open: 0, credits: 0, until: 0 };
      w.open++;
      w.credits += causedBy(op);
      this.windows.set(uuid, w);
      try {
        publish(topic, payload);
      } catch {
        clearTimeout(timer);
        this.pending.delete(key);
        this.settled(uuid);
        resolve({ ok: false, reason: 'offline' });
      }
    });
  }
  private settled(uuid: string) {
    const w = this.windows.get(uuid);
    if (!w) return;
    w.open = Math.max(0, w.open - 1);
    w.until = this.now() + CAUSED_WINDOW_MS;
  }
  /** This breaker's timed-out requests still within LATE_REPLY_MS (those past it are dropped here). */
  private lateOf(uuid: string) {
    const late = this.late.get(uuid);
    if (!late) return undefined;
    const now = this.now();
    for (const [id, l] of late) if (now > l.until) late.delete(id);
    if (late.size) return late;
    this.late.delete(uuid);
    return undefined;
  }
  /** Whether the server waits for any reply of this breaker, or one came late (cheap: checked before a reply is decoded). */
  expecting(uuid: string): boolean {
    return (this.windows.get(uuid)?.open ?? 0) > 0 || this.lateOf(uuid) !== undefined;
  }
  /** Whether `id` is a request of the server to this breaker that timed out within LATE_REPLY_MS: true once. */
  lateReply(uuid: string, id: number): boolean {
    const l = this.lateOf(uuid)?.get(id);
    if (!l || l.answered) return false;
    l.answered = true;
    // what it caused follows its reply: its credits last CAUSED_WINDOW_MS more
    l.until = Math.min(l.until, this.now() + CAUSED_WINDOW_MS);
    return true;
  }
  /** Whether `id` is a request of the server to this breaker still waiting for its reply. */
  awaits(uuid: string, id: number): boolean {
    return this.pending.has(`${uuid}#${id}`);
  }
  /**
   * A status message of this breaker while a request is in flight or within CAUSED_WINDOW_MS after: true (and one
   * credit spent) when it may be one the request caused. Once the window closes, unspent credits are gone.
   */
  caused(uuid: string): boolean {
    const w = this.windows.get(uuid);
    if (w && w.open === 0 && this.now() > w.until) this.windows.delete(uuid);
    else if (w && w.credits > 0) {
      w.credits--;
      return true;
    }
    // else one a timed-out request caused, late (each its own credits, within its time)
    for (const l of this.lateOf(uuid)?.values() ?? [])
      if (l.credits > 0) {
        l.credits--;
        return true;
      }
    return false;
  }
  reply(uuid: string, id: number, body: { result?: unknown; error?: { code: number; message: string } }) {
    const key = `${uuid}#${id}`;
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    clearTimeout(p.timer);
    this.settled(uuid);
    p.resolve(decodeResult(p.op, body));
  }
  /** The breaker went away: its requests fail at once rather than at their timeout. */
  abandon(uuid: string) {
    for (const [key, p] of this.pending) {
      if (!key.startsWith(`${uuid}#`)) continue;
      this.pending.delete(key);
      clearTimeout(p.timer);
      p.resolve({ ok: false, reason: 'offline' });
    }
    this.windows.delete(uuid);
    this.late.delete(uuid);
  }
  close() {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.resolve({ ok: false, reason: 'offline' });
    }
    this.pending.clear();
    this.windows.clear();
    this.late.clear();
  }
}

/**
 * Whether one message a breaker published under its prefix reaches the server (docs/breaker-protocol.md §1
 * "Floods"). Free of the budget: a reply whose id is a request the server is waiting for (once: the reply settles
 * it) or gave up on within LATE_REPLY_MS (once), and the status messages that request causes (causedBy, within
 * CAUSED_WINDOW_MS of its answer; of a timed-out one, within LATE_REPLY_MS, or CAUSED_WINDOW_MS of its late reply).
 * Everything else spends
 * the device's budget: 'drop' over it, 'kick' after 10 s of flooding. `decoded`: the reply, already read.
 */
export function admit(
  deps: { rpc: Rpc; budget: DeviceBudget; stats: GatewayStats },
  uuid: string,
  topic: string,
  payload: Buffer | string,
): { verdict: 'ok' | 'drop' | 'kick'; decoded?: Inbound } {
  const t = parseTopic(topic);
  if (t && t.uuid === uuid) {
    if (t.kind === 'reply' && deps.rpc.expecting(uuid)) {
      const decoded = decodeInbound(topic, payload, Date.now());
      if (decoded.kind === 'reply' && deps.rpc.awaits(uuid, decoded.id)) {
        deps.stats.exempt.replies++;
        return { verdict: 'ok', decoded };
      }
      // too late to settle anything (Rpc.reply ignores it), but the server's own request all the same
      if (decoded.kind === 'reply' && deps.rpc.lateReply(uuid, decoded.id)) {
        deps.stats.exempt.late++;
        return { verdict: 'ok', decoded };
      }
      const verdict = spend(deps, uuid);
      return verdict === 'ok' ? { verdict, decoded } : { verdict };
    }
    if ((t.kind === 'status' || t.kind === 'events') && deps.rpc.caused(uuid)) {
      deps.stats.exempt.caused++;
      return { verdict: 'ok' };
    }
  }
  return { verdict: spend(deps, uuid) };
}

function spend(deps: { budget: DeviceBudget; stats: GatewayStats }, uuid: string) {
  const verdict = deps.budget.take(uuid);
  if (verdict !== 'ok') deps.stats.dropped.flood++;
  return verdict;
}

/**
 * One message from a breaker's prefix. `onlineFromTopic`: whether `<prefix>/online` decides presence (an
 * external broker) or the broker's own connect/disconnect does (embedded). Never throws.
 */
export function dispatch(
  deps: { events: BreakerEvents; rpc: Rpc; stats: GatewayStats; log: TransportLog; onlineFromTopic: boolean },
  topic: string,
  payload: Buffer | string,
  decoded?: Inbound,
): void {
  const { events, stats } = deps;
  stats.received++;
  const m = decoded ?? decodeInbound(topic, payload, Date.now());
  const fail = (err: unknown) => deps.log.error({ err, topic }, 'breaker message failed');
  switch (m.kind) {
    case 'invalid':
      stats.dropped.invalid++;
      deps.log.debug({ uuid: m.uuid, why: m.why }, 'breaker frame dropped');
      return;
    case 'ignored':
      return;
    case 'online':
      if (!deps.onlineFromTopic) return;
      (m.online ? events.connected(m.uuid) : events.disconnected(m.uuid)).catch(fail);
      if (!m.online) deps.rpc.abandon(m.uuid);
      return;
    case 'reply':
      deps.rpc.reply(m.uuid, m.id, m);
      return;
    case 'readings':
      if (m.lines.length) events.readings(m.uuid, m.lines, m.at);
      return;
    case 'events':
      if (m.events.length) events.events(m.uuid, m.events).catch(fail);
      return;
  }
}

/** Mosquitto's `$7$` password hash (PBKDF2-SHA512, 101 rounds, 12-byte salt), for its password file. */
export function mosquittoHash(password: string, iterations = 101): string {
  const salt = randomBytes(12);
  const key = pbkdf2Sync(password, salt, iterations, 64, 'sha512');
  return `$7$${iterations}$${salt.toString('base64')}$${key.toString('base64')}`;
}
