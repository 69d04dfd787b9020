import { DEFAULT_TIME_ZONE, type DayStatus } from '@faceadmin/shared';
import { CompiledQuery, type Insertable } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Dialect, Executor } from '../../db/database.ts';
import type { AttendanceDayTable } from '../../db/schema.ts';
import { transaction } from '../../db/transaction.ts';
import { chunks } from '../../lib/chunks.ts';
import { parseJson } from '../../lib/json.ts';
import { clock, isoToMs, nowIso, zonedToUtcMs } from '../../lib/time.ts';
import { computeRange, type AbsenceIn, type DayPlan, type DayResult, type PunchIn, type ShiftDef } from './engine/index.ts';
import { markDirty } from './dirty.ts';
import { addDays, datesBetween, plansFor, ruleDef, type StoredHoliday, type StoredRule } from './plans.ts';
import { publish } from '../live/publish.ts';

const DAY = 86_400_000;
const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** The local date of an instant in a zone (one formatter per zone: making one costs more than formatting). */
export function localDate(ms: number, zone: string): string {
  let f = dateFormats.get(zone);
  if (!f) dateFormats.set(zone, (f = new Intl.DateTimeFormat('en-CA', { timeZone: zone })));
  return f.format(new Date(ms));
}

/** At most this many day results are listed in one `day` event; more are announced as a batch to refetch. */
const LIVE_DAYS_MAX = 50;

async function loadRule(ex: Executor, ruleId: number): Promise<StoredRule | undefined> {
  const r = await ex.selectFrom('attendance_rules').selectAll().where('id', '=', ruleId).executeTakeFirst();
  if (!r) return undefined;
  const shifts = await ex.selectFrom('attendance_shifts').selectAll().where('rule_id', '=', ruleId).orderBy('sort').execute();
  const cycles = await ex.selectFrom('attendance_cycles').selectAll().where('rule_id', '=', ruleId).execute();
  return {
    ...r,
    shifts: shifts.map((s): ShiftDef => ({
      id: s.id,
      name: s.name,
      start: s.start,
      end: s.end,
      breaks: parseJson(s.breaks, []),
      lateGraceMin: s.late_grace_min,
      earlyGraceMin: s.early_grace_min,
      checkInBeforeMin: s.check_in_before_min,
      checkInAfterMin: s.check_in_after_min,
      checkOutBeforeMin: s.check_out_before_min,
      checkOutAfterMin: s.check_out_after_min,
    })),
    cycles: cycles.map((c) => ({ id: c.id, days: parseJson<number[]>(c.days, []) })),
  };
}

interface DirtyRow {
  person_id: number;
  company_id: number;
  from_date: string;
  to_date: string;
  queued_at: string;
}

/** Everything of one company the engine needs besides each person's own rows, read once per batch. */
export async function companyContext(ex: Executor, companyId: number, from: string, to: string) {
  const company = await ex.selectFrom('companies').select(['time_zone', 'filter_seconds']).where('id', '=', companyId).executeTakeFirst();
  const ruleRows = await ex.selectFrom('attendance_rules').select('id').where('company_id', '=', companyId).execute();
  const rules = new Map<number, StoredRule>();
  for (const r of ruleRows) {
    const rule = await loadRule(ex, r.id);
    if (rule) rules.set(r.id, rule);
  }
  const members = await ex.selectFrom('attendance_rule_members').select(['rule_id', 'kind', 'ref_id']).where('company_id', '=', companyId).execute();
  const direct = new Map(members.filter((m) => m.kind === 'person').map((m) => [m.ref_id, m.rule_id]));
  const byDept = new Map(members.filter((m) => m.kind === 'department').map((m) => [m.ref_id, m.rule_id]));
  const parents = new Map(
    (await ex.selectFrom('departments').select(['id', 'parent_id']).where('company_id', '=', companyId).execute()).map((d) => [d.id, d.parent_id]),
  );
  const holidays: StoredHoliday[] = (
    await ex
      .selectFrom('attendance_holidays')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('to_date', '>=', addDays(from, -1))
      .where('from_date', '<=', addDays(to, 1))
      .execute()
  ).map((h) => ({ ...h, rule_ids: parseJson<number[]>(h.rule_ids, []) }));
  /** The rule a person is under: named directly, else through their department or one above it. */
  const ruleOf = (personId: number, departments: number[]): StoredRule | undefined => {
    const d = direct.get(personId);
    if (d !== undefined) return rules.get(d);
    for (const start of departments) {
      for (let id: number | undefined = start, hops = 0; id && hops < 100; id = parents.get(id), hops++) {
        const r = byDept.get(id);
        if (r !== undefined) return rules.get(r);
      }
    }
    return undefined;
  };
  return { zone: company?.time_zone ?? DEFAULT_TIME_ZONE, filterSeconds: company?.filter_seconds ?? 0, holidays, ruleOf, rules: [...rules.values()] };
}

const DAY_COLUMNS = [
  'company_id',
  'person_id',
  'date',
  'rule_id',
  'status',
  'late_min',
  'early_min',
  'worked_min',
  'overtime_min',
  'leave_min',
  'out_min',
  'absent_min',
  'leave_kinds',
  'detail',
  'manual_status',
  'manual_reason',
  'computed_at',
] as const satisfies readonly (keyof AttendanceDayTable)[];
const DAY_UPDATES = [
  'rule_id',
  'status',
  'late_min',
  'early_min',
  'worked_min',
  'overtime_min',
  'leave_min',
  'out_min',
  'absent_min',
  'leave_kinds',
  'detail',
  'computed_at',
] as const;

/**
 * Day results written (or replaced; a manual result's columns are left alone) with one multi-row statement.
 * The SQL is written out once rather than built by the query builder for every row: a month for 10,000 people
 * is 310,000 rows, and building them spent more time than SQLite storing them. The text is the same on both
 * databases but for the placeholders.
 */
async function upsertDays(ex: Executor, dialect: Dialect, rows: Insertable<AttendanceDayTable>[]): Promise<void> {
  const params: unknown[] = [];
  const tuples: string[] = [];
  for (const r of rows) {
    const marks: string[] = [];
    for (const c of DAY_COLUMNS) {
      params.push(r[c] ?? null);
      marks.push(dialect === 'postgres' ? `$${params.length}` : '?');
    }
    tuples.push(`(${marks.join(',')})`);
  }
  const text =
    `insert into attendance_days (${DAY_COLUMNS.join(', ')}) values ${tuples.join(', ')} ` +
    `on conflict (person_id, date) do update set ${DAY_UPDATES.map((c) => `${c} = excluded.${c}`).join(', ')}`;
  await ex.executeQuery(CompiledQuery.raw(text, params));
}

type StoredPunch = { id: number; time: string; device_id: number; temperature?: number | null; alcohol_over?: number | null; health?: string | null };

/** A stored punch as the engine reads it, with only what the person's rule looks at (a month is 1.24 M of them). */
function punchIn(p: StoredPunch, rule: StoredRule, directions: Map<number, string>): PunchIn {
  const out: PunchIn = { id: p.id, at: isoToMs(p.time), deviceId: p.device_id };
  if (rule.use_direction === 1) out.direction = directions.get(p.device_id) === 'out' ? 'out' : 'in';
  if (rule.model !== 'default') {
    out.temperature = p.temperature ?? null;
    // the rule's alarm (#17): at or above it the punch is refused under the temperature model
    out.temperatureAlarm = rule.alarm_temp;
    // The reading was judged against the device's threshold when it was taken (stored as a flag).
    out.alcohol = p.alcohol_over ?? null;
    out.alcoholThreshold = p.alcohol_over == null ? null : 1;
    out.health = (p.health ?? null) as PunchIn['health'];
  }
  return out;
}

/**
 * Rows cut into statements of 500, 100, 20 or 1: the statement text depends on the row count, and a few sizes keep
 * the prepared-statement cache from filling with one large single-use statement per batch remainder.
 */
function statementSizes<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  let i = 0;
  for (const size of [500, 100, 20, 1]) for (; rows.length - i >= size; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** Rows of these people, read with one statement per 500 of them. */
async function perPerson<T extends { person_id: number }>(ids: number[], read: (part: number[]) => Promise<T[]>): Promise<Map<number, T[]>> {
  const out = new Map<number, T[]>();
  for (const part of chunks(ids)) for (const r of await read(part)) (out.get(r.person_id) ?? out.set(r.person_id, []).get(r.person_id)!).push(r);
  return out;
}

/**
 * Turns queued person-days into stored day results with the engine, a batch of people at a time: one read per
 * kind of input for the whole batch (people, their departments, punches of the range and a day either side,
 * absences, the grid; rules and holidays once per company), one pure computation per person, multi-row writes
 * in one transaction. A manual result stays as the administrator set it; the computed one is kept beside it.
 */
export function recomputeService(deps: { database: Database; log: FastifyBaseLogger }) {
  const { db } = deps.database;

  /** Computes the rows' day results; writes them (and clears the queue rows) unless `dryRun`. */
  async function company(companyId: number, rows: DirtyRow[], dryRun = false): Promise<{ days: number; results: Map<number, DayResult[]> }> {
    const from = rows.reduce((m, r) => (r.from_date < m ? r.from_date : m), rows[0]!.from_date);
    const to = rows.reduce((m, r) => (r.to_date > m ? r.to_date : m), rows[0]!.to_date);
    const ctx = await companyContext(db, companyId, from, to);
    const ids = rows.map((r) => r.person_id);
    const startIso = new Date(zonedToUtcMs(addDays(from, -1), ctx.zone)).toISOString();
    const endIso = new Date(zonedToUtcMs(addDays(to, 3), ctx.zone)).toISOString();
    const people = await perPerson(ids, (part) =>
      db
        .selectFrom('persons')
        .select(['id as person_id', 'work_status', 'left_at', 'joined_on'])
        .where('company_id', '=', companyId)
        .where('id', 'in', part)
        .execute(),
    );
    const depts = await perPerson(ids, (part) =>
      db.selectFrom('person_departments').select(['person_id', 'department_id']).where('person_id', 'in', part).execute(),
    );
    const grids = await perPerson(ids, (part) =>
      db
        .selectFrom('attendance_schedule')
        .select(['person_id', 'date', 'shift_id'])
        .where('person_id', 'in', part)
        .where('date', '>=', addDays(from, -1))
        .where('date', '<=', addDays(to, 1))
        .execute(),
    );
    // One statement per person: with a long IN list the planner may walk the company's whole (company, time)
    // range instead of each person's (person, time) entries — a month for 10,000 people, 20 times over.
    const directions = new Map(
      (await db.selectFrom('devices').select(['id', 'direction']).where('company_id', '=', companyId).execute()).map((d) => [d.id, d.direction]),
    );
    // The model's readings are read only when one of the company's rules judges them.
    const readings = ctx.rules.some((r) => r.model !== 'default');
    const punches = new Map<number, StoredPunch[]>();
    for (const id of ids)
      punches.set(
        id,
        await db
          .selectFrom('punches')
          .select(readings ? ['id', 'time', 'device_id', 'temperature', 'alcohol_over', 'health'] : ['id', 'time', 'device_id'])
          .where('person_id', '=', id)
          .where('company_id', '=', companyId)
          .where('time', '>=', startIso)
          .where('time', '<', endIso)
          .orderBy('time')
          .execute(),
      );
    const absences = await perPerson(ids, (part) =>
      db.selectFrom('attendance_absences').selectAll().where('person_id', 'in', part).where('to_at', '>=', startIso).where('from_at', '<', endIso).execute(),
    );
    const at = nowIso();
    const now = clock.now();
    const upserts: Insertable<AttendanceDayTable>[] = [];
    /** Dates whose results go (a manual result stays): no rule, or after the person left. */
    const cleared: DirtyRow[] = [];
    const computed = new Map<number, DayResult[]>();
    // Without grid rows a person's plans depend only on the rule and the dates: computed once per batch.
    const shared = new Map<string, DayPlan[]>();
    for (const row of rows) {
      const who = people.get(row.person_id)?.[0];
      // Someone who left keeps the results up to the day they left (in the company's zone), none after it.
      const leftOn = who && who.work_status !== 1 && who.left_at ? localDate(isoToMs(who.left_at), ctx.zone) : null;
      const rule =
        who && (who.work_status === 1 || leftOn)
          ? ctx.ruleOf(
              row.person_id,
              (depts.get(row.person_id) ?? []).map((d) => d.department_id),
            )
          : undefined;
      // Nor any before the hire date.
      const joinedOn = who?.joined_on ?? null;
      if (!rule || (leftOn && leftOn < row.from_date) || (joinedOn && joinedOn > row.to_date)) {
        cleared.push(row);
        continue;
      }
      if (leftOn && leftOn < row.to_date) cleared.push({ ...row, from_date: addDays(leftOn, 1) });
      if (joinedOn && joinedOn > row.from_date) cleared.push({ ...row, to_date: addDays(joinedOn, -1) });
      const own = grids.get(row.person_id);
      const key = own ? '' : `${rule.id}/${row.from_date}/${row.to_date}`;
      let plans = own ? undefined : shared.get(key);
      if (!plans) {
        const dates = [addDays(row.from_date, -1), ...datesBetween(row.from_date, row.to_date), addDays(row.to_date, 1)];
        plans = plansFor(rule, dates, new Map((own ?? []).map((g) => [g.date, g.shift_id])), ctx.holidays);
        if (!own) shared.set(key, plans);
      }
      const before = plans[0]!;
      const after = plans[plans.length - 1]!;
      const rest = plans.slice(1, -1);
      const results: DayResult[] = computeRange({
        zone: ctx.zone,
        rule: ruleDef(rule),
        days: rest,
        before,
        after,
        punches: (punches.get(row.person_id) ?? []).map((p) => punchIn(p, rule, directions)),
        absences: (absences.get(row.person_id) ?? []).map((a): AbsenceIn => ({
          id: a.id,
          kind: a.kind as AbsenceIn['kind'],
          from: isoToMs(a.from_at),
          to: isoToMs(a.to_at),
          label: a.reason,
          ...(a.leave_type ? { leaveType: a.leave_type } : {}),
        })),
        filterSeconds: ctx.filterSeconds,
        now,
        leftOn,
        joinedOn,
        // Only figures and the punches used are stored; a dry run (explain) wants the whole explanation.
        lean: !dryRun,
      });
      computed.set(row.person_id, results);
      for (const r of results) {
        upserts.push({
          company_id: companyId,
          person_id: row.person_id,
          date: r.date,
          rule_id: rule.id,
          status: r.status,
          late_min: r.lateMin,
          early_min: r.earlyMin,
          worked_min: r.workedMin,
          overtime_min: r.overtimeMin,
          leave_min: r.leaveMin ?? 0,
          out_min: r.outMin ?? 0,
          absent_min: r.absentMin ?? 0,
          leave_kinds: JSON.stringify(r.leaveKinds ?? {}),
          // Only what lists need (the punches it used); the explanation is recomputed on demand (explain()),
          // which keeps a month for 10,000 people a few MB instead of hundreds.
          detail: JSON.stringify({ used: r.used }),
          manual_status: null,
          manual_reason: null,
          computed_at: at,
        });
      }
    }
    if (dryRun) return { days: upserts.length, results: computed };
    await transaction(db, async (trx) => {
      // No rule (or left): no results for those days (a manual result stays).
      for (const c of cleared)
        await trx
          .deleteFrom('attendance_days')
          .where('person_id', '=', c.person_id)
          .where('date', '>=', c.from_date)
          .where('date', '<=', c.to_date)
          .where('manual_status', 'is', null)
          .execute();
      for (const part of statementSizes(upserts)) await upsertDays(trx, deps.database.dialect, part);
      // The watchers' screens follow: a few days listed (a punch's day), a batch only as "refetch".
      if (upserts.length || cleared.length) {
        const days =
          upserts.length <= LIVE_DAYS_MAX && !cleared.length
            ? upserts.map((u) => ({
                person_id: u.person_id,
                date: u.date,
                status: u.status as DayStatus,
                late_min: u.late_min ?? 0,
                early_min: u.early_min ?? 0,
              }))
            : null;
        await publish(trx, companyId, 'day', { days }, ['attendance']);
      }
      // Done, unless a change widened a person's range meanwhile (its queued_at moved on: it stays queued).
      for (const part of chunks(rows))
        await trx
          .deleteFrom('attendance_dirty')
          .where((eb) =>
            eb(
              eb.refTuple('person_id', 'queued_at'),
              'in',
              part.map((r) => eb.tuple(r.person_id, r.queued_at)),
            ),
          )
          .execute();
    });
    return { days: upserts.length, results: computed };
  }

  return {
    /** Recomputes one person's range now (tests, and the single-punch path). */
    person: async (companyId: number, personId: number, from: string, to: string) =>
      (await company(companyId, [{ company_id: companyId, person_id: personId, from_date: from, to_date: to, queued_at: '' }])).days,
    /** One person-day computed now from the stored inputs, with its whole explanation; nothing is written. */
    async explain(companyId: number, personId: number, date: string): Promise<DayResult | undefined> {
      const r = await company(companyId, [{ company_id: companyId, person_id: personId, from_date: date, to_date: date, queued_at: '' }], true);
      return r.results.get(personId)?.[0];
    },
    /**
     * Works through the queue: up to `limit` people, oldest first, company by company. Returns what it did.
     */
    async runOnce(limit = 500, signal?: AbortSignal): Promise<{ people: number; days: number }> {
      const rows = await db.selectFrom('attendance_dirty').selectAll().orderBy('queued_at').limit(limit).execute();
      const byCompany = new Map<number, DirtyRow[]>();
      for (const r of rows) (byCompany.get(r.company_id) ?? byCompany.set(r.company_id, []).get(r.company_id)!).push(r);
      let days = 0;
      for (const [companyId, list] of byCompany) {
        if (signal?.aborted) break;
        try {
          days += (await company(companyId, list)).days;
        } catch (e) {
          deps.log.error({ err: e, companyId }, 'attendance recompute failed');
          // A batch that cannot be computed must not block the queue: its rows go, the error is logged.
          for (const part of chunks(list.map((r) => r.person_id))) await db.deleteFrom('attendance_dirty').where('person_id', 'in', part).execute();
        }
      }
      return { people: rows.length, days };
    },
    /** Punches stored: the day of each punch and the day before (a night shift started then) wait to be recomputed. */
    async onPunches(trx: Executor, punches: { companyId: number; personId: number; time: string }[]) {
      const zones = new Map<number, string>();
      const byPerson = new Map<string, { companyId: number; personId: number; from: string; to: string }>();
      for (const p of punches) {
        let zone = zones.get(p.companyId);
        if (!zone) {
          zone = (await trx.selectFrom('companies').select('time_zone').where('id', '=', p.companyId).executeTakeFirst())?.time_zone ?? DEFAULT_TIME_ZONE;
          zones.set(p.companyId, zone);
        }
        const day = localDate(Date.parse(p.time), zone);
        const key = `${p.companyId}/${p.personId}`;
        const was = byPerson.get(key);
        const from = addDays(day, -1);
        byPerson.set(key, {
          companyId: p.companyId,
          personId: p.personId,
          from: was && was.from < from ? was.from : from,
          to: was && was.to > day ? was.to : day,
        });
      }
      for (const v of byPerson.values()) await markDirty(trx, v.companyId, [v.personId], { from: v.from, to: v.to });
    },
  };
}
export type RecomputeService = ReturnType<typeof recomputeService>;
export { DAY };
