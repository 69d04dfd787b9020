import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { parseJson } from '../../lib/json.ts';
import { perObject } from '../../lib/memo.ts';
import type { Terminal, TerminalEvents } from '../terminal-events.ts';
import {
  decodeBody,
  encodeReply,
  encodingFor,
  FAILED_PHOTO_TYPES,
  handshakeReply,
  parseAttlog,
  parseOperlog,
  parseAttphoto,
  parseHealthlog,
  parseDevicecmd,
  parseInfoParam,
  splitFileResults,
} from './codec.ts';
import { zkPushWire } from './driver.ts';

export interface ZkPushOptions<T extends Terminal> {
  events: TerminalEvents<T>;
  /** seconds between polls (PUSH `Delay`) */
  delayS: number;
  /** seconds a terminal waits after a network failure (PUSH `ErrorDelay`) */
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
 * reach it at /iclock/*: over plain outbound HTTP from the device, so it works behind NAT. This file
 * only reads and writes the wire format; what the terminal said goes to the features through the
 * inbound port (`TerminalEvents`).
 */
export async function zkPushGateway<T extends Terminal>(app: FastifyInstance, opts: ZkPushOptions<T>) {
  const { events } = opts;
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

  const resolve = (req: FastifyRequest<{ Querystring: Q }>) => events.seen(req.query.SN, req.ip);
  // Stamps are resume marks that current firmware ignores except 0 (notes §1).
  const saveStamp = async (d: T, kind: 'att' | 'op', stamp: string | undefined) => {
    if (stamp && /^\d+$/.test(stamp)) await events.stamp(d, kind, stamp);
  };
  // What the terminal told us of itself (its language decides GB2312 vs UTF-8), read once per terminal
  // object: the features hand out a new one whenever what they keep of it changes.
  const traits = perObject((d: T) => {
    const info = parseJson<{ language?: string; photoBase64?: boolean }>(d.info, {});
    return { encoding: encodingFor(info.language), photoBase64: info.photoBase64 === true };
  });
  const encodingOf = (d: T) => traits(d).encoding;
  /** Replies in the terminal's encoding; UTF-8 text goes out as a string (one socket write with the headers). */
  const send = (reply: FastifyReply, body: string, d?: T, status = 200) => {
    const encoding = d ? encodingOf(d) : 'utf8';
    return reply
      .status(status)
      .type(encoding === 'gb2312' ? 'text/plain; charset=gb2312' : 'text/plain; charset=utf-8')
      .send(encoding === 'gb2312' ? encodeReply(body, encoding) : body);
  };
  /** Not registered yet: refuse uploads without an "OK", so the terminal keeps its records and retries later. */
  const refuse = (reply: FastifyReply) => send(reply, 'ERROR: device not registered', undefined, 403);
  const bodyOf = (req: FastifyRequest) => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
  const textOf = (req: FastifyRequest, d: T) => decodeBody(bodyOf(req), encodingOf(d));
  const schema = { querystring: Query, response: text, hide: true };

  // §5 initialization exchange (and §14 remote-att, which we do not offer).
  app.get<{ Querystring: Q }>('/iclock/cdata', { schema }, async (req, reply) => {
    const d = await resolve(req);
    if (req.query.options !== 'all') return send(reply, 'OK', d);
    // A handshake means the terminal (re)started: whatever was in flight is lost and will be planned again.
    if (d) {
      await events.restarted(d, { language: req.query.language ?? '', pushver: req.query.pushver ?? '' });
      req.log.info({ serial: d.serial, pushver: req.query.pushver }, 'terminal connected');
    }
    return send(
      reply,
      handshakeReply({
        serial: req.query.SN,
        attStamp: d?.att_stamp ?? '0',
        opStamp: d?.op_stamp ?? '0',
        photoStamp: d?.photo_stamp ?? '0',
        delay: opts.delayS,
        errorDelay: opts.errorDelayS,
        tzOffsetMinutes: d?.tz_offset ?? 480,
      }),
      d,
    );
  });

  // §9/§12 poll: the heartbeat, and where commands go out.
  app.get<{ Querystring: Q }>('/iclock/getrequest', { schema }, async (req, reply) => {
    const d = await resolve(req);
    if (!d) return send(reply, 'OK');
    const info = req.query.INFO ? parseInfoParam(req.query.INFO) : undefined;
    // Sent with every poll by some firmware: passed on only when it changes.
    if (info && (info.firmware !== d.firmware || info.users !== d.user_count)) await events.info(d, { firmware: info.firmware, userCount: info.users });
    const commands = await events.poll(d, zkPushWire);
    // Polls come every few seconds from every terminal: debug (request lines too, see plugins/request-log.ts).
    if (commands.length) req.log.debug({ serial: d.serial, commands: commands.length }, 'commands sent');
    return send(reply, commands.length ? commands.map((c) => c.encoded).join('\n') : 'OK', d);
  });

  for (const method of ['GET', 'POST'] as const) {
    app.route<{ Querystring: Q }>({ method, url: '/iclock/ping', schema, handler: async (req, reply) => send(reply, 'OK', await resolve(req)) });
  }

  // §13 command results.
  app.post<{ Querystring: Q }>('/iclock/devicecmd', { schema }, async (req, reply) => {
    const d = await resolve(req);
    if (!d) return refuse(reply);
    // A GetFile result carries raw bytes: cut out by size before the rest is read as text.
    const { rest, files } = splitFileResults(bodyOf(req));
    const results = parseDevicecmd(decodeBody(rest, encodingOf(d)));
    const info = results.find((r) => r.cmd === 'INFO' && r.code === 0);
    if (info) {
      const users = Number(info.data.UserCount);
      await events.info(d, {
        firmware: (info.data.FWVersion ?? d.firmware).slice(0, 60),
        ...(Number.isFinite(users) ? { userCount: users } : {}),
        facts: { device: info.data },
      });
    }
    await events.commandResults(
      d,
      results.map((r) => {
        const file = files.get(r.id);
        return { id: r.id, code: r.code, data: r.data, ...(file ? { file } : {}) };
      }),
    );
    req.log.info({ serial: d.serial, results: results.length, failed: results.filter((r) => r.code !== 0).length }, 'command results');
    return send(reply, 'OK', d);
  });

  // §12.8.2: the firmware of an UPGRADE, fetched by the terminal it was sent to (and only by it).
  app.get<{ Querystring: Q & { url?: string } }>('/iclock/file', { schema }, async (req, reply) => {
    const d = await resolve(req);
    if (!d) return refuse(reply);
    const file = await events.file(d, String(req.query.url ?? '').slice(0, 500));
    if (!file) return send(reply, 'ERROR: no such file', d, 404);
    req.log.info({ serial: d.serial, bytes: file.size }, 'firmware download');
    return reply.status(200).type('application/octet-stream').header('content-length', file.size).send(file.stream);
  });

  // §11 uploads.
  async function upload(req: FastifyRequest<{ Querystring: Q }>, reply: FastifyReply, forced?: string) {
    const d = await resolve(req);
    if (!d) return refuse(reply);
    const table = (forced ?? req.query.table ?? '').toUpperCase();
    if (table === 'ATTLOG') {
      const { records, bad } = parseAttlog(textOf(req, d));
      if (!records.length && bad) return send(reply, 'ERROR: no valid records', d, 400);
      // Acknowledged only after the commit: a crash before this line makes the terminal resend, and
      // the (device, PIN, time) key makes the resend harmless.
      await events.punches(d, records);
      req.log.info({ serial: d.serial, punches: records.length, ...(bad ? { unreadable: bad } : {}) }, 'punches received');
      await saveStamp(d, 'att', req.query.Stamp);
      return send(reply, `OK: ${records.length}`, d);
    }
    if (table === 'HEALTHLOG') {
      // Health-code terminals (our convention, docs/zk-push-protocol.md §5.6): acknowledged only after the
      // commit, idempotent on (device, PIN, time) like ATTLOG.
      const { records, bad } = parseHealthlog(textOf(req, d));
      if (!records.length && bad) return send(reply, 'ERROR: no valid records', d, 400);
      await events.health(d, records);
      req.log.info({ serial: d.serial, health: records.length, ...(bad ? { unreadable: bad } : {}) }, 'health records received');
      return send(reply, `OK: ${records.length}`, d);
    }
    if (table === 'ATTPHOTO') {
      const photo = parseAttphoto(bodyOf(req), traits(d).photoBase64);
      if (!photo) return send(reply, 'ERROR: bad photo', d, 400);
      if (photo.type !== null && FAILED_PHOTO_TYPES.includes(photo.type)) {
        // §11.8 types 1, 2, 4: the terminal refused this face and sent no ATTLOG ("upload strangers" on): a
        // stranger, or a registered PIN refused (notes §5.2). Acknowledged only after the commit.
        const reason = photo.type === 2 ? 'blacklist' : photo.type === 4 ? 'verifyFailed' : 'failed';
        await events.stranger(d, { time: photo.time, pin: photo.pin, reason, jpeg: photo.data });
        req.log.info({ serial: d.serial, pin: photo.pin, type: photo.type }, 'stranger received');
        return send(reply, 'OK', d);
      }
      await events.punchPhoto(d, photo.pin, photo.time, photo.data);
      req.log.debug({ serial: d.serial, pin: photo.pin }, 'punch photo received');
      return send(reply, 'OK', d);
    }
    if (table === 'OPTIONS') {
      const options = Object.fromEntries(
        textOf(req, d)
          .split(',')
          .map((kv) => kv.split('='))
          .filter((kv) => kv.length === 2 && kv[0]!.length < 60)
          .slice(0, 200)
          .map(([k, v]) => [k!.trim(), v!.trim().slice(0, 200)]),
      );
      await events.info(d, { facts: { options } });
      return send(reply, 'OK', d);
    }
    // The user log, and its lines posted under their own table names by some firmware (notes §12.2): what the terminal
    // holds is recorded (a roster read's answer, or users enrolled at the terminal), committed before the OK.
    if (table === 'OPERLOG' || table === 'USERINFO' || table === 'BIOPHOTO') {
      // A packed body (§11.14 ContentType=tgz) is not read yet: refused rather than acknowledged and lost.
      if (String((req.query as Record<string, unknown>).ContentType ?? '').toLowerCase() === 'tgz') {
        req.log.warn({ serial: d.serial, table }, 'packed (tgz) user log refused: not supported');
        return send(reply, 'ERROR: ContentType=tgz not supported', d);
      }
      const { users, faces, lines, bad } = parseOperlog(textOf(req, d));
      if (bad) req.log.warn({ serial: d.serial, bad }, 'unreadable user log lines skipped');
      if (users.length) {
        await events.roster(d, users);
        await events.enrolled(
          d,
          users.map((u) => u.pin),
        );
      }
      for (const face of faces) await events.rosterFace(d, face.pin, face.jpeg);
      if (table === 'OPERLOG') await saveStamp(d, 'op', req.query.Stamp);
      return send(reply, `OK: ${lines}`, d);
    }
    if (table === 'ERRORLOG') {
      // A face the terminal could not use (App. 9 D01E000x) comes back here, naming our command.
      for (const line of textOf(req, d).split('\n')) {
        const code = /ErrCode=([A-Z0-9]{8})/.exec(line)?.[1];
        const cmd = Number(/CmdId=(\d+)/.exec(line)?.[1]);
        if (code && code !== '00000000' && Number.isSafeInteger(cmd) && cmd > 0) await events.commandRejected(d, cmd, code);
      }
      return send(reply, 'OK', d);
    }
    return send(reply, 'OK', d);
  }
  app.post<{ Querystring: Q }>('/iclock/cdata', { schema }, (req, reply) => upload(req, reply));
  // §11.3: photos may also come to /iclock/fdata.
  app.post<{ Querystring: Q }>('/iclock/fdata', { schema }, (req, reply) => upload(req, reply, 'ATTPHOTO'));
}
