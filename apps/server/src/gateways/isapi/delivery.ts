import { createSocket } from 'node:dgram';
import { randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import type { FastifyBaseLogger } from 'fastify';
import { DEVICE_TIME, nowIso, utcToLocal } from '../../lib/time.ts';
import type { CommandResult, Delivery, DeviceOp, Planned } from '../driver.ts';
import type { PunchRecord, TerminalEvents } from '../terminal-events.ts';
import { isapiClient, IsapiTransportError, silentOrRefused, type IsapiClient, type IsapiStream, type IsapiTarget } from './client.ts';
import { AlertStreamParser, boundaryOf } from './alert-stream.codec.ts';
import {
  encodeOp,
  firmwareRefusal,
  ISAPI_CODES,
  logSearchXml,
  logText,
  parseDeviceInfo,
  parseDoorState,
  parseLogSearch,
  parseProgress,
  parseStatus,
  parseUpgradeStatus,
  parseUserCapabilities,
  parseUserCount,
  refusalCode,
  type IsapiRequest,
  type LogEntry,
} from './codec.ts';
import { eventSearchBody, httpHostsXml, parseEventSearch, punchOf, readAlertPart, type AcsEvent, type EventHost } from './events.codec.ts';
import { isapiDoorWire, isapiWire, type DialledTerminal, type IsapiPlanned } from './driver.ts';

export type { DialledTerminal } from './driver.ts';
import { ingestLiveEvent, ingestLivePicture } from './ingest.ts';
import { readRoster } from './roster.ts';

export interface IsapiDeliveryOptions {
  log: FastifyBaseLogger;
  /**
   * Whether this instance dials the terminals now: with several instances on one database only one does (the
   * holder of the role, db/leader.ts), the others leave them alone. Default: always.
   */
  serves?: () => boolean;
  /** how often every terminal is called when nothing wakes it (presence, catching up) */
  heartbeatMs: number;
  /** the port this server listens on, once it does (the terminal posts its events there) */
  listenPort: () => number | undefined;
  /**
   * ISAPI_EVENT_URL: the base terminals post to when this server is reached through a proxy, NAT or another
   * interface (its host, port and path prefix replace the routed interface and the listening port)
   */
  eventUrl?: { protocol: 'http' | 'https'; host: string; port: number; path: string } | undefined;
  client?: IsapiClient;
  /** terminals worked on at once (each has its own request queue in the client as well) */
  parallel?: number;
  /** the alertStream: the longest silence (no byte, not even a heartbeat) before it is cut and reopened */
  streamIdleMs?: number;
  /** the alertStream: the largest part read (an event with its picture); a bigger one is skipped */
  streamMaxPartBytes?: number;
  /**
   * a terminal that took the host notification is checked this often (by an event search up to this long ago)
   * for events its posts never brought: the terminal cannot reach us, and the alertStream is opened instead
   */
  pushCheckMs?: number;
  /** wait after a failed call before the next, doubling up to `maxBackoffMs` */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** how long a firmware upgrade may take (docs/isapi-protocol.md §10) */
  upgrade?: {
    /** the upload (the terminal may answer only once it checked the package) */
    uploadTimeoutMs?: number;
    /** the terminal writing it, followed through upgradeStatus */
    flashTimeoutMs?: number;
    /** how long the terminal has to go down after it is told to restart */
    rebootWaitMs?: number;
    /** between two upgradeStatus (and restart) checks */
    pollMs?: number;
  };
}

/** The longest a locked account is left alone before the server tries again (terminals lock for 30 min or less). */
const MAX_LOCK_WAIT_MS = 2 * 3600_000;
/** Firmware uploads in flight at once, all terminals together (each holds its package in memory). */
const MAX_UPLOADS = 4;
/** The terminal's own log fetched by a log capture: the last week, in pages, up to a bounded size. */
const LOG_DAYS = 7;
const LOG_PAGE = 100;
const LOG_MAX_ENTRIES = 20_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A terminal's open alertStream. */
interface AlertRun {
  stream: IsapiStream;
  /** ended on purpose (no reconnection follows) */
  stopped: boolean;
  opened: number;
}

/** Where an event notification for this terminal goes: the device id and its secret make the path. */
export const eventPath = (d: { id: number; event_secret: string }) => `/isapi/event/${d.id}/${d.event_secret}`;

/** The address of this machine that the terminal reaches (the interface its route goes out of). */
export function localAddressFor(ip: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const s = createSocket(ip.includes(':') ? 'udp6' : 'udp4');
    const done = (v: string | undefined) => {
      s.close();
      resolve(v);
    };
    s.on('error', () => done(undefined));
    // connect() on UDP only picks a route: nothing is sent.
    s.connect(9, ip, () => {
      try {
        done(s.address().address);
      } catch {
        done(undefined);
      }
    });
  });
}

const offset = (minutes: number) => {
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
};
/** device-local 'YYYY-MM-DD HH:mm:ss' → ISAPI time with the terminal's offset */
export const isapiTimeOf = (local: string, tz: number) => `${local.replace(' ', 'T')}${offset(tz)}`;

/** How a terminal's live events reach the server (device facts `isapi.events`). */
export type EventPath = 'push' | 'stream' | 'search';

/** The long connection a terminal sends its events down where it cannot post them (docs/isapi-protocol.md §6). */
export const ALERT_STREAM_PATH = '/ISAPI/Event/notification/alertStream';

interface State {
  running: boolean;
  again: boolean;
  connected: boolean;
  /** the address, account and password the session was made with: a change reconnects */
  targetKey: string;
  failures: number;
  retryAt: number;
  /** the last transport code reported to the console (0: none), and until when it lasts (a locked account) */
  error: number;
  errorUntil: string | undefined;
  /** the terminal stopped answering and that was logged (once per outage, not per retry) */
  outage: boolean;
  /** the door lane is sending opens now; woken again meanwhile */
  doorRunning: boolean;
  doorAgain: boolean;
  /** how its events come: pushed to us, over the alertStream we keep open, or searched at every heartbeat */
  path: EventPath;
  /** when a pushing terminal was last checked for events its posts did not bring */
  pushCheckedAt: number;
  /** alertStream drops in a row (its reopening backs off) */
  streamFailures: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Carries the ledger's work to ISAPI terminals: woken after a commit that gave a terminal work, or by the
 * heartbeat, it connects (device info, capacity, user count, event host, backlog of events since the last
 * one kept), then plans and sends batches until none is left, reporting each batch's answers.
 */
export function isapiDelivery<T extends DialledTerminal>(events: TerminalEvents<T>, opts: IsapiDeliveryOptions): Delivery {
  const client = opts.client ?? isapiClient();
  const backoff = opts.backoffMs ?? 2_000;
  const maxBackoff = opts.maxBackoffMs ?? 60_000;
  const streamIdleMs = opts.streamIdleMs ?? 60_000;
  const streamMaxPart = opts.streamMaxPartBytes ?? 2 * 1024 * 1024;
  const pushCheckMs = opts.pushCheckMs ?? 60_000;
  const states = new Map<number, State>();
  const streams = new Map<number, AlertRun>();
  const inflight = new Set<Promise<void>>();
  const waiting: (() => void)[] = [];
  let active = 0;
  let closed = false;

  const stateOf = (id: number) => {
    let s = states.get(id);
    if (!s)
      states.set(
        id,
        (s = {
          running: false,
          again: false,
          connected: false,
          targetKey: '',
          failures: 0,
          retryAt: 0,
          error: 0,
          errorUntil: undefined,
          outage: false,
          doorRunning: false,
          doorAgain: false,
          path: 'search',
          pushCheckedAt: 0,
          streamFailures: 0,
          timer: undefined,
        }),
      );
    return s;
  };
  const targetOf = (d: T): IsapiTarget => ({ id: d.id, host: d.ip, port: d.port, user: d.account || 'admin', password: d.password });
  // The zone too: events are filed in it (codec localTime), so a change reconnects with it.
  const targetKeyOf = (d: T) => `${d.ip}|${d.port}|${d.account || 'admin'}|${d.password}|${d.tz_offset}`;

  /**
   * An optional call's refusal is survived (terminals without the resource), but not a terminal that stopped
   * answering: swallowing each call's deadline made a connection cut mid-way fail only after four deadlines, its
   * "did not answer in time" shown that much later.
   */
  const optional =
    <R>(fallback: R) =>
    (e: unknown): R => {
      if (silentOrRefused(e)) throw e;
      return fallback;
    };

  /** One request judged: our code (0 done), following the terminal's fallbacks and background progress. */
  async function send(t: IsapiTarget, req: IsapiRequest): Promise<number> {
    const res = await client.request(t, req);
    const status = parseStatus(res.text);
    if (!status) {
      if (res.status >= 200 && res.status < 300) return ISAPI_CODES.ok;
      return res.status === 404 || res.status === 405 ? ISAPI_CODES.notSupport : ISAPI_CODES.badResponse;
    }
    if (status.code !== 0) {
      if (req.fallback && req.retryOn?.includes(status.subStatusCode)) return send(t, req.fallback);
      if (req.okSub?.includes(status.subStatusCode)) return ISAPI_CODES.ok;
      return status.code;
    }
    if (req.progress) {
      for (let i = 0; i < 50; i++) {
        const p = parseProgress((await client.request(t, { method: 'GET', path: req.progress })).text);
        if (p === 'success') return ISAPI_CODES.ok;
        if (p !== 'processing') return p === 'failed' ? ISAPI_CODES.deviceError : ISAPI_CODES.badResponse;
        await new Promise((r) => setTimeout(r, 200));
      }
      return ISAPI_CODES.timeout;
    }
    return ISAPI_CODES.ok;
  }

  /** Events since `fromLocal` (device-local), as punches; returns the last event time seen. */
  async function searchEvents(d: T, t: IsapiTarget, fromLocal: string, toLocal: string, maxPages = 200): Promise<string | undefined> {
    const searchID = randomBytes(8).toString('hex');
    let position = 0;
    let last: string | undefined;
    let kept = 0;
    for (let page = 0; page < maxPages; page++) {
      const res = await client.request(t, {
        method: 'POST',
        path: '/ISAPI/AccessControl/AcsEvent?format=json',
        contentType: 'application/json',
        body: Buffer.from(JSON.stringify(eventSearchBody(searchID, position, 30, isapiTimeOf(fromLocal, d.tz_offset), isapiTimeOf(toLocal, d.tz_offset)))),
      });
      const found = parseEventSearch(res.text, d.tz_offset);
      if (!found) {
        const s = parseStatus(res.text);
        throw new IsapiTransportError(s?.code || ISAPI_CODES.badResponse, 'event search refused');
      }
      const punches = found.events.map(punchOf).filter((p): p is PunchRecord => !!p);
      if (punches.length) await events.punches(d, punches);
      kept += punches.length;
      for (const e of found.events) if (!last || e.time > last) last = e.time;
      position += found.events.length;
      if (!found.more || !found.events.length) break;
    }
    // (a punch found again is one punch: the count is what the terminal's log gave, as ZK's "punches received")
    if (kept) opts.log.info({ device: d.id, serial: d.serial, punches: kept, via: 'search' }, 'punches received');
    return last;
  }

  /** Where this terminal posts its events: the configured event URL, else the interface routed to it and our port. */
  async function eventHostFor(d: T): Promise<EventHost | undefined> {
    if (opts.eventUrl) return { ...opts.eventUrl, path: `${opts.eventUrl.path}${eventPath(d)}` };
    const port = opts.listenPort();
    const ip = port ? await localAddressFor(d.ip) : undefined;
    return port && ip ? { protocol: 'http', host: ip, port, path: eventPath(d) } : undefined;
  }

  /** (Re)connects: what the terminal is, its counts, where it posts events, and what it took while we were apart. */
  async function connect(d: T, t: IsapiTarget): Promise<{ path: EventPath; model: string; firmware: string }> {
    const info = parseDeviceInfo((await client.request(t, { method: 'GET', path: '/ISAPI/System/deviceInfo' })).text);
    if (!info) throw new IsapiTransportError(ISAPI_CODES.badResponse, 'device info unreadable');
    await events.seen(d.serial, d.ip);
    const caps: { maxUsers?: number } = await client
      .request(t, { method: 'GET', path: '/ISAPI/AccessControl/UserInfo/capabilities?format=json' })
      .then((r) => parseUserCapabilities(r.text))
      .catch(optional({}));
    const count = parseUserCount((await client.request(t, { method: 'GET', path: '/ISAPI/AccessControl/UserInfo/Count?format=json' })).text);
    // The terminal posts its events to this server (host notification), at ISAPI_EVENT_URL when one is set.
    let push = false;
    const host = await eventHostFor(d);
    if (host) {
      push =
        (await send(t, {
          method: 'PUT',
          path: '/ISAPI/Event/notification/httpHosts',
          contentType: 'application/xml',
          body: httpHostsXml(host),
        }).catch(optional(-1))) === ISAPI_CODES.ok;
    }
    // Where it refuses, the alertStream long connection brings them live; opened before the backlog search, so
    // nothing falls between the two. A terminal with neither is searched at every heartbeat.
    let path: EventPath = 'push';
    if (push) stopStream(d.id);
    else path = (await openAlertStream(d, t)) ? 'stream' : 'search';
    // `model` and `connection` are the protocol-free facts the console reads (devices.presenter.ts).
    const facts = {
      model: info.model,
      connection: { error: 0, at: nowIso() },
      isapi: { deviceName: info.deviceName, serialNo: info.serialNo, mac: info.macAddress, maxUsers: caps.maxUsers ?? null, push, events: path },
    };
    await events.restarted(d, facts);
    // The facts now say "no problem": a failure from here on is reported again, even one with the code reported before.
    const s = stateOf(d.id);
    s.error = 0;
    s.errorUntil = undefined;
    await events.info(d, {
      firmware: info.firmware,
      ...(count !== undefined ? { userCount: count } : {}),
      ...(caps.maxUsers !== undefined ? { capacity: caps.maxUsers } : {}),
    });
    await readDoor(d, t);
    await backlog(d, t);
    return { path, model: info.model, firmware: info.firmware };
  }

  /** The door as the terminal reports it, into the device's door column (terminals without the call say nothing). */
  async function readDoor(d: T, t: IsapiTarget) {
    const res = await client.request(t, { method: 'GET', path: '/ISAPI/AccessControl/AcsWorkStatus?format=json' }).catch(optional(undefined));
    const door = res ? parseDoorState(res.text) : undefined;
    if (door) await events.info(d, { door });
  }

  /** The events the terminal kept while it could not reach us (or we it), from the last one we stored. */
  async function backlog(d: T, t: IsapiTarget) {
    const from = DEVICE_TIME.test(d.att_stamp) ? d.att_stamp : utcToLocal(d.created_at, d.tz_offset);
    const to = utcToLocal(new Date(Date.now() + 60_000).toISOString(), d.tz_offset);
    const last = await searchEvents(d, t, from, to);
    if (last && last > from) await events.stamp(d, 'att', last);
  }

  // Together under the 20 minutes the ledger gives an upgrade's command (sync.service UPGRADE_TIMEOUT_MS).
  const up = {
    uploadTimeoutMs: opts.upgrade?.uploadTimeoutMs ?? 8 * 60_000,
    flashTimeoutMs: opts.upgrade?.flashTimeoutMs ?? 8 * 60_000,
    rebootWaitMs: opts.upgrade?.rebootWaitMs ?? 60_000,
    pollMs: opts.upgrade?.pollMs ?? 2_000,
  };

  let uploading = 0;
  const uploadQueue: (() => void)[] = [];
  async function uploadSlot<R>(fn: () => Promise<R>): Promise<R> {
    if (uploading >= MAX_UPLOADS) await new Promise<void>((r) => uploadQueue.push(r));
    uploading++;
    try {
      return await fn();
    } finally {
      uploading--;
      uploadQueue.shift()?.();
    }
  }

  /**
   * A firmware upgrade (docs/isapi-protocol.md §10): the server uploads the package the upgrade names
   * (PUT /ISAPI/System/updateFirmware), follows the terminal writing it (GET /ISAPI/System/upgradeStatus, bounded),
   * tells it to restart and waits until it goes down. Done means "restarting": the version it reports when it is
   * back (connect()) is the upgrade's version after. Every wait is bounded, whatever the terminal answers.
   */
  async function upgradeFirmware(d: T, t: IsapiTarget, op: Extract<DeviceOp, { kind: 'upgrade' }>): Promise<number> {
    // The port hands the firmware of this terminal's own upgrade only (and marks it downloading).
    // The package is sent from memory (a digest challenge may ask for the body again): a few uploads at once
    // bound what a fleet upgrade holds (64 MB each at most) while the other terminals wait their turn. It is read
    // from the file store only once this upload's turn has come.
    const res = await uploadSlot(async () => {
      const file = await events.file(d, op.url);
      if (!file) return undefined;
      return client.request(t, {
        method: 'PUT',
        path: '/ISAPI/System/updateFirmware',
        contentType: 'application/octet-stream',
        body: await buffer(file.stream),
        timeoutMs: up.uploadTimeoutMs,
      });
    });
    if (!res) return ISAPI_CODES.noFirmwareFile;
    const status = parseStatus(res.text);
    if (status) {
      // 7 "reboot required" is the usual yes: the new firmware runs after the restart.
      if (status.code !== ISAPI_CODES.ok && status.code !== ISAPI_CODES.rebootRequired) return firmwareRefusal(status);
    } else if (res.status < 200 || res.status >= 300) return res.status === 404 || res.status === 405 ? ISAPI_CODES.notSupport : ISAPI_CODES.badResponse;

    // Writing the flash: followed until it says it is no longer upgrading, for at most flashTimeoutMs.
    const deadline = Date.now() + up.flashTimeoutMs;
    let gone = false;
    for (let unreadable = 0; ;) {
      let answer;
      try {
        answer = await client.request(t, { method: 'GET', path: '/ISAPI/System/upgradeStatus' });
      } catch (e) {
        // The terminal restarting by itself once written.
        if (e instanceof IsapiTransportError && (e.code === ISAPI_CODES.unreachable || e.code === ISAPI_CODES.timeout)) {
          gone = true;
          break;
        }
        throw e;
      }
      const st = parseUpgradeStatus(answer.text);
      if (st && !st.upgrading) break;
      if (!st) {
        // Firmware without the resource: its restart's version tells. Unreadable answers, three in a row: refused.
        if (answer.status === 404 || answer.status === 405 || parseStatus(answer.text)) break;
        if (++unreadable >= 3) return ISAPI_CODES.badResponse;
      } else {
        unreadable = 0;
        opts.log.debug({ device: d.id, percent: st.percent }, 'ISAPI firmware upgrade in progress');
      }
      if (Date.now() >= deadline) return ISAPI_CODES.timeout;
      await sleep(Math.min(up.pollMs, Math.max(0, deadline - Date.now())));
    }

    const s = stateOf(d.id);
    // Whatever follows, the session is over: the next call reconnects and reads the version it runs.
    s.connected = false;
    if (!gone) {
      try {
        const code = await send(t, { method: 'PUT', path: '/ISAPI/System/reboot' });
        if (code !== ISAPI_CODES.ok && code !== ISAPI_CODES.rebootRequired) return code;
      } catch (e) {
        if (!(e instanceof IsapiTransportError)) throw e;
        // the answer lost to the restart itself
      }
      // Until it stops answering (or answers with another version): reconnecting before would read the old one.
      const until = Date.now() + up.rebootWaitMs;
      while (Date.now() < until) {
        try {
          const info = parseDeviceInfo((await client.request(t, { method: 'GET', path: '/ISAPI/System/deviceInfo' })).text);
          if (info && info.firmware !== d.firmware) break;
        } catch (e) {
          if (e instanceof IsapiTransportError) break;
          throw e;
        }
        await sleep(up.pollMs);
      }
    }
    return ISAPI_CODES.ok;
  }

  /**
   * A log capture (docs/isapi-protocol.md §11): the terminal's log of the last week (POST /ISAPI/ContentMgmt/logSearch,
   * paged), written as a text file, one line per entry, for the device page's download.
   */
  async function captureLog(d: T, t: IsapiTarget, id: number): Promise<CommandResult> {
    const now = Date.now();
    const from = utcToLocal(new Date(now - LOG_DAYS * 86_400_000).toISOString(), d.tz_offset);
    const to = utcToLocal(new Date(now + 60_000).toISOString(), d.tz_offset);
    const searchID = randomBytes(8).toString('hex');
    const entries: LogEntry[] = [];
    for (let page = 0; page * LOG_PAGE < LOG_MAX_ENTRIES; page++) {
      const res = await client.request(t, {
        method: 'POST',
        path: '/ISAPI/ContentMgmt/logSearch',
        contentType: 'application/xml',
        body: logSearchXml(searchID, entries.length, LOG_PAGE, isapiTimeOf(from, d.tz_offset), isapiTimeOf(to, d.tz_offset)),
      });
      const found = parseLogSearch(res.text, LOG_PAGE);
      if (!found) return { id, code: refusalCode(res.status, res.text) };
      entries.push(...found.entries);
      if (!found.more || !found.entries.length) break;
    }
    const heading = `${d.serial} (${d.name}): the terminal's log from ${from} to ${to}, terminal time`;
    return { id, code: 0, file: { name: 'isapi-log.txt', data: logText(heading, entries) } };
  }

  /**
   * One planned operation; a transport failure propagates (the batch stops there). `refused` holds, per PIN, the
   * code of a person record the terminal refused in this batch: their face is then not sent (it would be refused
   * for a person the terminal does not hold, or land on an old record) and answers the record's refusal.
   */
  async function perform(d: T, t: IsapiTarget, p: Planned<IsapiPlanned>, refused: Map<string, number> = new Map()): Promise<CommandResult> {
    const op = p.encoded.op;
    if (op.kind === 'photo' && refused.has(op.pin)) return { id: p.id, code: refused.get(op.pin)! };
    if (op.kind === 'upgrade') return { id: p.id, code: await upgradeFirmware(d, t, op) };
    if (op.kind === 'getLog') return captureLog(d, t, p.id);
    if (op.kind === 'info' || op.kind === 'check') {
      const count = parseUserCount((await client.request(t, { method: 'GET', path: '/ISAPI/AccessControl/UserInfo/Count?format=json' })).text);
      if (count === undefined) return { id: p.id, code: ISAPI_CODES.badResponse };
      await events.info(d, { userCount: count });
      return { id: p.id, code: 0, data: { UserCount: String(count) } };
    }
    if (op.kind === 'queryPunches') {
      await searchEvents(d, t, op.from, op.to);
      return { id: p.id, code: 0 };
    }
    if (op.kind === 'readRoster') return { id: p.id, code: await readRoster({ client, events, log: opts.log }, d, t) };
    const requests = encodeOp(op);
    if (!requests) return { id: p.id, code: ISAPI_CODES.notSupport };
    for (const [i, r] of requests.entries()) {
      const code = await send(t, r);
      if (code === 0) continue;
      // The person record itself (UserInfo Record, or the Modify it falls back to) refused: no face follows.
      if (op.kind === 'user' && i === 0) refused.set(op.pin, code);
      return { id: p.id, code };
    }
    return { id: p.id, code: 0 };
  }

  /** Ends a terminal's alertStream (deleted, moved, readdressed, pushing again, or the server closing). */
  function stopStream(id: number) {
    const run = streams.get(id);
    if (!run) return;
    streams.delete(id);
    run.stopped = true;
    run.stream.close();
  }

  /**
   * Opens the terminal's alertStream; true once it answers a multipart stream, whose parts are then read in the
   * background (a refusal, an answer of another kind or no answer: false, the terminal is searched instead).
   */
  async function openAlertStream(d: T, t: IsapiTarget): Promise<boolean> {
    stopStream(d.id);
    let stream: IsapiStream;
    try {
      stream = await client.stream(t, { method: 'GET', path: ALERT_STREAM_PATH }, streamIdleMs);
    } catch (e) {
      // No answer to it is allowed (the terminal is searched instead), but a terminal gone or refusing us is not.
      if (e instanceof IsapiTransportError && e.code !== ISAPI_CODES.timeout && silentOrRefused(e)) throw e;
      return false;
    }
    const boundary = boundaryOf(stream.contentType);
    if (stream.status !== 200 || !boundary) {
      stream.close();
      return false;
    }
    const run: AlertRun = { stream, stopped: false, opened: Date.now() };
    streams.set(d.id, run);
    const job = readAlertStream(d.id, targetKeyOf(d), run, boundary, d.tz_offset);
    inflight.add(job);
    void job.finally(() => inflight.delete(job));
    return true;
  }

  /**
   * Reads one alertStream until it ends: each person event is kept like a posted one (ingestLiveEvent), with the
   * picture part that follows it. One part at a time, awaited, so a terminal streaming faster than the database
   * keeps is slowed down rather than buffered. When it drops (cut, silent past the idle limit, unreadable), the
   * terminal is reconnected after a back-off, and the reconnection's backlog search brings what was missed.
   */
  async function readAlertStream(id: number, key: string, run: AlertRun, boundary: string, tz: number) {
    const parser = new AlertStreamParser(boundary, streamMaxPart);
    /** the last event, while its announced picture may still come as the next part */
    let awaiting: AcsEvent | undefined;
    /** the terminal as it is now: undefined when it is gone, moved or readdressed (the stream then ends) */
    const current = async () => {
      const d = await events.terminal(id);
      if (!d || d.protocol !== 'isapi' || targetKeyOf(d) !== key) throw new Error('the terminal was deleted or changed');
      return d;
    };
    let why = 'ended by the terminal';
    try {
      for await (const chunk of run.stream.chunks) {
        for (const part of parser.push(chunk)) {
          // (a zone change reconnects the stream: it is part of the key `current()` checks)
          const a = readAlertPart(part, tz);
          const last = awaiting;
          awaiting = undefined;
          if (a.kind === 'picture') {
            if (last) await ingestLivePicture(events, await current(), last, a.jpeg);
            continue;
          }
          // A refused face waits for its picture (a stranger is kept with one); when none came, it is only passed.
          if (last && !punchOf(last)) await ingestLiveEvent(events, await current(), last, undefined);
          if (a.kind !== 'event') continue;
          // A punch is kept at once (its picture, if one follows, is added to it).
          if (punchOf(a.event) || !a.pictures) {
            const d = await current();
            if (await ingestLiveEvent(events, d, a.event, undefined))
              opts.log.info({ device: id, serial: d.serial, punches: 1, via: 'stream' }, 'punches received');
          }
          if (a.pictures > 0) awaiting = a.event;
        }
        if (run.stopped) break;
      }
    } catch (e) {
      why = e instanceof Error ? e.message : String(e);
    } finally {
      run.stream.close();
    }
    if (streams.get(id) === run) streams.delete(id);
    if (run.stopped || closed) return;
    // Dropped: reconnect (with the backlog search) after a back-off that grows while drops follow each other.
    const s = stateOf(id);
    if (Date.now() - run.opened > streamIdleMs) s.streamFailures = 0;
    s.streamFailures++;
    const wait = Math.min(maxBackoff, backoff * 2 ** Math.min(s.streamFailures - 1, 10));
    opts.log.info({ device: id, reason: why, oversized: parser.oversized, garbage: parser.garbage, retryMs: wait }, 'ISAPI alertStream dropped');
    s.connected = false;
    s.retryAt = Date.now() + wait;
    clearTimeout(s.timer);
    s.timer = setTimeout(() => runWork(id), wait);
    s.timer.unref();
  }

  /** Events in the terminal's log, older than any post still in flight, that no post brought (kept on the way). */
  async function unheard(d: T, t: IsapiTarget): Promise<boolean> {
    const from = DEVICE_TIME.test(d.att_stamp) ? d.att_stamp : utcToLocal(d.created_at, d.tz_offset);
    const to = utcToLocal(new Date(Date.now() - pushCheckMs).toISOString(), d.tz_offset);
    if (to <= from) return false;
    const last = await searchEvents(d, t, from, to);
    if (last && last > from) {
      await events.stamp(d, 'att', last);
      return true;
    }
    return false;
  }

  /** Records a changed event path in the device's facts (merged into what connect() saved). */
  async function reportPath(id: number, path: EventPath) {
    const now = await events.terminal(id);
    if (!now) return;
    let info: Record<string, unknown> = {};
    try {
      info = JSON.parse(now.info || '{}') as Record<string, unknown>;
    } catch {
      info = {};
    }
    const isapi = info.isapi && typeof info.isapi === 'object' ? (info.isapi as Record<string, unknown>) : {};
    await events.info(now, { facts: { isapi: { ...isapi, events: path } } });
  }

  /**
   * The device's facts say what is wrong now (`connection.error`, with `until` for a locked account). Remembered
   * only once written: a write that failed is tried again at the next failure instead of being taken as done.
   */
  async function reportError(d: T, s: State, code: number, until?: string) {
    if (s.error === code && s.errorUntil === until) return;
    // Merged into the row as it is now: what a connection just learnt (model, firmware) must not be overwritten.
    const now = (await events.terminal(d.id)) ?? d;
    await events.info(now, { facts: { connection: { error: code, at: nowIso(), ...(until ? { until } : {}) } } });
    s.error = code;
    s.errorUntil = until;
  }

  /** Answers one batch, logged at info like ZK's command results. */
  async function answer(d: T, results: CommandResult[]) {
    await events.commandResults(d, results);
    if (results.length)
      opts.log.info({ device: d.id, serial: d.serial, results: results.length, failed: results.filter((r) => r.code !== 0).length }, 'command results');
  }

  /**
   * The door lane (docs/isapi-protocol.md §7): the queued remote opens of a connected terminal, sent at once on the
   * client's urgent slot, beside whatever its work is doing (a heartbeat, a sync, a slow answer). The work's own
   * polls leave opens to this lane (isapiWire), so an open is never planned twice.
   */
  function door(id: number) {
    if (closed || !serves()) return;
    const s = stateOf(id);
    if (!s.connected) return; // the connection's work opens the lane once it is made
    if (s.doorRunning) {
      s.doorAgain = true;
      return;
    }
    s.doorRunning = true;
    const job = (async () => {
      try {
        do {
          s.doorAgain = false;
          const d = await events.terminal(id);
          if (!d || d.protocol !== 'isapi' || closed) return;
          const batch = await events.poll(d, isapiDoorWire);
          if (!batch.length) continue;
          const t = targetOf(d);
          const results = await Promise.all(
            batch.map((p) => perform(d, t, p).catch((e: unknown) => ({ id: p.id, code: e instanceof IsapiTransportError ? e.code : ISAPI_CODES.badResponse }))),
          );
          await answer(d, results);
        } while (s.doorAgain && !closed);
      } catch (e) {
        if (!closed) opts.log.warn({ err: e, device: id }, 'ISAPI door lane failed');
      } finally {
        s.doorRunning = false;
      }
    })();
    inflight.add(job);
    void job.finally(() => inflight.delete(job));
  }

  async function work(id: number) {
    const s = stateOf(id);
    const d = await events.terminal(id);
    if (!d || d.protocol !== 'isapi') {
      stopStream(id);
      states.delete(id);
      return;
    }
    const t = targetOf(d);
    const key = targetKeyOf(d);
    if (key !== s.targetKey) {
      s.targetKey = key;
      s.connected = false;
      s.failures = 0;
      s.retryAt = 0;
      client.forget(id);
      stopStream(id);
    }
    // A dropped alertStream is reopened by reconnecting (the backlog search then brings what it missed).
    if (s.connected && s.path === 'stream' && !streams.has(id)) s.connected = false;
    if (Date.now() < s.retryAt) return;
    try {
      if (!s.connected) {
        const c = await connect(d, t);
        s.path = c.path;
        s.pushCheckedAt = Date.now();
        s.connected = true;
        s.outage = false;
        opts.log.info({ device: id, serial: d.serial, model: c.model, firmware: c.firmware, events: c.path }, 'terminal connected');
      } else {
        // The heartbeat's call: a terminal is online only while it answers.
        if (!parseDeviceInfo((await client.request(t, { method: 'GET', path: '/ISAPI/System/deviceInfo' })).text))
          throw new IsapiTransportError(ISAPI_CODES.badResponse, 'device info unreadable');
        await events.seen(d.serial, d.ip);
        await readDoor(d, t);
        // A terminal that neither posts to us nor streams is searched instead.
        if (s.path === 'search') await backlog(d, t);
        else if (s.path === 'push' && Date.now() - s.pushCheckedAt >= pushCheckMs) {
          s.pushCheckedAt = Date.now();
          // It took the host notification, yet its log holds events older than any post in flight that no post
          // brought: its posts do not reach us (a firewall, a wrong ISAPI_EVENT_URL). The stream instead.
          if (await unheard(d, t)) {
            s.path = (await openAlertStream(d, t)) ? 'stream' : 'search';
            opts.log.warn({ device: id, path: s.path }, 'ISAPI terminal took the host notification but its events do not reach this server');
            await reportPath(id, s.path);
          }
        }
      }
      if (s.error) await reportError(d, s, 0);
      // Opens queued while the terminal was being (re)connected go now, in their lane.
      door(id);
      for (let rounds = 0; rounds < 1000 && !closed; rounds++) {
        const batch = await events.poll(d, isapiWire);
        if (!batch.length) break;
        const results: CommandResult[] = [];
        const refused = new Map<string, number>();
        try {
          for (const p of batch) results.push(await perform(d, t, p, refused));
        } catch (e) {
          // What was not sent is answered with why, so the door and the people say it (and retry later).
          const code = e instanceof IsapiTransportError ? e.code : ISAPI_CODES.badResponse;
          for (const p of batch.slice(results.length)) results.push({ id: p.id, code });
          await answer(d, results);
          throw e;
        }
        await answer(d, results);
        // The terminal is restarting (a firmware upgrade): the next call reconnects and reads what it runs.
        if (!s.connected) break;
      }
      s.failures = 0;
    } catch (e) {
      s.connected = false;
      // Calls cut by the server closing are no news about the terminal.
      if (closed) return;
      s.failures++;
      const code = e instanceof IsapiTransportError ? e.code : ISAPI_CODES.badResponse;
      // A refused password is retried slowly: every attempt counts towards the terminal's lock-out. A locked
      // account is left alone until the terminal unlocks it (an attempt meanwhile would only prolong the lock).
      const lockedFor = e instanceof IsapiTransportError && code === ISAPI_CODES.locked ? e.retryAfterMs : undefined;
      const wait =
        code === ISAPI_CODES.locked
          ? Math.min(Math.max(lockedFor ?? maxBackoff, maxBackoff), MAX_LOCK_WAIT_MS)
          : code === ISAPI_CODES.wrongPassword
            ? maxBackoff
            : Math.min(maxBackoff, backoff * 2 ** Math.min(s.failures - 1, 10));
      s.retryAt = Date.now() + wait;
      const until = lockedFor ? new Date(Date.now() + lockedFor).toISOString() : undefined;
      if (!(e instanceof IsapiTransportError)) opts.log.warn({ err: e, device: id }, 'ISAPI terminal work failed');
      else if (code === ISAPI_CODES.wrongPassword || code === ISAPI_CODES.locked) {
        // once per refusal, not per retry (the account's password is never logged)
        if (s.error !== code)
          opts.log.warn({ device: id, serial: d.serial, code, reason: e.message, ...(until ? { until } : {}) }, 'terminal refused the account');
      } else if (!s.outage) {
        s.outage = true;
        opts.log.warn({ device: id, serial: d.serial, code, reason: e.message }, 'terminal unreachable');
      } else opts.log.debug({ device: id, code, reason: e.message }, 'ISAPI terminal unreachable');
      await reportError(d, s, code, until).catch(() => undefined);
      clearTimeout(s.timer);
      s.timer = setTimeout(() => runWork(id), wait);
      s.timer.unref();
    }
  }

  const serves = opts.serves ?? (() => true);
  /** Another instance dials the terminals now: what this one held (sessions, streams) is let go. */
  function letGo() {
    for (const id of [...streams.keys()]) stopStream(id);
    for (const s of states.values()) {
      clearTimeout(s.timer);
      s.connected = false;
      s.targetKey = '';
    }
  }

  /** Woken after a commit that gave the terminal work: a door open among it goes at once, beside the work. */
  function wake(id: number) {
    door(id);
    runWork(id);
  }

  /** Runs the terminal's work (connection, heartbeat, batches), one run at a time per terminal. */
  function runWork(id: number) {
    if (closed || !serves()) return;
    const s = stateOf(id);
    if (s.running) {
      s.again = true;
      return;
    }
    s.running = true;
    const job = (async () => {
      if (active >= (opts.parallel ?? 32)) await new Promise<void>((r) => waiting.push(r));
      active++;
      try {
        do {
          s.again = false;
          await work(id);
        } while (s.again && !closed && Date.now() >= s.retryAt);
      } catch (e) {
        opts.log.warn({ err: e, device: id }, 'ISAPI terminal work failed');
      } finally {
        active--;
        waiting.shift()?.();
        s.running = false;
      }
    })();
    inflight.add(job);
    void job.finally(() => inflight.delete(job));
  }

  // The heartbeat: every terminal is called now and then (presence, backlog, work a failed call left behind).
  let serving = serves();
  const beat = async () => {
    if (closed) return;
    const now = serves();
    if (!now) {
      if (serving) letGo();
      serving = false;
      return;
    }
    serving = true;
    try {
      const dialled = await events.dialled('isapi');
      // (the work opens the door lane itself once the terminal answered)
      for (const d of dialled) runWork(d.id);
      // A deleted terminal, or one moved to another protocol, is not woken again: its stream ends here.
      const ids = new Set(dialled.map((d) => d.id));
      for (const id of [...streams.keys()]) if (!ids.has(id)) stopStream(id);
    } catch (e) {
      if (!closed) opts.log.warn({ err: e }, 'ISAPI heartbeat failed');
    }
  };
  const first = setTimeout(() => void beat(), Math.min(1000, opts.heartbeatMs));
  const heartbeat = setInterval(() => void beat(), opts.heartbeatMs);
  first.unref();
  heartbeat.unref();

  return {
    protocol: 'isapi',
    wake,
    async close() {
      closed = true;
      clearTimeout(first);
      clearInterval(heartbeat);
      for (const s of states.values()) clearTimeout(s.timer);
      for (const id of [...streams.keys()]) stopStream(id);
      client.close();
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
  };
}
