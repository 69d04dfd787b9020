import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

/**
 * Sign-in protection (docs/sign-in-protection.md): every checked sign-in attempt of the last hour, so the
 * throttle holds across restarts and across instances sharing one PostgreSQL; and the browsers ("known
 * devices") an administrator has signed in from, whose correct password is never refused by the throttle.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('sign_in_attempts'), dialect)
    /** the typed account, trimmed and lower-cased (unknown accounts are throttled alike: no enumeration) */
    .addColumn('account', 'text', (c) => c.notNull())
    /** the client address (an IPv6 client by its /64) */
    .addColumn('address', 'text', (c) => c.notNull())
    /** the known device the attempt came from; null for an unknown browser */
    .addColumn('device_id', 'integer')
    /** 0: failed (or still being checked), 1: signed in */
    .addColumn('ok', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_attempts_account').on('sign_in_attempts').columns(['account', 'at']).execute();
  await db.schema.createIndex('sign_in_attempts_address').on('sign_in_attempts').columns(['address', 'at']).execute();
  await db.schema.createIndex('sign_in_attempts_at').on('sign_in_attempts').column('at').execute();

  await withId(db.schema.createTable('known_devices'), dialect)
    /** SHA-256 of the browser's device cookie; one browser may be known for several administrators */
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('known_devices_token_admin').on('known_devices').columns(['token_hash', 'admin_id']).unique().execute();
  await db.schema.createIndex('known_devices_admin').on('known_devices').column('admin_id').execute();
}
