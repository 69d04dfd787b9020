import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadConfig } from '../config.ts';
import { freshDatabase } from '../../test/helpers.ts';
import { openDatabase, type Database } from './database.ts';
import { migrate } from './migrate.ts';
import { afterCommit, beforeCommit, transaction, transactionRetries } from './transaction.ts';

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
    /needs a running transaction opened with transaction\(\)/,
  );
});

test('once a transaction() has ended, work registered on it is refused, not silently dropped', async () => {
  let ended: Parameters<Parameters<typeof transaction>[1]>[0] | undefined;
  await transaction(database.db, async (trx) => {
    ended = trx;
  });
  assert.throws(() => afterCommit(ended!, () => {}), /needs a running transaction/);
  assert.equal(
    beforeCommit(ended!, async () => {}),
    false,
    'the caller writes at once instead (and the ended transaction refuses the statement)',
  );
  // likewise after a rollback
  await assert.rejects(
    transaction(database.db, async (trx) => {
      ended = trx;
      throw new Error('rolled back');
    }),
  );
  assert.throws(() => afterCommit(ended!, () => {}), /needs a running transaction/);
});

test(
  'a deadlock on PostgreSQL runs the losing transaction again: both writes land, its afterCommit once',
  { skip: !process.env.TEST_DATABASE_URL && 'PostgreSQL only' },
  async () => {
    await insert(database.db);
    await insert(database.db);
    const [a, b] = (await database.db.selectFrom('companies').select('id').orderBy('id', 'desc').limit(2).execute()).map((r) => r.id);
    // Two writers lock the same two rows in opposite orders; each waits at the barrier holding its first lock.
    let arrived = 0;
    let open!: () => void;
    const barrier = new Promise<void>((r) => (open = r));
    const meet = async () => {
      if (++arrived === 2) open();
      await barrier;
    };
    const before = transactionRetries.count;
    const committed: string[] = [];
    const writer = (first: number, second: number, name: string) =>
      transaction(database.db, async (trx) => {
        await trx.updateTable('companies').set({ address: name }).where('id', '=', first).execute();
        await meet();
        // PostgreSQL checks for a deadlock after deadlock_timeout (1 s by default); the second statement waits here.
        await trx.updateTable('companies').set({ address: name }).where('id', '=', second).execute();
        afterCommit(trx, () => committed.push(name));
      });
    await Promise.all([writer(a!, b!, 'left'), writer(b!, a!, 'right')]);
    assert.equal(transactionRetries.count - before, 1, 'one of them was chosen as the deadlock victim and ran again');
    assert.deepEqual(committed.sort(), ['left', 'right'], 'each committed once');
    const rows = await database.db.selectFrom('companies').select('address').where('id', 'in', [a!, b!]).execute();
    // The retried writer ran last, so its name is on both rows.
    assert.equal(new Set(rows.map((r) => r.address)).size, 1);
  },
);

test('beforeCommit writes at the end of the transaction, inside it: rolled back with it; false on the database itself', async () => {
  const start = await count();
  const order: string[] = [];
  await transaction(database.db, async (trx) => {
    assert.equal(
      beforeCommit(trx, async () => {
        order.push('finisher');
        await insert(trx);
      }),
      true,
    );
    order.push('body');
  });
  assert.deepEqual(order, ['body', 'finisher']);
  assert.equal(await count(), start + 1);
  await assert.rejects(
    transaction(database.db, async (trx) => {
      beforeCommit(trx, async () => {
        await insert(trx);
        throw new Error('finisher failed');
      });
    }),
    /finisher failed/,
  );
  assert.equal(await count(), start + 1, 'rolled back with the transaction');
  assert.equal(
    beforeCommit(database.db, async () => {}),
    false,
  );
});
