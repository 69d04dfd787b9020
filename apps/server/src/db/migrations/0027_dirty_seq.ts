import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * The recompute queue's change counter (#17 item 0): every mark bumps it, and a batch removes a row only if the
 * counter is still the one it read. `queued_at` alone could not tell two marks within the same millisecond apart.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('attendance_dirty')
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
