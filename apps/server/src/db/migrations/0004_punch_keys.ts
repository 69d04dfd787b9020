import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { punchColumns } from './helpers.ts';

/**
 * Punch keys that live punches append to instead of scattering across (measured in bench/: a commit of
 * 32 punches dirtied ~32 index pages and cost 30-60 µs a punch; now a few pages, ~6 µs):
 * - the duplicate guard is (device, device time, PIN): a terminal's clock moves forward, so new keys
 *   land at the end of the index; same uniqueness as (device, PIN, time), same ON CONFLICT target;
 * - the (person, time) index goes: each punch wrote a page of its own person. Per-person reads are
 *   always within a company and a time range, which (company, time) serves.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table punches drop constraint punches_device_pin_time`.execute(db);
  } else {
    // SQLite cannot drop a table constraint: the table is rebuilt (ids kept) and renamed.
    await punchColumns(db.schema.createTable('punches_next'), dialect).execute();
    await sql`insert into punches_next select * from punches`.execute(db);
    await db.schema.dropTable('punches').execute();
    await db.schema.alterTable('punches_next').renameTo('punches').execute();
    await db.schema.createIndex('punches_company_time').on('punches').columns(['company_id', 'time']).execute();
  }
  await db.schema.dropIndex('punches_person_time').ifExists().execute();
  await db.schema.createIndex('punches_device_time_pin').on('punches').columns(['device_id', 'local_time', 'pin']).unique().execute();
}
