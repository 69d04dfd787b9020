import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Database } from './database.ts';

export interface LeaderLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * One instance at a time holds a role (dialling the ISAPI terminals, the external broker's subscription): on
 * PostgreSQL the holder keeps a session advisory lock on a connection of its own, so the role passes to another
 * instance as soon as the holder stops or loses its connection (the lock goes with the session). The others try
 * again every `retryMs`. On SQLite one process owns the database: it always holds the role.
 */
export interface Leadership {
  readonly name: string;
  readonly held: boolean;
  /** Called with true when the role is taken, false when it is lost (not on close). */
  onChange(cb: (held: boolean) => void): () => void;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The two 32-bit keys of a role's advisory lock (namespace 2: jobs use 1). */
function lockKeys(name: string): [number, number] {
  return [2, createHash('sha256').update(`faceadmin:${name}`).digest().readInt32BE(0)];
}

export function leadership(database: Database, name: string, log: LeaderLog, opts: { retryMs?: number } = {}): Leadership {
  const retryMs = opts.retryMs ?? 5000;
  const listeners = new Set<(held: boolean) => void>();
  let held = database.dialect !== 'postgres';
  let client: pg.PoolClient | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const [k1, k2] = lockKeys(name);

  const tell = (v: boolean) => {
    for (const cb of [...listeners]) {
      try {
        cb(v);
      } catch (err) {
        log.warn({ err, role: name }, 'role change handler failed');
      }
    }
  };
  /**
   * While the role is held, its connection is asked a trivial question every `retryMs`: a connection that died
   * without an error (a half-open socket, the server ended the session) loses the role here as well, so two
   * instances never both believe they hold it for long.
   */
  let probe: NodeJS.Timeout | null = null;
  function watch(c: pg.PoolClient) {
    probe = setTimeout(() => {
      probe = null;
      if (client !== c || closed) return;
      let timer: NodeJS.Timeout | undefined;
      const dead = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer')), Math.max(1000, retryMs));
      });
      Promise.race([c.query('SELECT 1'), dead])
        .then(() => watch(c))
        .catch((err: unknown) => lost(c, err))
        .finally(() => clearTimeout(timer));
    }, retryMs);
    probe.unref();
  }
  function later() {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void attempt();
    }, retryMs);
    timer.unref();
  }
  function lost(c: pg.PoolClient, err?: unknown) {
    if (client !== c) return;
    client = null;
    c.release(true);
    if (held) {
      held = false;
      log.warn({ err, role: name }, 'role lost with its database connection');
      if (!closed) tell(false);
    }
    later();
  }
  async function attempt(): Promise<void> {
    const pool = database.pgPool;
    if (!pool || closed || held) return;
    let c: pg.PoolClient | null = null;
    try {
      c = await pool.connect();
      const r = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [k1, k2]);
      if (closed || !r.rows[0]?.ok) {
        c.release();
        later();
        return;
      }
      client = c;
      const mine = c;
      c.on('error', (err) => lost(mine, err));
      held = true;
      watch(c);
      log.info({ role: name }, 'role taken');
      tell(true);
    } catch (err) {
      if (c && client !== c) c.release(true);
      if (!closed) log.warn({ err, role: name }, 'role: could not ask the database');
      later();
    }
  }

  return {
    name,
    get held() {
      return held;
    },
    onChange(cb) {
      listeners.add(cb);
      return () => void listeners.delete(cb);
    },
    async start() {
      await attempt();
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (probe) clearTimeout(probe);
      const c = client;
      client = null;
      if (c) {
        // Released at once for the next holder (closing the session would release it too).
        await c.query('SELECT pg_advisory_unlock($1, $2)', [k1, k2]).catch(() => {});
        c.release();
      }
      held = database.dialect !== 'postgres';
    },
  };
}
