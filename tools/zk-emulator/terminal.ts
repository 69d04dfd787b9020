// Emulated ZKTeco face terminal speaking the Attendance PUSH protocol 2.4.1 (device side).
// Wire formats: docs/zk-push-protocol.md. Emulator-only conventions are listed in its section 11.

import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  RC,
  attPhotoName,
  buildAttPhotoBody,
  classifyCommand,
  decodeText,
  encodeText,
  formatAttlogLine,
  formatBiodataLine,
  formatBioPhotoLine,
  formatHealthLine,
  formatUserLine,
  formatUserPicLine,
  formatDeviceTime,
  formatResult,
  nameMatches,
  packTgz,
  STRANGER_JPEG,
  strangerPhotoName,
  parseCommands,
  parseOptionsReply,
  parseRecord,
  timezoneToMinutes,
  type AttRecord,
  type HealthInfo,
  type ParsedCommand,
  type RefusedPhotoType,
} from './protocol.ts';
import { standInTemplate, type Site, type SitePunch, type SiteUser } from './site.ts';

export interface FailOn {
  /** Answer -1001 (Limited capacity) when a new user / comparison photo would exceed `capacity`. Default true. */
  capacity?: boolean;
  /** Commands answered -1002 (Not supported by the equipment): `AC_UNLOCK`, `DATA UPDATE BIOPHOTO`, `DATA` (all data commands)… */
  unsupported?: string[];
  /** Answer -10 (user does not exist) for DATA DELETE/QUERY USERINFO, BIOPHOTO of unknown PINs. Default false (answers 0). */
  unknownUser?: boolean;
  /** Force any return code for a command name, e.g. `{ 'AC_UNLOCK': -1005 }`. Checked first. */
  codes?: Record<string, number>;
}

export interface TerminalOptions {
  /** Base URL of the PUSH server, e.g. `http://127.0.0.1:8080` (no trailing `/iclock`). */
  server: string;
  sn: string;
  /** Max users and max comparison photos. Default 3000. */
  capacity?: number;
  /** Appendix 2 language code sent as `language=`; 83 ⇒ names in GB2312. Default 69 (English). */
  language?: number;
  /** Device time zone in the protocol's TimeZone unit (hours, or minutes if |tz| > 60) until the server sends TimeZone. Default: this machine's. */
  timezone?: number;
  /** When set, received comparison photos are written to `<photosDir>/<sn>/<pin>.jpg`. */
  photosDir?: string;
  failOn?: FailOn;
  /** Poll interval override in ms (default: server `Delay` seconds, else 10 s). */
  pollMs?: number;
  /** Retry interval override in ms after failures (default: server `ErrorDelay` seconds, else 30 s). */
  retryMs?: number;
  /** Silent time of a REBOOT in ms. Default 3000. */
  rebootMs?: number;
  /**
   * Bytes of a getrequest reply the terminal takes (its receive buffer). Commands whose line ends beyond it are
   * not run and answered -1006 ("the data is too long"). Default 6 MB (docs/zk-push-protocol.md §11).
   */
  maxReplyBytes?: number;
  /**
   * After posting the results of a full reply (at least half its buffer, or 100 commands or more), ask again at
   * once instead of waiting Delay: the backlog goes at the pace of the link, not of the poll. Default true.
   */
  pipeline?: boolean;
  /**
   * Count the Delay waits between polls (`virtualWaitMs`) instead of sleeping them: benches report the time a
   * real Delay-paced terminal takes without waiting it. The terminal then polls back to back.
   */
  virtualDelay?: boolean;
  httpTimeoutMs?: number;
  /** A breathalyser module: takes `alcohol_*` options and measures breath alcohol. Without it those options answer -1002. */
  alcohol?: boolean;
  /** A health-code module: each punch given `health` is followed by a HEALTHLOG record (docs §5.6). Without it none is sent. */
  health?: boolean;
  /** The terminal's install place, reported with each health record. */
  place?: string;
  /** "Upload strangers" (spec §3 device): a refused face's capture goes up as a §11.8 ATTPHOTO. Default true. */
  uploadStrangers?: boolean;
  /** `pushver=` value. Default `2.4.1`. */
  pushver?: string;
  pushcommkey?: string;
  firmware?: string;
  deviceName?: string;
  ip?: string;
  /** Content-Type of POST bodies. Default `application/push;charset=UTF-8` (the only one the protocol text shows a device send). */
  contentType?: string;
  // ---- a working site (docs/zk-push-protocol.md §12.6); where firmware differs and the text is silent, switches
  /** What the terminal already holds when made (users, faces, punches), put in as `seed` does. */
  site?: Site;
  /** Keeps comparison photos (BioPhotoFun=1, INFO flag digit 4). Without, an enrolment photo leaves only its template. Default true. */
  bioPhoto?: boolean;
  /** Lines per OPERLOG / USERINFO / BIODATA POST of a query or a stamp re-send (the text is silent). Default 100. */
  linesPerPost?: number;
  /** Stamp re-sends of OPERLOG go packed, `table=OPERLOG&ContentType=tgz` (§11.14). Default false. */
  tgz?: boolean;
  /** A query's or CHECK's uploads go before its result line (default) or after it (an integrator's terminal, notes §12.5). */
  uploadOrder?: 'before' | 'after';
  /** BIOPHOTO lines carry `No=0\tIndex=0` after PIN (seen in integrators' parsers, notes §12.3). Default false. */
  bioPhotoNoIndex?: boolean;
  /** USER lines go up as `table=USERINFO` instead of OPERLOG (a "firmware variant" some servers accept, notes §12.2). */
  userInfoTable?: boolean;
  /** `DATA QUERY BIOPHOTO` / `USERPIC` answered with lines; default -1002 (not in 2.4.1; no capture shows an answer). */
  photoQueries?: boolean;
  /** Zero stamps are honoured at every handshake too, not only on CHECK (firmware that does, notes §12.7). Default false. */
  resendAtHandshake?: boolean;
  onEvent?: (event: TerminalEvent) => void;
}

export type TerminalEventType = 'handshake' | 'options' | 'poll' | 'command' | 'upload' | 'result' | 'reboot' | 'state' | 'error';

export interface TerminalEvent {
  sn: string;
  type: TerminalEventType;
  message: string;
}

export interface TerminalUser {
  pin: string;
  name: string;
  pri: number;
  passwd: string;
  card: string;
  grp: string;
  tz: string;
  verify: string;
  viceCard: string;
  /** Not part of PUSH 2.4.1 USERINFO; stored when the server sends it. */
  startDatetime: string;
  endDatetime: string;
}

export interface CommandLogEntry {
  id: string;
  /** Command text after `C:<id>:` */
  command: string;
  /** Classified name, e.g. `DATA UPDATE USERINFO` */
  name: string;
  code: number;
  at: Date;
}

export interface PunchInput {
  pin: string | number;
  /** Date (converted to device local time) or `YYYY-MM-DD hh:mm:ss`. Default: now. */
  time?: Date | string;
  status?: number;
  /** Default 15 (face). */
  verify?: number;
  workcode?: string;
  /** JPEG bytes; uploaded as ATTPHOTO after the ATTLOG record. */
  photo?: Buffer;
  temperature?: number;
  mask?: boolean;
  /** Breath alcohol in mg/100 mL; only a terminal made with `alcohol: true` measures one. */
  alcohol?: number;
  /** The health code read with the punch; only a terminal made with `health: true` reads one. */
  health?: HealthInfo;
}

/** A face the terminal sees and refuses (no ATTLOG): an unknown face, or a registered PIN refused. */
export interface StrangerInput {
  /** Date (converted to device local time) or `YYYY-MM-DD hh:mm:ss`. Default: now. */
  time?: Date | string;
  /** The PIN the terminal matched and refused; default `0` (a face it does not know). */
  pin?: string | number;
  /** §11.8 photo type: 1 attendance failed (default), 2 blacklist, 4 verification failed. */
  type?: RefusedPhotoType;
  /** JPEG bytes of the capture. Default: a small built-in silhouette. */
  photo?: Buffer;
}

/** A face shown to the terminal (`recognize`). */
export interface RecognizeInput {
  pin: string | number;
  /** Date (converted to device local time) or `YYYY-MM-DD hh:mm:ss`. Default: now. */
  time?: Date | string;
  /** JPEG bytes of the capture (a punch's ATTPHOTO, or a refusal's). */
  photo?: Buffer;
}

/** What the terminal did: opened the door (a punch), refused a registered user (outside their validity), or saw an unknown face. */
export type RecognizeResult =
  { outcome: 'opened'; punch: PunchResult } | { outcome: 'refused'; stranger: StrangerResult } | { outcome: 'unknown'; stranger: StrangerResult };

export interface StrangerResult {
  /** the ATTPHOTO file name (PIN= of the body) */
  name: string;
  /** Server reply, null when the terminal was offline (kept and uploaded after the next handshake) or does not upload strangers. */
  reply: string | null;
}

export interface PunchResult {
  /** ATTLOG lines sent */
  lines: string[];
  /** Server reply to the ATTLOG POST, null when the terminal went offline before an OK. */
  reply: string | null;
  uploaded: boolean;
  /** Photo file names (PIN= of the ATTPHOTO body), in record order */
  photoNames: string[];
  photoReplies: (string | null)[];
  /** HEALTHLOG lines sent after the ATTLOG upload, and the server's reply (null when none was sent or no OK came). */
  healthLines: string[];
  healthReply: string | null;
}

interface StoredRecord {
  seq: number;
  rec: AttRecord;
  acked: boolean;
  photo?: Buffer | undefined;
  photoAcked: boolean;
  health?: HealthInfo | undefined;
  healthAcked: boolean;
}

interface HttpReply {
  status: number;
  text: string;
  date: string | null;
  /** body length in bytes */
  bytes: number;
}

interface Outcome {
  code: number;
  extra?: string[];
  suffix?: string;
  /** the result's lines after `ID=<id>`, for the multi-line forms (GetFile) */
  raw?: string;
  /** The uploads the command sets off (a query's data); before or after the result line by `uploadOrder`. False: not all went. */
  uploads?: () => Promise<boolean>;
}

/** Lines per POST of queries and re-sends when `linesPerPost` is not set. */
const DEFAULT_LINES_PER_POST = 100;
/** BIOPHOTO Type of a visible-light face (App. 10). */
const VISIBLE_FACE = 9;

/** The one log file the emulator keeps (its own event log) for GetFile (docs §11). */
export const EMULATOR_LOG_FILE = '/mnt/mtdblock/log/push.log';
/** First line of a firmware file the emulator installs: `ZKEMU-FW <version>` (docs §11). */
export const FIRMWARE_HEADER = 'ZKEMU-FW ';
/** Builds a firmware file the emulator accepts, for tests and the demo. */
export function emulatorFirmware(version: string, body = 'firmware image'): Buffer {
  return Buffer.from(`${FIRMWARE_HEADER}${version}\n${body}`, 'utf8');
}

const DEFAULT_CAPACITY = 3000;
/** Receive buffer for one getrequest reply (emulator convention, docs §11). */
export const DEFAULT_MAX_REPLY_BYTES = 6 * 1024 * 1024;
/** A reply with this many commands counts as full whatever its size (many small commands). */
const FULL_REPLY_COMMANDS = 100;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function enc(s: string): string {
  return encodeURIComponent(s);
}

export class Terminal {
  readonly sn: string;
  readonly server: string;
  readonly language: number;
  /** PIN → user, as the device stores them */
  readonly users = new Map<string, TerminalUser>();
  /** PIN → comparison (enrolment) photo bytes (DATA UPDATE BIOPHOTO) */
  readonly photos = new Map<string, Buffer>();
  /** PIN → comparison photo Type (9 = visible-light face) */
  readonly photoTypes = new Map<string, number>();
  /** PIN → user photo bytes (DATA UPDATE USERPIC) */
  readonly userPics = new Map<string, Buffer>();
  /** PIN → (`type:no:index` → base64 template) (DATA UPDATE BIODATA, or extracted from a photo) */
  readonly templates = new Map<string, Map<string, string>>();
  /** Every command received, in order */
  readonly log: CommandLogEntry[] = [];
  /** Options from the server's initialization reply plus SET OPTION changes */
  options: Record<string, string> = {};
  doorOpenCount = 0;
  alarmCancelCount = 0;
  rebootCount = 0;
  handshakeCount = 0;
  onEvent: ((event: TerminalEvent) => void) | undefined;
  /** Max users and max comparison photos (TerminalOptions.capacity); may be changed while running. */
  capacity: number;
  /** The firmware version it reports (INFO, handshake INFO=); an UPGRADE changes it. */
  firmware: string;
  /** Its own log lines (the file GetFile sends), the latest 1000. */
  readonly eventLog: string[] = [];
  /** With `virtualDelay`: the Delay waits counted instead of slept, in ms. */
  virtualWaitMs = 0;
  /** Polls sent, and those answered with commands (their bytes summed). */
  readonly stats = { polls: 0, replies: 0, replyBytes: 0, commands: 0, pipelined: 0 };

  private opts: TerminalOptions;
  private fail: Required<Omit<FailOn, 'codes'>> & { codes: Record<string, number> };
  private records: StoredRecord[] = [];
  private seq = 0;
  private ctl: AbortController | null = null;
  /** Cuts the HTTP exchange in flight: only when the server does not answer it within stop()'s grace. */
  private cut = new AbortController();
  private loop: Promise<void> | null = null;
  private needHandshake = true;
  /** True between a successful handshake and the next stop()/REBOOT. */
  private online = false;
  private rebootRequested = false;
  private firstPollAfterHandshake = true;
  private clockOffsetMs = 0;
  private lastBatch: { body: Buffer; stamp: number } | null = null;
  private lastHealth: Buffer | null = null;
  /** Refused faces' ATTPHOTO bodies not yet acknowledged (kept while offline like punch photos). */
  private strangerQueue: { name: string; body: Buffer; sending: boolean }[] = [];
  private handshakeWaiters: (() => void)[] = [];
  /** With `uploadOrder: 'after'`: uploads of this poll's commands, run once the results are posted. */
  private afterResults: (() => Promise<boolean>)[] = [];

  constructor(opts: TerminalOptions) {
    this.opts = opts;
    this.sn = opts.sn;
    this.server = opts.server.replace(/\/+$/, '');
    this.language = opts.language ?? 69;
    this.capacity = opts.capacity ?? DEFAULT_CAPACITY;
    this.firmware = opts.firmware ?? 'Ver 2.4.1-emu';
    this.fail = { capacity: true, unsupported: [], unknownUser: false, codes: {} };
    if (opts.failOn) this.setFailOn(opts.failOn);
    this.onEvent = opts.onEvent;
    if (opts.site) this.seed(opts.site);
  }

  // ---------------------------------------------------------------- a site that pre-exists the server (§12.6)

  /** Keeps comparison photos (BioPhotoFun=1). */
  get bioPhotoFun(): boolean {
    return this.opts.bioPhoto !== false;
  }

  /**
   * Put a working site in directly, as if enrolled at the terminal long ago: users (merged by PIN), their faces
   * (the photo when `bioPhotoFun`, and always the template extracted from it), USERPICs, and punches that the
   * previous server already took (acknowledged: no upload follows; DATA QUERY ATTLOG and stamp re-sends find them).
   * Throws when the users would exceed `capacity`: a real terminal could not hold them.
   */
  seed(site: Site): void {
    const added = new Set(site.users.map((u) => u.pin).filter((pin) => !this.users.has(pin))).size;
    if (this.users.size + added > this.capacity) throw new Error(`seed: ${this.users.size + added} users exceed the capacity ${this.capacity}`);
    for (const u of site.users) this.seedUser(u);
    for (const p of site.punches) this.seedPunch(p);
  }

  /**
   * A user enrolled at the terminal itself (its own menu), after this server took over: kept, then uploaded as the user
   * log does (its USER line, then its face's BIOPHOTO), each POST retried until OK. False when the terminal stopped first.
   */
  async enrolHere(u: SiteUser): Promise<boolean> {
    this.seed({ users: [u], punches: [] });
    if (!(await this.postUsers(this.userLines([u.pin]), 'enrolled at the terminal'))) return false;
    const photos = this.bioPhotoLines([u.pin]);
    return photos.length ? this.postLines('OPERLOG', photos, 'enrolled at the terminal') : true;
  }

  private seedUser(u: SiteUser): void {
    this.users.set(u.pin, {
      pin: u.pin,
      name: u.name,
      pri: u.pri ?? 0,
      passwd: u.passwd ?? '',
      card: u.card ?? '',
      grp: u.grp ?? '1',
      tz: u.tz ?? '0000000000000000',
      verify: u.verify ?? '-1',
      viceCard: '',
      startDatetime: u.startDatetime ?? '',
      endDatetime: u.endDatetime ?? '',
    });
    if (u.face) this.keepFace(u.pin, VISIBLE_FACE, u.face);
    if (u.userPic) this.userPics.set(u.pin, u.userPic);
  }

  /** An enrolment photo: its template always, the photo itself only on a terminal that keeps them. */
  private keepFace(pin: string, type: number, photo: Buffer): string {
    const tmp = standInTemplate(photo);
    this.templateMap(pin).set(`${type}:0:0`, tmp);
    if (this.bioPhotoFun) {
      this.photos.set(pin, photo);
      this.photoTypes.set(pin, type);
    }
    return tmp;
  }

  private seedPunch(p: SitePunch): void {
    const rec: AttRecord = { pin: p.pin, time: p.time, status: p.status ?? 0, verify: p.verify ?? 15, workcode: p.workcode ?? '0' };
    this.records.push({ seq: ++this.seq, rec, acked: true, photoAcked: true, healthAcked: true });
  }

  /** People with a face: a comparison photo or a visible-light template (INFO's face count, FaceCount). */
  get faceCount(): number {
    const pins = new Set(this.photos.keys());
    for (const [pin, m] of this.templates) if ([...m.keys()].some((k) => k.startsWith(`${VISIBLE_FACE}:`))) pins.add(pin);
    return pins.size;
  }

  // ---------------------------------------------------------------- configuration

  /** Merge failure-injection settings (keys left out keep their value). */
  setFailOn(f: FailOn): void {
    if (f.capacity !== undefined) this.fail.capacity = f.capacity;
    if (f.unsupported !== undefined) this.fail.unsupported = [...f.unsupported];
    if (f.unknownUser !== undefined) this.fail.unknownUser = f.unknownUser;
    if (f.codes !== undefined) this.fail.codes = { ...f.codes };
  }

  /** start() was called and stop() was not. */
  get running(): boolean {
    return this.ctl !== null && !this.ctl.signal.aborted;
  }

  /** Running and past a successful initialization exchange (false while refused, rebooting or stopped). */
  get isOnline(): boolean {
    return this.running && this.online;
  }

  /** Stored attendance records (oldest first). */
  get attlog(): AttRecord[] {
    return this.records.map((r) => ({ ...r.rec }));
  }

  /** Minutes east of UTC used for the device clock. */
  get timezoneMinutes(): number {
    const fromServer = this.options.TimeZone !== undefined && this.options.TimeZone !== '' ? Number(this.options.TimeZone) : NaN;
    if (Number.isFinite(fromServer)) return timezoneToMinutes(fromServer);
    if (this.opts.timezone !== undefined) return timezoneToMinutes(this.opts.timezone);
    return -new Date().getTimezoneOffset();
  }

  /** Device local time now, `YYYY-MM-DD hh:mm:ss` (clock synchronised from the server's Date header). */
  now(): string {
    return formatDeviceTime(new Date(Date.now() + this.clockOffsetMs), this.timezoneMinutes);
  }

  get pollIntervalMs(): number {
    if (this.opts.pollMs !== undefined) return this.opts.pollMs;
    const d = Number(this.options.Delay);
    return Number.isFinite(d) && d > 0 ? d * 1000 : 10_000;
  }

  get retryIntervalMs(): number {
    if (this.opts.retryMs !== undefined) return this.opts.retryMs;
    const d = Number(this.options.ErrorDelay);
    return Number.isFinite(d) && d > 0 ? d * 1000 : 30_000;
  }

  // ---------------------------------------------------------------- lifecycle

  /** Handshake (retried every ErrorDelay until it succeeds), then poll every Delay. Resolves after the first handshake (or on stop). */
  start(): Promise<void> {
    if (this.running) return Promise.resolve();
    this.ctl = new AbortController();
    this.cut = new AbortController();
    this.needHandshake = true;
    const signal = this.ctl.signal;
    const ready = new Promise<void>((resolve) => this.handshakeWaiters.push(resolve));
    this.emit('state', 'starting');
    this.loop = this.run(signal).catch((e: unknown) => this.emit('error', `loop crashed: ${String(e)}`));
    return ready;
  }

  /**
   * Go silent (offline): no more requests. Stored data is kept; pending uploads resume after the next start(). The
   * exchange in flight is finished first, so once stop() resolves the server has handled everything the terminal sent
   * (an aborted request could still reach it afterwards and mark the terminal seen); one not answered within 2 s is cut.
   */
  async stop(): Promise<void> {
    if (!this.ctl) return;
    this.ctl.abort();
    this.online = false;
    const loop = this.loop;
    const cut = this.cut;
    this.ctl = null;
    this.loop = null;
    this.wakeHandshakeWaiters();
    const grace = setTimeout(() => cut.abort(), 2000);
    await loop;
    clearTimeout(grace);
    this.emit('state', 'stopped (offline)');
  }

  private wakeHandshakeWaiters(): void {
    const waiters = this.handshakeWaiters;
    this.handshakeWaiters = [];
    for (const w of waiters) w();
  }

  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      if (this.needHandshake) {
        const ok = await this.handshake(signal);
        if (signal.aborted) break;
        if (!ok) {
          await sleep(this.retryIntervalMs, signal);
          continue;
        }
        this.needHandshake = false;
        this.online = true;
        this.wakeHandshakeWaiters();
        void this.afterHandshake();
      }
      let full = false;
      try {
        full = await this.pollOnce(signal);
      } catch (e) {
        if (signal.aborted) break;
        this.emit('error', `poll failed: ${errMsg(e)}`);
        await sleep(this.retryIntervalMs, signal);
        continue;
      }
      if (this.rebootRequested) {
        this.rebootRequested = false;
        this.rebootCount++;
        this.online = false;
        this.emit('reboot', `rebooting (${this.opts.rebootMs ?? 3000} ms silent)`);
        await sleep(this.opts.rebootMs ?? 3000, signal);
        this.needHandshake = true;
        continue;
      }
      // A full reply says more is waiting: the next getrequest follows the devicecmd at once.
      if (full && this.opts.pipeline !== false) {
        this.stats.pipelined++;
        continue;
      }
      if (this.opts.virtualDelay) {
        this.virtualWaitMs += this.pollIntervalMs;
        await sleep(0, signal);
      } else await sleep(this.pollIntervalMs, signal);
    }
  }

  /** Firmware that honours zero stamps at the handshake re-sends by them first; then what is still unacknowledged. */
  private async afterHandshake(): Promise<void> {
    if (this.opts.resendAtHandshake) await this.resendByStamps('handshake');
    await this.flushPending();
  }

  // ---------------------------------------------------------------- HTTP

  private async http(method: 'GET' | 'POST', path: string, body?: Buffer): Promise<HttpReply> {
    const signals = [AbortSignal.timeout(this.opts.httpTimeoutMs ?? 15_000), this.cut.signal];
    const headers: Record<string, string> = { 'User-Agent': 'iClock Proxy/1.09', Accept: '*/*' };
    if (body) headers['Content-Type'] = this.opts.contentType ?? 'application/push;charset=UTF-8';
    const res = await fetch(this.server + path, {
      method,
      headers,
      body: body ? new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength) : null,
      signal: AbortSignal.any(signals),
    });
    const buf = new Uint8Array(await res.arrayBuffer());
    return { status: res.status, text: decodeText(buf, this.language), date: res.headers.get('date'), bytes: buf.byteLength };
  }

  /** POST to /iclock/cdata until the reply starts with OK, or the terminal stops (then null). */
  private async uploadUntilOk(query: string, body: Buffer, what: string): Promise<string | null> {
    while (this.running) {
      try {
        const r = await this.http('POST', `/iclock/cdata?SN=${enc(this.sn)}&${query}`, body);
        if (r.status === 200 && r.text.trimStart().startsWith('OK')) {
          this.emit('upload', `${what} → ${r.text.trim()}`);
          return r.text.trim();
        }
        this.emit('error', `${what} rejected: HTTP ${r.status} ${r.text.trim().slice(0, 120)}`);
      } catch (e) {
        if (!this.running) break;
        this.emit('error', `${what} failed: ${errMsg(e)}`);
      }
      await sleep(this.retryIntervalMs, this.ctl?.signal);
    }
    return null;
  }

  // ---------------------------------------------------------------- §5 initialization, §8 options push

  private async handshake(signal: AbortSignal): Promise<boolean> {
    let q = `SN=${enc(this.sn)}&options=all&pushver=${enc(this.opts.pushver ?? '2.4.1')}&language=${this.language}`;
    if (this.opts.pushcommkey) q += `&pushcommkey=${enc(this.opts.pushcommkey)}`;
    try {
      const r = await this.http('GET', `/iclock/cdata?${q}`);
      const parsed = r.status === 200 ? parseOptionsReply(r.text) : null;
      if (!parsed) {
        this.emit('error', `initialization refused: HTTP ${r.status} ${r.text.trim().slice(0, 120)}`);
        return false;
      }
      this.options = { ...this.options, ...parsed.options };
      if (r.date) {
        const server = Date.parse(r.date);
        if (Number.isFinite(server)) {
          const off = server - Date.now();
          this.clockOffsetMs = Math.abs(off) > 2000 ? off : 0;
        }
      }
      this.handshakeCount++;
      this.firstPollAfterHandshake = true;
      this.emit(
        'handshake',
        `online: Delay=${this.options.Delay ?? '-'} ErrorDelay=${this.options.ErrorDelay ?? '-'} TimeZone=${this.options.TimeZone ?? '-'}`,
      );
      if (this.options.PushOptionsFlag === '1') await this.pushOptions(signal);
      return true;
    } catch (e) {
      if (!signal.aborted) this.emit('error', `initialization failed: ${errMsg(e)}`);
      return false;
    }
  }

  /** Device configuration as `key → value` (pushed by §8 and used for INFO). */
  deviceConfig(): Record<string, string> {
    const photoCounts = `0:0:0:0:0:0:0:0:0:${this.photos.size}`;
    let tmpl = 0;
    for (const m of this.templates.values()) tmpl += m.size;
    return {
      DeviceName: this.opts.deviceName ?? 'FaceAdmin PUSH emulator',
      FWVersion: this.firmware,
      IPAddress: this.opts.ip ?? '127.0.0.1',
      NetMask: '255.255.255.0',
      GATEIPAddress: (this.opts.ip ?? '127.0.0.1').replace(/\.\d+$/, '.1'),
      MACAddress:
        '00:17:61:' +
        createHash('md5')
          .update(this.sn)
          .digest('hex')
          .slice(0, 6)
          .replace(/(..)(?!$)/g, '$1:'),
      Platform: 'EMULATOR',
      PushVersion: this.opts.pushver ?? '2.4.1',
      Language: String(this.language),
      TimeZone: String(this.options.TimeZone ?? this.opts.timezone ?? ''),
      UserCount: String(this.users.size),
      FPCount: '0',
      FaceCount: String(this.faceCount),
      AttLogCount: String(this.records.length),
      MaxUserCount: String(this.capacity),
      MaxAttLogCount: '200000',
      MaxFingerCount: '0',
      MaxFaceCount: String(this.capacity),
      FingerFunOn: '0',
      FaceFunOn: '1',
      BioPhotoFun: this.bioPhotoFun ? '1' : '0',
      BioDataFun: '1',
      VisilightFun: '1',
      MultiBioDataSupport: '0:0:0:0:0:0:0:0:0:1',
      MultiBioPhotoSupport: `0:0:0:0:0:0:0:0:0:${this.bioPhotoFun ? 1 : 0}`,
      MultiBioVersion: '0:0:0:0:0:0:0:0:0:1',
      MaxMultiBioDataCount: `0:0:0:0:0:0:0:0:0:${this.capacity}`,
      MaxMultiBioPhotoCount: `0:0:0:0:0:0:0:0:0:${this.bioPhotoFun ? this.capacity : 0}`,
      MultiBioDataCount: `0:0:0:0:0:0:0:0:0:${tmpl}`,
      MultiBioPhotoCount: photoCounts,
    };
  }

  private async pushOptions(signal: AbortSignal): Promise<void> {
    const cfg = this.deviceConfig();
    const wanted = (this.options.PushOptions ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    const keys = [
      ...new Set([
        ...wanted,
        'FaceFunOn',
        'FingerFunOn',
        'BioPhotoFun',
        'BioDataFun',
        'VisilightFun',
        'MultiBioDataSupport',
        'MultiBioPhotoSupport',
        'MultiBioVersion',
        'MaxMultiBioDataCount',
        'MaxMultiBioPhotoCount',
        'MultiBioDataCount',
        'MultiBioPhotoCount',
      ]),
    ];
    const body = keys.map((k) => `${k}=${cfg[k] ?? ''}`).join(',');
    try {
      const r = await this.http('POST', `/iclock/cdata?SN=${enc(this.sn)}&table=options`, Buffer.from(body, 'utf8'));
      this.emit('options', `pushed ${keys.length} options → ${r.text.trim()}`);
    } catch (e) {
      if (!signal.aborted) this.emit('error', `options push failed: ${errMsg(e)}`);
    }
  }

  // ---------------------------------------------------------------- §9/§12 poll, §13 results

  /** §9 INFO= value: firmware, users, fingerprints, records, IP, FP alg, face alg, faces for enrolment, faces, function flags. */
  infoParam(): string {
    const v = [
      this.firmware,
      String(this.users.size),
      '0',
      String(this.records.length),
      this.opts.ip ?? '127.0.0.1',
      '0',
      '0',
      '1',
      String(this.faceCount),
      // fingerprint, face, user photo, comparison photo (BioPhotoFun), visible-light template (BioDataFun)
      `011${this.bioPhotoFun ? 1 : 0}1`,
    ];
    return v.map(enc).join(',');
  }

  /** One getrequest and the results of its commands; true when the reply was full (more is likely queued). */
  private async pollOnce(signal: AbortSignal): Promise<boolean> {
    let q = `SN=${enc(this.sn)}`;
    if (this.firstPollAfterHandshake) q += `&INFO=${this.infoParam()}`;
    this.stats.polls++;
    const r = await this.http('GET', `/iclock/getrequest?${q}`);
    if (r.status !== 200) throw new Error(`getrequest HTTP ${r.status}`);
    this.firstPollAfterHandshake = false;
    const cmds = parseCommands(r.text);
    this.emit('poll', cmds.length ? `${cmds.length} command(s), ${r.bytes} bytes` : r.text.trim() || '(empty)');
    if (!cmds.length) return false;
    this.stats.replies++;
    this.stats.replyBytes += r.bytes;
    this.stats.commands += cmds.length;
    const limit = this.opts.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
    // Where each command line ends in the reply, in bytes: what lies beyond the buffer was never read.
    const ends: number[] = [];
    let at = 0;
    for (const c of cmds) {
      at += encodeText(`C:${c.id}:${c.text}`, this.language).length + 1;
      ends.push(at);
    }
    const results: string[] = [];
    for (const [i, c] of cmds.entries()) {
      if (signal.aborted) return false;
      if (ends[i]! - 1 > limit) results.push(this.tooLong(c));
      else results.push(await this.execute(c));
    }
    await this.postResults(results, signal);
    for (const uploads of this.afterResults.splice(0)) if (!signal.aborted) await uploads();
    return r.bytes >= limit / 2 || cmds.length >= FULL_REPLY_COMMANDS;
  }

  /** A command past the receive buffer: not run, answered -1006 (App. 1 "The data is too long"). */
  private tooLong(c: ParsedCommand): string {
    const info = classifyCommand(c.text);
    this.log.push({ id: c.id, command: c.text, name: info.name, code: RC.TOO_LONG, at: new Date() });
    this.emit('command', `C:${c.id}:${shorten(c.text)} → ${RC.TOO_LONG} (beyond the reply buffer)`);
    return formatResult(c.id, RC.TOO_LONG, info.echo);
  }

  private async postResults(results: string[], signal: AbortSignal): Promise<void> {
    const body = encodeText(results.join('\n'), this.language);
    while (!signal.aborted) {
      try {
        const r = await this.http('POST', `/iclock/devicecmd?SN=${enc(this.sn)}`, body);
        if (r.status === 200 && r.text.trim().startsWith('OK')) {
          this.emit('result', `${results.length} result(s) → ${r.text.trim()}`);
          return;
        }
        this.emit('error', `devicecmd rejected: HTTP ${r.status} ${r.text.trim().slice(0, 120)}`);
      } catch (e) {
        if (signal.aborted) return;
        this.emit('error', `devicecmd failed: ${errMsg(e)}`);
      }
      await sleep(this.retryIntervalMs, signal);
    }
  }

  /** Execute one command and return its §13 result text. */
  private async execute(c: ParsedCommand): Promise<string> {
    const info = classifyCommand(c.text);
    let out: Outcome;
    const forced = Object.entries(this.fail.codes).find(([k]) => nameMatches(k, info.name));
    if (forced) out = { code: forced[1] };
    else if (this.fail.unsupported.some((u) => nameMatches(u, info.name))) out = { code: RC.UNSUPPORTED };
    else {
      try {
        out = await this.handle(info.name, info.args);
      } catch (e) {
        this.emit('error', `command ${c.id} crashed: ${errMsg(e)}`);
        out = { code: RC.READ_WRITE };
      }
    }
    if (out.uploads) {
      if (this.opts.uploadOrder === 'after') this.afterResults.push(out.uploads);
      else if (!(await out.uploads())) out = { ...out, code: RC.TIMEOUT };
    }
    this.log.push({ id: c.id, command: c.text, name: info.name, code: out.code, at: new Date() });
    this.emit('command', `C:${c.id}:${shorten(c.text)} → ${out.code}`);
    // The suffix (e.g. DATA QUERY ATTLOG's `&StartTime=…`) belongs to the first line, after CMD=.
    return out.raw !== undefined ? `ID=${c.id}\n${out.raw}` : formatResult(c.id, out.code, info.echo + (out.suffix ?? ''), out.extra ?? []);
  }

  private async handle(name: string, args: string): Promise<Outcome> {
    const rec = parseRecord(args);
    switch (name) {
      case 'DATA UPDATE USERINFO':
        return this.updateUser(rec);
      case 'DATA DELETE USERINFO':
        return this.deleteUser(rec);
      case 'DATA QUERY USERINFO':
        return this.queryUsers(rec);
      case 'DATA UPDATE BIOPHOTO':
        return this.updateBioPhoto(rec);
      case 'DATA DELETE BIOPHOTO': {
        const pin = rec.get('pin');
        if (!pin) return { code: RC.PARAM };
        if (!this.photos.has(pin) && !this.users.has(pin) && this.fail.unknownUser) return { code: RC.NO_USER };
        // The template extracted from the photo goes with it: the person no longer has that face.
        const type = String(this.photoTypes.get(pin) ?? rec.get('type') ?? VISIBLE_FACE);
        for (const key of [...(this.templates.get(pin)?.keys() ?? [])]) if (key.startsWith(`${type}:`)) this.templates.get(pin)?.delete(key);
        this.photos.delete(pin);
        this.photoTypes.delete(pin);
        return { code: RC.OK };
      }
      case 'DATA UPDATE USERPIC': {
        const pin = rec.get('pin');
        const content = rec.get('content');
        if (!pin || content === undefined) return { code: RC.PARAM };
        const size = rec.get('size');
        if (size !== undefined && size !== '' && Number(size) !== content.length) return { code: RC.PHOTO_SIZE };
        this.userPics.set(pin, Buffer.from(content, 'base64'));
        return { code: RC.OK };
      }
      case 'DATA DELETE USERPIC': {
        const pin = rec.get('pin');
        if (!pin) return { code: RC.PARAM };
        this.userPics.delete(pin);
        return { code: RC.OK };
      }
      case 'DATA UPDATE BIODATA': {
        const pin = rec.get('pin');
        const tmp = rec.get('tmp');
        if (!pin || tmp === undefined) return { code: RC.PARAM };
        const key = `${rec.get('type') ?? '0'}:${rec.get('no') ?? '0'}:${rec.get('index') ?? '0'}`;
        this.templateMap(pin).set(key, tmp);
        return { code: RC.OK };
      }
      case 'DATA DELETE BIODATA': {
        const pin = rec.get('pin');
        if (!pin) return { code: RC.PARAM };
        const type = rec.get('type');
        const no = rec.get('no');
        const m = this.templates.get(pin);
        if (m) {
          for (const k of [...m.keys()]) {
            const [t, n] = k.split(':');
            if ((type === undefined || t === type) && (no === undefined || n === no)) m.delete(k);
          }
        }
        return { code: RC.OK };
      }
      case 'DATA QUERY ATTLOG':
        return this.queryAttlog(rec);
      case 'DATA QUERY BIODATA':
        return this.queryBiodata(rec);
      case 'DATA QUERY BIOPHOTO':
        return this.queryPhotos(rec, 'BIOPHOTO');
      case 'DATA QUERY USERPIC':
        return this.queryPhotos(rec, 'USERPIC');
      case 'DATA QUERY FINGERTMP':
        // A face-only model (FingerFunOn=0) holds no fingerprint: the function is not there.
        return { code: RC.UNSUPPORTED };
      case 'CLEAR LOG':
        this.records = [];
        return { code: RC.OK };
      case 'CLEAR PHOTO':
        for (const r of this.records) r.photo = undefined;
        return { code: RC.OK };
      case 'CLEAR DATA':
        this.records = [];
        this.users.clear();
        this.photos.clear();
        this.photoTypes.clear();
        this.userPics.clear();
        this.templates.clear();
        return { code: RC.OK };
      case 'CLEAR BIODATA':
        this.templates.clear();
        return { code: RC.OK };
      case 'CHECK':
        return this.check();
      case 'LOG':
        await this.flushPending();
        return { code: RC.OK };
      case 'VERIFY SUM': {
        const m = /^ATTLOG\s+([\s\S]*)$/i.exec(args);
        if (!m) return { code: RC.PARAM };
        const r = parseRecord(m[1] ?? '');
        const start = r.get('starttime') ?? '';
        const end = r.get('endtime') ?? '';
        const n = this.recordsInRange(start, end).length;
        return { code: RC.OK, suffix: `&StartTime=${start}&EndTime=${end}&AttlogSum=${n}` };
      }
      case 'SET OPTION': {
        const eq = args.indexOf('=');
        if (eq <= 0) return { code: RC.PARAM };
        const key = args.slice(0, eq).trim();
        if (key.startsWith('alcohol_') && !this.opts.alcohol) return { code: RC.UNSUPPORTED };
        this.options[key] = args.slice(eq + 1);
        return { code: RC.OK };
      }
      case 'RELOAD OPTIONS':
        return { code: RC.OK };
      case 'INFO': {
        const cfg = this.deviceConfig();
        return { code: RC.OK, extra: Object.entries(cfg).map(([k, v]) => `${k}=${v}`) };
      }
      case 'REBOOT':
        this.rebootRequested = true;
        return { code: RC.OK };
      case 'AC_UNLOCK':
        this.doorOpenCount++;
        return { code: RC.OK };
      case 'AC_UNALARM':
        this.alarmCancelCount++;
        return { code: RC.OK };
      case 'UPGRADE':
        return this.upgrade(args);
      case 'GETFILE':
        return this.getFile(args.trim());
      default:
        return { code: RC.UNSUPPORTED };
    }
  }

  /**
   * §12.8.2 `UPGRADE [type=1,]checksum=<md5>,size=<n>,url=<URL>`: fetches GET /iclock/file?SN=…&url=<URL>, checks
   * size and md5 (-3 when they differ), takes only a file that starts `ZKEMU-FW <version>` (-1004 otherwise: not
   * firmware for this terminal), then answers 0 and restarts with the new version (docs §11).
   */
  private async upgrade(args: string): Promise<Outcome> {
    const kv = new Map<string, string>();
    for (const part of args.split(',')) {
      const i = part.indexOf('=');
      if (i > 0) kv.set(part.slice(0, i).trim().toLowerCase(), part.slice(i + 1).trim());
    }
    const url = kv.get('url');
    if (!url) return { code: RC.PARAM };
    let data: Buffer;
    try {
      const res = await fetch(`${this.server}/iclock/file?SN=${enc(this.sn)}&url=${enc(url)}`, {
        signal: AbortSignal.timeout(this.opts.httpTimeoutMs ?? 15_000),
      });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      data = Buffer.from(await res.arrayBuffer());
    } catch (e) {
      this.emit('error', `UPGRADE download ${url} failed: ${errMsg(e)}`);
      return { code: RC.SERVER_DATA };
    }
    const size = kv.get('size');
    const checksum = kv.get('checksum');
    if ((size && Number(size) !== data.length) || (checksum && createHash('md5').update(data).digest('hex') !== checksum.toLowerCase()))
      return { code: RC.READ_WRITE };
    const head = data.subarray(0, 80).toString('latin1').split('\n')[0] ?? '';
    const version = head.startsWith(FIRMWARE_HEADER) ? head.slice(FIRMWARE_HEADER.length).trim() : '';
    if (!version || version.length > 60) return { code: RC.INCONSISTENT };
    this.firmware = version;
    this.rebootRequested = true;
    return { code: RC.OK };
  }

  /** §12.5.1 GetFile: its own log file, sent back in the multi-line result with the bytes after `Content=`; other paths -2 (as real firmware answers). */
  private getFile(path: string): Outcome {
    const head = (code: number) => [`SN=${this.sn}`, `FILENAME=${path}`, 'CMD=GetFile', `Return=${code}`];
    if (path !== EMULATOR_LOG_FILE) return { code: -2, raw: head(-2).join('\n') };
    const content = this.eventLog.join('\n') + '\n';
    return { code: content.length, raw: [...head(content.length), `Content=${content}`].join('\n') };
  }

  private templateMap(pin: string): Map<string, string> {
    let m = this.templates.get(pin);
    if (!m) {
      m = new Map();
      this.templates.set(pin, m);
    }
    return m;
  }

  private updateUser(rec: Map<string, string>): Outcome {
    const pin = rec.get('pin');
    if (!pin) return { code: RC.PARAM };
    const old = this.users.get(pin);
    if (!old && this.fail.capacity && this.users.size >= this.capacity) return { code: RC.CAPACITY };
    const pick = (key: string, prev: string | undefined, dflt: string) => rec.get(key) ?? prev ?? dflt;
    const user: TerminalUser = {
      pin,
      name: pick('name', old?.name, ''),
      pri: Number(pick('pri', old === undefined ? undefined : String(old.pri), '0')) || 0,
      passwd: pick('passwd', old?.passwd, ''),
      card: pick('card', old?.card, ''),
      grp: pick('grp', old?.grp, '1'),
      tz: pick('tz', old?.tz, '0000000000000000'),
      verify: pick('verify', old?.verify, '-1'),
      viceCard: pick('vicecard', old?.viceCard, ''),
      startDatetime: pick('startdatetime', old?.startDatetime, ''),
      endDatetime: pick('enddatetime', old?.endDatetime, ''),
    };
    this.users.set(pin, user);
    return { code: RC.OK };
  }

  private deleteUser(rec: Map<string, string>): Outcome {
    const pin = rec.get('pin');
    if (!pin) return { code: RC.PARAM };
    if (!this.users.has(pin) && this.fail.unknownUser) return { code: RC.NO_USER };
    this.users.delete(pin);
    this.photos.delete(pin);
    this.photoTypes.delete(pin);
    this.userPics.delete(pin);
    this.templates.delete(pin);
    return { code: RC.OK };
  }

  /**
   * The PINs a query names: one (`PIN=`), else everyone. An unknown PIN is no one; with `failOn.unknownUser` it is
   * answered -10 (null here).
   */
  private queriedPins(rec: Map<string, string>): string[] | null {
    const pin = rec.get('pin');
    if (pin === undefined) return [...this.users.keys()];
    if (this.users.has(pin) || this.photos.has(pin) || this.templates.has(pin)) return [pin];
    return this.fail.unknownUser ? null : [];
  }

  /** A query's result: 0, and its lines as uploads (none when nothing matched). */
  private answer(lines: string[], post: (lines: string[]) => Promise<boolean>): Outcome {
    return lines.length ? { code: RC.OK, uploads: () => post(lines) } : { code: RC.OK };
  }

  private queryUsers(rec: Map<string, string>): Outcome {
    const pins = this.queriedPins(rec);
    if (pins === null) return { code: RC.NO_USER };
    return this.answer(this.userLines(pins), (lines) => this.postUsers(lines, 'query'));
  }

  /** §12.1.3 `DATA QUERY BIODATA Type=<t>[\tPIN=<pin>[\tNo=<n>]]` → table=BIODATA lines; Type is required. */
  private queryBiodata(rec: Map<string, string>): Outcome {
    const type = rec.get('type');
    if (type === undefined || type === '') return { code: RC.PARAM };
    const pins = this.queriedPins(rec);
    if (pins === null) return { code: RC.NO_USER };
    return this.answer(this.biodataLines(pins, type, rec.get('no')), (lines) => this.postLines('BIODATA', lines, 'query'));
  }

  /**
   * `DATA QUERY BIOPHOTO PIN=<pin>[\tType=<t>]` / `DATA QUERY USERPIC PIN=<pin>` (not in 2.4.1, notes §12.3): -1002
   * unless `photoQueries`; then the photos' lines as OPERLOG uploads, everyone's when no PIN is given.
   */
  private queryPhotos(rec: Map<string, string>, kind: 'BIOPHOTO' | 'USERPIC'): Outcome {
    if (!this.opts.photoQueries) return { code: RC.UNSUPPORTED };
    const pins = this.queriedPins(rec);
    if (pins === null) return { code: RC.NO_USER };
    const type = rec.get('type');
    const lines = kind === 'USERPIC' ? this.userPicLines(pins) : this.bioPhotoLines(pins, type === undefined ? undefined : Number(type));
    return this.answer(lines, (l) => this.postLines('OPERLOG', l, 'query'));
  }

  // ---------------------------------------------------------------- OPERLOG / BIODATA lines of what the terminal holds

  private userLines(pins: string[]): string[] {
    return pins.flatMap((pin) => {
      const u = this.users.get(pin);
      return u ? [formatUserLine(u)] : [];
    });
  }

  private userPicLines(pins: string[]): string[] {
    return pins.flatMap((pin) => {
      const pic = this.userPics.get(pin);
      return pic ? [formatUserPicLine(pin, pic)] : [];
    });
  }

  private bioPhotoLines(pins: string[], type?: number): string[] {
    return pins.flatMap((pin) => {
      const photo = this.photos.get(pin);
      const t = this.photoTypes.get(pin) ?? VISIBLE_FACE;
      return photo && (type === undefined || type === t) ? [formatBioPhotoLine(pin, t, photo, this.opts.bioPhotoNoIndex)] : [];
    });
  }

  private biodataLines(pins: string[], type?: string, no?: string): string[] {
    return pins.flatMap((pin) =>
      [...(this.templates.get(pin) ?? new Map<string, string>())]
        .filter(([key]) => {
          const [t, n] = key.split(':');
          return (type === undefined || t === type) && (no === undefined || n === no);
        })
        .map(([key, tmp]) => formatBiodataLine(pin, key, tmp)),
    );
  }

  /** USER lines go to OPERLOG, or to `table=USERINFO` on firmware that posts them there. */
  private postUsers(lines: string[], why: string): Promise<boolean> {
    return this.postLines(this.opts.userInfoTable ? 'USERINFO' : 'OPERLOG', lines, why);
  }

  /**
   * Lines in POSTs of `linesPerPost`, each retried until OK; false when the terminal stopped first. OPERLOG goes packed
   * as §11.14 `ContentType=tgz` with `tgz` (that form carries no Stamp in the text).
   */
  private async postLines(table: 'OPERLOG' | 'USERINFO' | 'BIODATA', lines: string[], why: string): Promise<boolean> {
    const per = Math.max(1, Math.floor(this.opts.linesPerPost ?? DEFAULT_LINES_PER_POST));
    for (let i = 0; i < lines.length; i += per) {
      const chunk = lines.slice(i, i + per);
      const text = encodeText(chunk.join('\n'), this.language);
      const packed = table === 'OPERLOG' && this.opts.tgz === true;
      const query = packed ? 'table=OPERLOG&ContentType=tgz' : `table=${table}&Stamp=${this.seq}`;
      const body = packed ? packTgz(`${table}.txt`, text) : text;
      const what = `${table}${packed ? ' tgz' : ''} ${chunk.length} line(s) (${why}, ${i + chunk.length}/${lines.length})`;
      if ((await this.uploadUntilOk(query, body, what)) === null) return false;
    }
    return true;
  }

  private async updateBioPhoto(rec: Map<string, string>): Promise<Outcome> {
    const pin = rec.get('pin');
    if (!pin) return { code: RC.PARAM };
    if (this.fail.unknownUser && !this.users.has(pin)) return { code: RC.NO_USER };
    const type = Number(rec.get('type') ?? '9');
    let data: Buffer;
    if ((rec.get('format') ?? '0') === '1') {
      const url = rec.get('url');
      if (!url) return { code: RC.PARAM };
      try {
        data = await this.download(url);
      } catch (e) {
        this.emit('error', `BIOPHOTO download ${url} failed: ${errMsg(e)}`);
        return { code: RC.SERVER_DATA };
      }
    } else {
      const content = rec.get('content');
      if (!content) return { code: RC.PARAM };
      const size = rec.get('size');
      if (size !== undefined && size !== '' && Number(size) !== content.length) return { code: RC.PHOTO_SIZE };
      data = Buffer.from(content, 'base64');
    }
    // Capacity counts what the terminal keeps of a face: the photo, or only its template without BioPhotoFun.
    const held: Map<string, unknown> = this.bioPhotoFun ? this.photos : this.templates;
    if (!held.has(pin) && this.fail.capacity && held.size >= this.capacity) return { code: RC.CAPACITY };
    const tmp = this.keepFace(pin, type, data);
    if (this.opts.photosDir) {
      const dir = join(this.opts.photosDir, this.sn);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${pin}.jpg`), data);
    }
    if (rec.get('postbacktmpflag') === '1') {
      const line = formatBiodataLine(pin, `${type}:0:0`, tmp);
      await this.uploadUntilOk(`table=BIODATA&Stamp=${this.seq}`, Buffer.from(line, 'latin1'), `BIODATA ${pin}`);
    }
    return { code: RC.OK };
  }

  /** Url of BIOPHOTO Format=1: absolute URLs as-is, `/x` from the server root, other relative paths under `/iclock/` (as PutFile, §12.5.2). */
  private async download(url: string): Promise<Buffer> {
    const full = /^https?:\/\//i.test(url) ? url : url.startsWith('/') ? this.server + url : `${this.server}/iclock/${url}`;
    const res = await fetch(full, { signal: AbortSignal.timeout(this.opts.httpTimeoutMs ?? 15_000) });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }

  private recordsInRange(start: string, end: string): StoredRecord[] {
    return this.records.filter((r) => (!start || r.rec.time >= start) && (!end || r.rec.time <= end));
  }

  private queryAttlog(rec: Map<string, string>): Outcome {
    const found = this.recordsInRange(rec.get('starttime') ?? '', rec.get('endtime') ?? '');
    if (!found.length) return { code: RC.PARAM }; // real device: -1 on an empty result (ADMS.md)
    return { code: RC.OK, uploads: async () => (await this.uploadRecords(found, 'query')) !== null };
  }

  /** §12.3.1 CHECK: re-read the options (a new §5 exchange), then re-upload by the stamps they carry. */
  private async check(): Promise<Outcome> {
    const signal = this.ctl?.signal;
    if (!signal) return { code: RC.BUSY };
    if (!(await this.handshake(signal))) return { code: RC.SERVER_DATA };
    return { code: RC.OK, uploads: () => this.resendByStamps('check') };
  }

  /**
   * Re-upload by the stamps of the latest §5 answer. ATTLOG: the records after `ATTLOGStamp` (`0`/`None` ⇒ all, as
   * before). `OPERLOGStamp=0`: every USER, then USERPIC, then BIOPHOTO line (people before their photos), and
   * `BIODATAStamp=0`: every template as table=BIODATA. Only an exact `0` counts for those two: new firmware ignores
   * stamps except 0 (notes §1), and a server that never saw the terminal answers `None`.
   */
  private async resendByStamps(why: string): Promise<boolean> {
    const stamp = Number(this.options.ATTLOGStamp);
    const from = Number.isFinite(stamp) ? stamp : 0;
    const again = this.records.filter((r) => r.seq > from);
    if (again.length && (await this.uploadRecords(again, why)) === null) return false;
    const pins = [...this.users.keys()];
    if (this.options.OPERLOGStamp?.trim() === '0') {
      if (!(await this.postUsers(this.userLines(pins), why))) return false;
      const photoLines = [...this.userPicLines(pins), ...this.bioPhotoLines(pins)];
      if (!(await this.postLines('OPERLOG', photoLines, why))) return false;
    }
    if (this.options.BIODATAStamp?.trim() === '0') return this.postLines('BIODATA', this.biodataLines(pins), why);
    return true;
  }

  // ---------------------------------------------------------------- §11.2 / §11.3 uploads

  private store(p: PunchInput): StoredRecord {
    const time = p.time === undefined ? this.now() : p.time instanceof Date ? formatDeviceTime(p.time, this.timezoneMinutes) : p.time;
    const rec: AttRecord = {
      pin: String(p.pin),
      time,
      status: p.status ?? 0,
      verify: p.verify ?? 15,
      workcode: p.workcode ?? '0',
      mask: p.mask,
      temperature: p.temperature,
      alcohol: this.opts.alcohol ? p.alcohol : undefined,
    };
    const health = this.opts.health ? p.health : undefined;
    const s: StoredRecord = { seq: ++this.seq, rec, acked: false, photo: p.photo, photoAcked: !p.photo, health, healthAcked: !health };
    this.records.push(s);
    return s;
  }

  /** One ATTLOG POST (chunks of 500 lines) retried until OK. */
  private async uploadRecords(list: StoredRecord[], why: string): Promise<string | null> {
    let last: string | null = null;
    for (let i = 0; i < list.length; i += 500) {
      const chunk = list.slice(i, i + 500);
      const stamp = Math.max(...chunk.map((r) => r.seq));
      const body = encodeText(chunk.map((r) => formatAttlogLine(r.rec)).join('\n'), this.language);
      this.lastBatch = { body, stamp };
      last = await this.uploadUntilOk(`table=ATTLOG&Stamp=${stamp}`, body, `ATTLOG ${chunk.length} record(s) (${why})`);
      if (last === null) return null;
      for (const r of chunk) r.acked = true;
    }
    return last;
  }

  private async uploadPhoto(r: StoredRecord): Promise<string | null> {
    if (!r.photo) return null;
    const name = attPhotoName(r.rec.pin, r.rec.time);
    const body = buildAttPhotoBody(name, this.sn, r.photo, this.options.ATTPHOTOBase64 === '1');
    const reply = await this.uploadUntilOk(`table=ATTPHOTO&Stamp=${r.seq}`, body, `ATTPHOTO ${name}`);
    if (reply !== null) r.photoAcked = true;
    return reply;
  }

  private healthLine(r: StoredRecord): string {
    return formatHealthLine(r.rec.pin, r.rec.time, r.health ?? {}, this.opts.place ?? '');
  }

  /** One HEALTHLOG POST for these records' health codes (after their ATTLOG was acknowledged), retried until OK. */
  private async uploadHealth(list: StoredRecord[]): Promise<string | null> {
    const todo = list.filter((r) => r.acked && !r.healthAcked);
    if (!todo.length) return null;
    const body = encodeText(todo.map((r) => this.healthLine(r)).join('\n'), this.language);
    this.lastHealth = body;
    const reply = await this.uploadUntilOk(`table=HEALTHLOG&Stamp=${Math.max(...todo.map((r) => r.seq))}`, body, `HEALTHLOG ${todo.length} record(s)`);
    if (reply !== null) for (const r of todo) r.healthAcked = true;
    return reply;
  }

  /** Re-send the last HEALTHLOG body n times; returns the server replies. */
  async replayHealth(n = 1): Promise<(string | null)[]> {
    if (!this.lastHealth) throw new Error('replayHealth: no HEALTHLOG batch was sent yet');
    const out: (string | null)[] = [];
    for (let i = 0; i < n; i++) out.push(await this.uploadUntilOk('table=HEALTHLOG', this.lastHealth, `HEALTHLOG replay ${i + 1}/${n}`));
    return out;
  }

  private async flushPending(): Promise<void> {
    const pending = this.records.filter((r) => !r.acked);
    if (pending.length) await this.uploadRecords(pending, 'pending');
    await this.uploadHealth(this.records);
    for (const r of this.records.filter((x) => x.acked && !x.photoAcked)) await this.uploadPhoto(r);
    for (const s of [...this.strangerQueue]) if (!s.sending && this.isOnline && (await this.uploadStranger(s)) === null) break;
  }

  /** One refused face's ATTPHOTO until OK (null: the terminal went offline first; it stays queued). Never twice at once. */
  private async uploadStranger(s: { name: string; body: Buffer; sending: boolean }): Promise<string | null> {
    s.sending = true;
    try {
      const reply = await this.uploadUntilOk('table=ATTPHOTO', s.body, `ATTPHOTO ${s.name} (stranger)`);
      if (reply !== null) this.strangerQueue = this.strangerQueue.filter((x) => x !== s);
      return reply;
    } finally {
      s.sending = false;
    }
  }

  /**
   * The terminal sees a face and refuses it (docs/zk-push-protocol.md §5.2, §11): no ATTLOG; with "upload
   * strangers" on, the capture goes up as one ATTPHOTO named `<time>-<type>-<PIN>.jpg` (§11.8), retried until OK.
   * Offline ⇒ kept and uploaded after the next handshake. The same input (time, PIN, type, photo) sends the same
   * body again: a resend.
   */
  async stranger(input: StrangerInput = {}): Promise<StrangerResult> {
    const time = input.time === undefined ? this.now() : input.time instanceof Date ? formatDeviceTime(input.time, this.timezoneMinutes) : input.time;
    const name = strangerPhotoName(input.type ?? 1, String(input.pin ?? '0'), time);
    if (this.opts.uploadStrangers === false) return { name, reply: null };
    const item = { name, body: buildAttPhotoBody(name, this.sn, input.photo ?? STRANGER_JPEG, this.options.ATTPHOTOBase64 === '1'), sending: false };
    this.strangerQueue.push(item);
    if (!this.isOnline) {
      this.emit('state', `offline: stranger ${name} kept for later`);
      return { name, reply: null };
    }
    return { name, reply: await this.uploadStranger(item) };
  }

  /**
   * The terminal sees a registered face (`pin`) and decides as a ZKTeco does: a PIN it does not hold is an unknown
   * face (stranger, PIN 0); a user outside their own validity (StartDatetime/EndDatetime, device-local) is refused
   * (a registered PIN refused, no ATTLOG); otherwise the door opens and the punch is recorded.
   */
  async recognize(input: RecognizeInput): Promise<RecognizeResult> {
    const pin = String(input.pin);
    const time = input.time === undefined ? this.now() : input.time instanceof Date ? formatDeviceTime(input.time, this.timezoneMinutes) : input.time;
    const user = this.users.get(pin);
    if (!user) return { outcome: 'unknown', stranger: await this.stranger({ time, ...(input.photo ? { photo: input.photo } : {}) }) };
    if ((user.startDatetime && time < user.startDatetime) || (user.endDatetime && time > user.endDatetime))
      return { outcome: 'refused', stranger: await this.stranger({ time, pin, ...(input.photo ? { photo: input.photo } : {}) }) };
    return { outcome: 'opened', punch: await this.punch({ pin, time, ...(input.photo ? { photo: input.photo } : {}) }) };
  }

  /** Record one punch: ATTLOG upload (retried until OK), then ATTPHOTO when a photo is given. Offline (stopped, refused, rebooting) ⇒ kept and uploaded after the next handshake. */
  async punch(p: PunchInput): Promise<PunchResult> {
    return this.punchBatch([p]);
  }

  /** Record several punches and upload them in ONE ATTLOG POST (then one ATTPHOTO POST per photo). */
  async punchBatch(list: PunchInput[]): Promise<PunchResult> {
    const stored = list.map((p) => this.store(p));
    const lines = stored.map((s) => formatAttlogLine(s.rec));
    const photoNames = stored.filter((s) => s.photo).map((s) => attPhotoName(s.rec.pin, s.rec.time));
    const healthLines = stored.filter((s) => s.health).map((s) => this.healthLine(s));
    if (!this.isOnline) {
      this.emit('state', `offline: ${stored.length} record(s) kept for later`);
      return { lines, reply: null, uploaded: false, photoNames, photoReplies: photoNames.map(() => null), healthLines, healthReply: null };
    }
    const reply = await this.uploadRecords(stored, 'punch');
    const healthReply = reply !== null ? await this.uploadHealth(stored) : null;
    const photoReplies: (string | null)[] = [];
    if (reply !== null) for (const s of stored) if (s.photo) photoReplies.push(await this.uploadPhoto(s));
    while (photoReplies.length < photoNames.length) photoReplies.push(null);
    return { lines, reply, uploaded: reply !== null, photoNames, photoReplies, healthLines, healthReply };
  }

  /** Re-send the last ATTLOG body (same Stamp) n times; returns the server replies. */
  async replay(n = 1): Promise<(string | null)[]> {
    if (!this.lastBatch) throw new Error('replay: no ATTLOG batch was sent yet');
    const { body, stamp } = this.lastBatch;
    const out: (string | null)[] = [];
    for (let i = 0; i < n; i++) out.push(await this.uploadUntilOk(`table=ATTLOG&Stamp=${stamp}`, body, `ATTLOG replay ${i + 1}/${n}`));
    return out;
  }

  // ---------------------------------------------------------------- misc

  private emit(type: TerminalEventType, message: string): void {
    // ASCII only: the file goes back byte for byte (GetFile's Return is its size).
    this.eventLog.push(`${new Date().toISOString()} ${type} ${message}`.replace(/[^\x20-\x7e]/g, '?'));
    if (this.eventLog.length > 1000) this.eventLog.splice(0, this.eventLog.length - 1000);
    this.onEvent?.({ sn: this.sn, type, message });
  }
}

function errMsg(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
}

function shorten(s: string): string {
  const one = s.replace(/\t/g, ' ');
  return one.length > 100 ? one.slice(0, 97) + '...' : one;
}

export function createTerminal(opts: TerminalOptions): Terminal {
  return new Terminal(opts);
}

export type { AttRecord } from './protocol.ts';
