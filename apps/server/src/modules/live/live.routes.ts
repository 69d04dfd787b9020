import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { DEFAULT_LIVE_TOPICS, LIVE_TOPICS, liveApi } from '@faceadmin/shared';
import { invalid } from '../../lib/errors.ts';
import { clock } from '../../lib/time.ts';
import type { App } from '../../module.ts';
import { authOf, tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { LiveHub } from './live.hub.ts';

export interface StreamOptions {
  /**
   * A stream ends after this long; the console reconnects with Last-Event-ID, so the session and rights are checked
   * again. (A session that ends or expires, or rights that change, end it sooner: issue #28.)
   */
  maxMs?: number;
  /** A comment line keeps proxies from closing a quiet stream. */
  heartbeatMs?: number;
  /** A console whose unsent bytes pass this is too slow (or gone): it is dropped rather than buffered. */
  maxBufferedBytes?: number;
}

/**
 * GET /events: the console's live stream (server-sent events). The session and the company are checked like any
 * read; each event is then filtered by the administrator's rights (publish.ts names the rights an event needs).
 */
export default async function liveRoutes(app: App, hub: LiveHub, opts: StreamOptions = {}) {
  const maxMs = opts.maxMs ?? 10 * 60_000;
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const maxBuffered = opts.maxBufferedBytes ?? 256 * 1024;
  const open = new Set<ServerResponse>();

  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  // The session is not renewed here: a renewed token could not reach the console in a stream.
  app.get(
    liveApi.events.path,
    { config: { access: 'company', renewSession: false }, schema: routeSchema(liveApi.events, { tags: ['live'] }) },
    async (req, reply) => {
      // When the request arrived, before its session and rights were read (Fastify starts the clock before onRequest).
      const arrived = performance.now() - reply.elapsedTime;
      const tenant = tenantOf(req);
      const auth = authOf(req);
      const asked = req.query.topics?.split(',');
      const unknown = asked?.find((t) => !(LIVE_TOPICS as readonly string[]).includes(t));
      // Refusals answer in the envelope: nothing has been streamed yet.
      if (unknown !== undefined) throw invalid('topics', 'reasons.oneOf', { values: LIVE_TOPICS.join(', ') });
      const topics = new Set<string>(asked ?? DEFAULT_LIVE_TOPICS);
      const header = req.headers['last-event-id'];
      const lastId = typeof header === 'string' && header.length <= 64 ? header : undefined;

      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        // what hooks set before (the security headers) go out too: hijacked, the reply writes nothing itself
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        // nginx would otherwise hold the events back in its buffer
        'X-Accel-Buffering': 'no',
      });
      // events go out as they come (no Nagle delay); an injected request (tests) has no real socket
      if (typeof res.socket?.setNoDelay === 'function') res.socket.setNoDelay(true);
      open.add(res);
      let unsubscribe = () => {};
      let stopped = false;
      const stop = () => {
        if (stopped) return;
        stopped = true;
        clearInterval(heartbeat);
        clearTimeout(lifetime);
        clearTimeout(expiry);
        unsubscribe();
        open.delete(res);
        if (!res.writableEnded) res.end();
      };
      const write = (frame: string): boolean => {
        if (stopped || res.writableEnded || res.destroyed) return false;
        // A console that stopped reading (a frozen tab, a dead link the OS has not noticed yet) must not pile up
        // events in this process: past the limit it is cut off, and it catches up with Last-Event-ID if it returns.
        if (res.writableLength > maxBuffered) {
          req.log.info({ admin: tenant.adminId, buffered: res.writableLength }, 'live stream dropped: client too slow');
          stop();
          res.destroy();
          return false;
        }
        res.write(frame);
        return true;
      };
      const heartbeat = setInterval(() => write(': ping\n\n'), heartbeatMs);
      const lifetime = setTimeout(stop, maxMs);
      heartbeat.unref();
      lifetime.unref();
      // The session's end: a timer to that instant, checked again when it fires (the instant may have moved closer).
      let expires = auth.sessionExpiresAt;
      let expiry: NodeJS.Timeout | undefined;
      const watchExpiry = () => {
        clearTimeout(expiry);
        if (expires === undefined || stopped) return;
        const left = expires - clock.now();
        if (left <= 0) return stop();
        // past the lifetime the stream has ended anyway (and a timer cannot wait 25 days)
        if (left >= maxMs) return;
        expiry = setTimeout(watchExpiry, left);
        expiry.unref();
      };
      res.write('retry: 3000\n\n: open\n\n');
      // A session ended or rights changed while this request was being checked: its message came before the stream
      // could hear it, so the session and rights read above may be stale. The console reconnects and is checked again.
      if (hub.changedSince(tenant.adminId, arrived)) return stop();
      watchExpiry();
      if (stopped) return;
      unsubscribe = hub.subscribe(
        {
          companyId: tenant.companyId,
          adminId: tenant.adminId,
          sessionId: auth.sessionId,
          rights: auth.rights,
          topics,
          write,
          end: stop,
          expireBy(at) {
            expires = Math.min(expires ?? at, at);
            watchExpiry();
          },
        },
        lastId,
      );
      req.raw.on('close', stop);
      res.on('close', stop);
    },
  );
}
