import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

/**
 * Parking-lot binding (issue #19, spec §2 /dzg, §7 /dzg/*): the operator accounts (dzg_id) bound to a company, the
 * nonces of the signed codes already used (a code works once), and the outbox of people changes waiting to be
 * pushed to the company's parking operator (written in the people write's transaction, worked by a job).
 * A person's plate numbers (sent to the parking operators). Dual authentication (spec §9): a punch on a two-person device records whether a second person was recognised
 * within 10 s ('' on other devices, 'pending' while waiting, 'paired' or 'unpaired').
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('parking_bindings'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('dzg_id', 'text', (c) => c.notNull())
    .addColumn('lot_name', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('bound_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('parking_bindings_key', ['company_id', 'dzg_id'])
    .execute();
  await db.schema
    .createTable('parking_nonces')
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('nonce', 'text', (c) => c.notNull())
    /** when the code would have expired: the row can go after it (a replay is refused by its expiry then) */
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('parking_nonces_pk', ['company_id', 'nonce'])
    .execute();
  await withId(db.schema.createTable('parking_outbox'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    /** null: the whole roster (a new binding) */
    .addColumn('person_id', 'integer')
    /** the person's number when deleted (the row is gone by the time the job runs) */
    .addColumn('number', 'text', (c) => c.notNull().defaultTo(emptyText))
    /** 'saved' | 'deleted' | 'all' */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('parking_outbox_company').on('parking_outbox').columns(['company_id', 'id']).execute();
  await db.schema
    .createTable('parking_push_state')
    .addColumn('company_id', 'integer', (c) => c.notNull().primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('last_pushed_at', 'text')
    .execute();
  await db.schema
    .alterTable('punches')
    .addColumn('dual_state', 'text', (c) => c.notNull().defaultTo(emptyText))
    .execute();
  await db.schema.alterTable('punches').addColumn('dual_partner_id', 'integer').execute();
  // the plate numbers parking operators receive with the people, comma-separated ('' none)
  await db.schema
    .alterTable('persons')
    .addColumn('plates', 'text', (c) => c.notNull().defaultTo(emptyText))
    .execute();
}
