import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

/**
 * Visitors (#19): a visitor is a hidden row of `persons` (`kind` 'visitor') so the sync ledger carries them to the
 * doors like anyone; `valid_from`/`valid_until` (instants) are the terminal's own user validity. `visitors` holds the
 * invitation: who invited, the window, the doors, its state and the visitor's one-time link (sha-256 only).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('persons')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo(sql`'employee'`))
    .execute();
  await db.schema.alterTable('persons').addColumn('valid_from', 'text').execute();
  await db.schema.alterTable('persons').addColumn('valid_until', 'text').execute();
  await withId(db.schema.createTable('visitors'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
    /** who invited: an administrator, or a person of the self-service page (one of the two) */
    .addColumn('inviter_admin_id', 'integer')
    .addColumn('inviter_person_id', 'integer')
    .addColumn('inviter_name', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('visitor_company', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    /** JSON [device id] */
    .addColumn('device_ids', 'text', (c) => c.notNull())
    /** invited | active | ended | cancelled */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('arrived_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('visitors_company').on('visitors').columns(['company_id', 'created_at']).execute();
  await db.schema.createIndex('visitors_person').on('visitors').columns(['person_id']).execute();
  await db.schema.createIndex('visitors_due').on('visitors').columns(['state', 'ends_at']).execute();
}
