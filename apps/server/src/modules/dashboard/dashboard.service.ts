import type {
  ConsoleBreaker,
  ConsoleTerminal,
  DashboardAlarms,
  DashboardAttendance,
  DashboardDevices,
  DashboardFlow,
  DeviceCounts,
  LiveAlarm,
  Punch,
  Rights,
  TrendDay,
} from '@faceadmin/shared';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../lib/errors.ts';
import { clock, zonedToUtcMs } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { addDays, plansFor } from '../attendance/plans.ts';
import { companyContext, localDate } from '../attendance/recompute.service.ts';
import { presentPunch } from '../punches/punches.presenter.ts';
import { dashboardRepository as repo, type SiteScope } from './dashboard.repository.ts';

type TrendRow = Awaited<ReturnType<typeof repo.trend>>[number];

/** What each block needs of the rights object (the same rules as the lists a figure opens). */
export const canSee = {
  attendance: (r: Rights) => r.attendance > 0,
  terminals: (r: Rights) => r.face >= 1,
  breakers: (r: Rights) => r.breaker >= 1 || r.face >= 1,
};

/** A clock drift this large (seconds) makes a terminal abnormal, as on the device list (devices.presenter.ts). */
const DRIFT_LIMIT_S = 120;
const ALARM_ITEMS = 20;
/** How far back the latest recognitions look (bounded, so a company without photos never scans its history). */
const RECOGNITION_WINDOW_MS = 7 * 86_400_000;

type Bucket = 'present' | 'late' | 'early' | 'absent' | 'leave' | 'notYetDue';
/** The donut's slice of a stored status; a day still open ('pending') is decided by its lateness and punches. */
const SLICE: Partial<Record<string, Bucket>> = {
  normal: 'present',
  halfDay: 'present',
  late: 'late',
  lateEarly: 'late',
  early: 'early',
  absent: 'absent',
  missingIn: 'absent',
  missingOut: 'absent',
  leave: 'leave',
  out: 'leave',
};

/**
 * How long the trend's past days are read again at most (#32): counting them reads a row a person a day (3 M rows,
 * half a second of three PostgreSQL workers, for 100,000 people), and every open dashboard refetches the trend whenever
 * a result changes. Past days rarely change (a recalculation, a hand-set day, a late upload): the chart shows such a
 * change within this time; today's column is read on each request.
 */
export const TREND_PAST_MS = 60_000;

/** The company's today: its date and the instants it runs between. */
function today(zone: string) {
  const date = localDate(clock.now(), zone);
  return { date, from: new Date(zonedToUtcMs(date, zone)).toISOString(), to: new Date(zonedToUtcMs(addDays(date, 1), zone)).toISOString() };
}

export function dashboardService(database: Database) {
  const { db } = database;
  const zoneOf = (t: Tenant) => t.timeZone ?? 'UTC';
  /** Each company's counts of the trend's past days, and when they were read (one read for many consoles at once). */
  const trendPast = new Map<string, { from: string; to: string; at: number; rows: Promise<TrendRow[]> }>();
  const pastTrend = (companyId: number, days: number, from: string, to: string): Promise<TrendRow[]> => {
    const now = clock.now();
    // by company and length (the console asks for 30 days, an integrator maybe for 7): a few entries a company
    const key = `${companyId}/${days}`;
    const kept = trendPast.get(key);
    // a clock set back is no reason to keep it longer
    if (kept && kept.from === from && kept.to === to && kept.at <= now && now - kept.at < TREND_PAST_MS) return kept.rows;
    const rows = repo.trend(db, companyId, from, to);
    const entry = { from, to, at: now, rows };
    trendPast.set(key, entry);
    // a failed read is not kept
    rows.catch(() => trendPast.get(key) === entry && trendPast.delete(key));
    return rows;
  };

  return {
    /** The site's placements; a site that is not this company's (or no sites at all yet) is not found. */
    async scope(t: Tenant, siteId: number | undefined): Promise<SiteScope | undefined> {
      if (siteId === undefined) return undefined;
      const s = await repo.site(db, t.companyId, siteId);
      if (!s) throw notFound();
      return s;
    },

    sites: (t: Tenant) => repo.sites(db, t.companyId),

    /**
     * Today's attendance. People without a result yet (nobody has punched, nothing recalculated today) are
     * expected when their rule plans work today: they are "not yet due", or present once they punched.
     */
    async attendance(t: Tenant): Promise<DashboardAttendance> {
      const zone = zoneOf(t);
      const day = today(zone);
      const [rows, punched, working] = await Promise.all([
        repo.dayRows(db, t.companyId, day.date),
        repo.punchedBetween(db, t.companyId, day.from, day.to),
        repo.working(db, t.companyId),
      ]);
      const out = { present: 0, late: 0, early: 0, absent: 0, leave: 0, notYetDue: 0 };
      const seen = new Set<number>();
      for (const r of rows) {
        seen.add(r.person_id);
        let b = SLICE[r.status];
        if (r.status === 'pending') b = r.late_min > 0 ? 'late' : punched.has(r.person_id) ? 'present' : 'notYetDue';
        if (b) out[b]++;
      }
      const missing = working.filter((id) => !seen.has(id));
      if (missing.length) {
        const ctx = await companyContext(db, t.companyId, day.date, day.date);
        const { departments, grid } = await repo.planInputs(db, t.companyId, missing, day.date);
        // a day's plan depends only on the rule and the person's grid cell: one plan per pair
        const works = new Map<string, boolean>();
        for (const id of missing) {
          const rule = ctx.ruleOf(id, departments.get(id) ?? [], day.date);
          if (!rule) continue;
          const cell = grid.get(id);
          const key = `${rule.id}:${cell ?? ''}`;
          let work = works.get(key);
          if (work === undefined) {
            const [plan] = plansFor(rule, [day.date], cell === undefined ? new Map() : new Map([[day.date, cell]]), ctx.holidays);
            works.set(key, (work = plan?.kind === 'work'));
          }
          if (work) out[punched.has(id) ? 'present' : 'notYetDue']++;
        }
      }
      const expected = Object.values(out).reduce((a, b) => a + b, 0);
      return { date: day.date, people: working.length, expected, ...out };
    },

    /** Day results per day for the last `days` days (today included), by the donut's slices. */
    async trend(t: Tenant, days: number): Promise<TrendDay[]> {
      const to = today(zoneOf(t)).date;
      const from = addDays(to, -(days - 1));
      const byDate = new Map<string, TrendDay>();
      for (let d = from; d <= to; d = addDays(d, 1)) byDate.set(d, { date: d, present: 0, late: 0, early: 0, absent: 0, leave: 0 });
      const [past, todays] = await Promise.all([pastTrend(t.companyId, days, from, addDays(to, -1)), repo.trend(db, t.companyId, to, to)]);
      for (const r of [...past, ...todays]) {
        const day = byDate.get(r.date);
        // an open day (today's, mostly) is not decided yet: the donut shows it, the trend counts decided days only
        const b = SLICE[r.status];
        if (day && b && b !== 'notYetDue') day[b] += r.n;
      }
      return [...byDate.values()];
    },

    async devices(t: Tenant, rights: Rights, site: SiteScope | undefined): Promise<DashboardDevices> {
      const count = (xs: { online: number; abnormal: boolean }[]): DeviceCounts => {
        const online = xs.filter((x) => x.online === 1).length;
        return { total: xs.length, online, offline: xs.length - online, abnormal: xs.filter((x) => x.abnormal).length };
      };
      const [terminals, breakers] = await Promise.all([
        canSee.terminals(rights) ? repo.terminals(db, t.companyId, site) : null,
        canSee.breakers(rights) ? repo.breakers(db, t.companyId, site) : null,
      ]);
      return {
        terminals: terminals && count(terminals.map((d) => ({ online: d.online, abnormal: d.failed || Math.abs(d.clock_drift) > DRIFT_LIMIT_S }))),
        breakers: breakers && count(breakers.map((b) => ({ online: b.online, abnormal: b.alarmed }))),
      };
    },

    async alarms(t: Tenant, rights: Rights, site: SiteScope | undefined): Promise<DashboardAlarms> {
      const day = today(zoneOf(t));
      const [breakers, punches] = await Promise.all([
        canSee.breakers(rights) ? repo.openBreakerAlarms(db, t.companyId, site, ALARM_ITEMS) : null,
        canSee.attendance(rights) ? repo.punchAlarms(db, t.companyId, site, day.from, day.to, ALARM_ITEMS) : null,
      ]);
      const items: LiveAlarm[] = [];
      for (const a of breakers?.items ?? []) {
        items.push({
          source: 'breaker',
          kind: a.type,
          subject: a.title ? `${a.alias} · ${a.title}` : a.alias,
          device_id: null,
          breaker_id: a.breaker_id,
          punch_id: null,
          value: a.value,
          at: a.at,
        });
      }
      for (const p of [...(punches?.over ?? []), ...(punches?.strangers ?? [])]) {
        const who = p.person_name ?? p.pin;
        const base = { device_id: p.device_id, breaker_id: null, punch_id: p.id, at: p.time };
        if (p.stranger === 1) items.push({ ...base, source: 'stranger', kind: 'stranger', subject: p.device_name, value: null });
        else if (p.alcohol_over === 1) items.push({ ...base, source: 'alcohol', kind: 'over', subject: who, value: p.alcohol });
        else if (p.health === 'red') items.push({ ...base, source: 'health', kind: 'red', subject: who, value: null });
        else items.push({ ...base, source: 'temperature', kind: 'over', subject: who, value: p.temperature });
      }
      items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
      return {
        items: items.slice(0, ALARM_ITEMS),
        breakers: breakers?.total ?? null,
        overLimit: punches?.overTotal ?? null,
        strangers: punches?.strangerTotal ?? null,
      };
    },

    async flow(t: Tenant, site: SiteScope | undefined): Promise<DashboardFlow> {
      const options = await repo.options(db, t.companyId);
      if (Number(options.iocount ?? 0) !== 1) return { enabled: false, hours: [], inside: 0 };
      const day = today(zoneOf(t));
      const [rows, inside] = await Promise.all([
        repo.flowByHour(db, t.companyId, site, day.from, day.to),
        repo.inside(db, t.companyId, site, day.from, day.to),
      ]);
      const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, in: 0, out: 0 }));
      for (const r of rows) {
        const h = hours[r.hour];
        if (h) h[r.direction === 'out' ? 'out' : 'in'] += r.n;
      }
      return { enabled: true, hours, inside };
    },

    async recognitions(t: Tenant, site: SiteScope | undefined, limit: number): Promise<Punch[]> {
      const since = new Date(clock.now() - RECOGNITION_WINDOW_MS).toISOString();
      return (await repo.recognitions(db, t.companyId, site, since, limit)).map((p) => presentPunch(p));
    },

    async consoles(t: Tenant, rights: Rights, site: SiteScope | undefined) {
      const [terminals, breakers] = await Promise.all([
        canSee.terminals(rights) ? repo.terminals(db, t.companyId, site) : null,
        canSee.breakers(rights) ? repo.breakers(db, t.companyId, site) : null,
      ]);
      // the last punch's name and photo are punch records: the attendance right's (as the punch list)
      const last =
        terminals && canSee.attendance(rights)
          ? await repo.lastPunches(
              db,
              t.companyId,
              terminals.map((d) => d.id),
            )
          : new Map();
      const lines = breakers
        ? await repo.lines(
            db,
            t.companyId,
            breakers.map((b) => b.id),
          )
        : [];
      return {
        terminals:
          terminals?.map((d): ConsoleTerminal => {
            const p = last.get(d.id);
            const shown = p ? presentPunch(p) : undefined;
            return {
              id: d.id,
              name: d.name,
              direction: d.direction,
              online: d.online === 1,
              last_seen_at: d.last_seen_at,
              last_punch: shown
                ? { id: shown.id, name: shown.name, number: shown.number, utc: shown.utc, pic_url: shown.pic_url, stranger: shown.stranger }
                : null,
            };
          }) ?? null,
        breakers:
          breakers?.map((b): ConsoleBreaker => ({
            id: b.id,
            name: b.alias,
            online: b.online === 1,
            last_seen_at: b.last_seen_at,
            lines: lines
              .filter((l) => l.breaker_id === b.id)
              .map((l) => ({ id: l.id, addr: l.addr, title: l.title, oc: l.oc, alarm: l.alarm, updated_at: l.updated_at })),
          })) ?? null,
      };
    },
  };
}
export type DashboardService = ReturnType<typeof dashboardService>;
