import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * A person's hire date (a calendar date 'YYYY-MM-DD' in the company's zone, null when not known): attendance gives
 * no results before it, as it gives none after the day someone left.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('persons').addColumn('joined_on', 'text').execute();
}
