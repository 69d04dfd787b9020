import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Adapts node:sqlite to the better-sqlite3 shape Kysely's SqliteDialect expects,
 * so no native addon is needed (stack rule: no ABI-bound addons).
 */
export function openSqlite(file: string): SqliteDatabase & { raw: DatabaseSync; reader(): DatabaseSync | undefined; stopped(): Promise<void> } {
  const db = new DatabaseSync(file);
  if (file !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA cache_size = -65536');
  db.exec('PRAGMA mmap_size = 1073741824');
  const checkpoints = file === ':memory:' ? undefined : checkpointer(db, file);
  // Kysely compiles the same SQL text again and again (hot paths: punch ingestion, command polls);
  // preparing it once and reusing the statement saves SQLite's parse and plan on every call.
  const cache = new Map<string, { stmt: StatementSync; reader: boolean }>();
  const prepared = (sql: string) => {
    let e = cache.get(sql);
    if (e) {
      cache.delete(sql);
      cache.set(sql, e);
      return e;
    }
    const stmt = db.prepare(sql);
    e = { stmt, reader: stmt.columns().length > 0 };
    cache.set(sql, e);
    if (cache.size > 500) cache.delete(cache.keys().next().value!);
    return e;
  };
  let readOnly: DatabaseSync | undefined;
  return {
    raw: db,
    /**
     * A second, read-only connection for bulk reads outside any transaction (the attendance recompute): it sees only
     * committed data (a read on `raw` could see the open transaction of another request sharing the connection),
     * and node:sqlite statements on it may return arrays instead of objects. Opened on first use; none in memory.
     */
    reader() {
      if (file === ':memory:') return undefined;
      if (!readOnly) {
        readOnly = new DatabaseSync(file, { readOnly: true });
        readOnly.exec('PRAGMA busy_timeout = 5000');
        readOnly.exec('PRAGMA cache_size = -65536');
        readOnly.exec('PRAGMA mmap_size = 1073741824');
      }
      return readOnly;
    },
    close: () => {
      checkpoints?.stop();
      readOnly?.close();
      db.close();
    },
    /** Resolves once the checkpoint worker has closed its connection too (files may be removed after that). */
    stopped: () => checkpoints?.exited ?? Promise.resolve(),
    prepare(sql: string): SqliteStatement {
      const { stmt, reader } = prepared(sql);
      const args = (p: ReadonlyArray<unknown>) => p.map(toSqlite) as never[];
      return {
        reader,
        all: (p) => stmt.all(...args(p)),
        run: (p) => {
          const r = stmt.run(...args(p));
          return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
        },
        iterate: (p) => stmt.iterate(...args(p)) as IterableIterator<unknown>,
      };
    },
  };
}

function toSqlite(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString();
  if (v === undefined) return null;
  return v;
}

/**
 * WAL checkpoints in a worker thread (db/checkpointer.ts) instead of on every 1000th page written by the
 * request thread. Should the worker fail, the connection checkpoints by itself again.
 */
function checkpointer(db: DatabaseSync, file: string, intervalMs = 500): { stop(): void; exited: Promise<void> } {
  const worker = new Worker(new URL('./checkpointer.ts', import.meta.url), { workerData: { file, intervalMs } });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  db.exec('PRAGMA wal_autocheckpoint = 0');
  let running = true;
  const fallBack = () => {
    if (!running) return;
    running = false;
    if (db.isOpen) db.exec('PRAGMA wal_autocheckpoint = 1000');
    void worker.terminate();
  };
  worker.on('error', fallBack);
  worker.on('message', fallBack);
  worker.on('exit', fallBack);
  return {
    exited,
    stop() {
      running = false;
      // Held from here until it exits: an unref'd worker alone lets the event loop drain while close()
      // still awaits `exited` (a script awaiting close at top level then ended before its next line).
      worker.ref();
      worker.postMessage('stop');
    },
  };
}
