import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { BACKUP, pgConnection, pgTool, safeUrl, SQLITE_LIVE } from './pg-tools.ts';

/**
 * `npm run restore -- <backup folder> [--force]`: puts a backup made by scripts/backup.ts back (docs/deploy.md "Backups").
 *
 * - SQLite (the folder holds faceadmin.sqlite): DATA_DIR's database and files are replaced by the backup's. The
 *   current DATA_DIR is kept beside it as <DATA_DIR>.before-restore-<time>. The server must be stopped.
 * - PostgreSQL (faceadmin.pgdump; DATABASE_URL must be set): pg_restore --clean into DATABASE_URL in one
 *   transaction, then DATA_DIR's files as above. Every instance must be stopped.
 *
 * "Stopped" is checked, not assumed: a server answering /healthz on 127.0.0.1:PORT, or an SQLite database another
 * process has open (in WAL mode every connection holds a shared lock on the file for as long as it is open, so an
 * exclusive lock is refused), refuses the restore. `--force` skips the checks.
 */
const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const force = args.includes('--force');
const positional = args.filter((a) => !a.startsWith('--'));
const fail = (msg: string, code = 1): never => {
  console.error(msg);
  process.exit(code);
};
if (positional.length !== 1) fail('usage: npm run restore -- <backup folder> [--force]', 2);
const source = path.resolve(positional[0]!);
const dataDir = path.resolve(root, process.env.DATA_DIR || 'data');
const port = Number(process.env.PORT || 8080);
const databaseUrl = process.env.DATABASE_URL || undefined;

if (!fs.existsSync(source) || !fs.statSync(source).isDirectory()) fail(`${source} is not a folder`, 2);
const hasSqlite = fs.existsSync(path.join(source, BACKUP.sqlite));
const hasDump = fs.existsSync(path.join(source, BACKUP.pgdump));
if (!hasSqlite && !hasDump) fail(`${source} holds no FaceAdmin backup (neither ${BACKUP.sqlite} nor ${BACKUP.pgdump})`, 2);
if (hasDump && !databaseUrl) fail(`${source} is a PostgreSQL backup: set DATABASE_URL to the database to restore into`, 2);
if (hasSqlite && databaseUrl) fail(`${source} is an SQLite backup but DATABASE_URL is set: unset it to restore into DATA_DIR`, 2);
if (source === dataDir || source.startsWith(dataDir + path.sep)) fail('The backup folder must be outside DATA_DIR', 2);

/** Whether another process has the database open: an exclusive lock cannot be had then. */
function databaseOpen(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  const db = new DatabaseSync(file, { timeout: 0 });
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch {
    return true;
  } finally {
    db.close();
  }
}

/** A FaceAdmin server answering on this machine's port (the same PORT as the server's). */
async function serverAnswers(): Promise<boolean> {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1500) });
    const body = (await r.json().catch(() => null)) as { status?: string } | null;
    return body?.status === 'ok';
  } catch {
    return false;
  }
}

if (!force) {
  if (await serverAnswers()) fail(`A FaceAdmin server answers on 127.0.0.1:${port}: stop it (and every other instance) before restoring.`);
  if (hasSqlite && databaseOpen(path.join(dataDir, BACKUP.sqlite)))
    fail(`The database in ${dataDir} is open in another process: stop the server first (it is still running, or still closing).`);
}

const started = Date.now();
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

if (hasSqlite) {
  // A damaged copy must not replace a working database.
  const check = new DatabaseSync(path.join(source, BACKUP.sqlite), { readOnly: true });
  try {
    const r = check.prepare('PRAGMA quick_check').get() as { quick_check: string } | undefined;
    if (r?.quick_check !== 'ok') fail(`${BACKUP.sqlite} in ${source} fails SQLite's check: ${r?.quick_check ?? 'no answer'}`);
  } finally {
    check.close();
  }
}

if (hasDump) {
  const { url, env } = pgConnection(databaseUrl!);
  const r = spawnSync(
    pgTool('pg_restore'),
    ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${url}`, path.join(source, BACKUP.pgdump)],
    { env, stdio: ['ignore', 'inherit', 'pipe'] },
  );
  if (r.status !== 0)
    fail(`pg_restore into ${safeUrl(databaseUrl!)} failed (nothing was changed)${r.error ? `: ${r.error.message}` : ''}\n${r.stderr?.toString() ?? ''}`);
  console.log(`database: ${safeUrl(databaseUrl!)} restored from ${BACKUP.pgdump}`);
}

// DATA_DIR: the backup's files (and SQLite database) staged beside it, then swapped in; the old one is kept.
const staging = `${dataDir}.restoring-${stamp}`;
fs.mkdirSync(staging, { recursive: true });
for (const e of fs.readdirSync(source)) {
  if (e === BACKUP.pgdump || e === BACKUP.manifest || (SQLITE_LIVE.has(e) && e !== BACKUP.sqlite)) continue;
  fs.cpSync(path.join(source, e), path.join(staging, e), { recursive: true, preserveTimestamps: true });
}
let kept: string | undefined;
if (fs.existsSync(dataDir)) {
  const owner = fs.statSync(dataDir);
  // Run as root (DATA_DIR under /var/lib): the restored files go to DATA_DIR's owner, as the server runs.
  if (process.getuid?.() === 0) chownTree(staging, owner.uid, owner.gid);
  fs.chmodSync(staging, owner.mode & 0o7777);
  kept = `${dataDir}.before-restore-${stamp}`;
  fs.renameSync(dataDir, kept);
}
fs.renameSync(staging, dataDir);
console.log(`files${hasSqlite ? ' and database' : ''}: ${source} → ${dataDir}${kept ? ` (the previous one is kept in ${kept})` : ''}`);
console.log(`restored in ${((Date.now() - started) / 1000).toFixed(1)} s; start the server.`);

function chownTree(p: string, uid: number, gid: number) {
  fs.chownSync(p, uid, gid);
  if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) chownTree(path.join(p, e), uid, gid);
}
