import { BUS_PAYLOAD_MAX } from '../../db/bus.ts';
import type { Database, Executor } from '../../db/database.ts';
import { defineModule, type Core } from '../../module.ts';
import { createLiveHub, wireOf, type HubOptions, type WireEvent } from './live.hub.ts';
import liveRoutes, { type StreamOptions } from './live.routes.ts';
import { registerLiveSink, STREAMS_TOPIC, type LiveEnvelope, type StreamsEnd } from './publish.ts';

/** The bus topic live events travel on between instances. */
export const LIVE_TOPIC = 'live';
/** The bus envelope's room for an event. */
const PAYLOAD_MAX = BUS_PAYLOAD_MAX - 100;

/**
 * A day list too long for one notification becomes "refetch" (LiveDays.days null); anything else too large is
 * dropped. Only a NOTIFY has the limit: on SQLite (one process, no serialising on the way) nothing is measured.
 */
function fit(e: WireEvent, dialect: Database['dialect']): WireEvent | null {
  if (dialect !== 'postgres' || Buffer.byteLength(JSON.stringify(e)) <= PAYLOAD_MAX) return e;
  if (e.type === 'day') return { ...e, data: { days: null } };
  return null;
}

/**
 * The console's live stream (issue #16; docs/architecture.md "The live stream"). Writers publish inside their
 * transactions (publish.ts); the events travel on the bus (db/bus.ts): on SQLite they reach this instance's hub
 * after the commit; on PostgreSQL a NOTIFY in the same transaction carries them at commit to every instance
 * listening, this one included, in one order. Messages lost while the bus was not listening: every open console
 * refetches what it shows.
 */
export function liveModule(core: Core, opts: { hub?: HubOptions; stream?: StreamOptions } = {}) {
  const { database, log, bus } = core;
  const hub = createLiveHub(opts.hub);

  const unregister = registerLiveSink(database.db, {
    async publish(executor: Executor, event: LiveEnvelope) {
      const wire = fit(wireOf(event), database.dialect);
      if (wire === null) {
        log.warn({ type: event.type, company: event.companyId }, 'live event too large to publish');
        return;
      }
      await bus.send(executor, LIVE_TOPIC, wire);
    },
  });
  const off = bus.on(LIVE_TOPIC, (data) => hub.deliver(data as WireEvent));
  // Sessions that ended and rights that changed (issue #28), on the same bus and so in commit order with the events.
  const offStreams = bus.on(STREAMS_TOPIC, (data) => hub.endStreams(data as StreamsEnd));
  const offResync = bus.onResync(() => hub.resetAll());

  return defineModule({
    name: 'live',
    hub,
    routes: (app) => liveRoutes(app, hub, opts.stream),
    async close() {
      unregister();
      off();
      offStreams();
      offResync();
    },
  });
}
