import fs from 'node:fs';
import path from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';

/**
 * `npm run backup [-- <folder>] [--keep N]`: a consistent copy of DATA_DIR while the server runs. The SQLite database goes
 * through SQLite's online backup (node:sqlite `backup()`: pages copied in steps, writers never blocked, the copy is
 * one committed state); photos, firmware files and captured logs are copied beside it. With DATABASE_URL the
 * database is PostgreSQL's to back up (pg_dump); the files are still copied.
 *
 * Each backup is a folder faceadmin-YYYYMMDD-HHMMSS inside <folder> (default <DATA_DIR>/../backups); `--keep N`
 * removes all but the N newest of them afterwards (a nightly timer with --keep 14 holds two weeks). Restoring:
 * stop the server, put the folder's contents in DATA_DIR, start it.
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
const live = new Set(['faceadmin.sqlite', 'faceadmin.sqlite-wal', 'faceadmin.sqlite-shm', 'faceadmin.sqlite-journal']);
for (const e of fs.readdirSync(dataDir)) {
  if (live.has(e)) continue;
  fs.cpSync(path.join(dataDir, e), path.join(target, e), { recursive: true, preserveTimestamps: true });
}

if (process.env.DATABASE_URL) {
  console.log('DATABASE_URL is set: back the database up with pg_dump (files copied).');
} else if (fs.existsSync(dbFile)) {
  const db = new DatabaseSync(dbFile);
  try {
    const pages = await backup(db, path.join(target, 'faceadmin.sqlite'), { rate: 1000 });
    console.log(`database: ${pages} pages copied`);
  } finally {
    db.close();
  }
} else {
  console.log(`no database at ${dbFile} (files copied)`);
}
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
