// Pure helpers for the device side of the ZKTeco Attendance PUSH protocol (PUSH SDK 2.4.1).
// Section numbers refer to docs/zk-push-protocol.md and the protocol text it cites.

import { gunzipSync, gzipSync } from 'node:zlib';

/** Return codes (protocol Appendix 1). */
export const RC = {
  OK: 0,
  PARAM: -1,
  PHOTO_SIZE: -2,
  READ_WRITE: -3,
  TEMPLATE_SIZE: -9,
  NO_USER: -10,
  CAPACITY: -1001,
  UNSUPPORTED: -1002,
  TIMEOUT: -1003,
  INCONSISTENT: -1004,
  BUSY: -1005,
  TOO_LONG: -1006,
  MEMORY: -1007,
  SERVER_DATA: -1008,
} as const;

/** One command line from a getrequest reply: `C:<id>:<text>`. */
export interface ParsedCommand {
  id: string;
  /** Everything after the second colon, e.g. `DATA UPDATE USERINFO PIN=1\tName=A`. */
  text: string;
}

/** Split a getrequest reply into commands. `OK` (or empty) means no command. Non-`C:` lines are ignored. */
export function parseCommands(body: string): ParsedCommand[] {
  const out: ParsedCommand[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const m = /^C:\s*([^:]*?)\s*:\s?(.*)$/s.exec(line);
    if (m) out.push({ id: m[1] ?? '', text: m[2] ?? '' });
  }
  return out;
}

/** A classified command: `name` is the key used for failure injection, `echo` is the `CMD=` value of the result (§13). */
export interface CommandInfo {
  /** `DATA UPDATE USERINFO`, `CLEAR LOG`, `SET OPTION`, `AC_UNLOCK`, … (upper-case) */
  name: string;
  /** `DATA`, `CLEAR_LOG`, `SET OPTION`, `INFO`, `Shell`, … */
  echo: string;
  /** Text after the name (the data record / key=value / path); '' when none. */
  args: string;
}

export function classifyCommand(text: string): CommandInfo {
  const data = /^DATA (UPDATE|DELETE|QUERY) (\S+)(?: ([\s\S]*))?$/i.exec(text);
  if (data) return { name: `DATA ${data[1]!.toUpperCase()} ${data[2]!.toUpperCase()}`, echo: 'DATA', args: data[3] ?? '' };
  const clear = /^CLEAR (\S+)(?: ([\s\S]*))?$/i.exec(text);
  if (clear) return { name: `CLEAR ${clear[1]!.toUpperCase()}`, echo: `CLEAR_${clear[1]!.toUpperCase()}`, args: clear[2] ?? '' };
  for (const two of ['SET OPTION', 'RELOAD OPTIONS', 'VERIFY SUM']) {
    if (text.toUpperCase() === two || text.toUpperCase().startsWith(two + ' ')) {
      return { name: two, echo: two, args: text.slice(two.length + 1) };
    }
  }
  const sp = text.indexOf(' ');
  const first = sp < 0 ? text : text.slice(0, sp);
  const args = sp < 0 ? '' : text.slice(sp + 1);
  const upper = first.toUpperCase();
  const echoes: Record<string, string> = { SHELL: 'Shell', GETFILE: 'GetFile', PUTFILE: 'PutFile' };
  return { name: upper, echo: echoes[upper] ?? first, args };
}

/** `key=value\tkey=value` → map with lower-cased keys (key case differs between tables: PIN/Pin, Size/SIZE). */
export function parseRecord(s: string): Map<string, string> {
  const m = new Map<string, string>();
  if (!s) return m;
  for (const part of s.split('\t')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    m.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1));
  }
  return m;
}

/** §13 result line: `ID=<id>&Return=<code>&CMD=<echo>` (+ optional extra `\n`-separated lines, e.g. INFO). */
export function formatResult(id: string, code: number, echo: string, extraLines: string[] = []): string {
  return [`ID=${id}&Return=${code}&CMD=${echo}`, ...extraLines].join('\n');
}

/** Parse the §5 reply. Returns null when the first line is not `GET OPTION FROM: …`. */
export function parseOptionsReply(body: string): { sn: string; options: Record<string, string> } | null {
  const lines = body.split('\n').map((l) => l.replace(/\r$/, ''));
  const head = /^GET OPTION FROM:\s*(.*)$/.exec(lines[0] ?? '');
  if (!head) return null;
  const options: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    options[line.slice(0, eq).trim()] = line.slice(eq + 1);
  }
  return { sn: (head[1] ?? '').trim(), options };
}

/** TimeZone option → minutes east of UTC (§5: small values are hours, |TZ| > 60 are minutes). */
export function timezoneToMinutes(tz: number): number {
  if (!Number.isFinite(tz)) return 0;
  return Math.abs(tz) <= 14 ? tz * 60 : tz;
}

/** `YYYY-MM-DD hh:mm:ss` in the device's local time (offset in minutes east of UTC). */
export function formatDeviceTime(date: Date, offsetMinutes: number): string {
  return new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Attendance record as the emulator stores it. */
export interface AttRecord {
  pin: string;
  /** `YYYY-MM-DD hh:mm:ss`, device local time */
  time: string;
  status: number;
  verify: number;
  workcode: string;
  /** Emulator extension, not in PUSH 2.4.1: appended as field 8 (see docs §11). */
  mask?: boolean | undefined;
  /** Emulator extension, not in PUSH 2.4.1: appended as field 9 (see docs §11). */
  temperature?: number | undefined;
  /** Emulator extension (breathalyser terminals): breath alcohol in mg/100 mL, appended as field 10. */
  alcohol?: number | undefined;
}

/** §11.2 line: `PIN\tTime\tStatus\tVerify\tWorkcode\tReserved\tReserved` (+ emulator extras). */
export function formatAttlogLine(r: AttRecord): string {
  const fields = [r.pin, r.time, String(r.status), String(r.verify), r.workcode, '0', '0'];
  if (r.mask !== undefined || r.temperature !== undefined || r.alcohol !== undefined) {
    fields.push(r.mask === undefined ? '' : r.mask ? '1' : '0');
    fields.push(r.temperature === undefined ? '' : r.temperature.toFixed(1));
  }
  if (r.alcohol !== undefined) fields.push(r.alcohol.toFixed(1));
  return fields.join('\t');
}

/** Emulator extension (health-code terminals): what the terminal read of the person's health code with a punch. */
export interface HealthInfo {
  color?: 'green' | 'yellow' | 'red' | undefined;
  /** as the health-code platform returned it */
  name?: string | undefined;
  idNumber?: string | undefined;
  temperature?: number | undefined;
  /** nucleic-acid test: device-local `YYYY-MM-DD hh:mm:ss` and result */
  natTime?: string | undefined;
  natResult?: 'negative' | 'positive' | undefined;
  /** travel history */
  trip?: string | undefined;
  vaccineCount?: number | undefined;
  /** `YYYY-MM-DD` of the last dose */
  vaccineTime?: string | undefined;
}

/**
 * HEALTHLOG line (not in 2.4.1; docs/zk-push-protocol.md §5.6): `HEALTH PIN=..\tTime=..\t<key>=<value>…`,
 * the punch's PIN and device time naming it; keys without a value are left out. `place` is the terminal's install place.
 */
export function formatHealthLine(pin: string, time: string, h: HealthInfo, place = ''): string {
  const v = (x: string | number | undefined) => (x === undefined ? '' : String(x).replace(/[\t\r\n]+/g, ' '));
  const fields: [string, string][] = [
    ['PIN', pin],
    ['Time', time],
    ['Name', v(h.name)],
    ['IDNum', v(h.idNumber)],
    ['Temp', h.temperature === undefined ? '' : h.temperature.toFixed(1)],
    ['Color', v(h.color)],
    ['Place', v(place)],
    ['NATTime', v(h.natTime)],
    ['NATResult', v(h.natResult)],
    ['Trip', v(h.trip)],
    ['Vaccine', v(h.vaccineCount)],
    ['VaccineTime', v(h.vaccineTime)],
  ];
  return (
    'HEALTH ' +
    fields
      .filter(([k, x]) => x !== '' || k === 'PIN' || k === 'Time')
      .map(([k, x]) => `${k}=${x}`)
      .join('\t')
  );
}

/** §11.3 attendance photo file name: `<YYYYMMDDhhmmss>-<PIN>.jpg` (pattern of the protocol's example). */
export function attPhotoName(pin: string, time: string): string {
  return `${time.replace(/\D/g, '')}-${pin}.jpg`;
}

/** §11.8 photo types a terminal sends for a face it refused: 1 attendance failed, 2 blacklist, 4 verification failed. */
export type RefusedPhotoType = 1 | 2 | 4;

/** §11.8 file name of a refused face: `<YYYYMMDDhhmmss>-<type>-<PIN>.jpg`, PIN `0` for a face the terminal does not know. */
export function strangerPhotoName(type: RefusedPhotoType, pin: string, time: string): string {
  return `${time.replace(/\D/g, '')}-${type}-${pin || '0'}.jpg`;
}

/** A small valid JPEG (120×160, a grey silhouette with a question mark): a stranger's capture when none is given. */
export const STRANGER_JPEG = Buffer.from(
  '/9j/2wBDABQODxIPDRQSEBIXFRQYHjIhHhwcHj0sLiQySUBMS0dARkVQWnNiUFVtVkVGZIhlbXd7gYKBTmCNl4x9lnN+gXz/2wBDARUXFx4aHj' +
    'shITt8U0ZTfHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHz/wAARCACgAHgDASIAAhEBAxEB/8QAGQAB' +
    'AAMBAQAAAAAAAAAAAAAAAAMEBQIB/8QALhAAAgIBAwMCBAUFAAAAAAAAAAECAwQREiExQVEFcRMiYYEUQnKRoRUjMlOS/8QAFgEBAQEAAAAAAA' +
    'AAAAAAAAAAAAEC/8QAFhEBAQEAAAAAAAAAAAAAAAAAAAER/9oADAMBAAIRAxEAPwDfABpAAAAAAAAAAAAAAAAAAAAAAAAAAAARWZNVT0lNa+Fy' +
    'Q/1CnXpP9gLYIq8mq16RmtfD4JQAAAAAAAAAAAAAAZ+XmNt11PRd5LuT513wqtsX80+PsZRYgACgXsTMaarteq7SfYogDeBWwbvi1bZP5o8fYs' +
    'mVAAAAAAAAAABlZ892S12itCsSZD1yLP1MjNIu+n1Y9isnk6bYaaavRdy/VH0/Ik4Vxg340aMM2PTMJ1f37eG1wvC8kop+o4kcWyOzXZPon2KZ' +
    'd9Tyo5FyjDmEONfLKQFnAntyUu0loapi470yK/1I2hQABFAAAAAAAAY+XHbk2L66kJe9Sr0lGxdHwyiVHsf8lpzyauZZm/hZ/FrrjDjVxfPX3M' +
    'qL0kn4ZfyfU/xFEqvg7d2nO7Xv7AZ4AKJsSO7JrX11Ngz/AE2vWUrH0XCNAlAAEUAAAAAAABxbWra3CXRmPbXKqbhJcr+TbI7qYXR0mvZ90Big' +
    'tW4NsH8mk19OpD+Hu10+FP8AY0iM7qrlbNQiuX/BPVg2zfz6QX16mhTTCmOkF7vuyaPaq1VWoR6I7AIoAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
    'AAAAAAAAAAAAAAAAAAAAABHbbCmG6b9l5A7bSWreiKl2fCPFa3vz2KeRkzvfPEe0UQlxFieZfP8+1eEiP493+2f/TIwUWIZl8Pz7l4aLVOfCXF' +
    'i2Pz2M0EG6mmtU9UemPj5M6HxzHvFmrVbC6G6D914IrsAAAAAAPJSUIuUnol1A4utjTByl9l5Mm66V090n7LwdZF7vs1fEV0RCVAAFAAAAAAJK' +
    'bpUz3RfuvJGANqm2N0FKP3XgkMfHvdFmq5i+qNeMlOKlF6p9DKvQAB/9k=',
  'base64',
);

/** §11.3 body: `PIN=<name>\nSN=<sn>\nsize=<n>\nCMD=uploadphoto\0<data>`. */
export function buildAttPhotoBody(name: string, sn: string, photo: Buffer, base64 = false): Buffer {
  const head = Buffer.from(`PIN=${name}\nSN=${sn}\nsize=${photo.length}\nCMD=uploadphoto\0`, 'latin1');
  return Buffer.concat([head, base64 ? Buffer.from(photo.toString('base64'), 'latin1') : photo]);
}

/** Inverse of buildAttPhotoBody (used by tests and fake servers). */
export function parseAttPhotoBody(body: Buffer): { headers: Record<string, string>; data: Buffer } | null {
  const nul = body.indexOf(0);
  if (nul < 0) return null;
  const headers: Record<string, string> = {};
  for (const line of body.subarray(0, nul).toString('latin1').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) headers[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return { headers, data: body.subarray(nul + 1) };
}

/** The fields of a §11.5 USER line (the emulator's stored user). */
export interface UserLineFields {
  pin: string;
  name: string;
  pri: number;
  passwd: string;
  card: string;
  grp: string;
  tz: string;
  verify: string;
  viceCard: string;
  startDatetime: string;
  endDatetime: string;
}

/**
 * §11.5 USER line. The validity keys are not in 2.4.1: a terminal that keeps them is assumed to send them (by key,
 * after the text's fields) only when set, so a user valid always looks exactly like the text's example.
 */
export function formatUserLine(u: UserLineFields): string {
  let line = `USER PIN=${u.pin}\tName=${u.name}\tPri=${u.pri}\tPasswd=${u.passwd}\tCard=${u.card}\tGrp=${u.grp}\tTZ=${u.tz}\tVerify=${u.verify}\tViceCard=${u.viceCard}`;
  if (u.startDatetime) line += `\tStartDatetime=${u.startDatetime}`;
  if (u.endDatetime) line += `\tEndDatetime=${u.endDatetime}`;
  return line;
}

/** §11.13 USERPIC line; `Size` is the length of the base64 text (as the server checks it). */
export function formatUserPicLine(pin: string, jpeg: Buffer): string {
  const b64 = jpeg.toString('base64');
  return `USERPIC PIN=${pin}\tFileName=${pin}.jpg\tSize=${b64.length}\tContent=${b64}`;
}

/**
 * §11.15 BIOPHOTO line. `noIndex` adds the `No=0\tIndex=0` keys some firmware puts after `PIN` (notes §12.3: seen in
 * integrators' parsers), so a server is tested on reading keys by name.
 */
export function formatBioPhotoLine(pin: string, type: number, jpeg: Buffer, noIndex = false): string {
  const b64 = jpeg.toString('base64');
  const extra = noIndex ? '\tNo=0\tIndex=0' : '';
  return `BIOPHOTO PIN=${pin}${extra}\tFileName=${pin}.jpg\tType=${type}\tSize=${b64.length}\tContent=${b64}`;
}

/**
 * §11.12 BIODATA line for a stored template (`key` = `type:no:index`). MajorVer/MinorVer 0.0: the emulator's
 * templates are stand-ins of no real algorithm, so no terminal of a real version would take them.
 */
export function formatBiodataLine(pin: string, key: string, tmp: string): string {
  const [type = '0', no = '0', index = '0'] = key.split(':');
  return `BIODATA Pin=${pin}\tNo=${no}\tIndex=${index}\tValid=1\tDuress=0\tType=${type}\tMajorVer=0\tMinorVer=0\tFormat=0\tTmp=${tmp}`;
}

// ---- §11.14 packed uploads: a gzip'd tar of one file holding the LF-joined lines ----

const TAR_BLOCK = 512;

/** One ustar header; numbers are octal text, the checksum is summed with its own field read as spaces. */
function tarHeader(name: string, size: number): Buffer {
  const h = Buffer.alloc(TAR_BLOCK);
  const put = (text: string, at: number) => h.write(text, at, 'latin1');
  put(name.slice(0, 99), 0);
  put('0000644\0', 100);
  put('0000000\0', 108);
  put('0000000\0', 116);
  put(size.toString(8).padStart(11, '0') + '\0', 124);
  // mtime 0: the same lines always pack to the same bytes (a resend is recognisable).
  put('00000000000\0', 136);
  put('        ', 148);
  put('0', 156);
  put('ustar\0', 257);
  put('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return h;
}

/** §11.14 `ContentType=tgz` body: a tgz holding one file `name` with `data` (the file name is not in the text). */
export function packTgz(name: string, data: Buffer): Buffer {
  const pad = Buffer.alloc((TAR_BLOCK - (data.length % TAR_BLOCK)) % TAR_BLOCK);
  return gzipSync(Buffer.concat([tarHeader(name, data.length), data, pad, Buffer.alloc(2 * TAR_BLOCK)]));
}

/** Inverse of packTgz for tests and fake servers: the files of a tgz (regular files only). */
export function unpackTgz(tgz: Buffer): { name: string; data: Buffer }[] {
  const tar = gunzipSync(tgz);
  const out: { name: string; data: Buffer }[] = [];
  for (let at = 0; at + TAR_BLOCK <= tar.length;) {
    const h = tar.subarray(at, at + TAR_BLOCK);
    if (h.every((b) => b === 0)) break;
    const name = h.subarray(0, 100).toString('latin1').replace(/\0.*$/s, '');
    const size = parseInt(h.subarray(124, 136).toString('latin1').replace(/\0.*$/s, '').trim() || '0', 8);
    const type = String.fromCharCode(h[156] ?? 0);
    if (type === '0' || type === '\0') out.push({ name, data: Buffer.from(tar.subarray(at + TAR_BLOCK, at + TAR_BLOCK + size)) });
    at += TAR_BLOCK + Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
  }
  return out;
}

/** Does a failure-injection entry (`AC_UNLOCK`, `DATA UPDATE BIOPHOTO`, `DATA`) cover this command name? */
export function nameMatches(entry: string, name: string): boolean {
  const e = entry.trim().toUpperCase();
  return name === e || name.startsWith(e + ' ');
}

// ---- character set (§1.2): GB2312 when the device language is Simplified Chinese (83), else UTF-8 ----

let gbkTable: Map<number, number> | undefined;

function gbk(): Map<number, number> {
  if (gbkTable) return gbkTable;
  const table = new Map<number, number>();
  const dec = new TextDecoder('gbk');
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      const s = dec.decode(Uint8Array.of(lead, trail));
      const cp = s.codePointAt(0);
      if (s.length === 1 && cp !== undefined && cp !== 0xfffd && !table.has(cp)) table.set(cp, (lead << 8) | trail);
    }
  }
  gbkTable = table;
  return table;
}

export function isChinese(language: number): boolean {
  return language === 83;
}

export function encodeText(s: string, language: number): Buffer {
  if (!isChinese(language)) return Buffer.from(s, 'utf8');
  const table = gbk();
  const bytes: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0x3f;
    if (cp < 0x80) bytes.push(cp);
    else {
      const v = table.get(cp);
      if (v === undefined) bytes.push(0x3f);
      else bytes.push(v >> 8, v & 0xff);
    }
  }
  return Buffer.from(bytes);
}

export function decodeText(b: Uint8Array, language: number): string {
  return new TextDecoder(isChinese(language) ? 'gbk' : 'utf-8').decode(b);
}
