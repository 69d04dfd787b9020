import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('companies'), dialect)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('filter_seconds', 'integer', (c) => c.notNull().defaultTo(60))
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('admins'), dialect)
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mobile', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('introduction', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('current_company_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_login_at', 'text')
    .execute();
  await db.schema.createIndex('admins_mobile').on('admins').column('mobile').execute();

  await withId(db.schema.createTable('memberships'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('is_init', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rights', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('normal'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('memberships_company_admin', ['company_id', 'admin_id'])
    .execute();
  await db.schema.createIndex('memberships_admin').on('memberships').column('admin_id').execute();

  await withId(db.schema.createTable('sessions'), dialect)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(emptyText))
    .execute();
  await db.schema.createIndex('sessions_admin').on('sessions').column('admin_id').execute();

  await withId(db.schema.createTable('operation_logs'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('admin_id', 'integer')
    .addColumn('admin_name', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('module', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('operation_logs_company_time').on('operation_logs').columns(['company_id', 'created_at']).execute();

  await withId(db.schema.createTable('messages'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('admin_id', 'integer')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('messages_company_time').on('messages').columns(['company_id', 'created_at']).execute();

  await db.schema
    .createTable('message_reads')
    .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('admin_id', 'integer', (c) => c.notNull())
    .addColumn('read_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_reads_pk', ['message_id', 'admin_id'])
    .execute();

  await db.schema
    .createTable('captchas')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('answer_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('sms_codes'), dialect)
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sms_codes_phone').on('sms_codes').columns(['phone', 'purpose']).execute();
}
