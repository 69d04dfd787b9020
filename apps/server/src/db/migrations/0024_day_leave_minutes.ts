import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Leave in the figures (#17): a day result stores its approved leave, out-of-office and absent minutes, and its
 * leave minutes by leave type (`leave_kinds`, JSON {type: minutes}); an absence keeps its leave type (the leave
 * app's option value, null when recorded without one).
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  for (const column of ['leave_min', 'out_min', 'absent_min'])
    await db.schema
      .alterTable('attendance_days')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  await db.schema
    .alterTable('attendance_days')
    .addColumn('leave_kinds', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.alterTable('attendance_absences').addColumn('leave_type', 'text').execute();
}
