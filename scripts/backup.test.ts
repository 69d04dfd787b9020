import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { findPgBin, freePort, startCluster } from '../apps/server/scripts/pg-cluster.ts';
import { pgConnection, safeUrl } from './pg-tools.ts';

/**
 * scripts/backup.ts and scripts/restore.ts as an operator runs them: a backup taken while writes go on, restored
 * elsewhere, with the data and the files found again; a restore refused while a server runs; the same on PostgreSQL.
 */
const root = path.resolve(import.meta.dirname, '..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-backup-'));
after(() => fs.rmSync(temp, { recursive: true, force: true }));

/** Runs one of the scripts as `npm run backup/restore` would (the same node), without blocking this process's writers. */
function run(script: string, args: string[], env: Record<string, string | undefined>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts', script), ...args], {
      env: { ...process.env, DATABASE_URL: '', PORT: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // a hang guard, not a speed bound: a backup in steps that restarted at every write never ended (a minute is ~50×)
      timeout: 60_000,
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

const backupFolder = (parent: string) => {
  const names = fs.readdirSync(parent).filter((n) => /^faceadmin-\d{8}-\d{6}$/.test(n));
  assert.equal(names.length, 1, names.join(', '));
  return path.join(parent, names[0]!);
};

/** Rows in the database before the backup starts. */
const BEFORE = 60_000;

/** A DATA_DIR as the server leaves it: the SQLite database (WAL) and files in folders. */
function populate(dataDir: string) {
  fs.mkdirSync(path.join(dataDir, 'photos', '1'), { recursive: true });
  fs.mkdirSync(path.join(dataDir, 'firmware', '1'), { recursive: true });
  for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(dataDir, 'photos', '1', `p${i}.jpg`), Buffer.alloc(4096, i));
  fs.writeFileSync(path.join(dataDir, 'firmware', '1', 'fw.bin'), 'firmware bytes');
  const db = new DatabaseSync(path.join(dataDir, 'faceadmin.sqlite'));
  db.exec('PRAGMA journal_mode = WAL; CREATE TABLE persons (id INTEGER PRIMARY KEY, name TEXT NOT NULL, pad TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO persons (name, pad) VALUES (?, ?)');
  db.exec('BEGIN');
  // ~3,300 pages: a backup copied in steps of 1,000 would restart at each write between two of them
  for (let i = 0; i < BEFORE; i++) insert.run(`Person ${i}`, 'x'.repeat(200));
  db.exec('COMMIT');
  return { db, insert };
}

test('SQLite: a backup taken while writes go on restores elsewhere with its data and files; a running server refuses the restore', async () => {
  const dataDir = path.join(temp, 'data');
  const backups = path.join(temp, 'backups');
  const { db, insert } = populate(dataDir);
  // Writes keep coming while the backup runs (small transactions, as the server's), and files appear.
  let writing = true;
  let written = 0;
  const writer = (async () => {
    while (writing) {
      insert.run(`Late ${written++}`, 'y'.repeat(200));
      if (written % 50 === 0) fs.writeFileSync(path.join(dataDir, 'photos', '1', `late${written}.jpg`), 'late');
      await new Promise((r) => setImmediate(r));
    }
  })();
  const b = await run('backup.ts', [backups], { DATA_DIR: dataDir });
  writing = false;
  await writer;
  assert.equal(b.code, 0, b.out);
  assert.ok(written > 0, 'writes went on during the backup');
  const folder = backupFolder(backups);
  assert.equal(JSON.parse(fs.readFileSync(path.join(folder, 'faceadmin-backup.json'), 'utf8')).database, 'sqlite');
  assert.ok(!fs.existsSync(path.join(folder, 'faceadmin.sqlite-wal')), 'the live WAL is folded into the copy, not copied');

  // Restoring over the live DATA_DIR is refused while its database is open ...
  const refused = await run('restore.ts', [folder], { DATA_DIR: dataDir });
  assert.equal(refused.code, 1);
  assert.match(refused.out, /stop the server/);
  db.close();

  // ... and while a FaceAdmin server answers on PORT.
  const elsewhere = path.join(temp, 'restored');
  const port = await freePort();
  const server = http.createServer((_req, res) => res.end('{"status":"ok"}')).listen(port, '127.0.0.1');
  try {
    const busy = await run('restore.ts', [folder], { DATA_DIR: elsewhere, PORT: String(port) });
    assert.equal(busy.code, 1);
    assert.match(busy.out, /answers on 127\.0\.0\.1/);
  } finally {
    server.close();
  }

  const restored = await run('restore.ts', [folder], { DATA_DIR: elsewhere });
  assert.equal(restored.code, 0, restored.out);
  const copy = new DatabaseSync(path.join(elsewhere, 'faceadmin.sqlite'), { readOnly: true });
  try {
    assert.equal((copy.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');
    const n = Number((copy.prepare('SELECT count(*) AS n FROM persons').get() as { n: number }).n);
    // One committed state: everything from before the backup, and a prefix of what came during it.
    assert.ok(n >= BEFORE && n <= BEFORE + written, `${n} rows`);
    const late = Number((copy.prepare("SELECT count(*) AS n FROM persons WHERE name LIKE 'Late %'").get() as { n: number }).n);
    assert.equal(n - BEFORE, late);
    assert.equal((copy.prepare('SELECT max(id) AS m FROM persons').get() as { m: number }).m, n, 'no gap: a prefix of the writes');
  } finally {
    copy.close();
  }
  for (let i = 0; i < 20; i++) assert.deepEqual(fs.readFileSync(path.join(elsewhere, 'photos', '1', `p${i}.jpg`)), Buffer.alloc(4096, i));
  assert.equal(fs.readFileSync(path.join(elsewhere, 'firmware', '1', 'fw.bin'), 'utf8'), 'firmware bytes');
  assert.ok(!fs.existsSync(path.join(elsewhere, 'faceadmin-backup.json')));

  // Restoring over an existing (stopped) DATA_DIR keeps the previous one aside.
  fs.writeFileSync(path.join(elsewhere, 'stray.txt'), 'after the restore');
  const again = await run('restore.ts', [folder], { DATA_DIR: elsewhere });
  assert.equal(again.code, 0, again.out);
  assert.ok(!fs.existsSync(path.join(elsewhere, 'stray.txt')), 'DATA_DIR is the backup, nothing more');
  const kept = fs.readdirSync(temp).filter((n) => n.startsWith('restored.before-restore-'));
  assert.equal(kept.length, 1);
  assert.equal(fs.readFileSync(path.join(temp, kept[0]!, 'stray.txt'), 'utf8'), 'after the restore');

  // Not a backup: refused with the reason.
  const wrong = await run('restore.ts', [path.join(elsewhere, 'photos')], { DATA_DIR: path.join(temp, 'x') });
  assert.equal(wrong.code, 2);
  assert.match(wrong.out, /holds no FaceAdmin backup/);
});

test('a database password never reaches a command line or a log line', () => {
  const c = pgConnection('postgres://fa:s%40cret@db.example:5432/faceadmin?sslmode=require');
  assert.equal(c.url, 'postgres://fa@db.example:5432/faceadmin?sslmode=require');
  assert.equal(c.env.PGPASSWORD, 's@cret');
  assert.equal(safeUrl('postgres://fa:s%40cret@db.example/faceadmin'), 'postgres://fa:***@db.example/faceadmin');
});

const bin = findPgBin();
test(
  'PostgreSQL: pg_dump beside the files while writes go on, pg_restore --clean brings both back',
  { skip: bin ? false : 'no PostgreSQL binaries (initdb)' },
  async () => {
    const cluster = await startCluster(bin!);
    const client = new pg.Client({ connectionString: cluster.url });
    try {
      await client.connect();
      await client.query('CREATE TABLE persons (id serial PRIMARY KEY, name text NOT NULL)');
      await client.query("INSERT INTO persons (name) SELECT 'Person ' || g FROM generate_series(1, 5000) g");
      const dataDir = path.join(temp, 'pgdata');
      fs.mkdirSync(path.join(dataDir, 'photos'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'photos', 'face.jpg'), 'face bytes');
      const backups = path.join(temp, 'pgbackups');

      let writing = true;
      let written = 0;
      const writer = (async () => {
        while (writing) {
          await client.query('INSERT INTO persons (name) VALUES ($1)', [`Late ${written++}`]);
        }
      })();
      const b = await run('backup.ts', [backups], { DATA_DIR: dataDir, DATABASE_URL: cluster.url });
      writing = false;
      await writer;
      assert.equal(b.code, 0, b.out);
      const folder = backupFolder(backups);
      assert.ok(fs.statSync(path.join(folder, 'faceadmin.pgdump')).size > 0);
      assert.equal(fs.readFileSync(path.join(folder, 'photos', 'face.jpg'), 'utf8'), 'face bytes');
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM persons');
      const afterBackup = Number(rows[0]!.n);

      // The data moves on after the backup (and a table is dropped); the restore brings the backup's state back.
      await client.query('DELETE FROM persons WHERE id <= 100');
      await client.query('CREATE TABLE stray (id int)');
      fs.rmSync(path.join(dataDir, 'photos', 'face.jpg'));
      await client.end();

      const r = await run('restore.ts', [folder], { DATA_DIR: dataDir, DATABASE_URL: cluster.url });
      assert.equal(r.code, 0, r.out);
      const check = new pg.Client({ connectionString: cluster.url });
      await check.connect();
      try {
        const n = Number((await check.query<{ n: string }>('SELECT count(*) AS n FROM persons')).rows[0]!.n);
        assert.ok(n >= 5000 && n <= afterBackup, `${n} rows (5000 before, ${afterBackup} after the backup)`);
        assert.equal(Number((await check.query<{ n: string }>('SELECT count(*) AS n FROM persons WHERE id <= 100')).rows[0]!.n), 100);
      } finally {
        await check.end();
      }
      assert.equal(fs.readFileSync(path.join(dataDir, 'photos', 'face.jpg'), 'utf8'), 'face bytes');

      // A PostgreSQL backup needs DATABASE_URL.
      const noUrl = await run('restore.ts', [folder], { DATA_DIR: dataDir });
      assert.equal(noUrl.code, 2);
    } finally {
      await client.end().catch(() => {});
      cluster.stop();
    }
  },
);
