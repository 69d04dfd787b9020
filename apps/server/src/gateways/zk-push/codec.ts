import iconv from 'iconv-lite';
import { isJpeg } from '../../lib/jpeg.ts';
import { wallClockMs } from '../../lib/time.ts';
import type { DeviceOp } from '../driver.ts';
import type { HealthColor, HealthRecord, PunchRecord, RosterUser } from '../terminal-events.ts';

/** Protocol text of the ZKTeco Attendance PUSH protocol 2.4.1 (docs/zk-push-protocol.md); pure functions only. */

/** App. 2 language code 83 = Simplified Chinese: those terminals read and write names in GB2312 (§1.2). */
export const GB2312_LANGUAGES = new Set(['83']);
export type Encoding = 'gb2312' | 'utf8';
export const encodingFor = (language: string | undefined): Encoding => (language && GB2312_LANGUAGES.has(language) ? 'gb2312' : 'utf8');

export function decodeBody(body: Buffer, encoding: Encoding): string {
  return encoding === 'gb2312' ? iconv.decode(body, 'gb2312') : body.toString('utf8');
}
export function encodeReply(text: string, encoding: Encoding): Buffer {
  return encoding === 'gb2312' ? iconv.encode(text, 'gb2312') : Buffer.from(text, 'utf8');
}

/** TAB and line breaks separate fields and records, so they can never be part of a value. */
const clean = (v: string | number) => String(v).replace(/[\t\r\n]+/g, ' ');

/** App. 1 return codes and what the administrator is told. */
export const RETURN_CODES: Record<number, string> = {
  0: 'ok',
  [-1]: 'parameter',
  [-2]: 'photoSize',
  [-3]: 'readWrite',
  [-9]: 'templateSize',
  [-10]: 'noUser',
  [-11]: 'templateFormat',
  [-12]: 'template',
  [-1001]: 'capacity',
  [-1002]: 'unsupported',
  [-1003]: 'timeout',
  [-1004]: 'inconsistent',
  [-1005]: 'busy',
  [-1006]: 'tooLong',
  [-1007]: 'memory',
  [-1008]: 'serverData',
};
export const codeKey = (code: number) => `device.codes.${RETURN_CODES[code] ?? 'unknown'}`;

/** The command text (§12) for one operation; `C:<id>:` is prepended by the caller. */
export function encodeOp(op: DeviceOp): string {
  switch (op.kind) {
    case 'user': {
      const f = [
        `PIN=${clean(op.pin)}`,
        `Name=${clean(op.name)}`,
        `Pri=${op.pri}`,
        `Passwd=${clean(op.password)}`,
        `Card=${clean(op.card)}`,
        'Grp=1',
        'TZ=0000000000000000',
        'Verify=-1',
      ];
      // Validity is not part of USERINFO in 2.4.1; firmware that knows these keys honours them, others ignore them.
      if (op.start) f.push(`StartDatetime=${op.start}`);
      if (op.end) f.push(`EndDatetime=${op.end}`);
      return `DATA UPDATE USERINFO ${f.join('\t')}`;
    }
    case 'photo':
      // §12.1.1.8: visible-light face (Type=9), base64 in Content (Format=0), Size = base64 length.
      return `DATA UPDATE BIOPHOTO PIN=${clean(op.pin)}\tType=9\tSize=${op.jpegBase64.length}\tContent=${op.jpegBase64}\tFormat=0\tUrl=\tPostBackTmpFlag=0`;
    case 'deleteUser':
      return `DATA DELETE USERINFO PIN=${clean(op.pin)}`;
    case 'unlock':
      return 'AC_UNLOCK';
    case 'options':
      // §12.4.1: one key per SET OPTION; several keys are several commands (the caller queues one op per key).
      return Object.entries(op.values)
        .map(([k, v]) => `SET OPTION ${clean(k)}=${clean(v)}`)
        .join('\n');
    case 'info':
      return 'INFO';
    case 'reboot':
      return 'REBOOT';
    case 'queryPunches':
      return `DATA QUERY ATTLOG StartTime=${op.from}\tEndTime=${op.to}`;
    case 'check':
      return 'CHECK';
    case 'readRoster':
      // notes §12.3 (1): the server has set OPERLOGStamp=0 in the options the terminal reads again on CHECK, so it
      // uploads every USER, USERPIC and BIOPHOTO line it holds as OPERLOG (the only way 2.4.1 documents).
      return 'CHECK';
    case 'upgrade':
      // §12.8.2 method 2: the terminal fetches the file as is (GET /iclock/file?SN=…&url=…), checks md5 and size.
      return `UPGRADE type=1,checksum=${op.md5},size=${op.size},url=${clean(op.url).replace(/,/g, '')}`;
    case 'getLog':
      // §12.5.1: the terminal sends the file back in its result (GetFile … Content=<bytes>).
      return `GetFile ${clean(op.path ?? ZK_LOG_FILE)}`;
  }
}

/**
 * The log file asked of a terminal when none is named: the text names no log file, so this is the file
 * this server's emulator keeps its log in (docs/zk-push-protocol.md §11); real firmware answers -2 for a
 * file it does not have, shown as "Log capture failed".
 */
export const ZK_LOG_FILE = '/mnt/mtdblock/log/push.log';

export interface HandshakeOptions {
  serial: string;
  attStamp: string;
  opStamp: string;
  photoStamp: string;
  delay: number;
  errorDelay: number;
  tzOffsetMinutes: number;
}

/** §5 reply: the options a terminal runs with. */
export function handshakeReply(o: HandshakeOptions): string {
  const tz = o.tzOffsetMinutes % 60 === 0 ? String(o.tzOffsetMinutes / 60) : String(o.tzOffsetMinutes);
  return [
    `GET OPTION FROM: ${o.serial}`,
    `ATTLOGStamp=${o.attStamp}`,
    `OPERLOGStamp=${o.opStamp}`,
    `ATTPHOTOStamp=${o.photoStamp}`,
    `ErrorDelay=${o.errorDelay}`,
    `Delay=${o.delay}`,
    'TransTimes=00:00;14:05',
    'TransInterval=1',
    'TransFlag=TransData AttLog\tOpLog\tAttPhoto\tEnrollUser\tChgUser\tUserPic\tBioPhoto',
    `TimeZone=${tz}`,
    'Realtime=1',
    'Encrypt=0',
    'ServerVer=2.4.1',
    'PushProtVer=2.4.1',
    'PushOptionsFlag=1',
    'MultiBioDataSupport=0:0:0:0:0:0:0:0:0:1',
    'MultiBioPhotoSupport=0:0:0:0:0:0:0:0:0:1',
  ].join('\n');
}

const PIN = /^[A-Za-z0-9]{1,24}$/;

/** §11.2 ATTLOG lines. Malformed lines are returned apart, never guessed at. */
export function parseAttlog(text: string): { records: PunchRecord[]; bad: number } {
  const records: PunchRecord[] = [];
  let bad = 0;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) continue;
    const f = line.split('\t');
    const pin = f[0]?.trim() ?? '';
    const time = f[1]?.trim() ?? '';
    if (!PIN.test(pin) || Number.isNaN(wallClockMs(time))) {
      bad++;
      continue;
    }
    const int = (s: string | undefined) => (s && /^-?\d+$/.test(s.trim()) ? Number(s) : 0);
    // Fields 8 and 9 (mask, temperature) are not in 2.4.1; thermal firmware appends them (see notes §5.1).
    const mask = f[7] !== undefined && /^[01]$/.test(f[7].trim()) ? Number(f[7]) : null;
    const tempRaw = f[8]?.trim();
    const temperature = tempRaw && /^\d{2}(\.\d{1,2})?$/.test(tempRaw) ? Number(tempRaw) : null;
    // Field 10: breath alcohol in mg/100 mL from breathalyser terminals (notes §5.1).
    const alcoholRaw = f[9]?.trim();
    const alcohol = alcoholRaw && /^\d{1,3}(\.\d{1,2})?$/.test(alcoholRaw) ? Number(alcoholRaw) : null;
    records.push({ pin, time, status: int(f[2]), verify: int(f[3]), workcode: (f[4] ?? '').trim().slice(0, 20), mask, temperature, alcohol });
  }
  return { records, bad };
}

/** The `Key=value` fields of a TAB-separated line after its first word, keys as sent (read by name, in any order). */
function keyed(line: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of line.slice(line.indexOf(' ') + 1).split('\t')) {
    const eq = f.indexOf('=');
    if (eq > 0) out.set(f.slice(0, eq).trim().toLowerCase(), f.slice(eq + 1));
  }
  return out;
}

/**
 * A USER line's card (notes §12.2): decimal as is, or hex-bracketed with the bytes as the terminal prints them, low
 * byte first (`[15CD5B07]` is 123456789). '' for none or anything else.
 */
export function cardOf(raw: string): string {
  const v = raw.trim();
  if (/^\d{1,20}$/.test(v)) return v === '0' ? '' : v.replace(/^0+/, '');
  const hex = /^\[([0-9A-Fa-f]{2}){1,8}\]$/.test(v) ? v.slice(1, -1) : '';
  if (!hex) return '';
  const bytes = hex.match(/../g)!.reverse().join('');
  const n = BigInt(`0x${bytes}`);
  return n === 0n ? '' : n.toString();
}

/** The largest enrolment face kept from a terminal (notes §12.5: caps for a hostile or broken terminal). */
export const BIOPHOTO_MAX_BYTES = 2 * 1024 * 1024;

/**
 * The user log (§11.5 OPERLOG, and the same lines posted as `table=USERINFO` / `BIOPHOTO`; notes §12.2–§12.3), read
 * line by line by its first word: `USER` lines are the users the terminal holds, `BIOPHOTO` type 9 lines their
 * enrolment faces (Size = the base64's length, the bytes a JPEG). Templates, display photos, fingerprints and audit
 * lines are counted, not read; a malformed line is counted apart, never guessed at.
 */
export function parseOperlog(text: string): { users: RosterUser[]; faces: { pin: string; jpeg: Buffer }[]; lines: number; bad: number } {
  const users: RosterUser[] = [];
  const faces: { pin: string; jpeg: Buffer }[] = [];
  let lines = 0;
  let bad = 0;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) continue;
    lines++;
    const word = line.slice(0, line.indexOf(' ')).toUpperCase();
    if (word !== 'USER' && word !== 'BIOPHOTO') continue;
    const f = keyed(line);
    const pin = (f.get('pin') ?? '').trim();
    if (!PIN.test(pin)) {
      bad++;
      continue;
    }
    if (word === 'USER') {
      const when = (k: string) => {
        const v = (f.get(k) ?? '').trim();
        return Number.isNaN(wallClockMs(v)) ? '' : v;
      };
      users.push({
        pin,
        name: (f.get('name') ?? '')
          .replace(/[\u0000-\u001f]/g, '')
          .trim()
          .slice(0, 128),
        card: cardOf(f.get('card') ?? ''),
        validFrom: when('startdatetime'),
        validTo: when('enddatetime'),
        admin: Number(f.get('pri')) === 14,
        kind: 'normal',
      });
      continue;
    }
    // BIOPHOTO: the visible-light comparison photo only (Type 9; 2 is near-infrared)
    if ((f.get('type') ?? '9').trim() !== '9') continue;
    const content = (f.get('content') ?? '').trim();
    const size = Number(f.get('size'));
    const jpeg = Buffer.from(content, 'base64');
    if (!content || size !== content.length || jpeg.length > BIOPHOTO_MAX_BYTES || !isJpeg(jpeg)) {
      bad++;
      continue;
    }
    faces.push({ pin, jpeg });
  }
  return { users, faces, lines, bad };
}

const COLORS: Record<string, HealthColor> = { '0': 'green', '1': 'yellow', '2': 'red', green: 'green', yellow: 'yellow', red: 'red' };
const NAT: Record<string, 'negative' | 'positive'> = { '0': 'negative', '1': 'positive', negative: 'negative', positive: 'positive' };
/** A value of a HEALTHLOG key: one line, no control characters, at most `max` characters. */
const text = (v: string | undefined, max: number) =>
  (v ?? '')
    .replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .trim()
    .slice(0, max);
const DATE_OR_TIME = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;

/**
 * HEALTHLOG lines (not in 2.4.1; our convention for health-code terminals, docs/zk-push-protocol.md §5.6):
 * `HEALTH PIN=..\tTime=..\tName=..\tIDNum=..\tTemp=..\tColor=..\tPlace=..\tNATTime=..\tNATResult=..\tTrip=..\tVaccine=..\tVaccineTime=..`,
 * keys in any order and case. PIN and Time are required (they name the punch); an unreadable optional value is
 * dropped, never guessed at; a line without a valid PIN or time is returned apart.
 */
export function parseHealthlog(body: string): { records: HealthRecord[]; bad: number } {
  const records: HealthRecord[] = [];
  let bad = 0;
  for (const raw of body.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) continue;
    const m = /^HEALTH\s+(.*)$/i.exec(line);
    if (!m) {
      bad++;
      continue;
    }
    const kv = new Map<string, string>();
    for (const field of m[1]!.split('\t')) {
      const i = field.indexOf('=');
      if (i > 0) kv.set(field.slice(0, i).trim().toLowerCase(), field.slice(i + 1));
    }
    const pin = kv.get('pin')?.trim() ?? '';
    const time = kv.get('time')?.trim() ?? '';
    if (!PIN.test(pin) || Number.isNaN(wallClockMs(time))) {
      bad++;
      continue;
    }
    const temp = kv.get('temp')?.trim();
    const vaccine = kv.get('vaccine')?.trim();
    const natTime = kv.get('nattime')?.trim() ?? '';
    const vaccineTime = kv.get('vaccinetime')?.trim() ?? '';
    records.push({
      pin,
      time,
      name: text(kv.get('name'), 64),
      idNumber: text(kv.get('idnum'), 32),
      temperature: temp && /^\d{2}(\.\d{1,2})?$/.test(temp) ? Number(temp) : null,
      color: COLORS[(kv.get('color') ?? '').trim().toLowerCase()] ?? null,
      place: text(kv.get('place'), 100),
      natTime: DATE_OR_TIME.test(natTime) ? natTime : '',
      natResult: NAT[(kv.get('natresult') ?? '').trim().toLowerCase()] ?? '',
      trip: text(kv.get('trip'), 200),
      vaccineCount: vaccine && /^\d{1,2}$/.test(vaccine) ? Number(vaccine) : null,
      vaccineTime: DATE_OR_TIME.test(vaccineTime) ? vaccineTime : '',
    });
  }
  return { records, bad };
}

export interface CmdResult {
  id: number;
  code: number;
  cmd: string;
  data: Record<string, string>;
}

/**
 * §13 results: `ID=..&Return=..&CMD=..` lines, some followed by `key=value` lines (INFO); the multi-line form
 * (GetFile, PutFile, Shell: `ID=..` alone, then `Return=..` and `CMD=..` on lines of their own) too. Unknown ids
 * are dropped.
 */
export function parseDevicecmd(text: string): CmdResult[] {
  const out: CmdResult[] = [];
  let current: CmdResult | undefined;
  /** the result's Return came on a line of its own (multi-line form) */
  let codeOnItsLine = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('ID=')) {
      const q = new URLSearchParams(line);
      const id = Number(q.get('ID'));
      codeOnItsLine = !q.has('Return');
      const code = codeOnItsLine ? 0 : Number(q.get('Return'));
      current = Number.isSafeInteger(id) && id > 0 && Number.isFinite(code) ? { id, code, cmd: q.get('CMD') ?? '', data: {} } : undefined;
      if (current) out.push(current);
    } else if (current && codeOnItsLine && /^(Return|CMD)=/.test(line)) {
      const value = line.slice(line.indexOf('=') + 1).trim();
      if (line.startsWith('CMD=')) current.cmd = value.slice(0, 40);
      else current.code = /^-?\d{1,12}$/.test(value) ? Number(value) : -1;
    } else if (current && line.includes('=') && Object.keys(current.data).length < 100) {
      const i = line.indexOf('=');
      current.data[line.slice(0, i).trim()] = line
        .slice(i + 1)
        .trim()
        .slice(0, 200);
    }
  }
  return out;
}

export interface AttPhoto {
  /** file name as sent: YYYYMMDDhhmmss-PIN.jpg, or §11.8 YYYYMMDDhhmmss-<type>-PIN[-<id number>].jpg */
  name: string;
  /** the user PIN; '0' for a face the terminal does not know (sent as `0` or empty) */
  pin: string;
  time: string;
  /**
   * §11.8 photo type: 0 attendance ok, 1 attendance failed, 2 blacklist, 3 verification ok, 4 verification
   * failed; null for the plain §11.3 name (a punch's capture photo).
   */
  type: number | null;
  data: Buffer;
}

/** §11.8 photo types that mean the terminal refused the face: a stranger, not a punch (notes §5.2). */
export const FAILED_PHOTO_TYPES: readonly number[] = [1, 2, 4];

/**
 * §11.3: `PIN=<file>\nSN=..\nsize=..\nCMD=uploadphoto\0<jpeg>`; the file name carries time and user PIN, and in
 * the §11.8 variant a one-digit photo type before the PIN (and an id number after it).
 */
export function parseAttphoto(body: Buffer, base64 = false): AttPhoto | undefined {
  const nul = body.indexOf(0);
  if (nul < 0 || nul > 1024) return undefined;
  const head = body.subarray(0, nul).toString('latin1');
  const fields = Object.fromEntries(
    head.split('\n').map((l) => {
      const i = l.indexOf('=');
      return [l.slice(0, i).trim(), l.slice(i + 1).trim()];
    }),
  );
  const name = fields.PIN ?? '';
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})-(.*)\.jpg$/i.exec(name);
  if (!m) return undefined;
  const time = `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}`;
  if (Number.isNaN(wallClockMs(time))) return undefined;
  // `<PIN>` (§11.3) or `<type>-<PIN>[-<id number>]` (§11.8): a one-digit type 0–4 first means the latter. A
  // stranger's PIN is `0` or empty.
  const parts = m[7]!.split('-');
  let type: number | null = null;
  let pin: string;
  if (parts.length >= 2 && /^[0-4]$/.test(parts[0]!)) {
    type = Number(parts[0]);
    pin = parts[1] || '0';
    if (parts.length > 3 || (parts[2] !== undefined && !/^[A-Za-z0-9]{0,32}$/.test(parts[2]))) return undefined;
  } else {
    if (parts.length > 2) return undefined;
    pin = parts[0]!;
  }
  if (!/^[A-Za-z0-9]{1,24}$/.test(pin)) return undefined;
  const raw = body.subarray(nul + 1);
  const data = base64 ? Buffer.from(raw.toString('latin1'), 'base64') : raw;
  if (!(data[0] === 0xff && data[1] === 0xd8)) return undefined;
  return { name, pin, time, type, data };
}

/** §9 INFO= on getrequest: firmware, users, fingerprints, records, ip, … */
export function parseInfoParam(info: string): { firmware: string; users: number; records: number; ip: string } | undefined {
  const f = info.split(',');
  if (f.length < 5) return undefined;
  const n = (s: string | undefined) => (s && /^\d+$/.test(s) ? Number(s) : 0);
  return { firmware: (f[0] ?? '').slice(0, 60), users: n(f[1]), records: n(f[3]), ip: (f[4] ?? '').slice(0, 45) };
}

/**
 * §12.5.1 GetFile results carry the file as raw bytes after `Content=` (`Return` = its size), which may hold
 * line breaks or anything else: they are cut out of the body by size before it is read as text.
 * Returns the body without them and the files by command id.
 */
export function splitFileResults(body: Buffer): { rest: Buffer; files: Map<number, { name: string; data: Buffer }> } {
  const files = new Map<number, { name: string; data: Buffer }>();
  const parts: Buffer[] = [];
  let from = 0;
  for (;;) {
    const at = body.indexOf('Content=', from, 'latin1');
    if (at < 0) break;
    // The header lines of this result: from the line starting `ID=` before it.
    const head = body.subarray(Math.max(from, at - 2048), at).toString('latin1');
    const start = head.lastIndexOf('ID=');
    const fields = new Map<string, string>();
    if (start >= 0 && (start === 0 || head[start - 1] === '\n'))
      for (const l of head.slice(start).split('\n')) {
        const i = l.indexOf('=');
        if (i > 0) fields.set(l.slice(0, i).trim().toUpperCase(), l.slice(i + 1).trim());
      }
    const id = Number(fields.get('ID'));
    const size = Number(fields.get('RETURN'));
    const isFile = (fields.get('CMD') ?? '').toLowerCase() === 'getfile' && Number.isSafeInteger(id) && id > 0 && Number.isSafeInteger(size) && size >= 0;
    const end = at + 'Content='.length + size;
    if (!isFile || end > body.length) {
      parts.push(body.subarray(from, at + 'Content='.length));
      from = at + 'Content='.length;
      continue;
    }
    files.set(id, { name: (fields.get('FILENAME') ?? '').slice(0, 200), data: Buffer.from(body.subarray(at + 'Content='.length, end)) });
    parts.push(body.subarray(from, at));
    from = end;
  }
  parts.push(body.subarray(from));
  return { rest: Buffer.concat(parts), files };
}
