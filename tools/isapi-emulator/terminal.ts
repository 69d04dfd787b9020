// An emulated Hikvision access-control terminal speaking ISAPI (docs/isapi-protocol.md): an HTTP server with
// digest authentication, a user / card / face store with a capacity, a door, an event log with search, and a
// host notification it pushes recognitions to. Error injection (a status for a path, a huge or malformed or
// slow answer) lets tests play a hostile terminal. Written from the public ISAPI shapes, independent of the
// server's code.

import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  cardCapabilities,
  countEvents,
  countFaces,
  searchCards,
  searchEvents,
  searchFaces,
  searchUsers,
  userCapabilities,
  type EmulatedEvent,
  type EmulatedUser,
  type SearchAnswer,
  type SearchContext,
} from './searches.ts';

export type { EmulatedEvent, EmulatedUser } from './searches.ts';

export interface IsapiTerminalOptions {
  /** port to listen on (0: any free one; a restarted terminal keeps the port it got) */
  port?: number;
  host?: string;
  user?: string;
  password?: string;
  serial?: string;
  model?: string;
  firmware?: string;
  firmwareBuild?: string;
  deviceName?: string;
  /** users (and faces) the terminal holds */
  capacity?: number;
  /** digest algorithms offered, strongest first (default SHA-256 then MD5, as recent firmware does) */
  algorithms?: ('MD5' | 'SHA-256')[];
  /** minutes east of UTC of the terminal's clock (default +480) */
  timezone?: number;
  /** events one search page returns at most (real terminals: 30) */
  searchPage?: number;
  /** how long the lock stays open after a remote open or a person let in (ms, default 5000) */
  unlockMs?: number;
  /** the language of its firmware: a package for another language is refused */
  language?: string;
  /** how long writing a firmware package takes (upgradeStatus counts the percent up meanwhile) */
  upgradeMs?: number;
  /** how long a restart keeps it unplugged */
  rebootMs?: number;
  /** log entries one log search page returns at most */
  logPage?: number;
  /** print requests */
  verbose?: boolean;
  /** answer the host notification (httpHosts) "not supported", as terminals that cannot push do */
  refuseHttpHosts?: boolean;
  /** take the host notification, but no post ever reaches the host (a firewall between them) */
  unreachableHost?: boolean;
  /** the alertStream's heartbeat part, every this many ms (real terminals: about 10 s) */
  streamHeartbeatMs?: number;
  /** wrong passwords in a row after which the account is locked (0: never, the default) */
  lockAfter?: number;
  /** how long a lock lasts, in seconds (real terminals: 30 minutes) */
  lockSeconds?: number;
  /** `UserInfo/Search` lists each face's `faceURL` too, as some firmware does (§12.2) */
  faceUrlInUserSearch?: boolean;
  /**
   * the address the terminal names itself by in the picture URLs it hands out (default `host`, without the port, as
   * firmware on port 80 writes it): a caller must fetch from the address it dials, not from this (§12.3)
   */
  selfAddress?: string;
  /** the newest events whose capture picture the terminal still holds (older ones are overwritten; default 100) */
  capturesKept?: number;
  /** searches answered `notSupport` with HTTP 200, as firmware without them does (§12.1) */
  unsupported?: TakeOverSearch[];
}

/** The searches a take-over makes, by the tail of their path (`unsupported`, `refuseSearches`). */
export const TAKE_OVER_SEARCHES = ['UserInfo/Search', 'CardInfo/Search', 'FDLib/FDSearch', 'FDLib/Count', 'AcsEvent', 'AcsEventTotalNum'] as const;
export type TakeOverSearch = (typeof TAKE_OVER_SEARCHES)[number];

/** First line of a firmware package the emulator installs: `HIKEMU-FW <version> [build …]`, then `model=` and `language=` lines. */
export const ISAPI_FIRMWARE_HEADER = 'HIKEMU-FW ';
/**
 * Builds a firmware package the emulator accepts (the ZK emulator's `ZKEMU-FW <version>` format with a Hikvision
 * header; a ZK package is refused as not for this terminal, as a real one would be). `model` and `language` name what
 * it is for; a terminal of another model or language refuses it.
 */
export function isapiEmulatorFirmware(version: string, o: { build?: string; model?: string; language?: string; body?: string } = {}): Buffer {
  const lines = [`${ISAPI_FIRMWARE_HEADER}${version}${o.build ? ` ${o.build}` : ''}`];
  if (o.model) lines.push(`model=${o.model}`);
  if (o.language) lines.push(`language=${o.language}`);
  return Buffer.from(`${lines.join('\n')}\n${o.body ?? 'firmware image'}`, 'utf8');
}

/** One entry of the terminal's own log (what the log search finds). */
export interface EmulatedLogEntry {
  /** UTC ms */
  at: number;
  major: 'Operation' | 'Exception' | 'Information' | 'Alarm';
  minor: string;
  user: string;
  ip: string;
  info: string;
}

/** "V3.2.0" → [3, 2, 0] */
const versionParts = (v: string) => (v.match(/\d+/g) ?? []).map(Number);
function lowerVersion(a: string, b: string): boolean {
  const x = versionParts(a);
  const y = versionParts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  return false;
}

/** What a test makes an open alertStream do (`streamFault`). */
export type StreamFault =
  /** cut every open stream mid-way (a part half written, then the connection reset) */
  | 'drop'
  /** bytes that are no part at all */
  | 'garbage'
  /** a part far larger than any event (declared by its Content-Length) */
  | 'huge'
  /** heartbeats stop: the stream stays open and says nothing */
  | 'silent';

/** An injected answer: for requests whose path contains `path`, `times` times (default: always). */
export interface Injection {
  path: string;
  times?: number;
  /** an ISAPI error status */
  status?: { http?: number; statusCode: number; subStatusCode: string; statusString?: string };
  /** hostile answers */
  huge?: number;
  badJson?: boolean;
  slowMs?: number;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** The picture of an event without a face enrolled (a stranger): the smallest JPEG. */
const NO_FACE_JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
/** UTC ms → ISAPI time with the terminal's offset: 2026-11-26T08:00:00+08:00 */
export function isapiTime(ms: number, tz: number): string {
  const d = new Date(ms + tz * 60_000);
  const sign = tz >= 0 ? '+' : '-';
  const a = Math.abs(tz);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}
/** ISAPI time (with or without an offset; none means the terminal's) → UTC ms; NaN when unreadable. */
export function parseIsapiTime(s: string, tz: number): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z|[+-]\d{2}:\d{2})?$/.exec(s);
  if (!m) return NaN;
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  const off = m[7] === undefined ? tz : m[7] === 'Z' ? 0 : (m[7][0] === '-' ? -1 : 1) * (Number(m[7].slice(1, 3)) * 60 + Number(m[7].slice(4, 6)));
  return wall - off * 60_000;
}

/**
 * The host notification's target: `addressingFormatType` ipaddress (`ipAddress` or `ipv6Address`) or hostname
 * (`hostName`), the port, the URL path and `protocolType` HTTP or HTTPS; undefined when one is missing.
 */
export function readHttpHost(x: string): { url: string; ip: string; port: number; protocol: 'http' | 'https' } | undefined {
  const leaf = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(x)?.[1]?.replace(/&amp;/g, '&');
  const url = leaf('url');
  const byName = leaf('addressingFormatType')?.toLowerCase() === 'hostname';
  const ip = byName ? leaf('hostName') : (leaf('ipAddress') ?? leaf('ipv6Address'));
  const port = Number(leaf('portNo'));
  if (!url || !ip || !(port > 0 && port < 65536)) return undefined;
  return { url, ip, port, protocol: leaf('protocolType')?.toUpperCase() === 'HTTPS' ? 'https' : 'http' };
}

function multipartParts(body: Buffer, contentType: string): { name: string; type: string; data: Buffer }[] {
  const b = /boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  const boundary = b?.[1] ?? b?.[2];
  if (!boundary) return [];
  const out: { name: string; type: string; data: Buffer }[] = [];
  const delim = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delim);
  while (at >= 0) {
    const start = at + delim.length;
    const headEnd = body.indexOf('\r\n\r\n', start);
    if (headEnd < 0) break;
    const next = body.indexOf(delim, headEnd);
    if (next < 0) break;
    const head = body.subarray(start, headEnd).toString('latin1');
    out.push({
      name: /name="([^"]*)"/.exec(head)?.[1] ?? '',
      type: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ?? '',
      data: body.subarray(headEnd + 4, next - 2),
    });
    at = next;
  }
  return out;
}

export type IsapiTerminal = Awaited<ReturnType<typeof createIsapiTerminal>>;

/** Starts an emulated terminal; `stop()` unplugs it and `start()` plugs it back in (same port, same memory). */
export async function createIsapiTerminal(opts: IsapiTerminalOptions = {}) {
  const o = {
    host: '127.0.0.1',
    user: 'admin',
    password: 'admin12345',
    serial: 'DS-K1T671M0120261126V030200ENEMU00001',
    model: 'DS-K1T671M',
    firmware: 'V3.2.0',
    firmwareBuild: 'build 241120',
    deviceName: 'Access Controller',
    capacity: 3000,
    algorithms: ['SHA-256', 'MD5'] as ('MD5' | 'SHA-256')[],
    timezone: 480,
    searchPage: 30,
    unlockMs: 5000,
    language: 'English',
    upgradeMs: 600,
    rebootMs: 300,
    logPage: 50,
    verbose: false,
    streamHeartbeatMs: 10_000,
    lockAfter: 0,
    lockSeconds: 1800,
    faceUrlInUserSearch: false,
    capturesKept: 100,
    ...opts,
  };
  const realm = `DS-${o.serial.slice(-8)}`;
  const users = new Map<string, EmulatedUser>();
  const cards = new Map<string, string>(); // cardNo → employeeNo
  const cardTypes = new Map<string, string>(); // cardNo → cardType, when not normalCard
  const fingerprints = new Map<string, number>(); // employeeNo → fingerprints enrolled
  const faces = new Map<string, Buffer>(); // employeeNo → JPEG
  const events: EmulatedEvent[] = [];
  const nonces = new Map<string, number>(); // nonce → highest nc seen
  const injections: Injection[] = [];
  const unsupported = new Set<string>(o.unsupported ?? []);
  const doorOpens: number[] = [];
  /** the lock is open until this instant (ms); the door contact: 0 closed, 1 open, 2–4 alarms (AcsWorkStatus) */
  let unlockedUntil = 0;
  let contact = 0;
  const requests: string[] = [];
  /** where events are posted: `ip` is the address or host name the notification named */
  let httpHost: { url: string; ip: string; port: number; protocol: 'http' | 'https' } | undefined;
  let serialNo = 0;
  let deleteStatus = 'success';
  let authFailures = 0;
  /** wrong passwords since the last good login, and the lock they brought (until this instant, ms) */
  let failuresInRow = 0;
  let lockedUntil = 0;
  /** face uploads the terminal answered (FaceDataRecord and FDSetUp, whatever the answer) */
  let faceUploads = 0;
  let server: http.Server | undefined;
  let port = o.port ?? 0;
  const deviceLog: EmulatedLogEntry[] = [];
  /** a package being written: its version and build, and since when */
  let upgrade: { version: string; build: string; started: number } | undefined;
  /** injected upgrade troubles: upgradeStatus never finishes, or the restart comes back with the old firmware */
  const upgradeTrouble = { stuck: false, flashFails: false };
  let rebootCount = 0;
  let rebootTimer: NodeJS.Timeout | undefined;
  const note = (major: EmulatedLogEntry['major'], minor: string, info = '', user = '', ip = '') => {
    deviceLog.push({ at: Date.now(), major, minor, user, ip, info });
    if (deviceLog.length > 5000) deviceLog.splice(0, deviceLog.length - 5000);
  };
  note('Operation', 'powerOn', `firmware ${o.firmware} ${o.firmwareBuild}`);
  const log = (...a: unknown[]) => o.verbose && console.log(`[${o.serial.slice(-8)}]`, ...a);

  const status = (statusCode: number, subStatusCode: string, statusString?: string) => ({
    statusCode,
    statusString: statusString ?? (statusCode === 1 ? 'OK' : statusCode === 4 ? 'Invalid Operation' : statusCode === 6 ? 'Invalid Content' : 'Error'),
    subStatusCode,
    ...(statusCode === 1 ? {} : { errorCode: 0x60000000 + statusCode, errorMsg: subStatusCode }),
  });
  const ok = () => status(1, 'ok');

  function checkDigest(req: http.IncomingMessage): boolean {
    const h = req.headers.authorization ?? '';
    if (!h.startsWith('Digest ')) return false;
    const p: Record<string, string> = {};
    for (const m of h.slice(7).matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) p[m[1]!] = (m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1');
    const seen = nonces.get(p.nonce ?? '');
    if (seen === undefined || p.username !== o.user || p.realm !== realm) return false;
    const alg = (p.algorithm ?? 'MD5').toUpperCase();
    const hash = alg === 'SHA-256' ? 'sha256' : alg === 'MD5' ? 'md5' : undefined;
    if (!hash || !o.algorithms.includes(alg as 'MD5')) return false;
    const H = (s: string) => createHash(hash).update(s).digest('hex');
    const ha1 = H(`${o.user}:${realm}:${o.password}`);
    const ha2 = H(`${req.method}:${p.uri}`);
    const nc = parseInt(p.nc ?? '0', 16);
    if (p.qop !== 'auth' || !(nc > seen) || p.uri !== req.url) return false;
    if (H(`${ha1}:${p.nonce}:${p.nc}:${p.cnonce}:${p.qop}:${ha2}`) !== p.response) return false;
    if (seen === 0) note('Operation', 'remoteLogin', '', o.user, req.socket.remoteAddress ?? '');
    nonces.set(p.nonce!, nc);
    return true;
  }

  const locked = () => Date.now() < lockedUntil;
  /** A wrong password: after `lockAfter` in a row the account locks for `lockSeconds`. */
  function refused(req: http.IncomingMessage) {
    failuresInRow++;
    if (o.lockAfter > 0 && failuresInRow >= o.lockAfter && !locked()) {
      lockedUntil = Date.now() + o.lockSeconds * 1000;
      note('Exception', 'accountLocked', `after ${failuresInRow} wrong passwords`, o.user, req.socket.remoteAddress ?? '');
    }
  }
  /** The `userCheck` a refused login carries: whether the account is locked, for how long, and the attempts left. */
  const userCheckXml = (statusValue: number) => {
    const lock = locked();
    const left = o.lockAfter > 0 ? Math.max(0, o.lockAfter - failuresInRow) : 0;
    return (
      '<?xml version="1.0" encoding="UTF-8"?>\n<userCheck version="2.0" xmlns="http://www.isapi.org/ver20/XMLSchema">\n' +
      `<statusValue>${statusValue}</statusValue>\n<statusString>${statusValue === 200 ? 'OK' : 'Unauthorized'}</statusString>\n` +
      `<isDefaultPassword>false</isDefaultPassword>\n<lockStatus>${lock ? 'lock' : 'unlock'}</lockStatus>\n` +
      `<unlockTime>${lock ? Math.ceil((lockedUntil - Date.now()) / 1000) : 0}</unlockTime>\n<retryLoginTime>${lock ? 0 : left}</retryLoginTime>\n</userCheck>\n`
    );
  };

  function challenge(res: http.ServerResponse) {
    const nonce = randomBytes(16).toString('hex');
    nonces.set(nonce, 0);
    if (nonces.size > 1000) nonces.delete(nonces.keys().next().value!);
    const value = o.algorithms.map((a) => `Digest realm="${realm}", domain="::", qop="auth", nonce="${nonce}", opaque="", algorithm="${a}", stale="FALSE"`);
    res.writeHead(401, { 'www-authenticate': value, 'content-type': 'application/xml' });
    res.end(userCheckXml(401));
  }

  const localTime = (ms: number) => isapiTime(ms, o.timezone).slice(0, 19);
  const nowLocal = () => localTime(Date.now());

  function addEvent(e: Omit<EmulatedEvent, 'serialNo'>): EmulatedEvent {
    const ev = { ...e, serialNo: ++serialNo };
    events.push(ev);
    return ev;
  }

  // ---- pictures by URL (§12.3): a listing hands each picture out with a new `@WEB` token and only the latest one opens
  // it (firmware changed the suffix between two searches of one face), so a caller must fetch right after the search.
  // The URL names the terminal's own view of itself, without the port; the path is fetched with digest.
  const pictureTokens = new Map<string, { token: string; read: () => Buffer | undefined }>();
  let picturesIssued = 0;
  /** employeeNo → the number of its face's file (enrlFace/0/<n>.jpg), given when first listed */
  const faceSlots = new Map<string, number>();

  function pictureUrl(file: string, read: () => Buffer | undefined): string {
    const token = String(++picturesIssued).padStart(12, '0');
    // re-inserted so the oldest handed out go first when the list is trimmed
    pictureTokens.delete(file);
    pictureTokens.set(file, { token, read });
    if (pictureTokens.size > o.capacity + o.capturesKept + 1000) pictureTokens.delete(pictureTokens.keys().next().value!);
    return `http://${o.selfAddress ?? o.host}/LOCALS/pic/${file}@WEB${token}`;
  }

  function faceUrl(employeeNo: string): string {
    let slot = faceSlots.get(employeeNo);
    if (slot === undefined) faceSlots.set(employeeNo, (slot = faceSlots.size + 1));
    return pictureUrl(`enrlFace/0/${String(slot).padStart(10, '0')}.jpg`, () => faces.get(employeeNo));
  }

  /** An event's capture, while it is among the newest `capturesKept` (a face event's picture: the face enrolled, else a stub). */
  function captureUrl(ev: EmulatedEvent): string | undefined {
    const newest = events.at(-1)?.serialNo ?? 0;
    if (ev.verifyMode !== 'face' || ev.serialNo <= newest - o.capturesKept) return undefined;
    const t = localTime(ev.at).replace(/\D/g, ''); // YYYYMMDDhhmmss
    return pictureUrl(`acsLinkCap/${t.slice(0, 6)}_00/${t.slice(6, 8)}_${t.slice(8)}_${ev.serialNo}_0.jpeg`, () => faces.get(ev.employeeNo) ?? NO_FACE_JPEG);
  }

  /** GET /LOCALS/pic/…@WEB<token>: the JPEG while the token is the latest and the picture is held, else the web server's 404 page. */
  function openPicture(path: string): Answer {
    const m = /^\/LOCALS\/pic\/(.+)@WEB(\d+)$/.exec(path);
    const held = m ? pictureTokens.get(m[1]!) : undefined;
    const jpeg = held && held.token === m?.[2] ? held.read() : undefined;
    if (jpeg) return { raw: jpeg, type: 'image/jpeg' };
    const shown = path.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return {
      http: 404,
      type: 'text/html',
      raw: Buffer.from(
        `<!DOCTYPE html>\n<html><head><title>Document Error: Not Found</title></head>\n<body><h2>Access Error: 404 -- Not Found</h2>\n<p>Can't locate document: ${shown}</p>\n</body></html>\n`,
      ),
    };
  }

  const searchContext: SearchContext = {
    users,
    faces,
    cards,
    cardTypes,
    fingerprints,
    events,
    pageMax: o.searchPage,
    timezone: o.timezone,
    faceUrl,
    captureUrl,
    time: (ms) => isapiTime(ms, o.timezone),
    parseTime: (s) => parseIsapiTime(s, o.timezone),
  };
  /** the take-over search a path names, by the tail `unsupported` lists */
  const searchName = (path: string) => path.replace(/^\/ISAPI\/(AccessControl|Intelligent)\//, '');

  function eventJson(ev: EmulatedEvent) {
    return {
      ipAddress: o.host,
      portNo: port,
      protocol: 'HTTP',
      macAddress: '44:47:cc:00:00:01',
      channelID: 1,
      dateTime: isapiTime(ev.at, o.timezone),
      activePostCount: 1,
      eventType: 'AccessControllerEvent',
      eventState: 'active',
      eventDescription: 'Access Controller Event',
      AccessControllerEvent: {
        deviceName: o.deviceName,
        majorEventType: ev.major,
        subEventType: ev.minor,
        name: ev.name,
        cardReaderNo: 1,
        employeeNoString: ev.employeeNo,
        serialNo: ev.serialNo,
        userType: 'normal',
        currentVerifyMode: ev.verifyMode,
        attendanceStatus: 'undefined',
        picturesNumber: 1,
      },
    };
  }

  // ---- alertStream: GET /ISAPI/Event/notification/alertStream, an endless multipart/mixed answer. Each event goes
  // as a JSON part (the same JSON the host notification posts) followed by its picture as a JPEG part; a
  // heartbeat part (eventType heartBeat) comes every streamHeartbeatMs.
  const STREAM_BOUNDARY = 'MIME_boundary';
  const streams = new Set<{ res: http.ServerResponse; heartbeat: NodeJS.Timeout }>();

  function streamPart(res: http.ServerResponse, type: string, data: Buffer) {
    if (res.destroyed || res.writableEnded) return;
    res.write(
      Buffer.concat([Buffer.from(`--${STREAM_BOUNDARY}\r\nContent-Type: ${type}\r\nContent-Length: ${data.length}\r\n\r\n`), data, Buffer.from('\r\n')]),
    );
  }

  function heartbeatJson() {
    return Buffer.from(
      JSON.stringify({
        ipAddress: o.host,
        portNo: port,
        protocol: 'HTTP',
        dateTime: isapiTime(Date.now(), o.timezone),
        activePostCount: 1,
        eventType: 'heartBeat',
        eventState: 'active',
        eventDescription: 'heartBeat',
      }),
    );
  }

  function openStream(req: http.IncomingMessage, res: http.ServerResponse) {
    // A request held by an injected delay may come back here after its caller gave up or the terminal was unplugged:
    // its 'close' has fired already, so a heartbeat started now would never be stopped (and would hold the process).
    // (not `req.destroyed`: a request whose body was read to its end is destroyed by then, connection or not)
    if (res.destroyed || req.socket.destroyed || !server) return void res.destroy();
    res.writeHead(200, { 'content-type': `multipart/mixed; boundary=${STREAM_BOUNDARY}`, connection: 'keep-alive' });
    const entry = { res, heartbeat: setInterval(() => streamPart(res, 'application/json; charset="UTF-8"', heartbeatJson()), o.streamHeartbeatMs) };
    streams.add(entry);
    streamPart(res, 'application/json; charset="UTF-8"', heartbeatJson());
    const end = () => {
      clearInterval(entry.heartbeat);
      streams.delete(entry);
    };
    res.on('close', end);
    req.on('close', end);
    log('alertStream opened');
  }

  function streamEvent(ev: EmulatedEvent) {
    const jpeg = faces.get(ev.employeeNo) ?? Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    for (const { res } of streams) {
      streamPart(res, 'application/json; charset="UTF-8"', Buffer.from(JSON.stringify(eventJson(ev))));
      streamPart(res, 'image/jpeg', jpeg);
    }
  }

  function streamFault(kind: StreamFault) {
    for (const entry of [...streams]) {
      const { res } = entry;
      if (kind === 'drop') {
        // half a part, then the connection reset
        res.write(`--${STREAM_BOUNDARY}\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"eventType":"AccessControllerEvent",`);
        res.destroy();
      } else if (kind === 'garbage') res.write(randomBytes(4096));
      else if (kind === 'huge') {
        const size = 8 * 1024 * 1024;
        res.write(`--${STREAM_BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: ${size}\r\n\r\n`);
        const chunk = Buffer.alloc(64 * 1024, 0x41);
        for (let sent = 0; sent < size; sent += chunk.length) res.write(chunk);
        res.write('\r\n');
      } else clearInterval(entry.heartbeat);
    }
  }

  /** Posts an event to the configured host, as the terminal's HTTP listening does (multipart, event_log + Picture). */
  async function push(ev: EmulatedEvent): Promise<boolean> {
    if (!httpHost || !server || o.unreachableHost) return false;
    const boundary = `MIME_boundary_${randomBytes(6).toString('hex')}`;
    const jpeg = faces.get(ev.employeeNo) ?? Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="event_log"\r\nContent-Type: application/json\r\n\r\n`),
      Buffer.from(JSON.stringify(eventJson(ev))),
      Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="Picture"; filename="Picture.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      jpeg,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    try {
      const r = await fetch(`${httpHost.protocol}://${httpHost.ip.includes(':') ? `[${httpHost.ip}]` : httpHost.ip}:${httpHost.port}${httpHost.url}`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        signal: AbortSignal.timeout(5000),
      });
      await r.arrayBuffer();
      log('push', ev.serialNo, r.status);
      return r.ok;
    } catch (e) {
      log('push failed', (e as Error).message);
      return false;
    }
  }

  const within = (u: EmulatedUser, ms: number) => {
    if (!u.valid.enable) return true;
    const b = parseIsapiTime(u.valid.beginTime, o.timezone);
    const e = parseIsapiTime(u.valid.endTime, o.timezone);
    return !(ms < b) && !(ms > e);
  };

  function readUser(j: Record<string, unknown>): EmulatedUser | undefined {
    const u = (j.UserInfo ?? {}) as Record<string, unknown>;
    const employeeNo = typeof u.employeeNo === 'string' ? u.employeeNo : '';
    if (!employeeNo || employeeNo.length > 32) return undefined;
    const v = (u.Valid ?? {}) as Record<string, unknown>;
    const beginTime = typeof v.beginTime === 'string' ? v.beginTime : '2000-01-01T00:00:00';
    const endTime = typeof v.endTime === 'string' ? v.endTime : '2037-12-31T23:59:59';
    if (Number.isNaN(parseIsapiTime(beginTime, o.timezone)) || Number.isNaN(parseIsapiTime(endTime, o.timezone))) return undefined;
    return {
      employeeNo,
      name: typeof u.name === 'string' ? u.name : '',
      userType: typeof u.userType === 'string' ? u.userType : 'normal',
      valid: { enable: v.enable !== false, beginTime, endTime },
      password: typeof u.password === 'string' ? u.password : '',
      // a field left out keeps what the terminal holds (a modify that does not name the gender leaves it)
      ...(u.gender === 'male' || u.gender === 'female' || u.gender === 'unknown'
        ? { gender: u.gender }
        : users.get(employeeNo)?.gender
          ? { gender: users.get(employeeNo)!.gender }
          : {}),
    };
  }

  type Answer = { http?: number; json?: unknown; xml?: string; raw?: Buffer; type?: string; after?: () => void };

  const upgradePercent = () => (upgrade ? Math.min(100, Math.floor(((Date.now() - upgrade.started) / Math.max(1, o.upgradeMs)) * 100)) : 0);
  const upgrading = () => !!upgrade && (upgradeTrouble.stuck || upgradePercent() < 100);

  /** The restart: unplugged for rebootMs, back with the firmware it finished writing (unless told the flash fails). */
  function reboot(why: string) {
    rebootCount++;
    note('Operation', 'remoteReboot', why, o.user);
    const written = upgrade && !upgrading() ? upgrade : undefined;
    upgrade = undefined;
    void stopServer().then(() => {
      rebootTimer = setTimeout(() => {
        rebootTimer = undefined;
        if (written && !upgradeTrouble.flashFails) {
          o.firmware = written.version;
          if (written.build) o.firmwareBuild = written.build;
        } else if (written) note('Exception', 'upgradeFail', `firmware ${written.version} not applied`);
        note('Operation', 'powerOn', `firmware ${o.firmware} ${o.firmwareBuild}`);
        void start();
      }, o.rebootMs);
    });
  }

  /** PUT /ISAPI/System/updateFirmware: the package is checked, then written in the background. */
  function takeFirmware(body: Buffer): Answer {
    if (upgrade) return { http: 200, xml: statusXml(2, 'deviceBusy', 'Device Busy') };
    const text = body.subarray(0, 400).toString('latin1');
    const [head = '', ...rest] = text.split('\n');
    if (!head.startsWith(ISAPI_FIRMWARE_HEADER)) return { http: 400, xml: statusXml(6, 'upgradePackageError', 'Invalid Content') };
    const [version = '', ...build] = head.slice(ISAPI_FIRMWARE_HEADER.length).trim().split(/\s+/);
    const field = (k: string) =>
      rest
        .find((l) => l.startsWith(`${k}=`))
        ?.slice(k.length + 1)
        .trim();
    if (!version || version.length > 40) return { http: 400, xml: statusXml(6, 'upgradePackageError', 'Invalid Content') };
    const model = field('model');
    if (model && model !== o.model) return { http: 400, xml: statusXml(6, 'upgradePackageMismatch', 'Invalid Content') };
    const language = field('language');
    if (language && language !== o.language) return { http: 400, xml: statusXml(6, 'languageMismatch', 'Invalid Content') };
    if (lowerVersion(version, o.firmware)) return { http: 400, xml: statusXml(6, 'upgradeVersionLower', 'Invalid Content') };
    upgrade = { version, build: build.join(' '), started: Date.now() };
    note('Operation', 'remoteUpgrade', `firmware ${version} (${body.length} bytes)`, o.user);
    return { xml: statusXml(7, 'rebootRequired', 'Reboot Required') };
  }

  /** POST /ISAPI/ContentMgmt/logSearch (XML CMSearchDescription → CMSearchResult). */
  function searchLog(body: Buffer): Answer {
    const x = body.toString('utf8');
    const tag = (n: string) => new RegExp(`<${n}>([^<]*)</${n}>`).exec(x)?.[1]?.trim();
    const from = parseIsapiTime(tag('startTime') ?? '', o.timezone);
    const to = parseIsapiTime(tag('endTime') ?? '', o.timezone);
    if (Number.isNaN(from) || Number.isNaN(to)) return { http: 400, xml: statusXml(6, 'badXmlContent', 'Invalid Content') };
    const pos = Number(tag('searchResultPostion') ?? tag('searchResultPosition') ?? 0) || 0;
    const max = Math.max(1, Math.min(Number(tag('maxResults') ?? o.logPage) || o.logPage, o.logPage));
    const all = deviceLog.filter((e) => e.at >= from && e.at <= to);
    const page = all.slice(pos, pos + max);
    const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return {
      xml:
        '<?xml version="1.0" encoding="UTF-8"?>\n<CMSearchResult version="2.0" xmlns="http://www.isapi.org/ver20/XMLSchema">\n' +
        `<searchID>${esc(tag('searchID') ?? '')}</searchID>\n<responseStatus>true</responseStatus>\n` +
        `<responseStatusStrg>${!page.length ? 'NO MATCH' : pos + page.length < all.length ? 'MORE' : 'OK'}</responseStatusStrg>\n` +
        `<numOfMatches>${page.length}</numOfMatches>\n<matchList>\n` +
        page
          .map(
            (e) =>
              '<searchMatchItem><logDescriptor>' +
              `<metaId>log.std-cgi.com/${e.major}/${e.minor}</metaId><StartDateTime>${isapiTime(e.at, o.timezone)}</StartDateTime>` +
              `<userName>${esc(e.user)}</userName><ipAddress>${esc(e.ip)}</ipAddress><infoContent>${esc(e.info)}</infoContent>` +
              '</logDescriptor></searchMatchItem>\n',
          )
          .join('') +
        '</matchList>\n</CMSearchResult>\n',
    };
  }
  const bad = (sub: string, code = 6): Answer => ({ http: 400, json: status(code, sub) });
  const searched = (a: SearchAnswer): Answer => ('json' in a ? { json: a.json } : bad(a.refused));
  /** A search's JSON condition, read or refused as unreadable. */
  const searchWith = (cond: Record<string, unknown> | undefined, run: (c: Record<string, unknown>) => SearchAnswer): Answer =>
    cond ? searched(run(cond)) : bad('badJsonFormat', 5);
  const dropCard = (card: string) => {
    cards.delete(card);
    cardTypes.delete(card);
  };

  function route(method: string, path: string, body: Buffer, contentType: string, query: URLSearchParams): Answer {
    const j = (): Record<string, unknown> | undefined => {
      try {
        const v = JSON.parse(body.toString('utf8')) as unknown;
        return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
      } catch {
        return undefined;
      }
    };
    const key = `${method} ${path}`;
    // a refusal firmware sends with HTTP 200: the body, not the status, says it (§12.1)
    if (unsupported.has(searchName(path))) return { json: status(4, 'notSupport') };
    if (method === 'GET' && path.startsWith('/LOCALS/pic/')) return openPicture(path);
    switch (key) {
      case 'GET /ISAPI/System/deviceInfo':
        return {
          xml:
            '<?xml version="1.0" encoding="UTF-8"?>\n<DeviceInfo version="2.0" xmlns="http://www.isapi.org/ver20/XMLSchema">\n' +
            `<deviceName>${o.deviceName}</deviceName>\n<deviceID>${o.serial.slice(-8)}</deviceID>\n<model>${o.model}</model>\n` +
            `<serialNumber>${o.serial}</serialNumber>\n<macAddress>44:47:cc:00:00:01</macAddress>\n` +
            `<firmwareVersion>${o.firmware}</firmwareVersion>\n<firmwareReleasedDate>${o.firmwareBuild}</firmwareReleasedDate>\n` +
            '<deviceType>ACS</deviceType>\n</DeviceInfo>\n',
        };
      case 'GET /ISAPI/AccessControl/UserInfo/capabilities':
        return { json: userCapabilities(o.capacity, o.searchPage) };
      case 'GET /ISAPI/AccessControl/CardInfo/capabilities':
        return { json: cardCapabilities(o.capacity, o.searchPage) };
      case 'GET /ISAPI/AccessControl/CardInfo/Count':
        return { json: { CardInfoCount: { cardNumber: cards.size } } };
      case 'GET /ISAPI/AccessControl/UserInfo/Count':
        return { json: { UserInfoCount: { userNumber: users.size, bindFaceUserNumber: faces.size, bindCardUserNumber: new Set(cards.values()).size } } };
      case 'POST /ISAPI/AccessControl/UserInfo/Record':
      case 'PUT /ISAPI/AccessControl/UserInfo/Modify':
      case 'PUT /ISAPI/AccessControl/UserInfo/SetUp': {
        const body = j();
        if (!body) return bad('badJsonFormat', 5);
        const u = readUser(body);
        if (!u) return bad('badParameters');
        const exists = users.has(u.employeeNo);
        if (path.endsWith('Record') && exists) return bad('employeeNoAlreadyExist');
        if (path.endsWith('Modify') && !exists) return bad('employeeNoNotExist');
        // full of locally enrolled users: the access-control error list's name for it
        if (!exists && users.size >= o.capacity) return bad('deviceUserFull');
        users.set(u.employeeNo, u);
        return { json: ok() };
      }
      case 'POST /ISAPI/AccessControl/UserInfo/Search':
        return searchWith(j(), (c) => searchUsers(searchContext, c, o.faceUrlInUserSearch));
      case 'POST /ISAPI/AccessControl/CardInfo/Search':
        return searchWith(j(), (c) => searchCards(searchContext, c));
      case 'POST /ISAPI/Intelligent/FDLib/FDSearch':
        return searchWith(j(), (c) => searchFaces(searchContext, c));
      case 'POST /ISAPI/AccessControl/AcsEvent':
        return searchWith(j(), (c) => searchEvents(searchContext, c));
      case 'POST /ISAPI/AccessControl/AcsEventTotalNum':
        return searchWith(j(), (c) => countEvents(searchContext, c));
      case 'GET /ISAPI/Intelligent/FDLib/Count':
        return searched(countFaces(searchContext, query));
      // the access-control face search answered this in the capture: the face library's FDSearch is the way (§12.3)
      case 'POST /ISAPI/AccessControl/FaceInfo/Search':
        return { json: status(4, 'notSupport') };
      case 'PUT /ISAPI/AccessControl/UserInfo/Delete':
      case 'PUT /ISAPI/AccessControl/UserInfoDetail/Delete': {
        const body = j();
        if (!body) return bad('badJsonFormat', 5);
        const c = (body.UserInfoDelCond ?? body.UserInfoDetail ?? {}) as Record<string, unknown>;
        const list = Array.isArray(c.EmployeeNoList) ? (c.EmployeeNoList as { employeeNo?: unknown }[]) : [];
        for (const e of list) {
          const no = String(e.employeeNo ?? '');
          users.delete(no);
          faces.delete(no);
          fingerprints.delete(no);
          for (const [card, who] of cards) if (who === no) dropCard(card);
        }
        deleteStatus = 'success';
        return { json: ok() };
      }
      case 'GET /ISAPI/AccessControl/UserInfoDetail/DeleteProcess':
        return { json: { UserInfoDetail: { status: deleteStatus } } };
      case 'PUT /ISAPI/AccessControl/CardInfo/Delete': {
        const c = (j()?.CardInfoDelCond ?? {}) as Record<string, unknown>;
        const list = Array.isArray(c.EmployeeNoList) ? (c.EmployeeNoList as { employeeNo?: unknown }[]) : [];
        const cardList = Array.isArray(c.CardNoList) ? (c.CardNoList as { cardNo?: unknown }[]) : [];
        for (const e of list) for (const [card, who] of cards) if (who === String(e.employeeNo ?? '')) dropCard(card);
        for (const e of cardList) dropCard(String(e.cardNo ?? ''));
        return { json: ok() };
      }
      case 'POST /ISAPI/AccessControl/CardInfo/Record':
      case 'PUT /ISAPI/AccessControl/CardInfo/Modify': {
        const c = (j()?.CardInfo ?? {}) as Record<string, unknown>;
        const no = String(c.employeeNo ?? '');
        const card = String(c.cardNo ?? '');
        if (!card || !users.has(no)) return bad(users.has(no) ? 'badParameters' : 'employeeNoNotExist');
        if (path.endsWith('Record') && cards.has(card)) return bad('cardNoAlreadyExist');
        cards.set(card, no);
        if (typeof c.cardType === 'string' && c.cardType !== 'normalCard') cardTypes.set(card, c.cardType);
        else cardTypes.delete(card);
        return { json: ok() };
      }
      case 'POST /ISAPI/Intelligent/FDLib/FaceDataRecord':
      case 'PUT /ISAPI/Intelligent/FDLib/FDSetUp': {
        const parts = multipartParts(body, contentType);
        const metaPart = parts.find((p) => p.name === 'FaceDataRecord');
        const img = parts.find((p) => p.type.startsWith('image/'));
        let meta: Record<string, unknown> = {};
        try {
          meta = JSON.parse(metaPart?.data.toString('utf8') ?? '') as Record<string, unknown>;
        } catch {
          return bad('badJsonFormat', 5);
        }
        const fpid = String(meta.FPID ?? '');
        if (!users.has(fpid)) return bad('employeeNoNotExist');
        if (!img || img.data.length < 4 || img.data[0] !== 0xff || img.data[1] !== 0xd8) return bad('faceDataPictureNotDetected');
        if (img.data.length > 200 * 1024) return bad('pictureSizeExceedLimit');
        if (path.endsWith('FaceDataRecord') && faces.has(fpid)) return bad('deviceUserAlreadyExistFace');
        if (!faces.has(fpid) && faces.size >= o.capacity) return bad('faceLibNumOverLimit');
        faces.set(fpid, Buffer.from(img.data));
        return { json: { ...ok(), FPID: fpid } };
      }
      case 'GET /ISAPI/AccessControl/AcsWorkStatus':
        return {
          json: { AcsWorkStatus: { doorLockStatus: [Date.now() < unlockedUntil ? 1 : 0], doorStatus: [4], magneticStatus: [contact], cardNum: cards.size } },
        };
      case 'PUT /ISAPI/AccessControl/RemoteControl/door/1': {
        const cmd = /<cmd>([^<]*)<\/cmd>/.exec(body.toString('utf8'))?.[1];
        if (!cmd) return { http: 400, xml: statusXml(5, 'badXmlFormat') };
        if (cmd === 'open') {
          doorOpens.push(Date.now());
          unlockedUntil = Date.now() + o.unlockMs;
          note('Operation', 'remoteOpenDoor', 'door 1', o.user);
          addEvent({ at: Date.now(), major: 3, minor: 1024, employeeNo: '', name: '', verifyMode: '' });
        }
        return { xml: statusXml(1, 'ok') };
      }
      case 'PUT /ISAPI/Event/notification/httpHosts': {
        if (o.refuseHttpHosts) return { http: 403, xml: statusXml(4, 'notSupport', 'Invalid Operation') };
        const h = readHttpHost(body.toString('utf8'));
        if (!h) return { http: 400, xml: statusXml(6, 'badXmlContent') };
        httpHost = h;
        return { xml: statusXml(1, 'ok') };
      }
      case 'GET /ISAPI/Event/notification/httpHosts':
        return {
          xml: httpHost
            ? `<HttpHostNotificationList><HttpHostNotification><id>1</id><url>${httpHost.url}</url><protocolType>${httpHost.protocol.toUpperCase()}</protocolType><ipAddress>${httpHost.ip}</ipAddress><portNo>${httpHost.port}</portNo></HttpHostNotification></HttpHostNotificationList>`
            : '<HttpHostNotificationList/>',
        };
      case 'GET /ISAPI/Security/userCheck':
        return { xml: userCheckXml(200) };
      case 'PUT /ISAPI/System/reboot':
        return { xml: statusXml(1, 'ok'), after: () => reboot('remote') };
      case 'PUT /ISAPI/System/updateFirmware':
        return takeFirmware(body);
      case 'GET /ISAPI/System/upgradeStatus':
        return {
          xml:
            '<?xml version="1.0" encoding="UTF-8"?>\n<upgradeStatus version="2.0" xmlns="http://www.isapi.org/ver20/XMLSchema">\n' +
            `<upgrading>${upgrading()}</upgrading>\n<percent>${upgrade ? upgradePercent() : 0}</percent>\n</upgradeStatus>\n`,
        };
      case 'POST /ISAPI/ContentMgmt/logSearch':
        return searchLog(body);
      default:
        return { http: 404, xml: statusXml(4, 'notSupport', 'Invalid Operation') };
    }
  }

  function statusXml(statusCode: number, sub: string, text?: string) {
    return (
      '<?xml version="1.0" encoding="UTF-8"?>\n<ResponseStatus version="2.0" xmlns="http://www.isapi.org/ver20/XMLSchema">\n' +
      `<requestURL></requestURL>\n<statusCode>${statusCode}</statusCode>\n<statusString>${text ?? (statusCode === 1 ? 'OK' : 'Invalid Operation')}</statusString>\n<subStatusCode>${sub}</subStatusCode>\n</ResponseStatus>\n`
    );
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    let size = 0;
    const [path = '', query = ''] = (req.url ?? '').split('?');
    // A firmware package is tens of MB; anything else a few.
    const cap = path === '/ISAPI/System/updateFirmware' ? 80 * 1024 * 1024 : 4 * 1024 * 1024;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > cap) return res.destroy();
      chunks.push(c as Buffer);
    }
    const body = Buffer.concat(chunks);
    requests.push(`${req.method} ${path}`);
    // A locked account is refused whatever it sends, until the lock ends.
    if (locked()) {
      if (req.headers.authorization) authFailures++;
      return challenge(res);
    }
    if (!checkDigest(req)) {
      if (req.headers.authorization) {
        authFailures++;
        refused(req);
      }
      return challenge(res);
    }
    failuresInRow = 0;
    if (/^\/ISAPI\/Intelligent\/FDLib\/(FaceDataRecord|FDSetUp)$/.test(path)) faceUploads++;
    log(req.method, path);
    const inj = injections.find((i) => path.includes(i.path) && i.times !== 0);
    if (inj) {
      if (inj.times !== undefined) inj.times--;
      if (inj.slowMs) {
        await new Promise((r) => setTimeout(r, inj.slowMs));
        // the caller gave up or the terminal was unplugged meanwhile: nothing is answered
        if (res.destroyed || !server) return void res.destroy();
      }
      if (inj.huge) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        for (let sent = 0; sent < inj.huge && !res.destroyed; sent += chunk.length) {
          if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
        }
        return res.end();
      }
      if (inj.badJson) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"statusCode": 1, "UserInfoCount": {"userNumber": ');
      }
      if (inj.status) {
        res.writeHead(inj.status.http ?? 400, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(status(inj.status.statusCode, inj.status.subStatusCode, inj.status.statusString)));
      }
    }
    if (req.method === 'GET' && path === '/ISAPI/Event/notification/alertStream') return openStream(req, res);
    const a = route(req.method ?? 'GET', path, body, req.headers['content-type'] ?? '', new URLSearchParams(query));
    if (a.after) res.once('finish', () => setTimeout(a.after!, 10));
    if (a.raw) {
      res.writeHead(a.http ?? 200, { 'content-type': a.type ?? 'application/octet-stream' });
      return res.end(a.raw);
    }
    if (a.xml !== undefined) {
      res.writeHead(a.http ?? 200, { 'content-type': 'application/xml; charset="UTF-8"' });
      return res.end(a.xml);
    }
    res.writeHead(a.http ?? 200, { 'content-type': 'application/json; charset="UTF-8"' });
    res.end(JSON.stringify(a.json));
  }

  const sockets = new Set<import('node:net').Socket>();
  async function stopServer() {
    const s = server;
    server = undefined;
    if (!s) return;
    for (const e of streams) clearInterval(e.heartbeat);
    streams.clear();
    for (const sock of sockets) sock.destroy();
    await new Promise<void>((r) => s.close(() => r()));
  }
  async function start() {
    if (server) return;
    const s = http.createServer((req, res) => {
      handle(req, res).catch((e: unknown) => {
        log('error', e);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
    s.on('connection', (sock) => {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, o.host, () => resolve());
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  }
  await start();

  return {
    options: o,
    get port() {
      return port;
    },
    get url() {
      return `http://${o.host}:${port}`;
    },
    users,
    faces,
    cards,
    /** cardNo → cardType for cards that are not a `normalCard` (patrolCard, hijackCard …) */
    cardTypes,
    /** employeeNo → fingerprints enrolled (UserInfo/Search's numOfFP) */
    fingerprints,
    events,
    /** Logs an event without pushing it (a site's past): it gets the next serialNo. */
    record: addEvent,
    /** Answers these searches `notSupport` with HTTP 200 from now on (replacing the list); none: all answered. */
    refuseSearches(names: TakeOverSearch[]) {
      unsupported.clear();
      for (const n of names) unsupported.add(n);
    },
    doorOpens,
    requests,
    get httpHost() {
      return httpHost;
    },
    get authFailures() {
      return authFailures;
    },
    /** Face uploads it was sent (FaceDataRecord or FDSetUp), taken or refused. */
    get faceUploads() {
      return faceUploads;
    },
    /** Whether the account is locked after wrong passwords now (`lockAfter`), and until when (ms). */
    get lockedUntil() {
      return locked() ? lockedUntil : 0;
    },
    /** Ends a lock at once (as the terminal's administrator would). */
    unlock() {
      lockedUntil = 0;
      failuresInRow = 0;
    },
    get online() {
      return !!server;
    },
    /** Plugs the terminal back in (same port, same memory). */
    start,
    /** Unplugs the terminal: connections are cut, nothing answers; events still go to its log. A restart under way is called off. */
    async stop() {
      clearTimeout(rebootTimer);
      rebootTimer = undefined;
      await stopServer();
    },
    /** Its own log (boots, logins, door opens, upgrades, restarts): what the log search finds. */
    deviceLog,
    /** The firmware it runs (deviceInfo's firmwareVersion); an upgrade and a restart change it. */
    get firmware() {
      return o.firmware;
    },
    get rebootCount() {
      return rebootCount;
    },
    /** A package being written (percent as upgradeStatus says it), or undefined. */
    get upgrade() {
      return upgrade ? { version: upgrade.version, percent: upgradePercent() } : undefined;
    },
    /** Upgrade troubles: `stuck` upgradeStatus never finishes; `flashFails` the restart comes back with the old firmware. */
    setUpgradeTrouble(t: { stuck?: boolean; flashFails?: boolean }) {
      Object.assign(upgradeTrouble, t);
    },
    /** alertStream connections open now */
    get streams() {
      return streams.size;
    },
    /** Makes every open alertStream misbehave (tests of a hostile or failing terminal). */
    streamFault,
    inject(i: Injection) {
      injections.push({ ...i });
    },
    clearInjections() {
      injections.length = 0;
    },
    setPassword(p: string) {
      o.password = p;
    },
    /** The door contact (magneticStatus): someone holds the door open, it closes, or the circuit alarms. */
    setDoorContact(state: 'closed' | 'open' | 'alarm') {
      contact = state === 'closed' ? 0 : state === 'open' ? 1 : 2;
    },
    /** Whether the lock is open now (after a remote open or a person let in, for `unlockMs`). */
    get unlocked() {
      return Date.now() < unlockedUntil;
    },
    /**
     * A face in front of the camera: a registered person with a face and inside their validity is let in
     * (minor 75), anyone else refused (minor 76). The event is logged and, when plugged in with a host set,
     * pushed. Returns the event and whether the push was accepted.
     */
    async recognize(employeeNo: string, at = Date.now()): Promise<{ event: EmulatedEvent; granted: boolean; pushed: boolean }> {
      const u = users.get(employeeNo);
      const granted = !!u && faces.has(employeeNo) && within(u, at);
      if (granted && Math.abs(at - Date.now()) < o.unlockMs) unlockedUntil = at + o.unlockMs;
      const event = addEvent({ at, major: 5, minor: granted ? 75 : 76, employeeNo: u ? employeeNo : '', name: u?.name ?? '', verifyMode: 'face' });
      if (server) streamEvent(event);
      const pushed = await push(event);
      return { event, granted, pushed };
    },
    /** The device-local wall time now, as the terminal shows it. */
    nowLocal,
    localTime,
  };
}
