import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../../db/database.ts';
import { parseJson } from '../../lib/json.ts';
import { nowIso } from '../../lib/time.ts';
import { deviceCache, devicesRepository, perDeviceRow, unknownDevicesRepository, type DeviceRow } from '../../modules/devices/devices.repository.ts';
import type { PresenceService } from '../../modules/devices/presence.service.ts';
import type { SyncService } from '../../modules/devices/sync.service.ts';
import { notify } from '../../modules/messages/messages.service.ts';
import { personsRepository } from '../../modules/persons/persons.repository.ts';
import type { PunchesService } from '../../modules/punches/punches.service.ts';
import { decodeBody, encodeReply, encodingFor, handshakeReply, parseAttlog, parseAttphoto, parseDevicecmd, parseInfoParam } from './codec.ts';

export interface GatewayDeps {
  database: Database;
  sync: SyncService;
  punches: PunchesService;
  presence: PresenceService;
  delayS: number;
  errorDelayS: number;
}

const Query = Type.Object(
  {
    SN: Type.String({ pattern: '^[A-Za-z0-9]{1,32}$' }),
    table: Type.Optional(Type.String({ maxLength: 32 })),
    options: Type.Optional(Type.String({ maxLength: 10 })),
    language: Type.Optional(Type.String({ maxLength: 5 })),
    pushver: Type.Optional(Type.String({ maxLength: 20 })),
    INFO: Type.Optional(Type.String({ maxLength: 500 })),
    Stamp: Type.Optional(Type.String({ maxLength: 20 })),
  },
  { additionalProperties: true },
);
type Q = { SN: string; table?: string; options?: string; language?: string; pushver?: string; INFO?: string; Stamp?: string };
const text = { 200: Type.String(), '4xx': Type.String(), '5xx': Type.String() };

/**
 * The server side of the ZKTeco Attendance PUSH protocol 2.4.1 (docs/zk-push-protocol.md). Terminals
 * reach it at /iclock/*: over plain outbound HTTP from the device, so it works behind NAT.
 */
export default async function zkPushRoutes(app: FastifyInstance, deps: GatewayDeps) {
  const { db } = deps.database;
  // Terminals send plain text and binary photos with assorted content types: take every body as bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 8 * 1024 * 1024 }, (_req, body, done) => done(null, body));

  // Terminals read plain text: a refused request says why in a line, never in JSON, and a fault of ours is
  // logged and answered 500 so the terminal keeps its records and retries.
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err.validation) return reply.status(400).type('text/plain; charset=utf-8').send('ERROR: bad request');
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).type('text/plain; charset=utf-8').send('ERROR: body too large');
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500)
      return reply.status(err.statusCode).type('text/plain; charset=utf-8').send('ERROR: bad request');
    req.log.error({ err, serial: (req.query as Partial<Q> | undefined)?.SN }, 'terminal request failed');
    return reply.status(500).type('text/plain; charset=utf-8').send('ERROR: server error');
  });

  const unknownLogged = new Map<string, number>();
  async function resolve(req: FastifyRequest<{ Querystring: Q }>): Promise<DeviceRow | undefined> {
    const device = await deviceCache.bySerial(db, req.query.SN);
    if (!device) {
      await unknownDevicesRepository.seen(db, req.query.SN, req.ip, nowIso());
      const last = unknownLogged.get(req.query.SN) ?? 0;
      if (Date.now() - last > 10 * 60_000 && unknownLogged.size < 10_000) {
        unknownLogged.set(req.query.SN, Date.now());
        req.log.warn({ serial: req.query.SN, ip: req.ip }, 'unregistered terminal');
      }
      return undefined;
    }
    await deps.presence.seen(device);
    return device;
  }
  // Stamps are resume marks that current firmware ignores except 0 (notes §1): kept, but written at most
  // every 30 s per device instead of on every upload.
  const stampWritten = new Map<string, number>();
  async function saveStamp(d: DeviceRow, column: 'att_stamp' | 'op_stamp', stamp: string | undefined) {
    if (!stamp || !/^\d+$/.test(stamp) || d[column] === stamp) return;
    const key = `${d.id}:${column}`;
    if (Date.now() - (stampWritten.get(key) ?? 0) < 30_000) return;
    stampWritten.set(key, Date.now());
    d[column] = stamp;
    await devicesRepository.update(db, d.company_id, d.id, { [column]: stamp });
  }
  // What the terminal told us of itself (its language decides GB2312 vs UTF-8), read once per cached row.
  const traits = perDeviceRow((d) => {
    const info = parseJson<{ language?: string; photoBase64?: boolean }>(d.info, {});
    return { encoding: encodingFor(info.language), photoBase64: info.photoBase64 === true };
  });
  const encodingOf = (d: DeviceRow) => traits(d).encoding;
  /** Replies in the terminal's encoding; UTF-8 text goes out as a string (one socket write with the headers). */
  const send = (reply: FastifyReply, body: string, d?: DeviceRow, status = 200) => {
    const encoding = d ? encodingOf(d) : 'utf8';
    return reply
      .status(status)
      .type(encoding === 'gb2312' ? 'text/plain; charset=gb2312' : 'text/plain; charset=utf-8')
      .send(encoding === 'gb2312' ? encodeReply(body, encoding) : body);
  };
  /** Not registered yet: refuse uploads without an "OK", so the terminal keeps its records and retries later. */
  const refuse = (reply: FastifyReply) => send(reply, 'ERROR: device not registered', undefined, 403);
  const bodyOf = (req: FastifyRequest) => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
  const schema = { querystring: Query, response: text, hide: true };

  // §5 initialization exchange (and §14 remote-att, which we do not offer).
  app.get<{ Querystring: Q }>('/iclock/cdata', { schema }, async (req, reply) => {
    const d = await resolve(req);
    const serial = req.query.SN;
    if (req.query.options !== 'all') return send(reply, 'OK', d);
    if (d) {
      const info = { ...parseJson<Record<string, unknown>>(d.info, {}), language: req.query.language ?? '', pushver: req.query.pushver ?? '' };
      await devicesRepository.update(db, d.company_id, d.id, { info: JSON.stringify(info) });
      deviceCache.forget(d.serial);
      // A handshake means the terminal (re)started: whatever was in flight is lost and will be planned again.
      await deps.sync.expire(d.id);
    }
    return send(
      reply,
      handshakeReply({
        serial,
        attStamp: d?.att_stamp ?? '0',
        opStamp: d?.op_stamp ?? '0',
        photoStamp: d?.photo_stamp ?? '0',
        delay: deps.delayS,
        errorDelay: deps.errorDelayS,
        tzOffsetMinutes: d?.tz_offset ?? 480,
      }),
      d,
    );
  });

  // §9/§12 poll: the heartbeat, and where commands go out.
  app.get<{ Querystring: Q }>('/iclock/getrequest', { schema }, async (req, reply) => {
    const d = await resolve(req);
    if (!d) return send(reply, 'OK');
    if (req.query.INFO) {
      const info = parseInfoParam(req.query.INFO);
      // Sent with every poll by some firmware: written only when it changes.
      if (info && (info.firmware !== d.firmware || info.users !== d.user_count)) {
        await devicesRepository.update(db, d.company_id, d.id, { firmware: info.firmware, user_count: info.users });
        Object.assign(d, { firmware: info.firmware, user_count: info.users });
      }
    }
    // Planning also gives up on commands the terminal never answered.
    const commands = await deps.sync.plan(d);
    return send(reply, commands.length ? commands.map((c) => c.text).join('\n') : 'OK', d);
  });

  for (const method of ['GET', 'POST'] as const) {
    app.route<{ Querystring: Q }>({ method, url: '/iclock/ping', schema, handler: async (req, reply) => send(reply, 'OK', await resolve(req)) });
  }

  // §13 command results.
  app.post<{ Querystring: Q }>('/iclock/devicecmd', { schema }, async (req, reply) => {
    const d = await resolve(req);
    if (!d) return refuse(reply);
    const results = parseDevicecmd(decodeBody(bodyOf(req), encodingOf(d)));
    const info = results.find((r) => r.cmd === 'INFO' && r.code === 0);
    if (info) {
      const users = Number(info.data.UserCount);
      await devicesRepository.update(db, d.company_id, d.id, {
        firmware: (info.data.FWVersion ?? d.firmware).slice(0, 60),
        ...(Number.isFinite(users) ? { user_count: users } : {}),
        info: JSON.stringify({ ...parseJson<Record<string, unknown>>(d.info, {}), device: info.data }),
      });
      deviceCache.forget(d.serial);
    }
    await deps.sync.results(
      d,
      results.map((r) => ({ id: r.id, code: r.code, data: r.data })),
    );
    return send(reply, 'OK', d);
  });

  // §11 uploads.
  async function upload(req: FastifyRequest<{ Querystring: Q }>, reply: FastifyReply, forced?: string) {
    const d = await resolve(req);
    if (!d) return refuse(reply);
    const table = (forced ?? req.query.table ?? '').toUpperCase();
    const body = bodyOf(req);
    if (table === 'ATTLOG') {
      const { records, bad } = parseAttlog(decodeBody(body, encodingOf(d)));
      if (!records.length && bad) return send(reply, 'ERROR: no valid records', d, 400);
      // Acknowledged only after the commit: a crash before this line makes the terminal resend, and
      // the (device, PIN, time) key makes the resend harmless.
      await deps.punches.ingest(d, records);
      await saveStamp(d, 'att_stamp', req.query.Stamp);
      return send(reply, `OK: ${records.length}`, d);
    }
    if (table === 'ATTPHOTO') {
      const photo = parseAttphoto(body, traits(d).photoBase64);
      if (!photo) return send(reply, 'ERROR: bad photo', d, 400);
      await deps.punches.photo(d, photo.pin, photo.time, photo.data);
      return send(reply, 'OK', d);
    }
    if (table === 'OPTIONS') {
      const pushed = Object.fromEntries(
        decodeBody(body, encodingOf(d))
          .split(',')
          .map((kv) => kv.split('='))
          .filter((kv) => kv.length === 2 && kv[0]!.length < 60)
          .slice(0, 200)
          .map(([k, v]) => [k!.trim(), v!.trim().slice(0, 200)]),
      );
      await devicesRepository.update(db, d.company_id, d.id, { info: JSON.stringify({ ...parseJson<Record<string, unknown>>(d.info, {}), options: pushed }) });
      deviceCache.forget(d.serial);
      return send(reply, 'OK', d);
    }
    if (table === 'OPERLOG') {
      const lines = decodeBody(body, encodingOf(d))
        .split('\n')
        .map((l) => l.replace(/\r$/, ''))
        .filter((l) => l.trim());
      // Users enrolled at the terminal itself: the server is the roster's source of truth, so unknown
      // ones are reported to the administrators rather than added silently.
      const enrolled = lines.filter((l) => l.startsWith('USER ')).map((l) => /PIN=([^\t]*)/i.exec(l)?.[1] ?? '');
      if (enrolled.length) {
        const known = await personsRepository.byNumbers(db, d.company_id, enrolled);
        const strangers = enrolled.filter((p) => p && !known.has(p));
        if (strangers.length)
          await notify(db, d.company_id, null, 'deviceEnrolled', { device: d.name, count: strangers.length, pins: strangers.slice(0, 10).join(', ') });
      }
      await saveStamp(d, 'op_stamp', req.query.Stamp);
      return send(reply, `OK: ${lines.length}`, d);
    }
    if (table === 'ERRORLOG') {
      // A face the terminal could not use (App. 9 D01E000x) comes back here, naming our command.
      for (const line of decodeBody(body, encodingOf(d)).split('\n')) {
        const code = /ErrCode=([A-Z0-9]{8})/.exec(line)?.[1];
        const cmd = Number(/CmdId=(\d+)/.exec(line)?.[1]);
        if (code && code !== '00000000' && Number.isSafeInteger(cmd) && cmd > 0) await deps.sync.rejected(d, cmd, code);
      }
      return send(reply, 'OK', d);
    }
    return send(reply, 'OK', d);
  }
  app.post<{ Querystring: Q }>('/iclock/cdata', { schema }, (req, reply) => upload(req, reply));
  // §11.3: photos may also come to /iclock/fdata.
  app.post<{ Querystring: Q }>('/iclock/fdata', { schema }, (req, reply) => upload(req, reply, 'ATTPHOTO'));
}
