import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { DIALECT, freshDatabase } from '../../test/helpers.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from './database.ts';
import { migrate } from './migrate.ts';

const fresh = await freshDatabase();
const database = openDatabase(loadConfig({ DATA_DIR: fresh.dataDir, LOG_LEVEL: 'silent', ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}) }));
after(async () => {
  await database.close();
  await fresh.drop();
});

test(`0004 re-keys stored punches without losing or duplicating any (${DIALECT})`, async () => {
  // Rows as they were written before 0004: the schema of that day, not today's typed one.
  const db = database.db as unknown as Kysely<any>;
  const { dialect } = database;
  await migrate(db, dialect, '0003_devices');
  const now = new Date().toISOString();
  const company = await db.insertInto('companies').values({ name: 'Old Co', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  const device = await db
    .insertInto('devices')
    .values({ company_id: company.id, name: 'Old door', serial: 'OLD1', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const punch = (pin: string, local: string) => ({
    company_id: company.id,
    device_id: device.id,
    person_id: null,
    pin,
    local_time: local,
    time: now,
    stranger: 1,
    created_at: now,
  });
  await db
    .insertInto('punches')
    .values([punch('1', '2026-11-20 08:00:00'), punch('2', '2026-11-20 08:00:00'), punch('1', '2026-11-20 17:00:00')])
    .execute();
  const before = await db.selectFrom('punches').select(['id', 'pin', 'local_time']).orderBy('id').execute();

  assert.deepEqual(await migrate(db, dialect, '0004_punch_keys'), ['0004_punch_keys']);
  assert.deepEqual(await db.selectFrom('punches').select(['id', 'pin', 'local_time']).orderBy('id').execute(), before, 'same rows, same ids');
  // The new key still refuses a second copy, and the next id follows the old ones.
  await db
    .insertInto('punches')
    .values([punch('1', '2026-11-20 08:00:00'), punch('3', '2026-11-20 09:00:00')])
    .onConflict((oc) => oc.columns(['device_id', 'pin', 'local_time']).doNothing())
    .execute();
  const after = await db.selectFrom('punches').select(['id', 'pin']).orderBy('id').execute();
  assert.equal(after.length, 4);
  assert.equal(after[3]!.pin, '3');
  assert.ok(after[3]!.id > before[2]!.id);
  const indexes =
    dialect === 'postgres'
      ? (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'punches'`.execute(db)).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'punches'`.execute(db)).rows;
  const names = indexes.map((i) => i.name).sort();
  assert.ok(names.includes('punches_device_time_pin') && names.includes('punches_company_time'), names.join());
  assert.ok(!names.includes('punches_person_time'), 'the per-person index is gone');
});
