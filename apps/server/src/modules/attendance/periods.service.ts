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

/** Closing and reopening periods of attendance (#17 item 6): closed days keep their stored results as they are. */
export function periodsService(database: Database) {
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
    async close(tenant: Tenant, input: { from: string; to: string }): Promise<ClosedPeriod> {
      if (input.from > input.to) throw invalid('to', 'reasons.dateOrder');
      const id = await transaction(db, async (trx) => {
        const overlap = (await closedPeriods(trx, tenant.companyId, input.from, input.to))[0];
        if (overlap) throw conflict('errors.periodOverlap', { from: overlap.from_date, to: overlap.to_date });
        const made = await trx
          .insertInto('attendance_closed_periods')
          .values({ company_id: tenant.companyId, from_date: input.from, to_date: input.to, closed_by: tenant.adminName, closed_at: nowIso() })
          .returning('id')
          .executeTakeFirstOrThrow();
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
