import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { DIALECT, makeApp, type TestApp } from '../../test/helpers.ts';
import { until } from '../../test/terminals.ts';
import { transaction } from './transaction.ts';

let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(async () => {
  await t.close();
});

test('a message reaches every handler at the commit, read-only: no handler or sender changes what the others see', async () => {
  const { bus } = t.app;
  const sent = { n: 1, list: [{ id: 7 }] };
  const seen: unknown[] = [];
  const refused: string[] = [];
  const offs = [
    bus.on('test.shared', (d) => {
      const m = d as typeof sent;
      try {
        m.n = 2;
      } catch {
        refused.push('top');
      }
      try {
        m.list[0]!.id = 8;
      } catch {
        refused.push('nested');
      }
    }),
    bus.on('test.shared', (d, fromSelf) => seen.push({ d: structuredClone(d), fromSelf, same: d === sent })),
  ];
  try {
    await transaction(t.app.database.db, async (trx) => {
      await bus.send(trx, 'test.shared', sent);
      assert.throws(() => void (sent.list[0]!.id = 9), TypeError, 'the sender cannot change a message once sent');
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(seen, [], 'nothing before the commit');
    });
    await until('the message heard', () => seen.length === 1);
    // on SQLite the handlers get the sender's very object (no copy through JSON); on PostgreSQL one parsed copy
    assert.deepEqual(seen[0], { d: { n: 1, list: [{ id: 7 }] }, fromSelf: true, same: DIALECT !== 'postgres' });
    assert.deepEqual(refused, ['top', 'nested']);
  } finally {
    for (const off of offs) off();
  }
});

test('a message sent in a transaction that rolls back is never heard', async () => {
  const { bus } = t.app;
  const heard: unknown[] = [];
  const off = bus.on('test.rolled', (d) => heard.push(d));
  try {
    await assert.rejects(
      transaction(t.app.database.db, async (trx) => {
        await bus.send(trx, 'test.rolled', { n: 1 });
        throw new Error('rolled back');
      }),
    );
    await bus.send(t.app.database.db, 'test.rolled', { n: 2 });
    await until('the later message heard', () => heard.length > 0);
    assert.deepEqual(heard, [{ n: 2 }]);
  } finally {
    off();
  }
});

test('the messages of one transaction arrive in the order sent, with one NOTIFY statement at its end on PostgreSQL', async () => {
  const { bus } = t.app;
  const heard: unknown[] = [];
  const off = bus.on('test.order', (d) => heard.push(d));
  const notifies: string[] = [];
  const pool = t.app.database.pgPool;
  // every statement sent while the transaction runs (PostgreSQL)
  // (this test's own: a background job's message on another connection is not counted)
  const restore = pool ? spyStatements((text) => void (/pg_notify/.test(text) && text.includes('test.order') && notifies.push(text))) : () => undefined;
  try {
    await transaction(t.app.database.db, async (trx) => {
      for (let n = 1; n <= 5; n++) await bus.send(trx, 'test.order', { n, text: `"quoted" \\ {braces} ${n}` });
      // two messages that differ only in their number: both arrive (PostgreSQL folds identical payloads only)
      await bus.send(trx, 'test.order', { n: 6, text: 'same' });
      await bus.send(trx, 'test.order', { n: 7, text: 'same' });
    });
    await until('all seven heard', () => heard.length >= 7);
    assert.deepEqual(
      heard.map((d) => (d as { n: number }).n),
      [1, 2, 3, 4, 5, 6, 7],
    );
    assert.equal((heard[0] as { text: string }).text, '"quoted" \\ {braces} 1', 'a payload with quotes, backslashes and braces arrives intact');
    if (pool) assert.equal(notifies.length, 1, `one statement for the transaction's seven messages, not ${notifies.length}`);
  } finally {
    restore();
    off();
  }
});

/**
 * Calls `seen` with every query a PostgreSQL connection sends (its text, then its parameters as JSON), until the
 * returned function is called.
 */
function spyStatements(seen: (statement: string) => void): () => void {
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0];
    const text = typeof q === 'string' ? q : typeof q === 'object' && q && 'text' in q ? String(q.text) : '';
    const values = Array.isArray(args[1]) ? args[1] : typeof q === 'object' && q && 'values' in q ? q.values : [];
    seen(`${text} ${JSON.stringify(values)}`);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return () => {
    pg.Client.prototype.query = original;
  };
}

test(
  'a bus whose first LISTEN fails re-reads what it keeps once it listens (not counted as a reconnect)',
  { skip: DIALECT !== 'postgres' && 'PostgreSQL only' },
  async () => {
    const { createBus } = await import('./bus.ts');
    const real = t.app.database;
    let refuse = 1;
    const pool = real.pgPool!;
    const flaky = Object.assign(Object.create(pool) as typeof pool, {
      connect: async () => {
        if (refuse-- > 0) throw new Error('too many clients already');
        return pool.connect();
      },
    });
    const quiet = { error: () => undefined, warn: () => undefined };
    // its own Kysely over the same pool (a bus registers itself by the database object: the app's stays in place)
    const bus = createBus({ ...real, db: real.db.withoutPlugins(), pgPool: flaky }, quiet, { retryMs: 50 });
    let resyncs = 0;
    bus.onResync(() => void resyncs++);
    try {
      await bus.start();
      assert.equal(bus.listening, false, 'the first try failed');
      await until('listening', () => bus.listening, 5000);
      assert.equal(resyncs, 1, 'what it keeps was re-read: messages may have gone by unheard');
      assert.equal(bus.reconnects, 0, 'it never lost a connection it had');
    } finally {
      await bus.close();
    }
  },
);
