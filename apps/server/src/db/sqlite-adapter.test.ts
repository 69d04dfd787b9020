import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSqlite } from './sqlite-adapter.ts';

test('the write-ahead log is copied into the database file by the checkpoint worker, not by the writer', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-wal-'));
  const file = path.join(dir, 'db.sqlite');
  const db = openSqlite(file);
  try {
    assert.equal((db.raw.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint, 0);
    db.raw.exec('CREATE TABLE t (x TEXT)');
    const insert = db.raw.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 40; i++) {
      db.raw.exec('BEGIN');
      for (let k = 0; k < 50; k++) insert.run('x'.repeat(1000));
      db.raw.exec('COMMIT');
    }
    // 2 MB went to the log; the writer never checkpoints (above), so only the worker can have copied it.
    const deadline = Date.now() + 10_000;
    while (fs.statSync(file).size < 1_500_000 && Date.now() < deadline) await sleep(50);
    assert.ok(fs.statSync(file).size >= 1_500_000, `database file is ${fs.statSync(file).size} bytes`);
  } finally {
    db.close();
    await db.stopped();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a script that awaits the close at top level goes on to its next line, even right after opening (the worker keeps the process up until it exits)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-close-'));
  try {
    const script = (i: number) =>
      [
        `import { openSqlite } from ${JSON.stringify(new URL('./sqlite-adapter.ts', import.meta.url).href)};`,
        `const db = openSqlite(${JSON.stringify(path.join(dir, `db${i}.sqlite`))});`,
        `db.raw.exec('CREATE TABLE t (x TEXT)');`,
        `for (let i = 0; i < 200; i++) db.raw.exec("INSERT INTO t VALUES ('" + 'x'.repeat(1000) + "')");`,
        `db.close();`,
        `await db.stopped();`,
        `console.log('after close');`,
      ].join('\n');
    // Whether the loop drained before the worker exited was a race: a few runs, each must get there.
    for (let i = 0; i < 5; i++) {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script(i)], { encoding: 'utf8' });
      assert.equal(r.stdout.trim(), 'after close', r.stderr);
      assert.equal(r.status, 0);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
