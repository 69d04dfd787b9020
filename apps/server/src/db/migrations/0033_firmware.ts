import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

/**
 * Fleet work (issue #20): firmware files a company uploaded (the bytes live under DATA_DIR/firmware), the
 * upgrades sent to terminals (each one a device command; its progress is read from that command, the file
 * download and the version the terminal reports after its restart), and log files fetched from terminals.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('firmware'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('md5', 'text', (c) => c.notNull())
    /** server-chosen file name under DATA_DIR/firmware/<company>/ */
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('firmware_company').on('firmware').columns(['company_id', 'id']).execute();

  await withId(db.schema.createTable('firmware_upgrades'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('firmware_id', 'integer', (c) => c.notNull().references('firmware.id').onDelete('cascade'))
    .addColumn('command_id', 'integer', (c) => c.notNull())
    .addColumn('version_before', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('version_after', 'text')
    .addColumn('downloaded_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('firmware_upgrades_device').on('firmware_upgrades').columns(['company_id', 'device_id', 'id']).execute();
  await db.schema.createIndex('firmware_upgrades_command').on('firmware_upgrades').columns(['command_id']).execute();

  await withId(db.schema.createTable('device_logs'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('command_id', 'integer', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull().defaultTo(emptyText))
    /** server-chosen file name under DATA_DIR/device-logs/<company>/, '' until the terminal sent it */
    .addColumn('file', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('device_logs_device').on('device_logs').columns(['company_id', 'device_id', 'id']).execute();
  await db.schema.createIndex('device_logs_command').on('device_logs').columns(['command_id']).execute();
}
