import { DEFAULT_TIME_ZONE, type ClosedPeriod } from '@faceadmin/shared';
import type { ExpressionBuilder } from 'kysely';
import type { Database, Executor } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { transaction } from '../../db/transaction.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { audit } from '../logs/logs.service.ts';
import { markCompanyDirty, pendingOf } from './dirty.ts';
import type { DayResult } from './engine/index.ts';

/** A closed range of a company's local dates, inclusive. */
export interface ClosedRange {
  from_date: string;
  to_date: string;
}

/** The company's closed periods touching [from, to] (all of them without a range), oldest first. */
export function closedPeriods(ex: Executor, companyId: number, from?: string, to?: string): Promise<(ClosedRange & { id: number })[]> {
  let q = ex.selectFrom('attendance_closed_periods').select(['id', 'from_date', 'to_date']).where('company_id', '=', companyId);
  if (from !== undefined && to !== undefined) q = q.where('to_date', '>=', from).where('from_date', '<=', to);
  return q.orderBy('from_date').execute();
}

/** Whether a date lies in one of these closed ranges. */
export const isClosed = (closed: readonly ClosedRange[], date: string) => closed.some((c) => c.from_date <= date && date <= c.to_date);

/** A filter on `date` leaving out the days of these closed ranges (a delete of results keeps them). */
export const outside = (closed: readonly ClosedRange[]) => (eb: ExpressionBuilder<DB, 'attendance_days'>) =>
  eb.and(closed.map((c) => eb.or([eb('date', '<', c.from_date), eb('date', '>', c.to_date)])));

/**
 * A write that would touch [from, to] of a company's local dates is refused while any of those days is closed;
 * the error names the period. Call it inside the writer's transaction.
 */
export async function assertOpen(ex: Executor, companyId: number, from: string, to: string): Promise<void> {
  const hit = (await closedPeriods(ex, companyId, from, to))[0];
  if (hit) throw conflict('errors.periodClosed', { from: hit.from_date, to: hit.to_date });
}

/** What a closed day's `detail` holds beside the punches it used: the explanation of its stored result (#28). */
export interface KeptDetail {
  used: number[];
  kept?: DayResult;
}

/** The stored figures a computation must reproduce for its explanation to be the stored result's. */
const sameFigures = (
  s: {
    status: string;
    late_min: number;
    early_min: number;
    worked_min: number;
    overtime_min: number;
    leave_min: number;
    out_min: number;
    absent_min: number;
    leave_half_days: number;
  },
  c: DayResult,
) =>
  s.status === c.status &&
  s.late_min === c.lateMin &&
  s.early_min === c.earlyMin &&
  s.worked_min === c.workedMin &&
  s.overtime_min === c.overtimeMin &&
  s.leave_min === (c.leaveMin ?? 0) &&
  s.out_min === (c.outMin ?? 0) &&
  s.absent_min === (c.absentMin ?? 0) &&
  s.leave_half_days === Math.round((c.leaveDays ?? 0) * 2);

/** Closing and reopening periods of attendance (#17 item 6): closed days keep their stored results as they are. */
export function periodsService(
  database: Database,
  deps: { explainRange?: (companyId: number, personIds: readonly number[], from: string, to: string) => Promise<Map<number, DayResult[]>> } = {},
) {
  const { db } = database;
  const present = (r: { id: number; from_date: string; to_date: string; closed_by: string; closed_at: string }): ClosedPeriod => ({
    id: r.id,
    from: r.from_date,
    to: r.to_date,
    closed_by: r.closed_by,
    closed_at: r.closed_at,
  });
  return {
    async list(tenant: Tenant) {
      const rows = await db
        .selectFrom('attendance_closed_periods')
        .selectAll()
        .where('company_id', '=', tenant.companyId)
        .orderBy('from_date', 'desc')
        .execute();
      return { items: rows.map(present), total: rows.length };
    },
    /**
     * Closes a range of dates. The stored results only keep their figures and the punches they used (the explanation
     * is recomputed on demand), so each stored day's explanation is kept now, beside it (#28): computed from the
     * inputs as they are at the close, and kept only where it reproduces the stored figures — a day whose inputs
     * changed and whose recalculation is still queued keeps none, and its drawer says so rather than explain a
     * result that was not paid. Costs one recalculation of the period, once.
     */
    async close(tenant: Tenant, input: { from: string; to: string }): Promise<ClosedPeriod> {
      if (input.from > input.to) throw invalid('to', 'reasons.dateOrder');
      const inRange = (ex: Executor) =>
        ex.selectFrom('attendance_days').where('company_id', '=', tenant.companyId).where('date', '>=', input.from).where('date', '<=', input.to);
      const people = (await inRange(db).select('person_id').distinct().execute()).map((r) => r.person_id);
      const computed =
        deps.explainRange && people.length ? await deps.explainRange(tenant.companyId, people, input.from, input.to) : new Map<number, DayResult[]>();
      const id = await transaction(db, async (trx) => {
        const overlap = (await closedPeriods(trx, tenant.companyId, input.from, input.to))[0];
        if (overlap) throw conflict('errors.periodOverlap', { from: overlap.from_date, to: overlap.to_date });
        const made = await trx
          .insertInto('attendance_closed_periods')
          .values({ company_id: tenant.companyId, from_date: input.from, to_date: input.to, closed_by: tenant.adminName, closed_at: nowIso() })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Read after the period is in: no recalculation writes these rows any more.
        const stored = await inRange(trx)
          .select([
            'person_id',
            'date',
            'status',
            'late_min',
            'early_min',
            'worked_min',
            'overtime_min',
            'leave_min',
            'out_min',
            'absent_min',
            'leave_half_days',
          ])
          .execute();
        for (const s of stored) {
          const c = computed.get(s.person_id)?.find((d) => d.date === s.date);
          if (!c || !sameFigures(s, c)) continue;
          const detail: KeptDetail = { used: c.used, kept: c };
          await trx
            .updateTable('attendance_days')
            .set({ detail: JSON.stringify(detail) })
            .where('company_id', '=', tenant.companyId)
            .where('person_id', '=', s.person_id)
            .where('date', '=', s.date)
            .execute();
        }
        await audit(trx, tenant, 'attendance', 'attendance.period.close', { id: made.id, from: input.from, to: input.to });
        return made.id;
      });
      return present(await db.selectFrom('attendance_closed_periods').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
    },
    /**
     * Reopened days may be edited again, and the whole period is queued for recalculation at once (#18), as
     * "attendance update" over it would: what changed while it was closed (punches that arrived, holidays, a
     * person's hire or leaving) is reflected. Changes were not tracked day by day while closed, so every day of the
     * period is recalculated; a day whose figures come out the same is not rewritten. Answers the queue's progress.
     */
    async reopen(tenant: Tenant, id: number): Promise<{ pending: number }> {
      await transaction(db, async (trx) => {
        const p = await trx
          .selectFrom('attendance_closed_periods')
          .selectAll()
          .where('company_id', '=', tenant.companyId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!p) throw notFound();
        await trx.deleteFrom('attendance_closed_periods').where('id', '=', id).execute();
        const zone = tenant.timeZone ?? DEFAULT_TIME_ZONE;
        const count = await markCompanyDirty(trx, tenant.companyId, zone, { from: p.from_date, to: p.to_date });
        await audit(trx, tenant, 'attendance', 'attendance.period.reopen', { id, from: p.from_date, to: p.to_date, count });
      });
      return pendingOf(db, tenant.companyId);
    },
  };
}
export type PeriodsService = ReturnType<typeof periodsService>;
