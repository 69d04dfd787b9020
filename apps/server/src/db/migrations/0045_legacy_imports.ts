import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

/**
 * The old software's files being taken over (issue #30, docs/legacy-import.md): one row an uploaded export, kept in
 * the file store under `file_key` until imported; its mapping (the last one a company used for a kind is offered
 * again), the progress of a run (any instance reads it) and its report.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('legacy_imports'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('admin_id', 'integer')
    /** 'employees' | 'transactions' */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('encoding', 'text', (c) => c.notNull())
    .addColumn('headers', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('mapping', 'text', (c) => c.notNull().defaultTo('{}'))
    /** 'uploaded' | 'running' | 'done' | 'failed' */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('dry_run', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('report', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('legacy_imports_company').on('legacy_imports').columns(['company_id', 'kind', 'id']).execute();
}
