import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * How a rule counts (#17): `worked_by` ('firstLast', today's first → last punch, or 'pairs', the sum of in/out
 * pairs), `count_off_day_punches` (1: punches on holidays and rest days are rest-day overtime, today's behaviour;
 * 0: ignored) and `overtime_needs_approval` (1: overtime counts only within approved overtime periods). Existing
 * rules keep today's results.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('attendance_rules')
    .addColumn('worked_by', 'text', (c) => c.notNull().defaultTo('firstLast'))
    .execute();
  await db.schema
    .alterTable('attendance_rules')
    .addColumn('count_off_day_punches', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('attendance_rules')
    .addColumn('overtime_needs_approval', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
