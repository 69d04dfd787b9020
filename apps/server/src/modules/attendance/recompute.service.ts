import { DEFAULT_TIME_ZONE } from '@faceadmin/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { parseJson } from '../../lib/json.ts';
import { clock, nowIso, zonedToUtcMs } from '../../lib/time.ts';
import { computeRange, type AbsenceIn, type DayResult, type PunchIn, type ShiftDef } from './engine/index.ts';
import { markDirty } from './dirty.ts';
import { addDays, datesBetween, plansFor, ruleDef, type StoredHoliday, type StoredRule } from './plans.ts';

const DAY = 86_400_000;
/** The local date of an instant in a zone. */
export const localDate = (ms: number, zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(ms));

/** The rule a person is under: one naming them directly, else one naming their department or a department above it. */
export async function ruleOfPerson(ex: Executor, companyId: number, personId: number): Promise<number | null> {
  const direct = await ex
    .selectFrom('attendance_rule_members')
    .select('rule_id')
    .where('company_id', '=', companyId)
    .where('kind', '=', 'person')
    .where('ref_id', '=', personId)
    .executeTakeFirst();
  if (direct) return direct.rule_id;
  const own = (await ex.selectFrom('person_departments').select('department_id').where('person_id', '=', personId).execute()).map((r) => r.department_id);
  if (!own.length) return null;
  const parents = new Map(
    (await ex.selectFrom('departments').select(['id', 'parent_id']).where('company_id', '=', companyId).execute()).map((d) => [d.id, d.parent_id]),
  );
  const rules = await ex
    .selectFrom('attendance_rule_members')
    .select(['rule_id', 'ref_id'])
    .where('company_id', '=', companyId)
    .where('kind', '=', 'department')
    .execute();
  const byDept = new Map(rules.map((r) => [r.ref_id, r.rule_id]));
  for (const start of own) {
    for (let d: number | undefined = start, hops = 0; d && hops < 100; d = parents.get(d), hops++) {
      const r = byDept.get(d);
      if (r !== undefined) return r;
    }
  }
  return null;
}

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

/**
 * Turns queued person-days into stored day results with the engine: per person, one read of what the engine
 * needs (rule, grid, holidays, punches of the range and a day either side, absences), one pure computation,
 * one write. A manual result stays as the administrator set it; the computed one is kept beside it.
 */
export function recomputeService(deps: { database: Database; log: FastifyBaseLogger }) {
  const { db } = deps.database;

  async function person(companyId: number, personId: number, from: string, to: string): Promise<number> {
    const company = await db.selectFrom('companies').select(['time_zone', 'filter_seconds']).where('id', '=', companyId).executeTakeFirst();
    const who = await db.selectFrom('persons').select(['work_status']).where('company_id', '=', companyId).where('id', '=', personId).executeTakeFirst();
    const zone = company?.time_zone ?? DEFAULT_TIME_ZONE;
    const ruleId = who && who.work_status === 1 ? await ruleOfPerson(db, companyId, personId) : null;
    const rule = ruleId ? await loadRule(db, ruleId) : undefined;
    if (!rule) {
      // No rule (or left): no results for these days.
      await db
        .deleteFrom('attendance_days')
        .where('person_id', '=', personId)
        .where('date', '>=', from)
        .where('date', '<=', to)
        .where('manual_status', 'is', null)
        .execute();
      return 0;
    }
    const dates = datesBetween(from, to);
    const grid = new Map(
      (
        await db
          .selectFrom('attendance_schedule')
          .select(['date', 'shift_id'])
          .where('person_id', '=', personId)
          .where('date', '>=', addDays(from, -1))
          .where('date', '<=', addDays(to, 1))
          .execute()
      ).map((r) => [r.date, r.shift_id]),
    );
    const holidays: StoredHoliday[] = (
      await db
        .selectFrom('attendance_holidays')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('to_date', '>=', addDays(from, -1))
        .where('from_date', '<=', addDays(to, 1))
        .execute()
    ).map((h) => ({ ...h, rule_ids: parseJson<number[]>(h.rule_ids, []) }));
    const [beforePlan, ...rest] = plansFor(rule, [addDays(from, -1), ...dates, addDays(to, 1)], grid, holidays);
    const afterPlan = rest.pop()!;
    const startMs = zonedToUtcMs(addDays(from, -1), zone);
    const endMs = zonedToUtcMs(addDays(to, 3), zone);
    const punches = await db
      .selectFrom('punches as p')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .select(['p.id', 'p.time', 'p.device_id', 'p.temperature', 'p.alcohol', 'p.alcohol_over', 'd.direction'])
      .where('p.company_id', '=', companyId)
      .where('p.person_id', '=', personId)
      .where('p.time', '>=', new Date(startMs).toISOString())
      .where('p.time', '<', new Date(endMs).toISOString())
      .orderBy('p.time')
      .execute();
    const absences = await db
      .selectFrom('attendance_absences')
      .selectAll()
      .where('person_id', '=', personId)
      .where('to_at', '>=', new Date(startMs).toISOString())
      .where('from_at', '<', new Date(endMs).toISOString())
      .execute();
    const results: DayResult[] = computeRange({
      zone,
      rule: ruleDef(rule),
      days: rest,
      before: beforePlan!,
      after: afterPlan,
      punches: punches.map((p): PunchIn => ({
        id: p.id,
        at: Date.parse(p.time),
        deviceId: p.device_id,
        direction: p.direction === 'out' ? 'out' : 'in',
        temperature: p.temperature,
        // The reading was judged against the device's threshold when it was taken (stored as a flag).
        alcohol: p.alcohol_over,
        alcoholThreshold: p.alcohol_over === null ? null : 1,
      })),
      absences: absences.map((a): AbsenceIn => ({
        id: a.id,
        kind: a.kind as AbsenceIn['kind'],
        from: Date.parse(a.from_at),
        to: Date.parse(a.to_at),
        label: a.reason,
      })),
      filterSeconds: company?.filter_seconds ?? 0,
      now: clock.now(),
    });
    const at = nowIso();
    await transaction(db, async (trx) => {
      for (const r of results) {
        const values = {
          rule_id: rule.id,
          status: r.status,
          late_min: r.lateMin,
          early_min: r.earlyMin,
          worked_min: r.workedMin,
          overtime_min: r.overtimeMin,
          detail: JSON.stringify({ shifts: r.shifts, used: r.used, ignored: r.ignored, why: r.why, leaveMin: r.leaveMin ?? 0, outMin: r.outMin ?? 0 }),
          computed_at: at,
        };
        await trx
          .insertInto('attendance_days')
          .values({ ...values, company_id: companyId, person_id: personId, date: r.date, manual_status: null, manual_reason: null })
          .onConflict((oc) => oc.columns(['person_id', 'date']).doUpdateSet(values))
          .execute();
      }
    });
    return results.length;
  }

  return {
    person,
    /**
     * Works through the queue: each person's pending range, oldest first. A range widened while it was being
     * computed stays queued (its row is deleted only if unchanged). Returns what it did.
     */
    async runOnce(limit = 100, signal?: AbortSignal): Promise<{ people: number; days: number }> {
      const rows = await db.selectFrom('attendance_dirty').selectAll().orderBy('queued_at').limit(limit).execute();
      let days = 0;
      for (const r of rows) {
        if (signal?.aborted) break;
        try {
          days += await person(r.company_id, r.person_id, r.from_date, r.to_date);
        } catch (e) {
          deps.log.error({ err: e, personId: r.person_id }, 'attendance recompute failed');
        }
        await db.deleteFrom('attendance_dirty').where('person_id', '=', r.person_id).where('queued_at', '=', r.queued_at).execute();
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
