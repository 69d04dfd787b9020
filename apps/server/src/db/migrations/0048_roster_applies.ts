import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

/**
 * Applying a take-over review in the background (issue #30): one row an apply, its progress (any instance answers the
 * console's poll) and, once over, its result. A site of thousands of numbers takes minutes: longer than a request may
 * wait behind nginx.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('roster_applies'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('admin_id', 'integer')
    /** 'device' | 'site' */
    .addColumn('scope', 'text', (c) => c.notNull())
    /** the terminal of a 'device' apply (0 for the site) */
    .addColumn('device_id', 'integer', (c) => c.notNull().defaultTo(0))
    /** 'running' | 'done' | 'failed' */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON RosterApplied once done ('' before) */
    .addColumn('result', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('roster_applies_company').on('roster_applies').columns(['company_id', 'state', 'id']).execute();
}
