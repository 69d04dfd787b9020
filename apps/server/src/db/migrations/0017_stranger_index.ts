import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * The strangers page (spec §2 /stranger) reads a company's refused faces newest first: a few among months of
 * punches. A partial index holds only those rows (`stranger` 1 or 2), so a page never walks the punches.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`create index punches_strangers on punches (company_id, time) where stranger <> 0`.execute(db);
}
