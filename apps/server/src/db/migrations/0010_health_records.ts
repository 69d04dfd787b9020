import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

/**
 * Health-code records (spec §3 "Health record") as health-code terminals report them with a punch
 * (ZK PUSH `table=HEALTHLOG`, docs/zk-push-protocol.md §5.6), and the colour on the punch itself so the
 * attendance engine's health model can judge it.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('punches').addColumn('health', 'text').execute();

  await withId(db.schema.createTable('health_records'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('person_id', 'integer')
    .addColumn('pin', 'text', (c) => c.notNull())
    /** the device's clock reading, as sent: with device_id and pin, the punch it belongs to and the record's key */
    .addColumn('local_time', 'text', (c) => c.notNull())
    /** the same instant in UTC (ISO-8601) */
    .addColumn('time', 'text', (c) => c.notNull())
    /** as the health-code platform returned it (may differ from the roster) */
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('id_number', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('temperature', 'real')
    /** green | yellow | red; null when the terminal could not read the code */
    .addColumn('color', 'text')
    /** the terminal's install place (site) as it reports it */
    .addColumn('place', 'text', (c) => c.notNull().defaultTo(emptyText))
    /** nucleic-acid test: time as reported ('' when none) and result (negative | positive | '') */
    .addColumn('nat_time', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('nat_result', 'text', (c) => c.notNull().defaultTo(emptyText))
    /** travel history as reported */
    .addColumn('trip', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('vaccine_count', 'integer')
    .addColumn('vaccine_time', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('health_records_key').on('health_records').columns(['device_id', 'pin', 'local_time']).unique().execute();
  await db.schema.createIndex('health_records_company_time').on('health_records').columns(['company_id', 'time']).execute();
}
