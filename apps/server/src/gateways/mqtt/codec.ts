import type { BreakerEvent, BreakerEventKind, BreakerOp, LineReading, OpResult, Protection, ScheduleJob } from '../breaker-events.ts';

/**
 * The breaker protocol's wire format (docs/breaker-protocol.md), pure: topics, JSON-RPC frames, switch status
 * objects and schedule timespecs. Nothing here touches a socket or the database.
 */

export const TOPIC_ROOT = 'fa';
/** The server's caller id under a breaker's prefix: replies come to `fa/<uuid>/server/rpc`. */
export const SERVER_CALLER = 'server';
/** Frames larger than this are dropped unread. */
export const MAX_FRAME_BYTES = 16 * 1024;
const UUID = /^[A-Za-z0-9_-]{4,40}$/;
const MAX_SWITCHES = 64;
const PROTECTIONS: readonly Protection[] = ['overcurrent', 'overpower', 'leakage', 'overtemp'];
const EVENT_KINDS: readonly BreakerEventKind[] = [...PROTECTIONS, 'alarm_cleared', 'selfcheck_done', 'schedule_run'];

export const prefixOf = (uuid: string) => `${TOPIC_ROOT}/${uuid}`;
export const requestTopic = (uuid: string) => `${prefixOf(uuid)}/rpc`;
export const serverSrc = (uuid: string) => `${prefixOf(uuid)}/${SERVER_CALLER}`;
/** What the server subscribes to on an external broker. */
export const SERVER_SUBSCRIPTIONS = [
  `${TOPIC_ROOT}/+/online`,
  `${TOPIC_ROOT}/+/events/rpc`,
  `${TOPIC_ROOT}/+/status/+`,
  `${TOPIC_ROOT}/+/${SERVER_CALLER}/rpc`,
];

export const isUuid = (s: string) => UUID.test(s);

/** The per-device rule (both brokers): publish anywhere under its own prefix, subscribe to its own request topic only. */
export function mayPublish(uuid: string, topic: string): boolean {
  return topic.startsWith(`${prefixOf(uuid)}/`) && !topic.includes('+') && !topic.includes('#');
}
export function maySubscribe(uuid: string, filter: string): boolean {
  return filter === requestTopic(uuid);
}

export type TopicKind = 'online' | 'events' | 'status' | 'reply' | 'request' | 'other';
export function parseTopic(topic: string): { uuid: string; kind: TopicKind; index?: number } | null {
  const parts = topic.split('/');
  if (parts[0] !== TOPIC_ROOT || parts.length < 3) return null;
  const uuid = parts[1]!;
  if (!isUuid(uuid)) return null;
  const rest = parts.slice(2).join('/');
  if (rest === 'online') return { uuid, kind: 'online' };
  if (rest === 'events/rpc') return { uuid, kind: 'events' };
  if (rest === 'rpc') return { uuid, kind: 'request' };
  if (rest === `${SERVER_CALLER}/rpc`) return { uuid, kind: 'reply' };
  const m = /^status\/switch:(\d{1,2})$/.exec(rest);
  if (m) {
    const index = Number(m[1]);
    return index < MAX_SWITCHES ? { uuid, kind: 'status', index } : null;
  }
  return { uuid, kind: 'other' };
}

export type Inbound =
  | { kind: 'online'; uuid: string; online: boolean }
  | { kind: 'readings'; uuid: string; lines: LineReading[]; at: number }
  | { kind: 'events'; uuid: string; events: BreakerEvent[]; lines: LineReading[]; at: number }
  | { kind: 'reply'; uuid: string; id: number; result?: unknown; error?: { code: number; message: string } }
  | { kind: 'ignored'; uuid: string }
  | { kind: 'invalid'; uuid: string | null; why: string };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function parseJsonObject(payload: Buffer | string): Record<string, unknown> | null {
  const text = typeof payload === 'string' ? payload : payload.length > MAX_FRAME_BYTES ? null : payload.toString('utf8');
  if (text === null || text.length > MAX_FRAME_BYTES) return null;
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}

/** A switch status object (full or partial) → a reading; null when it is not one. */
export function readSwitch(index: number, o: unknown): LineReading | null {
  if (!isObj(o)) return null;
  if (o.id !== undefined && o.id !== index) return null;
  const r: LineReading = { index };
  if (typeof o.output === 'boolean') r.on = o.output;
  const set = <K extends keyof LineReading>(k: K, v: LineReading[K] | undefined) => {
    if (v !== undefined) r[k] = v;
  };
  set('power', num(o.apower));
  set('current', num(o.current));
  set('voltage', num(o.voltage));
  if (isObj(o.aenergy)) set('energyWh', num(o.aenergy.total));
  if (isObj(o.temperature)) set('temperature', num(o.temperature.tC) ?? null);
  set('leakage', num(o.leakage));
  if (Array.isArray(o.errors)) r.errors = o.errors.filter((e): e is Protection => PROTECTIONS.includes(e as Protection));
  set('powerLimit', num(o.power_limit));
  set('currentLimit', num(o.current_limit));
  if (typeof o.selfcheck === 'boolean') r.selfcheck = o.selfcheck;
  return r;
}

/** `switch:<n>` members of a status object (NotifyStatus params, Sys.GetStatus result). */
export function readSwitches(params: Record<string, unknown>): LineReading[] {
  const out: LineReading[] = [];
  for (const [k, v] of Object.entries(params)) {
    const m = /^switch:(\d{1,2})$/.exec(k);
    if (!m || Number(m[1]) >= MAX_SWITCHES) continue;
    const r = readSwitch(Number(m[1]), v);
    if (r) out.push(r);
  }
  return out;
}

const tsMs = (v: unknown, fallback: number) => {
  const s = num(v);
  return s !== undefined && s > 0 && s < 1e11 ? Math.round(s * 1000) : fallback;
};

function readEvents(list: unknown, now: number): BreakerEvent[] | null {
  if (!Array.isArray(list)) return null;
  const out: BreakerEvent[] = [];
  for (const e of list.slice(0, 64)) {
    if (!isObj(e) || !EVENT_KINDS.includes(e.event as BreakerEventKind)) continue;
    const index = num(e.id);
    const ev: BreakerEvent = {
      kind: e.event as BreakerEventKind,
      index: index !== undefined && Number.isInteger(index) && index >= 0 && index < MAX_SWITCHES ? index : null,
      value: num(e.value) ?? null,
      at: tsMs(e.ts, now),
    };
    if (PROTECTIONS.includes(e.alarm as Protection)) ev.alarm = e.alarm as Protection;
    if (typeof e.ok === 'boolean') ev.ok = e.ok;
    out.push(ev);
  }
  return out;
}

/** One message a breaker (or the broker, for `online`) published, as the server reads it. */
export function decodeInbound(topic: string, payload: Buffer | string, now: number): Inbound {
  const t = parseTopic(topic);
  if (!t) return { kind: 'invalid', uuid: null, why: 'topic' };
  const { uuid } = t;
  if (t.kind === 'online') {
    const text = String(payload).trim();
    if (text === 'true' || text === 'false') return { kind: 'online', uuid, online: text === 'true' };
    return { kind: 'invalid', uuid, why: 'online' };
  }
  if (t.kind === 'request' || t.kind === 'other') return { kind: 'ignored', uuid };
  const o = parseJsonObject(payload);
  if (!o) return { kind: 'invalid', uuid, why: 'json' };
  if (t.kind === 'status') {
    const r = readSwitch(t.index!, o);
    return r ? { kind: 'readings', uuid, lines: [r], at: now } : { kind: 'invalid', uuid, why: 'status' };
  }
  if (t.kind === 'reply') {
    const id = num(o.id);
    if (id === undefined || !Number.isInteger(id)) return { kind: 'invalid', uuid, why: 'reply' };
    if (isObj(o.error)) return { kind: 'reply', uuid, id, error: { code: num(o.error.code) ?? 0, message: String(o.error.message ?? '').slice(0, 200) } };
    return { kind: 'reply', uuid, id, result: o.result };
  }
  // events/rpc
  if (!isObj(o.params)) return { kind: 'invalid', uuid, why: 'params' };
  const at = tsMs(o.params.ts, now);
  if (o.method === 'NotifyStatus') return { kind: 'readings', uuid, lines: readSwitches(o.params), at };
  if (o.method === 'NotifyEvent') {
    const events = readEvents(o.params.events, now);
    return events ? { kind: 'events', uuid, events, lines: [], at } : { kind: 'invalid', uuid, why: 'events' };
  }
  return { kind: 'invalid', uuid, why: 'method' };
}

/** cron-like `sec min hour dom month dow` (docs/breaker-protocol.md §6). */
export function timespecOf(job: ScheduleJob): string {
  const dow = job.weekdays && job.weekdays.length ? [...new Set(job.weekdays)].sort((a, b) => a - b).join(',') : '*';
  const dom = job.date ? String(job.date.day) : '*';
  const month = job.date ? String(job.date.month) : '*';
  return `0 ${job.minute} ${job.hour} ${dom} ${month} ${dow}`;
}

const field = (s: string | undefined, min: number, max: number): number[] | null | undefined => {
  if (s === undefined) return undefined;
  if (s === '*') return null;
  const out: number[] = [];
  for (const part of s.split(',')) {
    if (!/^\d{1,2}$/.test(part)) return undefined;
    const n = Number(part);
    if (n < min || n > max) return undefined;
    out.push(n);
  }
  return out;
};

/** The inverse of timespecOf; null for anything else (jobs the server did not write). */
export function parseTimespec(spec: string): Pick<ScheduleJob, 'hour' | 'minute' | 'weekdays' | 'date'> | null {
  const parts = spec.trim().split(/\s+/);
  if (parts.length !== 6 || parts[0] !== '0') return null;
  const minute = field(parts[1], 0, 59);
  const hour = field(parts[2], 0, 23);
  const dom = field(parts[3], 1, 31);
  const month = field(parts[4], 1, 12);
  const dow = field(parts[5], 0, 6);
  if (!minute || minute.length !== 1 || !hour || hour.length !== 1 || dom === undefined || month === undefined || dow === undefined) return null;
  if ((dom === null) !== (month === null) || (dom && dom.length !== 1) || (month && month.length !== 1)) return null;
  return {
    minute: minute[0]!,
    hour: hour[0]!,
    weekdays: dow,
    date: dom && month ? { month: month[0]!, day: dom[0]! } : null,
  };
}

function jobWire(job: ScheduleJob) {
  return {
    ...(job.id !== undefined ? { id: job.id } : {}),
    enable: job.enable,
    timespec: timespecOf(job),
    once: job.once,
    calls: job.calls.map((c) => ({ method: 'Switch.Set', params: { id: c.index, on: c.on } })),
  };
}

function readJob(o: unknown): ScheduleJob | null {
  if (!isObj(o) || typeof o.timespec !== 'string' || !Array.isArray(o.calls)) return null;
  const id = num(o.id);
  const when = parseTimespec(o.timespec);
  if (id === undefined || !when) return null;
  const calls: ScheduleJob['calls'] = [];
  for (const c of o.calls) {
    if (!isObj(c) || c.method !== 'Switch.Set' || !isObj(c.params)) return null;
    const index = num(c.params.id);
    if (index === undefined || typeof c.params.on !== 'boolean') return null;
    calls.push({ index, on: c.params.on });
  }
  return { id, enable: o.enable !== false, once: o.once === true, ...when, calls };
}

/** A request frame for one operation. */
export function encodeRequest(uuid: string, id: number, op: BreakerOp): { topic: string; payload: string } {
  const call = (method: string, params?: object) => ({ id, src: serverSrc(uuid), dst: uuid, method, ...(params ? { params } : {}) });
  let frame;
  switch (op.op) {
    case 'status':
      frame = call('Sys.GetStatus');
      break;
    case 'timeZone':
      frame = call('Sys.SetConfig', { config: { location: { tz: op.tz } } });
      break;
    case 'switch':
      frame = call('Switch.Set', { id: op.index, on: op.on, ...(op.toggleAfter ? { toggle_after: op.toggleAfter } : {}) });
      break;
    case 'limits':
      frame = call('Switch.SetConfig', { id: op.index, config: { power_limit: op.powerW, current_limit: op.currentA } });
      break;
    case 'listSchedules':
      frame = call('Schedule.List');
      break;
    case 'createSchedule':
      frame = call('Schedule.Create', jobWire(op.job));
      break;
    case 'updateSchedule':
      frame = call('Schedule.Update', jobWire(op.job));
      break;
    case 'deleteSchedule':
      frame = call('Schedule.Delete', { id: op.id });
      break;
  }
  return { topic: requestTopic(uuid), payload: JSON.stringify(frame) };
}

/** A reply's result read for the operation it answers. */
export function decodeResult(op: BreakerOp, reply: { result?: unknown; error?: { code: number; message: string } }): OpResult {
  if (reply.error) return { ok: false, reason: 'device', code: reply.error.code, message: reply.error.message };
  const r = isObj(reply.result) ? reply.result : {};
  switch (op.op) {
    case 'status':
      return { ok: true, lines: readSwitches(r) };
    case 'switch':
      return { ok: true, ...(typeof r.was_on === 'boolean' ? { wasOn: r.was_on } : {}) };
    case 'listSchedules': {
      const jobs = Array.isArray(r.jobs) ? r.jobs.map(readJob) : [];
      // A job the server cannot read is kept as an unknown one (id only), so reconciliation deletes it.
      const raw = Array.isArray(r.jobs) ? r.jobs : [];
      return {
        ok: true,
        jobs: jobs.map(
          (j, i) =>
            j ?? {
              id: num(isObj(raw[i]) ? raw[i].id : undefined) ?? -1,
              enable: false,
              once: false,
              hour: -1,
              minute: -1,
              weekdays: null,
              date: null,
              calls: [],
            },
        ),
      };
    }
    case 'createSchedule': {
      const id = num(r.id);
      return id === undefined ? { ok: false, reason: 'device', code: -32600, message: 'no id' } : { ok: true, id };
    }
    default:
      return { ok: true };
  }
}
