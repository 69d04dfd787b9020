import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/** When a terminal last reported its user count, and its settings: the console says how fresh what it shows is. */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('devices').addColumn('user_count_at', 'text').execute();
  await db.schema.alterTable('devices').addColumn('reported_at', 'text').execute();
}
