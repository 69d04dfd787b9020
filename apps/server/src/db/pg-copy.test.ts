import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { DIALECT, makeApp, type TestApp } from '../../test/helpers.ts';
import { copyInto, copyText } from './pg-copy.ts';
import { transaction } from './transaction.ts';

let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(async () => {
  await t.close();
});

const awkward = ['plain', 'tab\there', 'two\nlines', 'carriage\rreturn', 'back\\slash \\N', '\\', '', '引号 "quoted" {braces}, commas', 'NULL'];

test("COPY's text escapes what would end a field or a line, and writes none as \\N", () => {
  assert.equal(
    copyText(
      [
        { a: 1, b: 'x\ty', c: null },
        { a: 2, b: 'a\\b\nc\rd', c: 'N' },
      ],
      ['a', 'b', 'c'],
    ),
    '1\tx\\ty\t\\N\n2\ta\\\\b\\nc\\rd\tN\n',
  );
  assert.equal(copyText([], ['a']), '');
  // anything else has a text form of its own that PostgreSQL may not read as meant: refused, not guessed
  assert.throws(() => copyText([{ a: new Date(0) }], ['a']), /text and numbers/);
  assert.throws(() => copyText([{ a: true }], ['a']), /text and numbers/);
});

test('copyInto takes plain names only (they go into the statement as written)', async () => {
  await assert.rejects(copyInto(t.app.database.db, 'x; drop table persons', ['n'], [{ n: 1 }]), /not a plain SQL name/);
  await assert.rejects(copyInto(t.app.database.db, 'copy_check', ['n) from stdin; --'] as never[], [{ n: 1 }]), /not a plain SQL name/);
});

test(
  'rows copied in a transaction come back exactly as given, and a row PostgreSQL refuses rolls the transaction back',
  { skip: DIALECT !== 'postgres' && 'PostgreSQL only' },
  async () => {
    const { db } = t.app.database;
    await sql`create table copy_check (n integer not null, s text)`.execute(db);
    try {
      const rows = [...awkward.map((s, n) => ({ n, s })), { n: awkward.length, s: null }];
      await transaction(db, async (trx) => {
        assert.equal(await copyInto(trx, 'copy_check', ['n', 's'], rows), rows.length);
        // still the same transaction: the rows are visible to it
        const seen = await sql<{ n: number; s: string | null }>`select n, s from copy_check order by n`.execute(trx);
        assert.deepEqual(seen.rows, rows);
      });
      await assert.rejects(
        transaction(db, async (trx) => {
          await sql`insert into copy_check (n, s) values (100, 'before')`.execute(trx);
          await copyInto(
            trx,
            'copy_check',
            ['n', 's'],
            [
              { n: 101, s: 'ok' },
              { n: 'not a number', s: 'bad' },
            ],
          );
        }),
        /invalid input syntax for type integer/,
      );
      // a large copy refused part-way (PostgreSQL stops reading while the rest is still being sent): no hang, no crash
      const many = Array.from({ length: 100_000 }, (_, i) => ({ n: 1000 + i, s: i === 50_000 ? 'bad\tcolumns' : 'row' }));
      await assert.rejects(
        transaction(db, (trx) =>
          copyInto(
            trx,
            'copy_check',
            ['n', 's'],
            many.map((r) => (r.s === 'row' ? r : { n: 'x' as unknown as number, s: r.s })),
          ),
        ),
        /invalid input syntax for type integer/,
      );
      const after = await sql<{ n: number }>`select n from copy_check where n >= 100`.execute(db);
      assert.deepEqual(after.rows, [], 'nothing of the failed transaction stays');
      // the connection is usable again: the pool's next transaction copies as before
      await transaction(db, (trx) => copyInto(trx, 'copy_check', ['n', 's'], [{ n: 200, s: 'again' }]));
      assert.equal((await sql<{ c: number }>`select count(*)::int as c from copy_check`.execute(db)).rows[0]!.c, rows.length + 1);
    } finally {
      await sql`drop table copy_check`.execute(db);
    }
  },
);
