import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * A rule's alarm temperature (#17): under the temperature model a punch at or above it is not a valid check-in or
 * check-out. The device's default alarm (37.3 ℃); 8-byte on PostgreSQL (its `real` would read 37.3 as 37.2999…).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('attendance_rules')
    .addColumn('alarm_temp', dialect === 'postgres' ? 'double precision' : 'real', (c) => c.notNull().defaultTo(37.3))
    .execute();
}
