import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Database, Db, Executor } from './database.ts';
import { afterCommit, beforeCommit, dbOf } from './transaction.ts';

/** The PostgreSQL channel every instance listens on (one connection per instance carries every topic). */
export const BUS_CHANNEL = 'faceadmin_bus';
/** NOTIFY payloads must stay under 8000 bytes: room is left for the envelope. */
export const BUS_PAYLOAD_MAX = 7800;

/** What a bus logs through (Fastify's logger fits). */
export interface BusLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

type Handler = (data: unknown, fromSelf: boolean) => void;

/** Makes a message read-only through and through (JSON data: plain objects, arrays and values). */
function freeze(v: unknown): void {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v) || ArrayBuffer.isView(v)) return;
  Object.freeze(v);
  for (const x of Object.values(v)) freeze(x);
}

/**
 * What one instance tells every instance on the same database (this one included), for what instances wait for or
 * keep in memory: a command's result, a forgotten cache row, work for a device another instance serves, the live
 * stream (docs/architecture.md "Several instances"). Sent inside the writer's transaction, a message is delivered
 * when (and only if) that transaction commits: on PostgreSQL by a NOTIFY in it, heard by every instance in commit
 * order; on SQLite (one process owns the file) after the commit, to this instance.
 *
 * A message is a hint, never the only copy of a fact: the database holds it. When the listening connection drops,
 * messages sent meanwhile are lost; once it is back, `onResync` handlers re-read what they keep (and those that wait
 * poll while `listening` is false).
 */
export interface Bus {
  /** This instance's id (messages it sent arrive with `fromSelf`). */
  readonly instance: string;
  /** Whether messages arrive now (always on SQLite; on PostgreSQL while the listening connection is up). */
  readonly listening: boolean;
  /** How many times the listening connection came back after it was lost (messages may have been missed each time). */
  readonly reconnects: number;
  /**
   * Sends at the commit of the executor's transaction (at once outside one). `data` must be JSON; too large is
   * refused on PostgreSQL (a NOTIFY carries under 8 kB). It is frozen here: neither the sender nor a handler changes
   * it afterwards (on SQLite the handlers get the sender's very object, on PostgreSQL one copy shared by them all).
   */
  send(executor: Executor, topic: string, data: unknown): Promise<void>;
  /** Handlers run in arrival order; one throwing is logged and does not stop the others. */
  on(topic: string, handler: Handler): () => void;
  /** After messages may have been lost (the connection came back): re-read what is kept. */
  onResync(handler: () => void): () => void;
  start(): Promise<void>;
  close(): Promise<void>;
}

const buses = new WeakMap<Db, Bus>();

/**
 * PostgreSQL: the messages a transaction has sent so far, NOTIFYed together in one statement at its end (still inside
 * it). A group commit of live punches sends two or three messages a punch; one statement a message was a round trip
 * each, paid by the writer (bench/scale-out.bench.ts).
 */
const queued = new WeakMap<Executor, string[]>();

/** NOTIFYs in the order given: one row of the array each (PostgreSQL delivers a transaction's in the order sent). */
async function notifyEach(executor: Executor, payloads: string[]): Promise<void> {
  if (payloads.length === 1) await sql`select pg_notify(${BUS_CHANNEL}, ${payloads[0]})`.execute(executor);
  // ordered explicitly: PostgreSQL evaluates a volatile function of the select list after the sort
  else await sql`select pg_notify(${BUS_CHANNEL}, m.p) from unnest(${payloads}::text[]) with ordinality as m(p, n) order by m.n`.execute(executor);
}

/** The bus of the database an executor belongs to (undefined for a tool that builds no server). */
export function busOf(executor: Executor): Bus | undefined {
  const db = dbOf(executor);
  return db ? buses.get(db) : undefined;
}

export function createBus(database: Database, log: BusLog, opts: { retryMs?: number } = {}): Bus {
  const instance = randomBytes(6).toString('hex');
  const handlers = new Map<string, Set<Handler>>();
  const resyncs = new Set<() => void>();
  const retryMs = opts.retryMs ?? 1000;
  let listener: pg.PoolClient | null = null;
  let started = false;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let everListened = false;
  let reconnects = 0;
  /** the first LISTEN failed: messages may have been missed before any was heard */
  let missed = false;

  function deliver(topic: string, data: unknown, from: string) {
    const set = handlers.get(topic);
    if (!set) return;
    for (const h of [...set]) {
      try {
        h(data, from === instance);
      } catch (err) {
        log.error({ err, topic }, 'bus handler failed');
      }
    }
  }

  function resync() {
    for (const h of [...resyncs]) {
      try {
        h();
      } catch (err) {
        log.error({ err }, 'bus resync failed');
      }
    }
  }

  async function listen(): Promise<void> {
    const pool = database.pgPool;
    if (!pool || closed) return;
    let client: pg.PoolClient | null = null;
    try {
      client = await pool.connect();
      const mine = client;
      client.on('notification', (msg) => {
        if (msg.channel !== BUS_CHANNEL || !msg.payload) return;
        let m: { t?: unknown; d?: unknown; i?: unknown };
        try {
          m = JSON.parse(msg.payload) as typeof m;
        } catch (err) {
          log.error({ err }, 'bus message unreadable');
          return;
        }
        if (typeof m.t !== 'string') return;
        freeze(m.d);
        deliver(m.t, m.d, typeof m.i === 'string' ? m.i : '');
      });
      client.on('error', (err) => {
        log.warn({ err }, 'bus listener lost; reconnecting');
        lost(mine);
      });
      await client.query(`LISTEN ${BUS_CHANNEL}`);
      if (closed) {
        client.release();
        return;
      }
      listener = client;
      // What was sent while nobody listened is gone: whoever keeps or waits for something re-reads it.
      if (everListened) reconnects++;
      if (everListened || missed) resync();
      everListened = true;
      missed = false;
    } catch (err) {
      // LISTEN refused on a connection it got: that connection goes back broken, not kept
      if (client && listener !== client) client.release(true);
      if (closed) return;
      // Not listening yet while the instance already serves: what others sent meanwhile is re-read once it listens.
      missed = true;
      log.warn({ err }, 'bus listener could not connect; retrying');
      schedule();
    }
  }
  function schedule() {
    if (retry || closed) return;
    retry = setTimeout(() => {
      retry = null;
      void listen();
    }, retryMs);
    retry.unref();
  }
  function lost(client: pg.PoolClient) {
    if (listener !== client) return;
    listener = null;
    client.release(true);
    schedule();
  }

  const bus: Bus = {
    instance,
    get listening() {
      return database.dialect !== 'postgres' || listener !== null;
    },
    get reconnects() {
      return reconnects;
    },
    async send(executor, topic, data) {
      freeze(data);
      if (database.dialect === 'postgres') {
        const payload = JSON.stringify({ t: topic, i: instance, d: data });
        if (Buffer.byteLength(payload) > BUS_PAYLOAD_MAX) throw new Error(`bus message on ${topic} too large (${Buffer.byteLength(payload)} bytes)`);
        // Transactional: delivered to every listener when (and only if) the writer's transaction commits. Inside a
        // transaction() the NOTIFY waits for its end, with the others it sends; elsewhere it is made at once.
        const waiting = queued.get(executor);
        if (waiting) {
          waiting.push(payload);
          return;
        }
        const list = [payload];
        const later = beforeCommit(executor, async () => {
          queued.delete(executor);
          await notifyEach(executor, list);
        });
        if (later) queued.set(executor, list);
        else await notifyEach(executor, list);
        return;
      }
      // One process: the message itself (frozen), with no copy through JSON on the way (a live event per punch).
      afterCommit(executor, () => deliver(topic, data ?? null, instance));
    },
    on(topic, handler) {
      const set = handlers.get(topic) ?? handlers.set(topic, new Set()).get(topic)!;
      set.add(handler);
      return () => void set.delete(handler);
    },
    onResync(handler) {
      resyncs.add(handler);
      return () => void resyncs.delete(handler);
    },
    async start() {
      if (started) return;
      started = true;
      await listen();
    },
    async close() {
      closed = true;
      if (buses.get(database.db) === bus) buses.delete(database.db);
      if (retry) clearTimeout(retry);
      const l = listener;
      listener = null;
      if (l) {
        await l.query(`UNLISTEN ${BUS_CHANNEL}`).catch(() => {});
        l.release();
      }
    },
  };
  buses.set(database.db, bus);
  return bus;
}
