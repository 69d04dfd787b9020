import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * When a person left (an instant; null while working): attendance keeps their results up to that day in the
 * company's zone and gives none after it. People already marked as left get their last change as the time.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('persons').addColumn('left_at', 'text').execute();
  await db
    .updateTable('persons')
    .set((eb) => ({ left_at: eb.ref('updated_at') }))
    .where('work_status', '=', 0)
    .execute();
}
