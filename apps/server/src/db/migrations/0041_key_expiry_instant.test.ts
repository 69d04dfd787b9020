import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Kysely } from 'kysely';
import { DIALECT, freshDatabase } from '../../../test/helpers.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../database.ts';
import { migrate } from '../migrate.ts';

const fresh = await freshDatabase();
const database = openDatabase(loadConfig({ DATA_DIR: fresh.dataDir, LOG_LEVEL: 'silent', ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}) }));
after(async () => {
  await database.close();
  await fresh.drop();
});

test(`0041 gives each key with an expiry date the end of that day in its company's zone, as an instant (${DIALECT})`, async () => {
  const db = database.db as unknown as Kysely<any>;
  await migrate(db, database.dialect, '0040_request_quota');
  const now = '2026-11-01T00:00:00.000Z';
  const company = async (time_zone: string) =>
    (await db.insertInto('companies').values({ name: time_zone, time_zone, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()).id;
  const key = async (companyId: number, prefix: string, expires_on: string | null) =>
    db
      .insertInto('api_keys')
      .values({ company_id: companyId, name: prefix, prefix, key_hash: 'h', scopes: '[]', expires_on, created_by: 'x', created_at: now })
      .execute();
  await key(await company('Asia/Shanghai'), 'fa_00000001', '2026-12-31');
  const ny = await company('America/New_York');
  await key(ny, 'fa_00000002', '2026-12-31');
  await key(ny, 'fa_00000003', null);
  assert.deepEqual(await migrate(db, database.dialect, '0041_key_expiry_instant'), ['0041_key_expiry_instant']);
  const rows = await db.selectFrom('api_keys').select(['prefix', 'expires_on', 'expires_at']).orderBy('prefix').execute();
  assert.deepEqual(
    rows.map((r) => ({ ...r })),
    [
      { prefix: 'fa_00000001', expires_on: '2026-12-31', expires_at: '2026-12-31T16:00:00.000Z' },
      { prefix: 'fa_00000002', expires_on: '2026-12-31', expires_at: '2027-01-01T05:00:00.000Z' },
      { prefix: 'fa_00000003', expires_on: null, expires_at: null },
    ],
  );
});
