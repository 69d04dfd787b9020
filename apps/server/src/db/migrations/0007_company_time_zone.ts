import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * A company's time zone (IANA name): every time the console shows, and every "day" a filter or the attendance
 * engine means, is in it. Companies made before it existed get the zone their terminals' default offset implied.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('companies')
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('Asia/Shanghai'))
    .execute();
}
