import { DEFAULT_TIME_ZONE } from '@faceadmin/shared';
import type { Insertable } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/database.ts';
import type { AttendanceDayTable } from '../../db/schema.ts';
import { transaction } from '../../db/transaction.ts';
import { chunks } from '../../lib/chunks.ts';
import { parseJson } from '../../lib/json.ts';
import { clock, nowIso, zonedToUtcMs } from '../../lib/time.ts';
import { computeRange, type AbsenceIn, type DayResult, type PunchIn, type ShiftDef } from './engine/index.ts';
import { markDirty } from './dirty.ts';
import { addDays, datesBetween, plansFor, ruleDef, type StoredHoliday, type StoredRule } from './plans.ts';

const DAY = 86_400_000;
/** The local date of an instant in a zone. */
export const localDate = (ms: number, zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(ms));

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
  return { zone: company?.time_zone ?? DEFAULT_TIME_ZONE, filterSeconds: company?.filter_seconds ?? 0, holidays, ruleOf };
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
      db.selectFrom('persons').select(['id as person_id', 'work_status']).where('company_id', '=', companyId).where('id', 'in', part).execute(),
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
    const punches = new Map<
      number,
      { id: number; time: string; device_id: number; temperature: number | null; alcohol_over: number | null; health: string | null }[]
    >();
    for (const id of ids)
      punches.set(
        id,
        await db
          .selectFrom('punches')
          .select(['id', 'time', 'device_id', 'temperature', 'alcohol_over', 'health'])
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
    const cleared: DirtyRow[] = [];
    const computed = new Map<number, DayResult[]>();
    for (const row of rows) {
      const who = people.get(row.person_id)?.[0];
      const rule =
        who && who.work_status === 1
          ? ctx.ruleOf(
              row.person_id,
              (depts.get(row.person_id) ?? []).map((d) => d.department_id),
            )
          : undefined;
      if (!rule) {
        cleared.push(row);
        continue;
      }
      const dates = datesBetween(row.from_date, row.to_date);
      const grid = new Map((grids.get(row.person_id) ?? []).map((g) => [g.date, g.shift_id]));
      const [before, ...rest] = plansFor(rule, [addDays(row.from_date, -1), ...dates, addDays(row.to_date, 1)], grid, ctx.holidays);
      const after = rest.pop()!;
      const results: DayResult[] = computeRange({
        zone: ctx.zone,
        rule: ruleDef(rule),
        days: rest,
        before: before!,
        after,
        punches: (punches.get(row.person_id) ?? []).map((p): PunchIn => ({
          id: p.id,
          at: Date.parse(p.time),
          deviceId: p.device_id,
          direction: directions.get(p.device_id) === 'out' ? 'out' : 'in',
          temperature: p.temperature,
          // The reading was judged against the device's threshold when it was taken (stored as a flag).
          alcohol: p.alcohol_over,
          alcoholThreshold: p.alcohol_over === null ? null : 1,
          health: p.health as PunchIn['health'],
        })),
        absences: (absences.get(row.person_id) ?? []).map((a): AbsenceIn => ({
          id: a.id,
          kind: a.kind as AbsenceIn['kind'],
          from: Date.parse(a.from_at),
          to: Date.parse(a.to_at),
          label: a.reason,
        })),
        filterSeconds: ctx.filterSeconds,
        now,
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
      for (const part of chunks(upserts, 200)) {
        if (!part.length) continue;
        await trx
          .insertInto('attendance_days')
          .values(part)
          .onConflict((oc) =>
            oc.columns(['person_id', 'date']).doUpdateSet((eb) => ({
              rule_id: eb.ref('excluded.rule_id'),
              status: eb.ref('excluded.status'),
              late_min: eb.ref('excluded.late_min'),
              early_min: eb.ref('excluded.early_min'),
              worked_min: eb.ref('excluded.worked_min'),
              overtime_min: eb.ref('excluded.overtime_min'),
              detail: eb.ref('excluded.detail'),
              computed_at: eb.ref('excluded.computed_at'),
            })),
          )
          .execute();
      }
      // Done, unless a change widened a person's range meanwhile (its queued_at moved on: it stays queued).
      for (const r of rows) await trx.deleteFrom('attendance_dirty').where('person_id', '=', r.person_id).where('queued_at', '=', r.queued_at).execute();
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
