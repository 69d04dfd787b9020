import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Adapts node:sqlite to the better-sqlite3 shape Kysely's SqliteDialect expects,
 * so no native addon is needed (stack rule: no ABI-bound addons).
 */
export function openSqlite(file: string): SqliteDatabase & { raw: DatabaseSync } {
  const db = new DatabaseSync(file);
  if (file !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA synchronous = NORMAL');
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
  return {
    raw: db,
    close: () => db.close(),
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
