// An emulated smart circuit breaker speaking docs/breaker-protocol.md over MQTT: N lines with load curves,
// protections (overcurrent, over-power, leakage, over-temperature) that trip the line, switch and self-check
// commands, limits, its own schedule table (executed by itself), and presence (online / last will).

import { EventEmitter } from 'node:events';
import mqtt, { type MqttClient } from 'mqtt';

export interface BreakerOptions {
  /** mqtt://host:port */
  url: string;
  uuid: string;
  password: string;
  lines?: number;
  /** NotifyStatus period (default 5000 ms) */
  reportMs?: number;
  /** simulation step (default 1000 ms) */
  tickMs?: number;
  /** the breaker's clock (tests move it to run a timer now) */
  now?: () => number;
  /** base load per line, W (default: drawn 150..1200) */
  baseLoadW?: number[];
  /** meter reading per line at start, Wh (default: drawn 0..50,000); the demo continues its recorded series */
  energyWh?: number[];
  maxJobs?: number;
  keepalive?: number;
  /** reconnect after a lost connection (default 1000 ms; 0: never) */
  reconnectMs?: number;
  /** publish retained `status/switch:<n>` on changes (default true) */
  retainStatus?: boolean;
  /** the MQTT client id: the uuid, as docs/breaker-protocol.md §1 requires (tests of the broker's rule set another) */
  clientId?: string;
}

export interface Job {
  id: number;
  enable: boolean;
  timespec: string;
  once: boolean;
  calls: { method: string; params: { id: number; on: boolean } }[];
}

interface Line {
  on: boolean;
  baseW: number;
  power: number;
  voltage: number;
  current: number;
  energyWh: number;
  temperature: number;
  leakage: number;
  errors: Set<string>;
  powerLimit: number;
  currentLimit: number;
  /** a forced fault until this instant: 'overcurrent' | 'leakage' | 'overtemp' | 'overpower' */
  fault: { kind: string; until: number } | null;
  selfcheckUntil: number | null;
}

export type BreakerEvent =
  | { type: 'connected' }
  | { type: 'refused'; reason: string }
  | { type: 'offline' }
  | { type: 'request'; method: string; params: unknown }
  | { type: 'switched'; index: number; on: boolean; by: 'command' | 'schedule' | 'selfcheck' | 'trip' }
  | { type: 'trip'; index: number; kind: string; value: number }
  | { type: 'schedule'; id: number };

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const ERR = { parse: -32700, request: -32600, method: -32601, invalid: -103, notFound: -105, full: -109 } as const;
const LEAKAGE_TRIP_MA = 30;
const TEMP_TRIP_C = 85;
/** How long stop() waits for the broker at each step before it cuts the connection. */
const STOP_GRACE_MS = 3000;

/** A daily shape: low at night, peaks in the morning and evening (0.25..1.25). */
function dailyShape(localHour: number): number {
  const morning = Math.exp(-((localHour - 8) ** 2) / 4);
  const evening = Math.exp(-((localHour - 20) ** 2) / 6);
  return 0.25 + 0.6 * morning + 1.0 * evening;
}

/** Local wall time in an IANA zone. */
function localParts(ms: number, tz: string) {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    weekday: 'short',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const dow = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(p.weekday!);
  return { month: Number(p.month), day: Number(p.day), hour: Number(p.hour), minute: Number(p.minute), dow };
}

function specMatches(spec: string, t: ReturnType<typeof localParts>): boolean {
  const parts = spec.trim().split(/\s+/);
  if (parts.length !== 6) return false;
  const ok = (f: string, v: number) => f === '*' || f.split(',').some((x) => Number(x) === v);
  return ok(parts[1]!, t.minute) && ok(parts[2]!, t.hour) && ok(parts[3]!, t.day) && ok(parts[4]!, t.month) && ok(parts[5]!, t.dow);
}

function validSpec(spec: unknown): spec is string {
  if (typeof spec !== 'string') return false;
  const parts = spec.trim().split(/\s+/);
  return parts.length === 6 && parts.every((p) => p === '*' || /^\d{1,2}(,\d{1,2})*$/.test(p));
}

export class EmulatedBreaker extends EventEmitter {
  readonly uuid: string;
  readonly lines: Line[];
  readonly jobs = new Map<number, Job>();
  tz = 'UTC';
  private rev = 0;
  private nextJob = 1;
  private client: MqttClient | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastTick: number;
  private lastReport = 0;
  private lastMinute = '';
  private readonly o: Required<Omit<BreakerOptions, 'baseLoadW' | 'energyWh' | 'clientId'>> & { clientId?: string };
  private readonly prefix: string;
  private readonly started: number;
  connected = false;
  /** A slow link: each request is carried out (its statuses, then its reply) this long after it arrives. */
  answerDelayMs = 0;

  constructor(opts: BreakerOptions) {
    super();
    this.o = {
      lines: 2,
      reportMs: 5000,
      tickMs: 1000,
      now: Date.now,
      maxJobs: 20,
      keepalive: 30,
      reconnectMs: 1000,
      retainStatus: true,
      ...opts,
    };
    this.uuid = opts.uuid;
    this.prefix = `fa/${opts.uuid}`;
    this.lastTick = this.o.now();
    this.started = this.lastTick;
    this.lines = Array.from({ length: this.o.lines }, (_, i) => ({
      on: true,
      baseW: opts.baseLoadW?.[i] ?? 150 + Math.round(Math.random() * 1050),
      power: 0,
      voltage: 220,
      current: 0,
      energyWh: opts.energyWh?.[i] ?? Math.round(Math.random() * 50_000),
      temperature: 30,
      leakage: 0.3,
      errors: new Set<string>(),
      powerLimit: 6600,
      currentLimit: 32,
      fault: null,
      selfcheckUntil: null,
    }));
    for (let i = 0; i < this.lines.length; i++) this.simulate(i, 0);
  }

  /** Connects (resolves on the first CONNACK, rejects when refused) and starts simulating. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const client = mqtt.connect(this.o.url, {
        clientId: this.o.clientId ?? this.uuid,
        username: this.uuid,
        password: this.o.password,
        keepalive: this.o.keepalive,
        reconnectPeriod: this.o.reconnectMs,
        connectTimeout: 5000,
        clean: true,
        will: { topic: `${this.prefix}/online`, payload: Buffer.from('false'), retain: true, qos: 1 },
      });
      this.client = client;
      let first = true;
      client.on('connect', () => {
        this.connected = true;
        // Replies are small frames right after others: do not let Nagle's algorithm hold them.
        (client.stream as { setNoDelay?: (v: boolean) => void } | undefined)?.setNoDelay?.(true);
        client.subscribe(`${this.prefix}/rpc`, { qos: 1 }, () => {
          client.publish(`${this.prefix}/online`, 'true', { retain: true, qos: 1 });
          for (let i = 0; i < this.lines.length; i++) this.publishStatus(i);
          this.emit('event', { type: 'connected' } satisfies BreakerEvent);
          if (first) {
            first = false;
            resolve();
          }
        });
      });
      client.on('error', (err) => {
        this.emit('event', { type: 'refused', reason: err.message } satisfies BreakerEvent);
        if (first) {
          first = false;
          client.end(true);
          reject(err);
        }
      });
      client.on('close', () => {
        if (this.connected) this.emit('event', { type: 'offline' } satisfies BreakerEvent);
        this.connected = false;
      });
      client.on('message', (topic, payload) => {
        if (this.answerDelayMs > 0) setTimeout(() => this.onRequest(topic, payload), this.answerDelayMs).unref();
        else this.onRequest(topic, payload);
      });
      if (!this.timer) {
        this.timer = setInterval(() => this.tick(), this.o.tickMs);
        this.timer.unref();
      }
    });
  }

  /** Goes offline cleanly (says `online: false` first). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const c = this.client;
    this.client = null;
    if (!c) return;
    // Each wait is bounded: a stop that hung on a broker that never acknowledged (the PUBACK of this last word, or an
    // in-flight message end() waits for) once held a test file's process open for 15 minutes. Past the bound the
    // connection is cut, as a breaker losing power would.
    const within = (p: Promise<unknown>) =>
      Promise.race([
        p.then(
          () => true,
          () => true,
        ),
        new Promise<boolean>((r) => setTimeout(() => r(false), STOP_GRACE_MS).unref()),
      ]);
    if (c.connected) await within(c.publishAsync(`${this.prefix}/online`, 'false', { retain: true, qos: 1 }));
    if (!(await within(c.endAsync()))) await c.endAsync(true);
    this.connected = false;
  }

  /** Drops the connection without a word (the broker publishes the last will). */
  async kill(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const c = this.client;
    this.client = null;
    if (!c) return;
    // Destroy the socket so the broker sees a lost connection and publishes the will.
    (c.stream as { destroy?: () => void } | undefined)?.destroy?.();
    await c.endAsync(true);
    this.connected = false;
  }

  /** Publishes anything (tests of the broker's rules). */
  raw(topic: string, payload: string | Buffer, retain = false): Promise<unknown> {
    if (!this.client) throw new Error('not started');
    return this.client.publishAsync(topic, payload, { qos: 0, retain });
  }
  /** Subscribes to anything (tests of the broker's rules); resolves with the granted QoS list. */
  async rawSubscribe(filter: string): Promise<number[]> {
    if (!this.client) throw new Error('not started');
    try {
      const granted = await this.client.subscribeAsync(filter, { qos: 0 });
      return granted.map((g) => g.qos);
    } catch (err) {
      const granted = (err as { packet?: { granted?: number[] } }).packet?.granted;
      if (granted) return granted;
      throw err;
    }
  }
  get mqtt(): MqttClient | null {
    return this.client;
  }

  /** Forces a fault on a line: the next step reads over its limit and the protection trips. */
  fault(index: number, kind: 'overcurrent' | 'overpower' | 'leakage' | 'overtemp', ms = 3000) {
    const l = this.lines[index];
    if (!l) throw new Error(`no line ${index}`);
    l.fault = { kind, until: this.o.now() + ms };
    this.tick();
  }

  /** Sets the clock-driven state now (tests call it after moving `now`). */
  tick() {
    const now = this.o.now();
    const dt = Math.max(0, now - this.lastTick);
    this.lastTick = now;
    for (let i = 0; i < this.lines.length; i++) {
      const l = this.lines[i]!;
      if (l.selfcheckUntil !== null && now >= l.selfcheckUntil) {
        l.selfcheckUntil = null;
        l.on = true;
        this.emit('event', { type: 'switched', index: i, on: true, by: 'selfcheck' } satisfies BreakerEvent);
        this.notifyEvent([{ component: `switch:${i}`, id: i, event: 'selfcheck_done', ok: true, ts: now / 1000 }]);
        this.publishStatus(i);
      }
      this.simulate(i, dt);
      this.protect(i);
    }
    this.runSchedules(now);
    if (now - this.lastReport >= this.o.reportMs) {
      this.lastReport = now;
      this.notifyStatus();
    }
  }

  private simulate(i: number, dtMs: number) {
    const l = this.lines[i]!;
    const now = this.o.now();
    if (l.fault && now > l.fault.until) l.fault = null;
    l.voltage = round(220 + (Math.random() - 0.5) * 6, 1);
    if (!l.on) {
      l.power = 0;
      l.current = 0;
      l.leakage = 0;
      l.temperature = round(Math.max(25, l.temperature - dtMs / 60_000), 1);
      return;
    }
    const hour = localParts(now, this.tz).hour;
    let power = l.baseW * dailyShape(hour) * (0.9 + Math.random() * 0.2);
    let leakage = 0.2 + Math.random() * 0.5;
    let temperature = 30 + power / 200;
    const f = l.fault?.kind;
    if (f === 'overcurrent') power = Math.max(power, l.currentLimit * l.voltage * 1.3);
    if (f === 'overpower') power = Math.max(power, l.powerLimit * 1.2);
    if (f === 'leakage') leakage = LEAKAGE_TRIP_MA + 5;
    if (f === 'overtemp') temperature = TEMP_TRIP_C + 5;
    l.power = round(power, 1);
    l.current = round(power / l.voltage, 2);
    l.leakage = round(leakage, 1);
    l.temperature = round(temperature, 1);
    l.energyWh = round(l.energyWh + (power * dtMs) / 3_600_000, 3);
  }

  private protect(i: number) {
    const l = this.lines[i]!;
    if (!l.on) return;
    let kind: string | null = null;
    let value = 0;
    if (l.current > l.currentLimit) [kind, value] = ['overcurrent', l.current];
    else if (l.power > l.powerLimit) [kind, value] = ['overpower', l.power];
    else if (l.leakage >= LEAKAGE_TRIP_MA) [kind, value] = ['leakage', l.leakage];
    else if (l.temperature >= TEMP_TRIP_C) [kind, value] = ['overtemp', l.temperature];
    if (!kind) return;
    l.errors.add(kind);
    l.on = false;
    l.selfcheckUntil = null;
    this.emit('event', { type: 'trip', index: i, kind, value } satisfies BreakerEvent);
    this.emit('event', { type: 'switched', index: i, on: false, by: 'trip' } satisfies BreakerEvent);
    this.notifyEvent([{ component: `switch:${i}`, id: i, event: kind, value, ts: this.o.now() / 1000 }]);
    this.simulate(i, 0);
    this.publishStatus(i);
    this.notifyStatus([i]);
  }

  private setLine(i: number, on: boolean, by: 'command' | 'schedule') {
    const l = this.lines[i]!;
    if (on && l.errors.size) {
      // Closing again resets the protection.
      const cleared = [...l.errors];
      l.errors.clear();
      l.fault = null;
      this.notifyEvent(cleared.map((alarm) => ({ component: `switch:${i}`, id: i, event: 'alarm_cleared', alarm, ts: this.o.now() / 1000 })));
    }
    const changed = l.on !== on;
    l.on = on;
    l.selfcheckUntil = null;
    this.simulate(i, 0);
    if (changed) this.emit('event', { type: 'switched', index: i, on, by } satisfies BreakerEvent);
    this.publishStatus(i);
    this.notifyStatus([i]);
  }

  private runSchedules(now: number) {
    const t = localParts(now, this.tz);
    const key = `${t.month}-${t.day} ${t.hour}:${t.minute}`;
    if (key === this.lastMinute) return;
    this.lastMinute = key;
    for (const job of [...this.jobs.values()]) {
      if (!job.enable || !specMatches(job.timespec, t)) continue;
      for (const c of job.calls) if (c.method === 'Switch.Set' && this.lines[c.params.id]) this.setLine(c.params.id, c.params.on, 'schedule');
      this.emit('event', { type: 'schedule', id: job.id } satisfies BreakerEvent);
      this.notifyEvent([{ component: 'schedule', event: 'schedule_run', job: job.id, ts: now / 1000 }]);
      if (job.once) {
        this.jobs.delete(job.id);
        this.rev++;
      }
    }
  }

  /** The status object of one line (docs/breaker-protocol.md §4). */
  status(i: number) {
    const l = this.lines[i]!;
    return {
      id: i,
      output: l.on,
      apower: l.power,
      voltage: l.voltage,
      current: l.current,
      aenergy: { total: l.energyWh },
      temperature: { tC: l.temperature },
      leakage: l.leakage,
      errors: [...l.errors],
      power_limit: l.powerLimit,
      current_limit: l.currentLimit,
      selfcheck: l.selfcheckUntil !== null,
    };
  }

  private publish(topic: string, body: unknown, retain = false) {
    const c = this.client;
    if (!c || !c.connected) return;
    c.publish(topic, JSON.stringify(body), { qos: retain ? 1 : 0, retain });
  }
  private publishStatus(i: number) {
    if (this.o.retainStatus) this.publish(`${this.prefix}/status/switch:${i}`, this.status(i), true);
  }
  notifyStatus(which?: number[]) {
    const params: Record<string, unknown> = { ts: this.o.now() / 1000 };
    for (const i of which ?? this.lines.keys()) params[`switch:${i}`] = this.status(i);
    this.publish(`${this.prefix}/events/rpc`, { src: this.uuid, dst: `${this.prefix}/events`, method: 'NotifyStatus', params });
  }
  private notifyEvent(events: object[]) {
    this.publish(`${this.prefix}/events/rpc`, {
      src: this.uuid,
      dst: `${this.prefix}/events`,
      method: 'NotifyEvent',
      params: { ts: this.o.now() / 1000, events },
    });
  }

  private onRequest(topic: string, payload: Buffer) {
    if (topic !== `${this.prefix}/rpc`) return;
    let frame: { id?: unknown; src?: unknown; method?: unknown; params?: unknown };
    try {
      frame = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    if (typeof frame !== 'object' || frame === null || typeof frame.src !== 'string' || !frame.src.startsWith(`${this.prefix}/`)) return;
    const src = frame.src;
    const id = frame.id;
    const reply = (body: { result?: unknown; error?: { code: number; message: string } }) =>
      this.publish(`${src}/rpc`, { id, src: this.uuid, dst: src, ...body });
    if (typeof frame.method !== 'string') return reply({ error: { code: ERR.request, message: 'no method' } });
    this.emit('event', { type: 'request', method: frame.method, params: frame.params } satisfies BreakerEvent);
    try {
      reply({ result: this.handle(frame.method, (frame.params ?? {}) as Record<string, unknown>) });
    } catch (e) {
      const err = e as { code?: number; message: string };
      reply({ error: { code: err.code ?? ERR.invalid, message: err.message } });
    }
  }

  private line(params: Record<string, unknown>): number {
    const i = params.id;
    if (typeof i !== 'number' || !Number.isInteger(i) || !this.lines[i]) throw Object.assign(new Error('id out of range'), { code: ERR.invalid });
    return i;
  }

  private handle(method: string, p: Record<string, unknown>): unknown {
    switch (method) {
      case 'Sys.GetStatus': {
        const out: Record<string, unknown> = {
          uuid: this.uuid,
          lines: this.lines.length,
          uptime: Math.round((this.o.now() - this.started) / 1000),
          ts: this.o.now() / 1000,
          schedule_rev: this.rev,
        };
        for (let i = 0; i < this.lines.length; i++) out[`switch:${i}`] = this.status(i);
        return out;
      }
      case 'Sys.SetConfig': {
        const tz = (p.config as { location?: { tz?: unknown } } | undefined)?.location?.tz;
        if (typeof tz === 'string') {
          try {
            new Intl.DateTimeFormat('en-US', { timeZone: tz });
            this.tz = tz;
          } catch {
            throw Object.assign(new Error('unknown time zone'), { code: ERR.invalid });
          }
        }
        return { restart_required: false };
      }
      case 'Switch.Set': {
        const i = this.line(p);
        if (typeof p.on !== 'boolean') throw Object.assign(new Error('on must be a boolean'), { code: ERR.invalid });
        const l = this.lines[i]!;
        const wasOn = l.on;
        this.setLine(i, p.on, 'command');
        if (!p.on && typeof p.toggle_after === 'number' && p.toggle_after > 0) {
          l.selfcheckUntil = this.o.now() + p.toggle_after * 1000;
          this.publishStatus(i);
          this.notifyStatus([i]);
        }
        return { was_on: wasOn };
      }
      case 'Switch.SetConfig': {
        const i = this.line(p);
        const cfg = (p.config ?? {}) as { power_limit?: unknown; current_limit?: unknown };
        const pl = cfg.power_limit;
        const cl = cfg.current_limit;
        if ((pl !== undefined && (typeof pl !== 'number' || pl <= 0)) || (cl !== undefined && (typeof cl !== 'number' || cl <= 0)))
          throw Object.assign(new Error('limits must be positive numbers'), { code: ERR.invalid });
        if (typeof pl === 'number') this.lines[i]!.powerLimit = pl;
        if (typeof cl === 'number') this.lines[i]!.currentLimit = cl;
        // The limits are part of the line's status: a change is republished and notified (§4, §5).
        this.publishStatus(i);
        this.notifyStatus([i]);
        return { restart_required: false };
      }
      case 'Schedule.List':
        return { jobs: [...this.jobs.values()], rev: this.rev };
      case 'Schedule.Create': {
        if (this.jobs.size >= this.o.maxJobs) throw Object.assign(new Error(`at most ${this.o.maxJobs} schedules`), { code: ERR.full });
        const job = this.readJob(p, this.nextJob);
        this.nextJob++;
        this.jobs.set(job.id, job);
        return { id: job.id, rev: ++this.rev };
      }
      case 'Schedule.Update': {
        const id = p.id;
        if (typeof id !== 'number' || !this.jobs.has(id)) throw Object.assign(new Error('no such schedule'), { code: ERR.notFound });
        this.jobs.set(id, this.readJob(p, id));
        return { rev: ++this.rev };
      }
      case 'Schedule.Delete': {
        const id = p.id;
        if (typeof id !== 'number' || !this.jobs.delete(id)) throw Object.assign(new Error('no such schedule'), { code: ERR.notFound });
        return { rev: ++this.rev };
      }
      case 'Schedule.DeleteAll':
        this.jobs.clear();
        return { rev: ++this.rev };
      default:
        throw Object.assign(new Error(`unknown method ${method}`), { code: ERR.method });
    }
  }

  private readJob(p: Record<string, unknown>, id: number): Job {
    if (!validSpec(p.timespec) || !Array.isArray(p.calls)) throw Object.assign(new Error('bad schedule'), { code: ERR.invalid });
    const calls = p.calls.map((c: unknown) => {
      const call = c as { method?: unknown; params?: { id?: unknown; on?: unknown } };
      if (call.method !== 'Switch.Set' || typeof call.params?.id !== 'number' || !this.lines[call.params.id] || typeof call.params.on !== 'boolean')
        throw Object.assign(new Error('bad call'), { code: ERR.invalid });
      return { method: 'Switch.Set', params: { id: call.params.id, on: call.params.on } };
    });
    return { id, enable: p.enable !== false, timespec: p.timespec, once: p.once === true, calls };
  }
}

/** Many breakers `uuid-1 … uuid-N` with the same password (the demo and the bench). */
export async function startFleet(o: Omit<BreakerOptions, 'uuid'> & { uuids: string[]; concurrency?: number }): Promise<EmulatedBreaker[]> {
  const out: EmulatedBreaker[] = [];
  const queue = [...o.uuids];
  const workers = Array.from({ length: Math.min(o.concurrency ?? 50, queue.length) }, async () => {
    for (let uuid = queue.shift(); uuid; uuid = queue.shift()) {
      const b = new EmulatedBreaker({ ...o, uuid });
      await b.start();
      out.push(b);
    }
  });
  await Promise.all(workers);
  return out;
}
