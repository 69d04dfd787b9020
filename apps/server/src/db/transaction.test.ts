import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadConfig } from '../config.ts';
import { freshDatabase } from '../../test/helpers.ts';
import { openDatabase, type Database } from './database.ts';
import { migrate } from './migrate.ts';
import { afterCommit, transaction } from './transaction.ts';

let database: Database;
let drop: () => Promise<void>;
before(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  database = openDatabase(loadConfig({ DATA_DIR: fresh.dataDir, ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}) }));
  await migrate(database.db, database.dialect);
});
after(async () => {
  await database.close();
  await drop();
});

const count = async () =>
  Number(
    (
      await database.db
        .selectFrom('companies')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const insert = (trx: Parameters<typeof afterCommit>[0]) =>
  trx
    .insertInto('companies')
    .values({
      name: 'T',
      address: '',
      phone: '1',
      location: '',
      filter_seconds: 60,
      options: '{}',
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    })
    .execute();

test('afterCommit runs once the write is durable, never after a rollback', async () => {
  const seen: number[] = [];
  let called = false;
  await transaction(database.db, async (trx) => {
    await insert(trx);
    afterCommit(trx, () => {
      called = true;
      void count().then((n) => seen.push(n));
    });
    assert.equal(called, false, 'not while the transaction is open');
  });
  assert.equal(called, true, 'by the time transaction() resolves');
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(seen, [1], 'after the commit, and the row is visible to others');

  let ran = false;
  await assert.rejects(
    transaction(database.db, async (trx) => {
      await insert(trx);
      afterCommit(trx, () => (ran = true));
      throw new Error('refused');
    }),
    /refused/,
  );
  assert.equal(ran, false, 'a rolled-back write signals nothing');
  assert.equal(await count(), 1);
});

test('afterCommit on the database itself runs at once; on a transaction opened elsewhere it refuses', async () => {
  let ran = false;
  afterCommit(database.db, () => (ran = true));
  assert.equal(ran, true);
  await assert.rejects(
    database.db.transaction().execute(async (trx) => afterCommit(trx, () => {})),
    /needs a transaction opened with transaction\(\)/,
  );
});
