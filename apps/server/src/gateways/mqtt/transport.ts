import { pbkdf2Sync, randomBytes } from 'node:crypto';
import type { BreakerEvents, BreakerOp, OpResult } from '../breaker-events.ts';
import { decodeInbound, decodeResult, encodeRequest } from './codec.ts';

/** What both brokers share: request/reply correlation, the per-device budget, and the inbound dispatch. */

export interface TransportLog {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Counters a test or the bench reads. */
export interface GatewayStats {
  received: number;
  dropped: { invalid: number; flood: number };
  refused: { connect: number; publish: number; subscribe: number };
}
export const newStats = (): GatewayStats => ({ received: 0, dropped: { invalid: 0, flood: 0 }, refused: { connect: 0, publish: 0, subscribe: 0 } });

/** A token bucket per device: `rate` messages a second, bursts of twice that. */
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
    const cap = this.rate * 2;
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

/** Requests in flight by breaker and id; each resolves with the reply, or `timeout`. */
export class Rpc {
  private next = 1;
  private readonly pending = new Map<string, { op: BreakerOp; resolve: (r: OpResult) => void; timer: NodeJS.Timeout }>();
  send(uuid: string, op: BreakerOp, timeoutMs: number, publish: (topic: string, payload: string) => void): Promise<OpResult> {
    const id = this.next++;
    if (this.next > 2_000_000_000) this.next = 1;
    const { topic, payload } = encodeRequest(uuid, id, op);
    return new Promise((resolve) => {
      const key = `${uuid}#${id}`;
      const timer = setTimeout(() => {
        this.pending.delete(key);
        resolve({ ok: false, reason: 'timeout' });
      }, timeoutMs);
      this.pending.set(key, { op, resolve, timer });
      try {
        publish(topic, payload);
      } catch {
        clearTimeout(timer);
        this.pending.delete(key);
        resolve({ ok: false, reason: 'offline' });
      }
    });
  }
  reply(uuid: string, id: number, body: { result?: unknown; error?: { code: number; message: string } }) {
    const key = `${uuid}#${id}`;
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    clearTimeout(p.timer);
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
  }
  close() {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.resolve({ ok: false, reason: 'offline' });
    }
    this.pending.clear();
  }
}

/**
 * One message from a breaker's prefix. `onlineFromTopic`: whether `<prefix>/online` decides presence (an
 * external broker) or the broker's own connect/disconnect does (embedded). Never throws.
 */
export function dispatch(
  deps: { events: BreakerEvents; rpc: Rpc; stats: GatewayStats; log: TransportLog; onlineFromTopic: boolean },
  topic: string,
  payload: Buffer | string,
): void {
  const { events, stats } = deps;
  stats.received++;
  const m = decodeInbound(topic, payload, Date.now());
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
