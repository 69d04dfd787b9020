import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * The dormitory settings of a company (issue #16 /dormitory): the hour residents must be back by ('HH:mm' in the
 * company's zone) and the departments that are buildings (JSON ids; empty: the top-level departments). A row of
 * its own rather than a key in companies.options, which the company form writes whole.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('dormitory_settings')
    .addColumn('company_id', 'integer', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('return_by', 'text', (c) => c.notNull())
    .addColumn('department_ids', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
