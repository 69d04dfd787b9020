import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { BACKUP, pgConnection, pgTool, safeUrl, SQLITE_LIVE } from './pg-tools.ts';

/**
 * `npm run backup [-- <folder>] [--keep N]`: a consistent copy of DATA_DIR while the server runs. The SQLite database goes
 * through SQLite's online backup (node:sqlite `backup()`: every page in one step, writers never blocked, the copy is
 * one committed state); photos, firmware files and captured logs are copied beside it. With DATABASE_URL the
 * database is dumped with pg_dump in its custom format (faceadmin.pgdump: one consistent snapshot, taken while
 * every instance keeps writing); the files in DATA_DIR are still copied.
 *
 * Each backup is a folder faceadmin-YYYYMMDD-HHMMSS inside <folder> (default <DATA_DIR>/../backups); `--keep N`
 * removes all but the N newest of them afterwards (a nightly timer with --keep 14 holds two weeks). Restoring:
 * `npm run restore -- <backup folder>` (scripts/restore.ts; docs/deploy.md "Backups").
 */
const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const keepAt = args.indexOf('--keep');
const keep = keepAt >= 0 ? Number(args.splice(keepAt, 2)[1]) : 0;
if (keepAt >= 0 && (!Number.isInteger(keep) || keep < 1)) {
  console.error('--keep needs a whole number of backups, at least 1');
  process.exit(2);
}
const dataDir = path.resolve(root, process.env.DATA_DIR || 'data');
const dbFile = path.join(dataDir, 'faceadmin.sqlite');
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
const parent = path.resolve(args[0] ?? path.join(dataDir, '..', 'backups'));
const target = path.join(parent, `faceadmin-${stamp}`);

if (!fs.existsSync(dataDir)) {
  console.error(`DATA_DIR ${dataDir} does not exist`);
  process.exit(1);
}
if (target === dataDir || target.startsWith(dataDir + path.sep)) {
  console.error('The backup folder must be outside DATA_DIR');
  process.exit(2);
}
fs.mkdirSync(target, { recursive: true });
const started = Date.now();

// Everything but the live database files (the WAL and its index are folded into the online copy).
for (const e of fs.readdirSync(dataDir)) {
  if (SQLITE_LIVE.has(e)) continue;
  fs.cpSync(path.join(dataDir, e), path.join(target, e), { recursive: true, preserveTimestamps: true });
}

let database: 'sqlite' | 'postgres' | 'none' = 'none';
const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) {
  const { url, env } = pgConnection(databaseUrl);
  const file = path.join(target, BACKUP.pgdump);
  const r = spawnSync(pgTool('pg_dump'), ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${url}`], {
    env,
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  if (r.status !== 0) {
    fs.rmSync(target, { recursive: true, force: true });
    console.error(`pg_dump of ${safeUrl(databaseUrl)} failed${r.error ? `: ${r.error.message}` : ''}\n${r.stderr?.toString() ?? ''}`);
    process.exit(1);
  }
  database = 'postgres';
  console.log(`database: ${safeUrl(databaseUrl)} dumped (${(fs.statSync(file).size / 1024).toFixed(0)} KB)`);
} else if (fs.existsSync(dbFile)) {
  const db = new DatabaseSync(dbFile);
  try {
    // All pages in one step: a backup in steps starts again whenever another connection (the running server) writes
    // between two steps, so on a server that keeps writing it never ended (a test that wrote without pause ran it for
    // 12 minutes, the copy growing past 1 GB). One step reads one snapshot; in WAL mode the server's writes go on beside it.
    const pages = await backup(db, path.join(target, BACKUP.sqlite), { rate: 2 ** 31 - 1 });
    console.log(`database: ${pages} pages copied`);
  } finally {
    db.close();
  }
  database = 'sqlite';
} else {
  console.log(`no database at ${dbFile} (files copied)`);
}
// What restore.ts reads first: which database the folder holds.
fs.writeFileSync(path.join(target, BACKUP.manifest), `${JSON.stringify({ created: new Date().toISOString(), database }, null, 2)}\n`);
console.log(`backup of ${dataDir} → ${target} in ${((Date.now() - started) / 1000).toFixed(1)} s`);

if (keep > 0) {
  const old = fs
    .readdirSync(parent)
    .filter((n) => /^faceadmin-\d{8}-\d{6}$/.test(n))
    .sort()
    .slice(0, -keep);
  for (const n of old) fs.rmSync(path.join(parent, n), { recursive: true, force: true });
  if (old.length) console.log(`removed ${old.length} older backup(s)`);
}
