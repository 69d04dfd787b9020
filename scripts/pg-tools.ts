import fs from 'node:fs';
import path from 'node:path';
import { findPgBin } from '../apps/server/scripts/pg-cluster.ts';

/** File names inside a backup folder. */
export const BACKUP = {
  sqlite: 'faceadmin.sqlite',
  pgdump: 'faceadmin.pgdump',
  manifest: 'faceadmin-backup.json',
} as const;

/** SQLite's live files in DATA_DIR (the WAL and its index are folded into the online copy). */
export const SQLITE_LIVE = new Set(['faceadmin.sqlite', 'faceadmin.sqlite-wal', 'faceadmin.sqlite-shm', 'faceadmin.sqlite-journal']);

/** pg_dump / pg_restore: beside initdb as apps/server/scripts/pg-cluster.ts finds it (Debian's versioned folder), else on PATH. */
export function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  const bin = findPgBin();
  const beside = bin ? path.join(bin, name) : undefined;
  return beside && fs.existsSync(beside) ? beside : name;
}

/**
 * The connection for a PostgreSQL tool: the URL without its password (a command line is visible to every user of the
 * machine in `ps`) and the password in PGPASSWORD.
 */
export function pgConnection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(databaseUrl);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** A URL fit for a log line: no password. */
export function safeUrl(databaseUrl: string): string {
  const u = new URL(databaseUrl);
  if (u.password) u.password = '***';
  return u.toString();
}
