import { randomBytes } from 'node:crypto';
import type { Insertable, Updateable } from 'kysely';
import type { AlarmType, LiveBreaker, LiveFigures, SwitchOutcome } from '@faceadmin/shared';
import type { Bus } from '../../db/bus.ts';
import type { Database } from '../../db/database.ts';
import type { BreakerLineTable, BreakerSampleTable } from '../../db/schema.ts';
import { transaction } from '../../db/transaction.ts';
import {
  BREAKER_ERRORS,
  type BreakerEvent,
  type BreakerLink,
  type BreakerOp,
  type LineReading,
  type OpResult,
  type Protection,
  type ScheduleJob,
} from '../../gateways/breaker-events.ts';
import { parseJson } from '../../lib/json.ts';
import { clock, nowIso, zonedToUtcMs } from '../../lib/time.ts';
import { notify } from '../messages/messages.service.ts';
import { publish } from '../live/publish.ts';
import { alarmsRepository, breakersRepository, linesRepository, timersRepository, type TimerRow } from './breakers.repository.ts';

/** A registered breaker as the gateway side knows it (cached by uuid; the service drops entries it changes). */
interface Entry {
  id: number;
  companyId: number;
  uuid: string;
  name: string;
  /** line id, title and limits by switch index (addr - 1) */
  lines: Map<number, { id: number; title: string; mxgg: number; mxgl: number }>;
}

export interface LiveLog {
  error(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/** The offline link used until the gateway is attached (and when none is, e.g. a tool that builds no broker). */
const NO_LINK: BreakerLink = {
  send: async () => ({ ok: false, reason: 'offline' }),
  isConnected: () => false,
  disconnect: () => {},
  credentialsChanged: async () => {},
  brokerHash: () => '',
};

/** Message key for a device's refusal code (docs/breaker-protocol.md §3). */
export function refusalKey(r: OpResult): string {
  if (r.ok) return '';
  if (r.reason !== 'device') return r.reason === 'timeout' ? 'breaker.errors.timeout' : 'breaker.errors.offline';
  if (r.code === BREAKER_ERRORS.full) return 'breaker.errors.full';
  if (r.code === BREAKER_ERRORS.invalid) return 'breaker.errors.invalid';
  if (r.code === BREAKER_ERRORS.tripped) return 'breaker.errors.tripped';
  return 'breaker.errors.device';
}
export const outcomeOf = (r: OpResult): SwitchOutcome => (r.ok ? 'success' : r.reason === 'timeout' ? 'timeout' : 'failure');

/** Breaker events are for administrators with the breaker right or face-device view (the breaker pages' reading rule). */
const BREAKER_RIGHTS = ['breaker', 'face'] as const;

/** Bus topics: a command relayed to the instance holding the breaker, its answer, and news for every instance. */
const RPC_TOPIC = 'breaker.command';
const RESULT_TOPIC = 'breaker.answer';
const CONTROL_TOPIC = 'breaker.control';

const PROTECTION_ALARMS: readonly Protection[] = ['overcurrent', 'overpower', 'leakage', 'overtemp'];
const FLUSH_MS = 1000;
const FLUSH_SAMPLES = 4000;

/** The schedule job a timer is on the breaker (local time in the breaker's zone, which the server sets). */
export function jobOf(
  timer: Pick<TimerRow, 'type' | 'day' | 'time' | 'weekdays' | 'action' | 'enabled' | 'line_ids'>,
  indexOf: Map<number, number>,
): ScheduleJob {
  const [hour, minute] = timer.time.split(':').map(Number) as [number, number];
  const calls = parseJson<number[]>(timer.line_ids, [])
    .map((id) => indexOf.get(id))
    .filter((i): i is number => i !== undefined)
    .sort((a, b) => a - b)
    .map((index) => ({ index, on: timer.action === 'on' }));
  const single = timer.type === 'single' && timer.day;
  return {
    enable: Boolean(timer.enabled),
    hour,
    minute,
    weekdays: single ? null : parseJson<number[]>(timer.weekdays, []).sort((a, b) => a - b),
    date: single ? { month: Number(timer.day!.slice(5, 7)), day: Number(timer.day!.slice(8, 10)) } : null,
    once: Boolean(single),
    calls,
  };
}

export function sameJob(a: ScheduleJob, b: ScheduleJob): boolean {
  const key = (j: ScheduleJob) =>
    JSON.stringify([
      j.enable,
      j.hour,
      j.minute,
      j.weekdays ? [...j.weekdays].sort((x, y) => x - y) : null,
      j.date,
      j.once,
      [...j.calls].sort((x, y) => x.index - y.index).map((c) => [c.index, c.on]),
    ]);
  return key(a) === key(b);
}

/**
 * The live side of breakers: implements the inbound port (readings, events, presence; ingestion batched once a
 * second), and carries commands to the breaker through the attached link, waiting for its confirmation.
 */
export function breakersLive(deps: {
  database: Database;
  log: LiveLog;
  selfCheckSeconds: number;
  hashCheck: (uuid: string, password: string, alive?: () => boolean) => Promise<boolean>;
  /** what instances tell each other (db/bus.ts): commands for a breaker another instance holds, cache and timer news */
  bus: Bus;
  /** how long a command waits for the breaker (MQTT_COMMAND_TIMEOUT): a relayed one waits a little longer */
  commandTimeoutMs: number;
  /**
   * An external broker (MQTT_URL) shared by every instance: it keeps each breaker's presence (the retained `online`
   * topic), and the instance holding its subscription reports it whoever served the breaker before.
   */
  sharedBroker?: boolean;
}) {
  const { db } = deps.database;
  const { bus } = deps;
  const me = bus.instance;
  let link: BreakerLink = NO_LINK;
  const cache = new Map<string, Promise<Entry | null>>();
  const pendingLines = new Map<number, Updateable<BreakerLineTable>>();
  const lastFigures = new Map<number, { power: number; current: number; voltage: number; energy_wh: number }>();
  /** Which breaker a line reading belongs to, and its switch state as last announced (for the live stream). */
  const lineMeta = new Map<number, { breakerId: number; companyId: number; name: string; addr: number; oc: number | null }>();
  let samples: Insertable<BreakerSampleTable>[] = [];
  let flushTimer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();
  /** Per-breaker chains so a reconnect's resync and the console's timer edits never interleave. */
  const chains = new Map<string, Promise<unknown>>();
  let closed = false;
  const stats = { readings: 0, flushed: 0 };

  function serial<T>(uuid: string, fn: () => Promise<T>): Promise<T> {
    const prev = chains.get(uuid) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => {});
    chains.set(uuid, tail);
    void tail.then(() => {
      if (chains.get(uuid) === tail) chains.delete(uuid);
    });
    return next;
  }

  async function load(uuid: string): Promise<Entry | null> {
    const b = await breakersRepository.findByUuid(db, uuid);
    if (!b) return null;
    const lines = await linesRepository.ofBreaker(db, b.company_id, b.id);
    return {
      id: b.id,
      companyId: b.company_id,
      uuid,
      name: b.alias || b.uuid,
      lines: new Map(lines.map((l) => [l.addr - 1, { id: l.id, title: l.title, mxgg: l.mxgg, mxgl: l.mxgl }])),
    };
  }
  function entry(uuid: string): Promise<Entry | null> {
    let e = cache.get(uuid);
    if (!e) {
      e = load(uuid);
      cache.set(uuid, e);
      e.catch(() => cache.delete(uuid));
    }
    return e;
  }

  function scheduleFlush() {
    if (flushTimer || closed) return;
    flushTimer = setTimeout(() => {
      flushTimer = null;
      void flush();
    }, FLUSH_MS);
    flushTimer.unref();
  }

  /** Writes the buffered live figures and raw samples in one transaction. */
  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      if (!pendingLines.size && !samples.length) return;
      const lines = [...pendingLines];
      pendingLines.clear();
      const batch = samples;
      samples = [];
      try {
        await transaction(db, async (trx) => {
          for (const [id, set] of lines) await linesRepository.live(trx, id, set);
          for (let i = 0; i < batch.length; i += 400) await linesRepository.insertSamples(trx, batch.slice(i, i + 400));
          await announce(trx, lines);
        });
        stats.flushed += batch.length;
      } catch (err) {
        deps.log.error({ err }, 'breaker readings could not be stored');
      }
    });
    return flushing;
  }

  /** The flushed figures as `figures` events (one per breaker), and switch changes as `breaker` events. */
  async function announce(trx: Parameters<typeof publish>[0], lines: [number, Updateable<BreakerLineTable>][]) {
    const figures = new Map<number, { companyId: number; lines: LiveFigures['lines'] }>();
    const switched = new Map<number, { companyId: number; name: string; lines: LiveBreaker['lines'] }>();
    for (const [id, set] of lines) {
      const meta = lineMeta.get(id);
      if (!meta) continue;
      const f = lastFigures.get(id);
      const oc = set.oc === undefined ? meta.oc : Number(set.oc);
      if (f || set.oc !== undefined) {
        const entry = figures.get(meta.breakerId) ?? figures.set(meta.breakerId, { companyId: meta.companyId, lines: [] }).get(meta.breakerId)!;
        entry.lines.push({ id, oc: oc ?? 0, power: f?.power ?? 0, current: f?.current ?? 0, voltage: f?.voltage ?? 0, energy_wh: f?.energy_wh ?? 0 });
      }
      if (set.oc !== undefined && oc !== meta.oc) {
        meta.oc = oc;
        const entry =
          switched.get(meta.breakerId) ?? switched.set(meta.breakerId, { companyId: meta.companyId, name: meta.name, lines: [] }).get(meta.breakerId)!;
        entry.lines.push({ id, addr: meta.addr, oc: oc ?? 0, alarm: null });
      }
    }
    for (const [id, f] of figures) await publish(trx, f.companyId, 'figures', { id, lines: f.lines }, BREAKER_RIGHTS);
    for (const [id, b] of switched) await publish(trx, b.companyId, 'breaker', { id, name: b.name, online: true, lines: b.lines }, BREAKER_RIGHTS);
  }

  function ingest(e: Entry, lines: LineReading[], at: number) {
    const iso = new Date(at).toISOString();
    for (const r of lines) {
      const line = e.lines.get(r.index);
      if (!line) continue;
      stats.readings++;
      if (!lineMeta.has(line.id)) lineMeta.set(line.id, { breakerId: e.id, companyId: e.companyId, name: e.name, addr: r.index + 1, oc: null });
      const set: Updateable<BreakerLineTable> = { ...pendingLines.get(line.id), updated_at: iso };
      if (r.on !== undefined) set.oc = r.on ? 1 : 0;
      if (r.power !== undefined) set.power = r.power;
      if (r.current !== undefined) set.current = r.current;
      if (r.voltage !== undefined) set.voltage = r.voltage;
      if (r.energyWh !== undefined) set.energy_wh = r.energyWh;
      if (r.temperature !== undefined) set.temperature = r.temperature;
      if (r.leakage !== undefined) set.leakage = r.leakage;
      if (r.selfcheck === true) set.selfcheck = 'running';
      pendingLines.set(line.id, set);
      if (r.power !== undefined) {
        const prev = lastFigures.get(line.id) ?? { power: 0, current: 0, voltage: 0, energy_wh: 0 };
        const f = { power: r.power, current: r.current ?? prev.current, voltage: r.voltage ?? prev.voltage, energy_wh: r.energyWh ?? prev.energy_wh };
        lastFigures.set(line.id, f);
        samples.push({ line_id: line.id, at: iso, ...f });
      }
    }
    if (samples.length >= FLUSH_SAMPLES) void flush();
    else scheduleFlush();
  }

  const alarmParams = (e: Entry, lineTitle: string, type: AlarmType, value: number | null) => ({
    breaker: e.name,
    uuid: e.uuid,
    line: lineTitle,
    reasonKey: `breaker.alarmTypes.${type}`,
    value: value === null ? '' : Math.round(value * 100) / 100,
  });

  async function raise(e: Entry, index: number | null, type: AlarmType, value: number | null, at: string) {
    const line = index === null ? undefined : e.lines.get(index);
    const lineId = line?.id ?? null;
    await transaction(db, async (trx) => {
      if (await alarmsRepository.open(trx, e.id, lineId, type)) return;
      await alarmsRepository.insert(trx, { company_id: e.companyId, breaker_id: e.id, line_id: lineId, type, value, at, cleared_at: null });
      if (lineId !== null) await linesRepository.live(trx, lineId, { alarm: type, ...(type === 'offline' ? {} : { oc: 0, power: 0, current: 0 }) });
      const params = alarmParams(e, line?.title ?? '', type, value);
      await publish(
        trx,
        e.companyId,
        'alarm',
        { source: 'breaker', kind: type, subject: line ? `${e.name} · ${line.title}` : e.name, device_id: null, breaker_id: e.id, punch_id: null, value, at },
        BREAKER_RIGHTS,
      );
      if (lineId !== null && index !== null) {
        const meta = lineMeta.get(lineId);
        if (meta && type !== 'offline') meta.oc = 0;
        await publish(
          trx,
          e.companyId,
          'breaker',
          { id: e.id, name: e.name, online: true, lines: [{ id: lineId, addr: index + 1, oc: 0, alarm: type }] },
          BREAKER_RIGHTS,
        );
      }
      if (type === 'offline') await notify(trx, e.companyId, null, 'breakerOffline', params);
      else await notify(trx, e.companyId, null, 'breakerAlarm', params);
    });
  }

  async function clear(e: Entry, index: number | null, type: AlarmType, at: string) {
    const lineId = index === null ? null : (e.lines.get(index)?.id ?? null);
    await transaction(db, async (trx) => {
      const open = await alarmsRepository.open(trx, e.id, lineId, type);
      if (!open) return;
      await alarmsRepository.clear(trx, open.id, at);
      if (lineId !== null) {
        const row = await trx.selectFrom('breaker_lines').select(['alarm', 'oc', 'addr']).where('id', '=', lineId).executeTakeFirst();
        if (row?.alarm === type) {
          await linesRepository.live(trx, lineId, { alarm: null });
          await publish(
            trx,
            e.companyId,
            'breaker',
            { id: e.id, name: e.name, online: true, lines: [{ id: lineId, addr: row.addr, oc: row.oc, alarm: null }] },
            BREAKER_RIGHTS,
          );
        }
      }
    });
  }

  /** After a (re)connect: zone, status, limits that differ, timers (docs/breaker-protocol.md §7). */
  async function resync(uuid: string) {
    const e = await entry(uuid);
    if (!e || !link.isConnected(uuid)) return;
    const company = await db.selectFrom('companies').select('time_zone').where('id', '=', e.companyId).executeTakeFirst();
    await link.send(uuid, { op: 'timeZone', tz: company?.time_zone ?? 'UTC' });
    const status = await link.send(uuid, { op: 'status' });
    const rows = await linesRepository.ofBreaker(db, e.companyId, e.id);
    if (status.ok && status.lines) {
      ingest(e, status.lines, clock.now());
      await flush();
      for (const r of status.lines) {
        const row = rows.find((l) => l.addr === r.index + 1);
        if (!row || !row.limits_synced) continue;
        const differs =
          (r.powerLimit !== undefined && r.powerLimit !== row.mxgg) || (r.currentLimit !== undefined && Math.round(r.currentLimit * 100) !== row.mxgl);
        if (differs) await linesRepository.live(db, row.id, { limits_synced: 0 });
      }
    }
    for (const row of await linesRepository.ofBreaker(db, e.companyId, e.id)) {
      if (row.limits_synced) continue;
      const r = await link.send(uuid, { op: 'limits', index: row.addr - 1, powerW: row.mxgg, currentA: row.mxgl / 100 });
      if (r.ok) await linesRepository.live(db, row.id, { limits_synced: 1 });
    }
    await reconcile(e);
  }

  /** Makes the breaker's schedule table match the timers (docs/breaker-protocol.md §7 step 4). */
  async function reconcile(e: Entry) {
    const list = await link.send(e.uuid, { op: 'listSchedules' });
    if (!list.ok) return;
    const device = new Map((list.jobs ?? []).map((j) => [j.id!, j]));
    const timers = await timersRepository.ofBreaker(db, e.companyId, e.id);
    const rows = await linesRepository.ofBreaker(db, e.companyId, e.id);
    const indexOf = new Map(rows.map((l) => [l.id, l.addr - 1]));
    const company = await db.selectFrom('companies').select('time_zone').where('id', '=', e.companyId).executeTakeFirst();
    const zone = company?.time_zone ?? 'UTC';
    const kept = new Set<number>();
    const work: { timer: TimerRow; job: ScheduleJob; have: ScheduleJob | undefined }[] = [];
    for (const timer of timers) {
      const have = timer.job_id !== null ? device.get(timer.job_id) : undefined;
      const past = timer.type === 'single' && timer.day && zonedToUtcMs(`${timer.day} ${timer.time}:00`, zone) <= clock.now();
      if (past) {
        // A one-day timer that has run is gone from the breaker by design; one still held there stays.
        if (have) kept.add(have.id!);
        continue;
      }
      const job = jobOf(timer, indexOf);
      if (have && sameJob(have, job)) {
        kept.add(have.id!);
        if (timer.sync !== 'synced') await timersRepository.update(db, e.companyId, timer.id, { sync: 'synced', sync_error: '' });
        continue;
      }
      if (have) kept.add(have.id!);
      work.push({ timer, job, have });
    }
    // Jobs the server does not know go first, so the table has room for the ones it should hold.
    for (const id of device.keys()) if (!kept.has(id)) await link.send(e.uuid, { op: 'deleteSchedule', id });
    for (const { timer, job, have } of work) {
      if (!job.calls.length) {
        await timersRepository.update(db, e.companyId, timer.id, { sync: 'failed', sync_error: 'breaker.errors.noLines' });
        continue;
      }
      const r = have
        ? await link.send(e.uuid, { op: 'updateSchedule', job: { ...job, id: have.id! } })
        : await link.send(e.uuid, { op: 'createSchedule', job });
      if (r.ok) await timersRepository.update(db, e.companyId, timer.id, { sync: 'synced', sync_error: '', ...(have ? {} : { job_id: r.id ?? null }) });
      else if (r.reason === 'device') await timersRepository.update(db, e.companyId, timer.id, { sync: 'failed', sync_error: refusalKey(r) });
    }
  }

  const events = {
    authenticate: deps.hashCheck,
    // Presence changes of one breaker apply in order (a quick reconnect must not clear an alarm before it is raised).
    async connected(uuid: string) {
      if (closed) return;
      const e = await entry(uuid);
      if (!e) return;
      await serial(uuid, async () => {
        const at = nowIso();
        await breakersRepository.setConnected(db, e.id, me, at);
        await publish(db, e.companyId, 'breaker', { id: e.id, name: e.name, online: true, lines: [] }, BREAKER_RIGHTS);
        await clear(e, null, 'offline', at);
      });
      void serial(uuid, () => resync(uuid)).catch((err: unknown) => deps.log.error({ err, uuid }, 'breaker resync failed'));
    },
    async disconnected(uuid: string) {
      if (closed) return;
      const e = await entry(uuid);
      if (!e) return;
      await flush();
      await serial(uuid, async () => {
        const at = nowIso();
        // Reconnected to another instance already: it is online there, nothing to raise.
        if (!(await breakersRepository.setDisconnected(db, e.id, deps.sharedBroker ? null : me, at))) return;
        await publish(db, e.companyId, 'breaker', { id: e.id, name: e.name, online: false, lines: [] }, BREAKER_RIGHTS);
        await raise(e, null, 'offline', null, at);
      });
    },
    readings(uuid: string, lines: LineReading[], at: number) {
      if (closed) return;
      void entry(uuid).then(
        (e) => {
          if (e) ingest(e, lines, at);
        },
        (err: unknown) => deps.log.error({ err, uuid }, 'breaker lookup failed'),
      );
    },
    async events(uuid: string, list: BreakerEvent[]) {
      if (closed) return;
      const e = await entry(uuid);
      if (!e) return;
      await flush();
      for (const ev of list) {
        const at = new Date(ev.at).toISOString();
        if ((PROTECTION_ALARMS as readonly string[]).includes(ev.kind)) await raise(e, ev.index, ev.kind as AlarmType, ev.value, at);
        else if (ev.kind === 'alarm_cleared' && ev.alarm) await clear(e, ev.index, ev.alarm, at);
        else if (ev.kind === 'selfcheck_done' && ev.index !== null) {
          const line = e.lines.get(ev.index);
          if (line) await linesRepository.live(db, line.id, { selfcheck: ev.ok === false ? 'failed' : 'passed', selfcheck_at: at });
        }
      }
    },
    async credentials() {
      return (await breakersRepository.credentials(db)).map((c) => ({ uuid: c.uuid, brokerHash: c.broker_hash }));
    },
  };

  // ------------------------------------------------------------------ several instances (issue #21)
  // A breaker is connected to one instance (its embedded broker, or the instance holding the external broker's
  // subscription); a console's request may land on another. Commands are relayed to the holder through the bus and
  // answered the same way; what the console changed (lines, timers, credentials) is told to every instance.
  const relayed = new Map<string, (r: OpResult) => void>();
  bus.on(RPC_TOPIC, (data) => {
    const d = data as { rid: string; to: string; from: string; uuid: string; op: BreakerOp };
    if (d.to !== me) return;
    const answer = (r: OpResult) => bus.send(db, RESULT_TOPIC, { rid: d.rid, to: d.from, r });
    const run = link.isConnected(d.uuid) ? serial(d.uuid, () => link.send(d.uuid, d.op)) : Promise.resolve<OpResult>({ ok: false, reason: 'offline' });
    void run
      .catch((): OpResult => ({ ok: false, reason: 'timeout' }))
      .then(answer)
      .catch((err: unknown) => deps.log.error({ err, uuid: d.uuid }, 'relaying a breaker answer failed'));
  });
  bus.on(RESULT_TOPIC, (data) => {
    const d = data as { rid: string; to: string; r: OpResult };
    if (d.to !== me) return;
    const done = relayed.get(d.rid);
    relayed.delete(d.rid);
    done?.(d.r);
  });
  bus.on(CONTROL_TOPIC, (data, fromSelf) => {
    const d = data as { kind: 'forget' | 'timers' | 'disconnect' | 'credentials'; uuid: string };
    if (d.kind === 'credentials') {
      // Every instance keeping the broker's password file (MQTT_PASSWORD_FILE beside Mosquitto) rewrites it.
      if (!fromSelf) void link.credentialsChanged().catch((err: unknown) => deps.log.error({ err }, 'rewriting the broker credentials failed'));
    } else if (d.kind === 'forget') {
      if (!fromSelf) forgetHere(d.uuid);
    } else if (d.kind === 'disconnect') {
      if (!fromSelf && link.isConnected(d.uuid)) link.disconnect(d.uuid);
    } else if (link.isConnected(d.uuid)) void timersNow(d.uuid).catch((err: unknown) => deps.log.error({ err, uuid: d.uuid }, 'breaker timers failed'));
  });
  bus.onResync(() => {
    cache.clear();
    lineMeta.clear();
  });

  /** The other instance holding this breaker's connection, or undefined (offline, or this instance's own). */
  async function holder(uuid: string): Promise<string | undefined> {
    const b = await breakersRepository.servedBy(db, uuid);
    return b && b.online === 1 && b.served_by && b.served_by !== me ? b.served_by : undefined;
  }
  function relay(to: string, uuid: string, op: BreakerOp): Promise<OpResult> {
    const rid = randomBytes(8).toString('hex');
    return new Promise<OpResult>((resolve) => {
      const timer = setTimeout(() => {
        relayed.delete(rid);
        resolve({ ok: false, reason: 'timeout' });
      }, deps.commandTimeoutMs + 3000);
      relayed.set(rid, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      bus.send(db, RPC_TOPIC, { rid, to, from: me, uuid, op }).catch((err: unknown) => {
        deps.log.error({ err, uuid }, 'relaying a breaker command failed');
        clearTimeout(timer);
        relayed.delete(rid);
        resolve({ ok: false, reason: 'offline' });
      });
    });
  }
  function forgetHere(uuid: string) {
    cache.delete(uuid);
    // names and line numbers may have changed: rebuilt from the next readings
    lineMeta.clear();
  }
  async function timersNow(uuid: string) {
    await serial(uuid, async () => {
      const e = await entry(uuid);
      if (e) await reconcile(e);
    });
  }

  return {
    events,
    stats,
    attach(l: BreakerLink) {
      link = l;
    },
    get link() {
      return link;
    },
    /** The service changed this breaker (lines, uuid, deleted): the next message reloads it, on every instance. */
    forget(uuid: string) {
      forgetHere(uuid);
      bus.send(db, CONTROL_TOPIC, { kind: 'forget', uuid }).catch((err: unknown) => deps.log.error({ err, uuid }, 'telling instances of a breaker failed'));
    },
    /** A breaker's password or uuid changed: the broker's files are rewritten here and by every other instance. */
    async credentialsChanged(uuid: string) {
      await link.credentialsChanged();
      await bus.send(db, CONTROL_TOPIC, { kind: 'credentials', uuid });
    },
    /** Cuts the breaker's connection wherever it is held (its password changed, it was deleted). */
    disconnect(uuid: string) {
      link.disconnect(uuid);
      bus.send(db, CONTROL_TOPIC, { kind: 'disconnect', uuid }).catch((err: unknown) => deps.log.error({ err, uuid }, 'telling instances of a breaker failed'));
    },
    /** Whether a command can reach the breaker now: connected here, or online at another running instance. */
    async reachable(uuid: string): Promise<boolean> {
      return link.isConnected(uuid) || (await holder(uuid)) !== undefined;
    },
    flush,
    /** Sends one operation, serialized with the breaker's other work; relayed to the instance holding it. */
    async send(uuid: string, op: BreakerOp): Promise<OpResult> {
      if (link.isConnected(uuid)) return serial(uuid, () => link.send(uuid, op));
      const to = await holder(uuid);
      return to ? relay(to, uuid, op) : { ok: false, reason: 'offline' };
    },
    /** Timer edits reach the breaker now where it is connected (otherwise at its next connect). */
    async syncTimers(uuid: string) {
      if (link.isConnected(uuid)) return timersNow(uuid);
      if (await holder(uuid)) await bus.send(db, CONTROL_TOPIC, { kind: 'timers', uuid });
    },
    /**
     * Breakers online at instances that stopped (no heartbeat): offline, with their alarm. Run by one instance now
     * and then, and at start; never touches a breaker another running instance serves.
     */
    async releaseOrphans(running: string[]) {
      for (const uuid of await breakersRepository.orphaned(db, running)) {
        const e = await entry(uuid);
        if (!e) continue;
        await serial(uuid, async () => {
          const at = nowIso();
          const b = await breakersRepository.servedBy(db, uuid);
          if (!b || b.online !== 1 || running.includes(b.served_by)) return;
          await breakersRepository.setDisconnected(db, e.id, b.served_by, at);
          await publish(db, e.companyId, 'breaker', { id: e.id, name: e.name, online: false, lines: [] }, BREAKER_RIGHTS);
          await raise(e, null, 'offline', null, at);
        });
      }
    },
    selfCheckSeconds: deps.selfCheckSeconds,
    async close() {
      closed = true;
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = null;
      await flush();
    },
  };
}
export type BreakersLive = ReturnType<typeof breakersLive>;
