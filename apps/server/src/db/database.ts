import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import type { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { CopyClient } from './pg-copy.ts';
import type { DB } from './schema.ts';
import { openSqlite } from './sqlite-adapter.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<DB>;
/** A transaction or the database itself: repositories accept either, so callers can compose writes. */
export type Executor = Kysely<DB> | Transaction<DB>;

export interface Database {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL only: the pool, for what needs one connection of its own (session-level advisory locks). */
  pgPool?: pg.Pool;
  /** SQLite only: a read-only connection for bulk reads of committed data (sqlite-adapter.ts `reader`). */
  sqliteReader?: () => DatabaseSync | undefined;
  close(): Promise<void>;
}

// COUNT(*) and BIGINT arrive as strings from pg; our counts and ids fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));

export function openDatabase(opts: { dataDir: string; databaseUrl?: string | undefined; onError?: (err: Error) => void }): Database {
  if (opts.databaseUrl) {
    // keepAlive: a connection whose peer vanished (a failover, a cut network) is noticed by TCP, not left half-open.
    // CopyClient: pg's client, which also runs copyInto's COPY statements (pg-copy.ts)
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, keepAlive: true, Client: CopyClient as unknown as typeof pg.Client });
    // An idle connection dropped by the server (restart, failover, admin command) must not crash the
    // process: the pool discards it and the next query opens a new one.
    pool.on('error', (err) => opts.onError?.(err));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', pgPool: pool, close: () => db.destroy() };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = path.join(opts.dataDir, 'faceadmin.sqlite');
  const sqlite = openSqlite(file);
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    dialect: 'sqlite',
    sqliteReader: () => sqlite.reader(),
    async close() {
      await db.destroy();
      await sqlite.stopped();
    },
  };
}
