import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * A person's gender, 'male' or 'female' (null: not said), as HR files and terminals carry it (issue #30: a ZKBioTime
 * employee export has the column, a Hikvision terminal's UserInfo the field, and a take-over must not drop what the
 * old software held). terminal_users keeps what a terminal said ('' none) until a take-over makes the person.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('persons').addColumn('gender', 'text').execute();
  await db.schema
    .alterTable('terminal_users')
    .addColumn('gender', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}
