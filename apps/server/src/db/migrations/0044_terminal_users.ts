import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

/**
 * What each terminal holds, as read from it (issue #30, taking over a working site): its users with their cards,
 * validity and enrolment faces, kept apart from the company's people until an administrator reviews and applies
 * them. One row a (device, PIN); a later read overwrites it. `face` is the file store key of the enrolment photo.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('terminal_users'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('pin', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('card', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('valid_from', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('valid_to', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
    /** 'normal' | 'visitor' | 'blackList' */
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('normal'))
    .addColumn('face', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('face_bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('terminal_users_key').on('terminal_users').columns(['device_id', 'pin']).unique().execute();
  await db.schema.createIndex('terminal_users_company').on('terminal_users').columns(['company_id', 'pin']).execute();
}
