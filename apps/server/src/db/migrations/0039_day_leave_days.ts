import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Leave days to the half day (#18): a day result stores its leave in half days (0, 1 or 2), the recompute's
 * leave minutes over the day's scheduled minutes. Results stored before it count as they did: a day on leave is
 * one day (2 halves), any other day none until it is recalculated (closed periods keep what was paid).
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('attendance_days')
    .addColumn('leave_half_days', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.updateTable('attendance_days').set({ leave_half_days: 2 }).where('status', '=', 'leave').execute();
}
