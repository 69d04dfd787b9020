import type { ServerResponse } from 'node:http';
import { breakersApi, CODES } from '@faceadmin/shared';
import { AppError } from '../../lib/errors.ts';
import type { App } from '../../module.ts';
import { tenantOf, type Access, type Tenant } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { BreakersService } from './breakers.service.ts';

/** Same rule as the other breaker reads (breakers.routes.ts): the breaker right or face-device view. */
const VIEW: Access = { anyOf: [{ right: 'breaker' }, { right: 'face', level: 1 }] };

export interface LiveStreamOptions {
  /** How often a watched breaker is read again (readings land in the database once a second). */
  everyMs?: number;
  /** A stream ends after this long; the console reconnects, so the session and rights are checked again. */
  maxMs?: number;
  /** A comment line keeps proxies from closing a quiet stream. */
  heartbeatMs?: number;
}

type Send = (event: string, data: string) => void;

/**
 * GET /breaker/live?id: the device-detail page's live figures as server-sent events (issue #12). The session, the
 * company and the right are checked like any read, and the breaker must be this company's (40004 in the envelope
 * otherwise, before the stream starts). Then `detail` carries the breaker as /breaker/info answers it, at once
 * and again whenever it changes.
 *
 * Why a read of the database and not a hook in the live service: readings reach the database in one batch a second
 * whichever instance holds the breaker's MQTT session, so reading it serves a console on any instance. One read a
 * second per watched breaker, shared by everyone watching it (a company's dashboard screens watch the same ones).
 */
export default async function breakersEvents(app: App, service: BreakersService, opts: LiveStreamOptions = {}) {
  const everyMs = opts.everyMs ?? 1000;
  const maxMs = opts.maxMs ?? 5 * 60_000;
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const watched = new Map<string, { tenant: Tenant; id: number; last: string; subscribers: Set<Send>; timer: NodeJS.Timeout; busy: boolean }>();
  const open = new Set<ServerResponse>();

  function subscribe(tenant: Tenant, id: number, first: string, send: Send): () => void {
    const key = `${tenant.companyId}:${id}`;
    let w = watched.get(key);
    if (!w) {
      const entry = { tenant, id, last: first, subscribers: new Set<Send>(), busy: false, timer: setInterval(() => void poll(key), everyMs) };
      entry.timer.unref();
      watched.set(key, entry);
      w = entry;
    }
    w.subscribers.add(send);
    return () => {
      const cur = watched.get(key);
      if (!cur) return;
      cur.subscribers.delete(send);
      if (!cur.subscribers.size) {
        clearInterval(cur.timer);
        watched.delete(key);
      }
    };
  }

  async function poll(key: string) {
    const w = watched.get(key);
    if (!w || w.busy) return;
    w.busy = true;
    try {
      const now = JSON.stringify(await service.info(w.tenant, w.id));
      if (now !== w.last) {
        w.last = now;
        for (const send of w.subscribers) send('detail', now);
      }
    } catch (err) {
      if (err instanceof AppError && err.code === CODES.NOT_FOUND) {
        for (const send of [...w.subscribers]) send('gone', '{}');
      } else app.log.error({ err, breaker: w.id }, 'breaker live read failed');
    } finally {
      w.busy = false;
    }
  }

  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get(breakersApi.live.path, { config: { access: VIEW }, schema: routeSchema(breakersApi.live, { tags: ['breakers'] }) }, async (req, reply) => {
    const tenant = tenantOf(req);
    const id = req.query.id;
    // Refusals (not this company's breaker) still answer in the envelope: nothing has been streamed yet.
    const first = JSON.stringify(await service.info(tenant, id));
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // nginx would otherwise hold the events back in its buffer
      'X-Accel-Buffering': 'no',
    });
    open.add(res);
    let unsubscribe = () => {};
    const stop = () => {
      clearInterval(heartbeat);
      clearTimeout(lifetime);
      unsubscribe();
      open.delete(res);
      if (!res.writableEnded) res.end();
    };
    const send: Send = (event, data) => {
      if (res.writableEnded) return;
      res.write(`event: ${event}\ndata: ${data}\n\n`);
      if (event === 'gone') stop();
    };
    const heartbeat = setInterval(() => res.write(': ping\n\n'), heartbeatMs);
    const lifetime = setTimeout(stop, maxMs);
    heartbeat.unref();
    lifetime.unref();
    res.write(`retry: 3000\n\n`);
    send('detail', first);
    unsubscribe = subscribe(tenant, id, first, send);
    req.raw.on('close', stop);
    res.on('close', stop);
  });
}
