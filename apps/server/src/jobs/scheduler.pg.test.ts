import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import pg from 'pg';
import { createScheduler, jobLockKey, postgresJobLock, type JobLogger } from './scheduler.ts';

// Advisory locks only mean something on PostgreSQL; test-all.ts sets this for the PostgreSQL pass.
const url = process.env.TEST_DATABASE_URL;
const quiet: JobLogger = { error: () => undefined };

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

test('exclusive jobs run on one instance at a time through PostgreSQL advisory locks', { skip: !url && 'PostgreSQL only' }, async () => {
  // Two "server instances": each its own pool, so each lock is taken on a separate session.
  const poolA = new pg.Pool({ connectionString: url, max: 2 });
  const poolB = new pg.Pool({ connectionString: url, max: 2 });
  const a = createScheduler({ log: quiet, lock: postgresJobLock(() => poolA.connect()) });
  const b = createScheduler({ log: quiet, lock: postgresJobLock(() => poolB.connect()) });
  // Unique per run: parallel runs on the same cluster must not see each other's locks.
  const name = `test.exclusive.${randomBytes(4).toString('hex')}`;
  try {
    const entered = deferred();
    const release = deferred();
    let ranOnB = 0;
    a.add({
      name,
      exclusive: true,
      run: async () => {
        entered.resolve();
        await release.promise;
      },
    });
    b.add({ name, exclusive: true, run: async () => void ranOnB++ });

    const onA = a.runNow(name);
    await entered.promise;
    const key = jobLockKey(name);
    const held = await poolB.query<{ n: number }>(
      // A bigint key shows in pg_locks split in two: its high half as classid, its low half as objid.
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1
         AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`,
      [key],
    );
    assert.equal(held.rows[0]?.n, 1, 'held by A, visible in pg_locks under the job key');

    assert.equal(await b.runNow(name), 'skipped');
    assert.equal(ranOnB, 0);
    assert.equal(b.status()[0]?.skipped, 1);

    release.resolve();
    assert.equal(await onA, 'ran');
    assert.equal(await b.runNow(name), 'ran', 'free once A is done');
    assert.equal(ranOnB, 1);

    // A failing job must not leave its lock behind either.
    const c = createScheduler({ log: quiet, lock: postgresJobLock(() => poolA.connect()) });
    c.add({
      name: `${name}.failing`,
      exclusive: true,
      run: async () => {
        throw new Error('boom');
      },
    });
    b.add({ name: `${name}.failing`, exclusive: true, run: async () => undefined });
    assert.equal(await c.runNow(`${name}.failing`), 'failed');
    assert.equal(await b.runNow(`${name}.failing`), 'ran');
    await c.stop();
  } finally {
    await a.stop();
    await b.stop();
    await poolA.end();
    await poolB.end();
  }
});
