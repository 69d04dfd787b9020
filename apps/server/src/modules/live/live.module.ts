import { sql } from 'kysely';
import type pg from 'pg';
import type { Executor } from '../../db/database.ts';
import { afterCommit } from '../../db/transaction.ts';
import { defineModule, type Core } from '../../module.ts';
import { createLiveHub, wireOf, type HubOptions, type WireEvent } from './live.hub.ts';
import liveRoutes, { type StreamOptions } from './live.routes.ts';
import { registerLiveSink, type LiveEnvelope } from './publish.ts';

/** The PostgreSQL channel every instance listens on. */
export const LIVE_CHANNEL = 'faceadmin_live';
/** NOTIFY payloads must stay under 8000 bytes. */
const PAYLOAD_MAX = 7900;

/** A day list too long for one notification becomes "refetch" (LiveDays.days null); anything else too large is dropped. */
function fit(e: WireEvent): string | null {
  const text = JSON.stringify(e);
  if (Buffer.byteLength(text) <= PAYLOAD_MAX) return text;
  if (e.type === 'day') return JSON.stringify({ ...e, data: { days: null } });
  return null;
}

/**
 * The console's live stream (issue #16; docs/architecture.md "The live stream"). Writers publish inside their
 * transactions (publish.ts); on SQLite the events reach this instance's hub after the commit; on PostgreSQL a NOTIFY
 * in the same transaction carries them at commit to every instance listening, this one included, in one order.
 */
export function liveModule(core: Core, opts: { hub?: HubOptions; stream?: StreamOptions } = {}) {
  const { database, log } = core;
  const hub = createLiveHub(opts.hub);
  let listener: pg.PoolClient | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const unregister = registerLiveSink(database.db, {
    async publish(executor: Executor, event: LiveEnvelope) {
      const wire = wireOf(event);
      if (database.dialect === 'postgres') {
        const payload = fit(wire);
        if (payload === null) {
          log.warn({ type: wire.type, company: wire.companyId }, 'live event too large to publish');
          return;
        }
        // Transactional: delivered to every listener when (and only if) the writer's transaction commits.
        await sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`.execute(executor);
      } else afterCommit(executor, () => hub.deliver(wire));
    },
  });

  /** One connection of the pool kept LISTENing; lost (server restart, failover), it is opened again and consoles resync. */
  async function listen(): Promise<void> {
    const pool = database.pgPool;
    if (!pool || closed) return;
    try {
      const client = await pool.connect();
      client.on('notification', (msg) => {
        if (msg.channel !== LIVE_CHANNEL || !msg.payload) return;
        try {
          hub.deliver(JSON.parse(msg.payload) as WireEvent);
        } catch (err) {
          log.error({ err }, 'live event unreadable');
        }
      });
      client.on('error', (err) => {
        log.warn({ err }, 'live listener lost; reconnecting');
        lost(client);
      });
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
      const first = listener === null && retry === null;
      listener = client;
      // Events committed while nobody listened are gone: every open console refetches what it shows.
      if (!first) hub.resetAll();
    } catch (err) {
      if (closed) return;
      log.warn({ err }, 'live listener could not connect; retrying');
      retry = setTimeout(() => {
        retry = null;
        void listen();
      }, 2000);
      retry.unref();
    }
  }
  function lost(client: pg.PoolClient) {
    if (listener !== client) return;
    listener = null;
    client.release(true);
    if (closed) return;
    retry = setTimeout(() => {
      retry = null;
      void listen();
    }, 1000);
    retry.unref();
  }

  return defineModule({
    name: 'live',
    hub,
    routes: (app) => liveRoutes(app, hub, opts.stream),
    ready: () => listen(),
    async close() {
      closed = true;
      unregister();
      if (retry) clearTimeout(retry);
      const l = listener;
      listener = null;
      if (l) {
        await l.query(`UNLISTEN ${LIVE_CHANNEL}`).catch(() => {});
        l.release();
      }
    },
  });
}
