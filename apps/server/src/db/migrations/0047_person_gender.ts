import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * A person's gender, 'male' or 'female' (null: not said), as HR files and terminals carry it (issue #30: a ZKBioTime
 * employee export has the column, and a take-over must not drop what the old software held).
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('persons').addColumn('gender', 'text').execute();
}
