import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

/**
 * Errors the console reports (issue #21, spec §8: logged to an internal list in production): one row per
 * fingerprint (message + top stack frame) and company (0: reported without a company, e.g. the sign-in page),
 * counted with first and last seen; kept 30 days. `client_error_quota` counts reports per address or session
 * and time window, in the database so that every instance shares the limit.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('client_errors'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('stack', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('component_stack', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('url', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('release', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('first_seen', 'text', (c) => c.notNull())
    .addColumn('last_seen', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('client_errors_fingerprint').on('client_errors').columns(['company_id', 'fingerprint']).unique().execute();
  await db.schema.createIndex('client_errors_last_seen').on('client_errors').columns(['last_seen']).execute();

  await db.schema
    .createTable('client_error_quota')
    .addColumn('key', 'text', (c) => c.primaryKey())
    /** the window's number: floor(epoch ms / window length) */
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
}
