import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, punchColumns, withId } from './helpers.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('devices'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('protocol', 'text', (c) => c.notNull().defaultTo('zk-push'))
    .addColumn('name', 'text', (c) => c.notNull())
    // A serial belongs to at most one company: the terminal only ever gets that company's data.
    .addColumn('serial', 'text', (c) => c.notNull().unique())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('account', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('password', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(3000))
    .addColumn('direction', 'text', (c) => c.notNull().defaultTo('in'))
    .addColumn('attendance', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('attendance_scope', 'text', (c) => c.notNull().defaultTo('all'))
    .addColumn('restrict_inout', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('upload_face_image', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('upload_strangers', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('function_type', 'text', (c) => c.notNull().defaultTo('attendance'))
    /** minutes east of UTC of the terminal's clock */
    .addColumn('tz_offset', 'integer', (c) => c.notNull().defaultTo(480))
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('special', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('firmware', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('user_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('info', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_seen_at', 'text')
    .addColumn('open_status', 'text', (c) => c.notNull().defaultTo('unknown'))
    .addColumn('clock_drift', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('att_stamp', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('op_stamp', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('photo_stamp', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('devices_company').on('devices').column('company_id').execute();

  // The sync ledger: one row per (person, device) — what the device should hold and what it does hold.
  await db.schema
    .createTable('device_persons')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) => c.notNull())
    /** the PIN the device knows this person by (kept so a delete can reach it after a number change or removal) */
    .addColumn('pin', 'text', (c) => c.notNull())
    /** person revision the device should have; 0 = the person must be removed from the device */
    .addColumn('desired_rev', 'integer', (c) => c.notNull())
    .addColumn('applied_rev', 'integer', (c) => c.notNull().defaultTo(0))
    /** pending | synced | failed */
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('last_code', 'integer')
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_attempt_at', 'text')
    .addColumn('next_attempt_at', 'text')
    /** the command batch now carrying this row's change, if any */
    .addColumn('inflight', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_persons_pk', ['device_id', 'person_id'])
    .execute();
  await db.schema.createIndex('device_persons_person').on('device_persons').columns(['person_id']).execute();
  await db.schema.createIndex('device_persons_work').on('device_persons').columns(['device_id', 'state']).execute();

  await withId(db.schema.createTable('device_commands'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('person_id', 'integer')
    /** ledger revision this command carries (sync commands), else 0 */
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
    /** queued | sent | done | failed */
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('return_code', 'integer')
    .addColumn('result', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('done_at', 'text')
    .execute();
  await db.schema.createIndex('device_commands_queue').on('device_commands').columns(['device_id', 'state', 'id']).execute();

  await punchColumns(db.schema.createTable('punches'), dialect).addUniqueConstraint('punches_device_pin_time', ['device_id', 'pin', 'local_time']).execute();
  await db.schema.createIndex('punches_company_time').on('punches').columns(['company_id', 'time']).execute();
  await db.schema.createIndex('punches_person_time').on('punches').columns(['person_id', 'time']).execute();

  await db.schema
    .createTable('unknown_devices')
    .addColumn('serial', 'text', (c) => c.primaryKey())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
