import { timingSafeEqual } from 'node:crypto';
import type { FastifyError, FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { parseMultipart, type Part } from './codec.ts';
import { parseNotification } from './events.codec.ts';
import { ingestLiveEvent } from './ingest.ts';
import type { TerminalEvents } from '../terminal-events.ts';
import type { DialledTerminal } from './driver.ts';

export interface IsapiGatewayOptions<T extends DialledTerminal> {
  events: TerminalEvents<T>;
}

/** The largest notification taken: the event JSON and one capture picture. */
export const ISAPI_EVENT_MAX_BYTES = 2 * 1024 * 1024;

const Params = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }),
  token: Type.String({ minLength: 16, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
});

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Where ISAPI terminals post their events (the HTTP host notification the delivery configures):
 * POST /isapi/event/:deviceId/:secret. The path carries the device's own secret, so a terminal (or anyone
 * on the network) can only ever post for the one device whose secret it was given, never for another
 * company's. The body is the event JSON (event_log / AccessControllerEvent), alone or as multipart with
 * the capture picture. A punch is answered 200 only after it is committed; the terminal's log keeps it
 * otherwise, and the backlog search brings it at the next reconnect.
 */
export async function isapiGateway<T extends DialledTerminal>(app: FastifyInstance, opts: IsapiGatewayOptions<T>) {
  const { events } = opts;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: ISAPI_EVENT_MAX_BYTES }, (_req, body, done) => done(null, body));
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err.validation) return reply.status(404).send('');
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send('');
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) return reply.status(err.statusCode).send('');
    // The instance's logger: the route's own is silent (its URL carries the device's secret).
    app.log.error({ err, device: (req.params as { id?: unknown } | undefined)?.id }, 'ISAPI event failed');
    return reply.status(500).send('');
  });

  // logLevel silent: request lines would write the secret in the path to the log (secrets are never logged).
  app.post<{ Params: { id: number; token: string } }>('/isapi/event/:id/:token', { schema: { params: Params }, logLevel: 'silent' }, async (req, reply) => {
    const d = await events.terminal(req.params.id);
    // The same answer for an unknown device and a wrong secret: the path tells nothing.
    if (!d || d.protocol !== 'isapi' || !d.event_secret || !same(d.event_secret, req.params.token)) return reply.status(404).send('');
    await events.seen(d.serial, req.ip);
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const type = req.headers['content-type'] ?? '';
    let parts: Part[];
    if (/^multipart\//i.test(type)) parts = parseMultipart(body, type);
    else parts = [{ name: 'event_log', contentType: type, data: body }];
    const eventPart = parts.find((p) => p.name === 'event_log' || p.name === 'AccessControllerEvent') ?? parts.find((p) => /json/i.test(p.contentType));
    const event = eventPart ? parseNotification(eventPart.data.toString('utf8'), d.tz_offset) : undefined;
    // Heartbeats and events we do not keep (door, alarm) are acknowledged: the terminal must not resend them.
    if (!event) return reply.status(200).send('');
    const picture = parts.find((p) => /^image\/jpe?g$/i.test(p.contentType) && p.data.length > 3 && p.data[0] === 0xff && p.data[1] === 0xd8)?.data;
    // The instance's logger (this route's is silent), the serial only: the path's secret is never logged.
    if (await ingestLiveEvent(events, d, event, picture)) app.log.info({ device: d.id, serial: d.serial, punches: 1, via: 'push' }, 'punches received');
    return reply.status(200).send('');
  });
}
