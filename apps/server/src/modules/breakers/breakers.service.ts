import { randomBytes } from 'node:crypto';
import {
  BREAKER_LIMITS,
  type BreakerCreate,
  type BrokerAddress,
  type BreakerUpdate,
  type CommandOutcome,
  type EnergyItem,
  type Language,
  type LineUpdate,
  type PowerSeries,
  type TimerCreate,
  type TimerUpdate,
} from '@faceadmin/shared';
import type { Database } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { t } from '../../i18n/i18n.ts';
import type { DeviceSecrets } from '../../lib/device-secret.ts';
import { badInput, conflict, invalid, notFound } from '../../lib/errors.ts';
import { requestQuota } from '../../plugins/request-quota.ts';
import { clock, nowIso, zonedToUtcMs, zoneOffsetMs } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { audit } from '../logs/logs.service.ts';
import { alarmsRepository, breakersRepository, linesRepository, timersRepository, type BreakerRow, type LineRow } from './breakers.repository.ts';
import { presentAlarm, presentBreaker, presentLine, presentTimer } from './breakers.presenter.ts';
import { outcomeOf, refusalKey, type BreakersLive } from './live.service.ts';
import { sitesRepository } from '../sites/sites.repository.ts';

const DEFAULT_MXGG = 6600;
const DEFAULT_MXGL = 3200;
const newPassword = () => randomBytes(12).toString('base64url');
const CONNECT_FAILURES = 5;
const CONNECT_LOCK_MS = 60_000;

/** The rules of breakers, lines, timers and alarms (spec §3, §5; issue #12). Commands go through `live`. */
export function breakersService(deps: { database: Database; live: BreakersLive; secrets: DeviceSecrets; broker: () => BrokerAddress }) {
  const { db } = deps.database;
  const { live } = deps;

  async function loadBreaker(tenant: Tenant, id: number): Promise<BreakerRow> {
    const b = await breakersRepository.find(db, tenant.companyId, id);
    if (!b) throw notFound();
    return b;
  }
  async function loadLine(tenant: Tenant, id: number): Promise<{ line: LineRow; breaker: BreakerRow }> {
    const line = await linesRepository.find(db, tenant.companyId, id);
    if (!line) throw notFound();
    return { line, breaker: (await breakersRepository.find(db, tenant.companyId, line.breaker_id))! };
  }

  async function detail(tenant: Tenant, b: BreakerRow) {
    const figures = await breakersRepository.figures(db, tenant.companyId, [b.id]);
    const lines = await linesRepository.ofBreaker(db, tenant.companyId, b.id);
    return { ...presentBreaker(b, figures.get(b.id)), lines: lines.map((l) => presentLine(l, Boolean(b.online))), selfcheck_seconds: live.selfCheckSeconds };
  }
  async function lineInfo(tenant: Tenant, id: number) {
    const { line, breaker } = await loadLine(tenant, id);
    return {
      ...presentLine(line, Boolean(breaker.online)),
      breaker_alias: breaker.alias,
      breaker_uuid: breaker.uuid,
      breaker_online: Boolean(breaker.online),
      selfcheck_seconds: live.selfCheckSeconds,
    };
  }

  async function credentialsChanged(uuid: string) {
    live.forget(uuid);
    await live.credentialsChanged(uuid);
  }

  function outcome(lang: Language, r: Awaited<ReturnType<BreakersLive['send']>>, oc: number, successKey: string): CommandOutcome {
    return { outcome: outcomeOf(r), oc, message: t(lang, r.ok ? successKey : refusalKey(r), r.ok ? {} : { message: r.reason === 'device' ? r.message : '' }) };
  }

  async function timerRow(lang: Language, tenant: Tenant, id: number) {
    const row = await timersRepository.find(db, tenant.companyId, id);
    if (!row) throw notFound();
    const lines = await linesRepository.ofBreaker(db, tenant.companyId, row.breaker_id);
    return presentTimer(lang, row, new Map(lines.map((l) => [l.id, l.title])));
  }

  /** spec §5 for timers: lines of this breaker, weekdays for a cyclic one, the day for a single one. */
  async function timerFields(tenant: Tenant, breakerId: number, input: Omit<TimerCreate, 'breaker_id'>) {
    const lineIds = [...new Set(input.line_ids)];
    const lines = await linesRepository.byIds(db, tenant.companyId, lineIds);
    if (lines.length !== lineIds.length || lines.some((l) => l.breaker_id !== breakerId)) throw invalid('line_ids');
    const weekdays = [...new Set(input.weekdays ?? [])].sort((a, b) => a - b);
    if (input.type === 'cyclic' && !weekdays.length) throw invalid('weekdays', 'reasons.required');
    if (input.type === 'single' && !input.day) throw invalid('day', 'reasons.required');
    return {
      type: input.type,
      line_ids: JSON.stringify(lineIds),
      day: input.type === 'single' ? input.day! : null,
      time: input.time,
      weekdays: JSON.stringify(input.type === 'cyclic' ? weekdays : []),
      action: input.action,
      enabled: input.enabled ?? 1,
    };
  }

  return {
    /**
     * The gateway's CONNECT check: the breaker's own password, one HMAC against the stored hash (no result is
     * kept: every CONNECT is checked, a new password counts at once). An old scrypt hash is checked once and
     * replaced by the HMAC form. `alive` false: the client left before its turn, nothing is checked.
     */
    async authenticate(uuid: string, password: string, alive?: () => boolean): Promise<boolean> {
      // Guessing costs the guesser, not the server: after 5 failures a uuid is refused unchecked for a minute. The
      // failures are counted in the database: with several instances (an embedded broker each) they add up.
      const now = clock.now();
      const key = `mqtt-connect ${uuid}`;
      const b = await breakersRepository.findByUuid(db, uuid);
      if (!b) return false;
      // Counted before the check, in one statement: CONNECTs checked at the same moment each spend one try.
      if ((await requestQuota.spend(db, key, now, CONNECT_LOCK_MS)).count > CONNECT_FAILURES) return false;
      const v = await deps.secrets.verify(password, b.password_hash, alive);
      if (v.result === 'abandoned') {
        // nothing was checked: no try spent
        await requestQuota.giveBack(db, key);
        return false;
      }
      if (v.result === 'upgrade') {
        await db.updateTable('breakers').set({ password_hash: v.stored }).where('id', '=', b.id).where('password_hash', '=', b.password_hash).execute();
      }
      // A success gives its try back (the breaker's own reconnects never add up to a lock).
      if (v.result === 'ok' || v.result === 'upgrade') {
        await requestQuota.giveBack(db, key);
        return true;
      }
      return false;
    },

    async list(tenant: Tenant, f: { keyword?: string | undefined; online?: number | undefined; offset: number; limit: number }) {
      const r = await breakersRepository.list(db, tenant.companyId, f);
      const figures = await breakersRepository.figures(
        db,
        tenant.companyId,
        r.items.map((b) => b.id),
      );
      return { items: r.items.map((b) => presentBreaker(b, figures.get(b.id))), total: r.total };
    },
    info: async (tenant: Tenant, id: number) => detail(tenant, await loadBreaker(tenant, id)),

    async create(tenant: Tenant, input: BreakerCreate) {
      const password = input.password ?? newPassword();
      const hash = deps.secrets.hash(password);
      const brokerHash = live.link.brokerHash(password);
      const linenum = input.linenum ?? 1;
      const id = await transaction(db, async (trx) => {
        if (await breakersRepository.uuidTaken(trx, input.uuid)) throw conflict('breaker.errors.uuidTaken', { uuid: input.uuid });
        const at = nowIso();
        const id = await breakersRepository.insert(trx, {
          company_id: tenant.companyId,
          uuid: input.uuid,
          alias: input.alias?.trim() ?? '',
          sort: input.sort,
          linenum,
          online: 0,
          last_seen_at: null,
          password_hash: hash,
          broker_hash: brokerHash,
          created_at: at,
          updated_at: at,
        });
        await linesRepository.insertMany(trx, newLines(tenant.companyId, id, 1, linenum));
        await audit(trx, tenant, 'breaker', 'breaker.create', { id, uuid: input.uuid, name: input.alias || input.uuid });
        return id;
      });
      await credentialsChanged(input.uuid);
      const b = await loadBreaker(tenant, id);
      return { breaker: presentBreaker(b, undefined), password, broker: deps.broker() };
    },

    async update(tenant: Tenant, input: BreakerUpdate) {
      const b = await loadBreaker(tenant, input.id);
      await transaction(db, async (trx) => {
        if (input.uuid !== b.uuid && (await breakersRepository.uuidTaken(trx, input.uuid, b.id)))
          throw conflict('breaker.errors.uuidTaken', { uuid: input.uuid });
        const linenum = input.linenum ?? b.linenum;
        await breakersRepository.update(trx, tenant.companyId, b.id, {
          uuid: input.uuid,
          alias: input.alias?.trim() ?? b.alias,
          sort: input.sort,
          linenum,
          updated_at: nowIso(),
        });
        if (linenum > b.linenum) await linesRepository.insertMany(trx, newLines(tenant.companyId, b.id, b.linenum + 1, linenum));
        if (linenum < b.linenum) await linesRepository.deleteAbove(trx, tenant.companyId, b.id, linenum);
        await audit(trx, tenant, 'breaker', 'breaker.update', { id: b.id, uuid: input.uuid, name: input.alias || input.uuid });
      });
      live.forget(b.uuid);
      if (input.uuid !== b.uuid) {
        live.disconnect(b.uuid);
        await credentialsChanged(b.uuid);
        await credentialsChanged(input.uuid);
      }
      return presentBreaker(await loadBreaker(tenant, b.id), (await breakersRepository.figures(db, tenant.companyId, [b.id])).get(b.id));
    },

    async delete(tenant: Tenant, id: number) {
      const b = await loadBreaker(tenant, id);
      await transaction(db, async (trx) => {
        await trx.deleteFrom('breaker_alarms').where('company_id', '=', tenant.companyId).where('breaker_id', '=', b.id).execute();
        await trx.deleteFrom('breaker_timers').where('company_id', '=', tenant.companyId).where('breaker_id', '=', b.id).execute();
        await trx.deleteFrom('breaker_lines').where('company_id', '=', tenant.companyId).where('breaker_id', '=', b.id).execute();
        await breakersRepository.delete(trx, tenant.companyId, b.id);
        await sitesRepository.forget(trx, tenant.companyId, 'breaker', b.id);
        await audit(trx, tenant, 'breaker', 'breaker.delete', { id: b.id, uuid: b.uuid, name: b.alias || b.uuid });
      });
      live.disconnect(b.uuid);
      await credentialsChanged(b.uuid);
    },

    async setPassword(tenant: Tenant, id: number, given: string | undefined) {
      const b = await loadBreaker(tenant, id);
      const password = given ?? newPassword();
      const hash = deps.secrets.hash(password);
      await transaction(db, async (trx) => {
        await breakersRepository.update(trx, tenant.companyId, b.id, {
          password_hash: hash,
          broker_hash: live.link.brokerHash(password),
          updated_at: nowIso(),
        });
        await audit(trx, tenant, 'breaker', 'breaker.password', { id: b.id, uuid: b.uuid, name: b.alias || b.uuid });
      });
      live.disconnect(b.uuid);
      await credentialsChanged(b.uuid);
      return { password, broker: deps.broker() };
    },

    lineInfo,

    /** Title, type and limits; the limits are written to the breaker (now when connected, else at its next connect). */
    async lineUpdate(lang: Language, tenant: Tenant, input: LineUpdate) {
      const { line, breaker } = await loadLine(tenant, input.id);
      const limitsChanged = input.mxgg !== line.mxgg || input.mxgl !== line.mxgl;
      await transaction(db, async (trx) => {
        await linesRepository.update(trx, tenant.companyId, line.id, {
          title: input.title.trim(),
          main: input.main ?? line.main,
          line_type: input.line_type ?? line.line_type,
          mxgg: input.mxgg,
          mxgl: input.mxgl,
          ...(limitsChanged ? { limits_synced: 0 } : {}),
        });
        await audit(trx, tenant, 'breaker', 'breaker.line', { id: line.id, uuid: breaker.uuid, line: input.title, mxgg: input.mxgg, mxgl: input.mxgl });
      });
      live.forget(breaker.uuid);
      let result: CommandOutcome;
      const after = await linesRepository.find(db, tenant.companyId, line.id);
      if (after!.limits_synced) result = { outcome: 'success', oc: line.oc, message: t(lang, 'breaker.outcome.saved') };
      else if (!(await live.reachable(breaker.uuid))) result = { outcome: 'failure', oc: line.oc, message: t(lang, 'breaker.outcome.limitsPending') };
      else {
        const r = await live.send(breaker.uuid, { op: 'limits', index: line.addr - 1, powerW: input.mxgg, currentA: input.mxgl / 100 });
        if (r.ok) await linesRepository.update(db, tenant.companyId, line.id, { limits_synced: 1 });
        result = outcome(lang, r, line.oc, 'breaker.outcome.limitsWritten');
      }
      return { line: await lineInfo(tenant, line.id), result };
    },

    /** Switches a line and waits for the breaker's confirmation; refused while the breaker is offline. */
    async switchLine(lang: Language, tenant: Tenant, id: number, oc: number) {
      const { line, breaker } = await loadLine(tenant, id);
      if (!(await live.reachable(breaker.uuid))) throw badInput('breaker.errors.offline', undefined, { name: breaker.alias || breaker.uuid });
      const r = await live.send(breaker.uuid, { op: 'switch', index: line.addr - 1, on: oc === 1 });
      if (r.ok) {
        await transaction(db, async (trx) => {
          await linesRepository.update(trx, tenant.companyId, line.id, { oc, ...(oc ? {} : { power: 0, current: 0 }) });
          const data = { id: line.id, uuid: breaker.uuid, line: line.title };
          if (oc) await audit(trx, tenant, 'breaker', 'breaker.on', data);
          else await audit(trx, tenant, 'breaker', 'breaker.off', data);
        });
      }
      return outcome(lang, r, r.ok ? oc : line.oc, oc ? 'breaker.outcome.switchedOn' : 'breaker.outcome.switchedOff');
    },

    /** spec §9: the line loses power for the self-check's seconds, then the breaker closes it again. */
    async selfCheck(lang: Language, tenant: Tenant, id: number) {
      const { line, breaker } = await loadLine(tenant, id);
      if (!(await live.reachable(breaker.uuid))) throw badInput('breaker.errors.offline', undefined, { name: breaker.alias || breaker.uuid });
      const seconds = live.selfCheckSeconds;
      const r = await live.send(breaker.uuid, { op: 'switch', index: line.addr - 1, on: false, toggleAfter: seconds });
      if (r.ok) {
        await transaction(db, async (trx) => {
          await linesRepository.update(trx, tenant.companyId, line.id, { oc: 0, power: 0, current: 0, selfcheck: 'running', selfcheck_at: nowIso() });
          await audit(trx, tenant, 'breaker', 'breaker.selfcheck', { id: line.id, uuid: breaker.uuid, line: line.title });
        });
      }
      const o = outcome(lang, r, r.ok ? 0 : line.oc, 'breaker.outcome.selfCheckStarted');
      return r.ok ? { ...o, message: t(lang, 'breaker.outcome.selfCheckStarted', { seconds }) } : o;
    },

    async timers(lang: Language, tenant: Tenant, breakerId: number) {
      const b = await loadBreaker(tenant, breakerId);
      const lines = await linesRepository.ofBreaker(db, tenant.companyId, b.id);
      const titles = new Map(lines.map((l) => [l.id, l.title]));
      return (await timersRepository.ofBreaker(db, tenant.companyId, b.id)).map((r) => presentTimer(lang, r, titles));
    },
    async timerCreate(lang: Language, tenant: Tenant, input: TimerCreate) {
      const b = await loadBreaker(tenant, input.breaker_id);
      const fields = await timerFields(tenant, b.id, input);
      const id = await transaction(db, async (trx) => {
        if ((await timersRepository.count(trx, tenant.companyId, b.id)) >= BREAKER_LIMITS.timersMax)
          throw badInput('breaker.errors.timersFull', undefined, { max: BREAKER_LIMITS.timersMax });
        const at = nowIso();
        const id = await timersRepository.insert(trx, {
          company_id: tenant.companyId,
          breaker_id: b.id,
          ...fields,
          job_id: null,
          sync: 'pending',
          sync_error: '',
          created_at: at,
          updated_at: at,
        });
        await audit(trx, tenant, 'breaker', 'breaker.timerCreate', { id, uuid: b.uuid, time: input.time, action: input.action });
        return id;
      });
      await live.syncTimers(b.uuid);
      return timerRow(lang, tenant, id);
    },
    async timerUpdate(lang: Language, tenant: Tenant, input: TimerUpdate) {
      const row = await timersRepository.find(db, tenant.companyId, input.id);
      if (!row) throw notFound();
      const b = await loadBreaker(tenant, row.breaker_id);
      const fields = await timerFields(tenant, b.id, input);
      await transaction(db, async (trx) => {
        await timersRepository.update(trx, tenant.companyId, row.id, { ...fields, sync: 'pending', sync_error: '', updated_at: nowIso() });
        await audit(trx, tenant, 'breaker', 'breaker.timerUpdate', { id: row.id, uuid: b.uuid, time: input.time, action: input.action });
      });
      await live.syncTimers(b.uuid);
      return timerRow(lang, tenant, row.id);
    },
    async timerDelete(tenant: Tenant, id: number) {
      const row = await timersRepository.find(db, tenant.companyId, id);
      if (!row) throw notFound();
      const b = await loadBreaker(tenant, row.breaker_id);
      await transaction(db, async (trx) => {
        await timersRepository.delete(trx, tenant.companyId, row.id);
        await audit(trx, tenant, 'breaker', 'breaker.timerDelete', { id: row.id, uuid: b.uuid, time: row.time, action: row.action });
      });
      await live.syncTimers(b.uuid);
    },

    async alarms(
      tenant: Tenant,
      f: { breakerId?: number | undefined; lineId?: number | undefined; type?: string | undefined; active?: number | undefined; offset: number; limit: number },
    ) {
      const r = await alarmsRepository.list(db, tenant.companyId, f);
      return { items: r.items.map(presentAlarm), total: r.total };
    },

    /**
     * Power of a breaker (its lines, main lines left out when there are others) or one line (docs/api-breakers.md,
     * "Power and energy"). Every bucket is built from one series, the total power minute by minute (the sum of the
     * lines' one-minute averages): its average is the mean of those minute totals, its peak the highest of them, so
     * the peak is never below the average. `day`: the last 24 h in 5-minute buckets up to the current minute;
     * `month`: the last 30 days of the company's zone, by day.
     */
    async power(tenant: Tenant, q: { id: number; line_id?: number | undefined; range: 'day' | 'month' }, zone: string): Promise<PowerSeries> {
      const b = await loadBreaker(tenant, q.id);
      const lines = await linesRepository.ofBreaker(db, tenant.companyId, b.id);
      let ids: number[];
      if (q.line_id) {
        if (!lines.some((l) => l.id === q.line_id)) throw notFound();
        ids = [q.line_id];
      } else {
        const others = lines.filter((l) => !l.main);
        ids = (others.length ? others : lines).map((l) => l.id);
      }
      const now = clock.now();
      const step = q.range === 'day' ? 300_000 : 86400_000;
      const start = q.range === 'day' ? Math.floor((now - 24 * 3600_000) / step) * step : localDayStart(now, zone, 29);
      const from = new Date(start).toISOString().slice(0, 16);
      const buckets = new Map<string, Bucket>();
      const key =
        q.range === 'day'
          ? (at: number) => new Date(Math.floor(at / step) * step).toISOString()
          : (at: number) => new Date(at + zoneOffsetMs(zone, at)).toISOString().slice(0, 10);
      if (q.range === 'day') {
        for (const m of await linesRepository.minuteTotals(db, ids, from)) addTo(buckets, key(minuteMs(m.minute)), Number(m.w), 1, Number(m.w));
      } else {
        for (const s of await linesRepository.quarterTotals(db, ids, from)) {
          const at = Date.parse(`${s.hour}:00:00Z`) + Number(s.quarter) * 900_000;
          addTo(buckets, key(at), Number(s.sum_w), Number(s.minutes), Number(s.max_w));
        }
      }
      // The minutes the measurements job has not folded yet come from the raw readings (a breaker that just called
      // in is on the chart at once), summed over the lines minute by minute like the folded ones.
      for (const [minute, w] of await unfoldedTotals(ids, from)) addTo(buckets, key(minuteMs(minute)), w, 1, w);
      const points = [...buckets]
        .sort(([a], [c]) => a.localeCompare(c))
        .map(([t, bk]) => {
          const max = round1(bk.max);
          // the mean of figures is never above their highest; min() only keeps float noise from showing
          return { t, avg: Math.min(round1(bk.sum / bk.n), max), max };
        });
      return { range: q.range, step_s: step / 1000, points };
    },

    /**
     * A line's energy per day (the last 30) or month (the last 12) in the company's zone, from its meter: a period's
     * energy is the meter at the end of its last minute with readings less the meter at the end of the last minute
     * before the period (docs/api-breakers.md, "Power and energy").
     */
    async energy(tenant: Tenant, id: number, by: 'day' | 'month', zone: string): Promise<EnergyItem[]> {
      const { line } = await loadLine(tenant, id);
      const now = clock.now();
      const start = by === 'day' ? localDayStart(now, zone, 29) : localMonthStart(now, zone, 11);
      const from = new Date(start).toISOString().slice(0, 16);
      const [before, quarters] = await Promise.all([linesRepository.meterBefore(db, line.id, from), linesRepository.meterQuarters(db, line.id, from)]);
      const readings = quarters.map((r) => ({
        at: Date.parse(`${r.hour}:00:00Z`) + Number(r.quarter) * 900_000,
        first: Number(r.first_wh),
        last: Number(r.last_wh),
      }));
      // the minutes not folded yet, from the raw readings (as the power chart does); like a folded minute, each
      // holds the meter at its end
      for (const r of (await unfolded([line.id], from)).rows) readings.push({ at: minuteMs(r.minute), first: Number(r.last_wh), last: Number(r.last_wh) });
      const periods = new Map<string, number>();
      let prev = before;
      for (const s of readings.sort((a, c) => a.at - c.at)) {
        const local = new Date(s.at + zoneOffsetMs(zone, s.at)).toISOString();
        const period = by === 'day' ? local.slice(0, 10) : local.slice(0, 7);
        // A line's first readings count from its first minute; a meter that went back (reset, replaced) counts
        // nothing for that quarter hour and counts on from its new reading.
        const wh = prev === undefined ? s.last - s.first : Math.max(0, s.last - prev);
        periods.set(period, (periods.get(period) ?? 0) + wh);
        prev = s.last;
      }
      return [...periods].map(([period, wh]) => ({ period, kwh: Math.round(wh) / 1000 }));
    },
  };

  /** The lines' raw readings per line and minute after their last folded minute (since `from` at the earliest). */
  async function unfolded(ids: number[], from: string) {
    if (!ids.length) return { rows: [] };
    await live.flush();
    const folded = await linesRepository.lastMinute(db, ids, from);
    const since = folded ? new Date(minuteMs(folded) + 60_000).toISOString() : `${from}:00.000Z`;
    return { rows: await linesRepository.recentMinutes(db, ids, since) };
  }
  /** Per minute ('YYYY-MM-DDTHH:mm'), the lines' total power from the readings not folded yet. */
  async function unfoldedTotals(ids: number[], from: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const r of (await unfolded(ids, from)).rows) out.set(r.minute, (out.get(r.minute) ?? 0) + Number(r.avg_w));
    return out;
  }
}

interface Bucket {
  sum: number;
  n: number;
  max: number;
}
function addTo(buckets: Map<string, Bucket>, key: string, sum: number, n: number, max: number) {
  const b = buckets.get(key);
  if (b) {
    b.sum += sum;
    b.n += n;
    b.max = Math.max(b.max, max);
  } else buckets.set(key, { sum, n, max });
}
const round1 = (x: number) => Math.round(x * 10) / 10;
const minuteMs = (minute: string) => Date.parse(`${minute}:00Z`);
/** The instant the local day `daysBack` days before today (in the zone) began. */
function localDayStart(now: number, zone: string, daysBack: number): number {
  const today = Date.parse(new Date(now + zoneOffsetMs(zone, now)).toISOString().slice(0, 10));
  return zonedToUtcMs(new Date(today - daysBack * 86400_000).toISOString().slice(0, 10), zone);
}
/** The instant the local month `monthsBack` months before this one (in the zone) began. */
function localMonthStart(now: number, zone: string, monthsBack: number): number {
  const local = new Date(now + zoneOffsetMs(zone, now));
  const first = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - monthsBack, 1));
  return zonedToUtcMs(first.toISOString().slice(0, 10), zone);
}
export type BreakersService = ReturnType<typeof breakersService>;

function newLines(companyId: number, breakerId: number, from: number, to: number) {
  const rows = [];
  for (let addr = from; addr <= to; addr++) {
    rows.push({
      company_id: companyId,
      breaker_id: breakerId,
      addr,
      title: `L${addr}`,
      main: 0,
      line_type: 'other',
      mxgg: DEFAULT_MXGG,
      mxgl: DEFAULT_MXGL,
      limits_synced: 0,
      oc: 0,
      power: 0,
      current: 0,
      voltage: 0,
      energy_wh: 0,
      temperature: null,
      leakage: 0,
      alarm: null,
      selfcheck: 'idle',
      selfcheck_at: null,
      updated_at: null,
    });
  }
  return rows;
}
