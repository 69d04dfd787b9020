import type { DeviceOp } from '../driver.ts';

/**
 * Hikvision ISAPI shapes, both ways (docs/isapi-protocol.md); pure functions only. Access-control terminals
 * answer JSON under `?format=json` and XML on the older System and RemoteControl resources.
 */

/** One HTTP request to a terminal: what an operation becomes on the wire. */
export interface IsapiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** path and query, e.g. /ISAPI/AccessControl/UserInfo/Record?format=json */
  path: string;
  contentType?: string;
  body?: Buffer;
  /** an answer meaning "already so" (e.g. deleting an absent user) counts as done */
  okSub?: readonly string[];
  /** on this subStatusCode, send `fallback` instead (a user that exists is modified, a face replaced) */
  retryOn?: readonly string[];
  fallback?: IsapiRequest;
  /** the request started background work: GET this until `UserInfoDetail.status` is no longer "processing" */
  progress?: string;
  /** a door open: it goes out at once, on a slot of its own beside the terminal's request queue */
  urgent?: boolean;
}

// ---------------------------------------------------------------- result codes

/**
 * Result codes as the sync ledger keeps them (a number per outcome; `codeKey` gives the administrator's
 * message). ISAPI answers a `statusCode` (1 OK … 7 reboot required) and a `subStatusCode` naming the cause;
 * known causes get a code of their own, the rest the code of their status. 9xx are the transport's.
 */
export const ISAPI_CODES = {
  ok: 0,
  busy: 200,
  deviceError: 300,
  memory: 301,
  invalidOperation: 400,
  notSupport: 401,
  lowPrivilege: 402,
  badFormat: 500,
  badContent: 600,
  badParameters: 601,
  passwordExists: 602,
  employeeNoExists: 610,
  noUser: 611,
  capacity: 612,
  cardExists: 613,
  noFace: 614,
  pictureTooLarge: 615,
  faceCapacity: 616,
  faceQuality: 617,
  faceSize: 618,
  faceExists: 619,
  /** firmware packages (PUT /ISAPI/System/updateFirmware, docs/isapi-protocol.md §10) */
  firmwareMismatch: 620,
  firmwareLanguage: 621,
  firmwareLower: 622,
  upgradeFailed: 623,
  noFirmwareFile: 624,
  cardCapacity: 625,
  cardsPerUser: 626,
  rebootRequired: 700,
  wrongPassword: 900,
  locked: 901,
  unreachable: 902,
  timeout: 903,
  badResponse: 904,
  unknown: 999,
} as const;
export type IsapiCodeName = keyof typeof ISAPI_CODES;
const NAME_OF = new Map<number, IsapiCodeName>(Object.entries(ISAPI_CODES).map(([k, v]) => [v, k as IsapiCodeName]));

/**
 * subStatusCode → our code: the names of the access-control documentation's error list, with the variants
 * integrators report from real firmware (docs/isapi-protocol.md §2). Looked up without regard to case: firmware
 * spell the same cause `FaceImageQualityTooLow` and `faceImageQualityTooLow`.
 */
const SUB_NAMES: Record<string, IsapiCodeName> = {
  ok: 'ok',
  deviceBusy: 'busy',
  noMemory: 'memory',
  insufficientMemory: 'memory',
  notSupport: 'notSupport',
  notSupported: 'notSupport',
  methodNotAllowed: 'notSupport',
  invalidOperation: 'invalidOperation',
  lowPrivilege: 'lowPrivilege',
  badAuthorization: 'wrongPassword',
  userLocked: 'locked',
  badXmlFormat: 'badFormat',
  badJsonFormat: 'badFormat',
  dataFormatError: 'badFormat',
  badParameters: 'badParameters',
  badXmlContent: 'badParameters',
  badJsonContent: 'badParameters',
  userPasswordAlreadyExist: 'passwordExists',
  employeeNoAlreadyExist: 'employeeNoExists',
  deviceUserAlreadyExist: 'employeeNoExists',
  employeeNoNotExist: 'noUser',
  userNotExist: 'noUser',
  // the terminal holds as many locally enrolled users as it can
  deviceUserFull: 'capacity',
  userFull: 'capacity',
  userExceedLimit: 'capacity',
  userNumExceed: 'capacity',
  cardNoAlreadyExist: 'cardExists',
  duplicateCardNo: 'cardExists',
  cardFull: 'cardCapacity',
  deviceCardFull: 'cardCapacity',
  cardFullPerUser: 'cardsPerUser',
  // no face found in the photo (the terminal models the face from it)
  pictureFaceDetectZero: 'noFace',
  faceDetectZero: 'noFace',
  faceDataPictureNotDetected: 'noFace',
  faceNotDetected: 'noFace',
  noFace: 'noFace',
  modelingFailed: 'noFace',
  faceSizeNotSuitable: 'faceSize',
  pictureSizeNotSuitable: 'faceSize',
  lowScore: 'faceQuality',
  faceImageQualityTooLow: 'faceQuality',
  faceQualityTooLow: 'faceQuality',
  pictureQualityTooLow: 'faceQuality',
  faceScoreLow: 'faceQuality',
  deviceUserAlreadyExistFace: 'faceExists',
  faceExist: 'faceExists',
  pictureSizeExceedLimit: 'pictureTooLarge',
  imageSizeExceeded: 'pictureTooLarge',
  faceLibNumOverLimit: 'faceCapacity',
  languageMismatch: 'firmwareLanguage',
  upgradePackageMismatch: 'firmwareMismatch',
  upgradePackageError: 'firmwareMismatch',
  upgradeVersionLower: 'firmwareLower',
  upgradeFailed: 'upgradeFailed',
};
const SUB_CODES = new Map(Object.entries(SUB_NAMES).map(([k, v]) => [k.toLowerCase(), v]));
/** Our code name for a terminal's subStatusCode, undefined when it is not a known cause. */
export const subCodeOf = (subStatusCode: string): IsapiCodeName | undefined => SUB_CODES.get(subStatusCode.toLowerCase());
const STATUS_CODES: Record<number, IsapiCodeName> = {
  1: 'ok',
  2: 'busy',
  3: 'deviceError',
  4: 'invalidOperation',
  5: 'badFormat',
  6: 'badContent',
  7: 'rebootRequired',
};

export const codeOf = (name: IsapiCodeName) => ISAPI_CODES[name];
/** The administrator's message key for a ledger code (server i18n `device.isapi.*`). */
export const codeKey = (code: number) => `device.isapi.${NAME_OF.get(code) ?? 'unknown'}`;

/** What a terminal said about one request. */
export interface IsapiStatus {
  statusCode: number;
  subStatusCode: string;
  statusString: string;
  /** our ledger code */
  code: number;
}

export function statusFrom(statusCode: number, subStatusCode: string, statusString = ''): IsapiStatus {
  const name = subCodeOf(subStatusCode) ?? STATUS_CODES[statusCode] ?? 'unknown';
  // statusCode 1 is success whatever the sub-status says (some firmware puts "ok", some nothing).
  return { statusCode, subStatusCode, statusString, code: statusCode === 1 ? 0 : ISAPI_CODES[name === 'ok' ? 'unknown' : name] };
}

// ---------------------------------------------------------------- tolerant readers

/** Parses JSON without throwing; anything but an object is undefined. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
export const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
export const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
export const int = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
};

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|amp|lt|gt|quot|apos);/g, (_m, e: string) => {
    if (e[0] !== '#') return XML_ENTITIES[e]!;
    const n = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '';
  });
export const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`);

/**
 * The text of each leaf element of a flat XML document (deviceInfo, ResponseStatus), by local name; the first
 * occurrence wins. A deliberately small reader: these documents are flat, and anything odd yields fewer keys.
 */
export function xmlLeaves(xml: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)(?:\s[^<>]*)?>([^<]*)<\/(?:[A-Za-z_][\w.-]*:)?\1\s*>/g;
  let m: RegExpExecArray | null;
  let n = 0;
  while ((m = re.exec(xml)) && n++ < 500) if (!(m[1]! in out)) out[m[1]!] = unescapeXml(m[2]!.trim());
  return out;
}

/** A response body's status: the JSON ResponseStatus, the XML one, or none found. */
export function parseStatus(text: string): IsapiStatus | undefined {
  const j = jsonObject(text);
  if (j) {
    const s = 'statusCode' in j ? j : obj(j.ResponseStatus);
    const code = int(s.statusCode);
    if (code === undefined) return undefined;
    return statusFrom(code, str(s.subStatusCode), str(s.statusString));
  }
  if (!text.includes('ResponseStatus')) return undefined;
  const x = xmlLeaves(text);
  const code = int(x.statusCode);
  return code === undefined ? undefined : statusFrom(code, x.subStatusCode ?? '', x.statusString ?? '');
}

/**
 * Our code for an answer that is not the document asked for (a search page, a log page): the refusal its body
 * states, else what its HTTP status says (404 and 405: the terminal has no such resource). Firmware refuses with
 * HTTP 200 too, so the body is read first.
 */
export function refusalCode(httpStatus: number, text: string): number {
  const s = parseStatus(text);
  if (s && s.code !== 0) return s.code;
  return httpStatus === 404 || httpStatus === 405 ? ISAPI_CODES.notSupport : ISAPI_CODES.badResponse;
}

/**
 * A refused login's body (the `401`'s `userCheck`, or GET /ISAPI/Security/userCheck), XML or JSON:
 * `<userCheck><statusValue>401</statusValue><lockStatus>lock</lockStatus><unlockTime>1800</unlockTime>
 * <retryLoginTime>0</retryLoginTime></userCheck>`. `unlockTime` is the seconds until the account unlocks and
 * `retryLoginTime` the attempts left; locked firmware that gives no `unlockTime` puts the seconds in
 * `retryLoginTime`. Undefined when the body says nothing of a lock.
 */
export function parseUserCheck(text: string): { locked: boolean; unlockSeconds: number | undefined } | undefined {
  const j = jsonObject(text);
  const x: Record<string, unknown> = j ? obj(j.userCheck ?? j.UserCheck ?? j) : /<userCheck[\s>]/i.test(text) ? xmlLeaves(text) : {};
  const lock = str(x.lockStatus).trim().toLowerCase();
  if (lock !== 'lock' && lock !== 'unlock') return undefined;
  const seconds = (v: unknown) => {
    const n = int(v);
    return n !== undefined && n > 0 ? Math.min(n, 7 * 86_400) : undefined;
  };
  return { locked: lock === 'lock', unlockSeconds: lock === 'lock' ? (seconds(x.unlockTime) ?? seconds(x.retryLoginTime)) : undefined };
}

// ---------------------------------------------------------------- device info and capabilities

export interface DeviceInfo {
  deviceName: string;
  model: string;
  serialNo: string;
  firmware: string;
  macAddress: string;
}
/** GET /ISAPI/System/deviceInfo (XML). The version shown is "V3.2.0 build 210101", as the device's own page shows it. */
export function parseDeviceInfo(xml: string): DeviceInfo | undefined {
  const x = xmlLeaves(xml);
  if (!x.model && !x.serialNumber && !x.firmwareVersion) return undefined;
  const build = x.firmwareReleasedDate ? ` ${x.firmwareReleasedDate}` : '';
  return {
    deviceName: x.deviceName ?? '',
    model: x.model ?? '',
    serialNo: x.serialNumber ?? x.serialNo ?? '',
    firmware: `${x.firmwareVersion ?? ''}${build}`.trim(),
    macAddress: x.macAddress ?? '',
  };
}

/** GET /ISAPI/AccessControl/UserInfo/capabilities?format=json: the user capacity. */
export function parseUserCapabilities(text: string): { maxUsers?: number } {
  const u = obj(jsonObject(text)?.UserInfo);
  const max = int(u.maxRecordNum);
  return max !== undefined && max > 0 ? { maxUsers: max } : {};
}
/** GET /ISAPI/AccessControl/UserInfo/Count?format=json */
export function parseUserCount(text: string): number | undefined {
  const n = int(obj(jsonObject(text)?.UserInfoCount).userNumber);
  return n !== undefined && n >= 0 ? n : undefined;
}

/**
 * GET /ISAPI/AccessControl/AcsWorkStatus?format=json: door 1 as open or closed. The lock (doorLockStatus) and,
 * where a door contact is fitted, the contact (magneticStatus) say 0 closed, 1 open, 2–4 an alarm (short or broken
 * circuit, fault); the door is open when either is open, closed when what is reported is closed, and unknown (no
 * answer) otherwise, so an alarm never reads as a closed door.
 */
export function parseDoorState(text: string): 'open' | 'close' | undefined {
  const w = obj(jsonObject(text)?.AcsWorkStatus);
  const first = (v: unknown) => (Array.isArray(v) ? int(v[0]) : undefined);
  const lock = first(w.doorLockStatus);
  const contact = first(w.magneticStatus);
  if (lock === undefined && contact === undefined) return undefined;
  if (lock === 1 || contact === 1) return 'open';
  if ((lock === undefined || lock === 0) && (contact === undefined || contact === 0)) return 'close';
  return undefined;
}

// ---------------------------------------------------------------- operations → requests

const json = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8');
const JSON_TYPE = 'application/json';
/** device-local 'YYYY-MM-DD HH:mm:ss' → ISAPI local 'YYYY-MM-DDTHH:mm:ss' */
const isapiLocal = (t: string) => t.replace(' ', 'T');
/** Validity when the person has none: the range the documentation's examples use for "always". */
export const ALWAYS = { begin: '2000-01-01T00:00:00', end: '2037-12-31T23:59:59' };
/** The face library access-control terminals keep their users' faces in. */
export const FACE_LIBRARY = { faceLibType: 'blackFD', FDID: '1' };

export function userBody(op: Extract<DeviceOp, { kind: 'user' }>) {
  return {
    UserInfo: {
      employeeNo: op.pin,
      name: op.name.slice(0, 32),
      userType: 'normal',
      // limited-time access (DeviceOp start/end); the terminal refuses people outside it
      Valid: { enable: true, beginTime: op.start ? isapiLocal(op.start) : ALWAYS.begin, endTime: op.end ? isapiLocal(op.end) : ALWAYS.end, timeType: 'local' },
      doorRight: '1',
      RightPlan: [{ doorNo: 1, planTemplateNo: '1' }],
      ...(op.password ? { password: op.password } : {}),
      // left out when not said: the terminal keeps the gender it holds
      ...(op.gender ? { gender: op.gender } : {}),
      localUIRight: op.pri === 14,
    },
  };
}

export interface Part {
  name: string;
  contentType: string;
  data: Buffer;
  filename?: string;
}
/** multipart/form-data with a fixed boundary drawn by the caller (pure). */
export function multipart(parts: Part[], boundary: string): { contentType: string; body: Buffer } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const file = p.filename ? `; filename="${p.filename}"` : '';
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file}\r\nContent-Type: ${p.contentType}\r\nContent-Length: ${p.data.length}\r\n\r\n`,
      ),
    );
    chunks.push(p.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

/** The multipart/form-data parts of a body; malformed input yields what could be read (never throws). */
export function parseMultipart(body: Buffer, contentType: string, maxParts = 8): Part[] {
  const m = /boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) return [];
  const delim = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let at = body.indexOf(delim);
  while (at >= 0 && parts.length < maxParts) {
    const start = at + delim.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const headEnd = body.indexOf('\r\n\r\n', start);
    if (headEnd < 0) break;
    const next = body.indexOf(delim, headEnd + 4);
    const end = next < 0 ? body.length : next;
    const head = body.subarray(start, headEnd).toString('latin1');
    let data = body.subarray(headEnd + 4, end);
    if (data.subarray(-2).toString() === '\r\n') data = data.subarray(0, -2);
    const name = /name="([^"]*)"/i.exec(head)?.[1] ?? '';
    const type = /content-type:\s*([^\r\n;]+)/i.exec(head)?.[1]?.trim() ?? '';
    const filename = /filename="([^"]*)"/i.exec(head)?.[1];
    parts.push({ name, contentType: type, data, ...(filename !== undefined ? { filename } : {}) });
    at = next;
  }
  return parts;
}

/**
 * One operation as the ISAPI requests that carry it. `boundary` makes face uploads deterministic in tests.
 * Unsupported kinds (device options are ZK settings) answer undefined: the driver reports them unsupported.
 */
export function encodeOp(op: DeviceOp, boundary = 'faceadminIsapiBoundary'): IsapiRequest[] | undefined {
  switch (op.kind) {
    case 'user': {
      const body = json(userBody(op));
      const modify: IsapiRequest = { method: 'PUT', path: '/ISAPI/AccessControl/UserInfo/Modify?format=json', contentType: JSON_TYPE, body };
      const reqs: IsapiRequest[] = [
        {
          method: 'POST',
          path: '/ISAPI/AccessControl/UserInfo/Record?format=json',
          contentType: JSON_TYPE,
          body,
          retryOn: ['employeeNoAlreadyExist', 'deviceUserAlreadyExist'],
          fallback: modify,
        },
      ];
      // A user may hold several cards on the terminal: the ones it has are removed first, so a card taken from
      // the person (or replaced) stops opening the door.
      reqs.push({
        method: 'PUT',
        path: '/ISAPI/AccessControl/CardInfo/Delete?format=json',
        contentType: JSON_TYPE,
        body: json({ CardInfoDelCond: { EmployeeNoList: [{ employeeNo: op.pin }] } }),
        okSub: ['cardNoNotExist', 'cardNotExist', 'employeeNoNotExist', 'userNotExist'],
      });
      if (op.card) {
        const card = json({ CardInfo: { employeeNo: op.pin, cardNo: op.card, cardType: 'normalCard' } });
        const modifyCard: IsapiRequest = { method: 'PUT', path: '/ISAPI/AccessControl/CardInfo/Modify?format=json', contentType: JSON_TYPE, body: card };
        reqs.push({
          method: 'POST',
          path: '/ISAPI/AccessControl/CardInfo/Record?format=json',
          contentType: JSON_TYPE,
          body: card,
          retryOn: ['cardNoAlreadyExist'],
          fallback: modifyCard,
        });
      }
      return reqs;
    }
    case 'photo': {
      const meta = json({ ...FACE_LIBRARY, FPID: op.pin });
      const jpeg = Buffer.from(op.jpegBase64, 'base64');
      const record = multipart(
        [
          { name: 'FaceDataRecord', contentType: JSON_TYPE, data: meta },
          { name: 'img', contentType: 'image/jpeg', data: jpeg, filename: 'face.jpg' },
        ],
        boundary,
      );
      // FDSetUp adds or replaces: a face the terminal already holds for this person is replaced.
      const setUp: IsapiRequest = { method: 'PUT', path: '/ISAPI/Intelligent/FDLib/FDSetUp?format=json', ...record };
      return [
        {
          method: 'POST',
          path: '/ISAPI/Intelligent/FDLib/FaceDataRecord?format=json',
          ...record,
          retryOn: ['deviceUserAlreadyExistFace', 'faceExist'],
          fallback: setUp,
        },
      ];
    }
    case 'deleteUser':
      // Deleting the user deletes its cards and face with it. The deletion runs in the background on the
      // terminal: its progress is read until it says success or failed.
      return [
        {
          method: 'PUT',
          path: '/ISAPI/AccessControl/UserInfoDetail/Delete?format=json',
          contentType: JSON_TYPE,
          body: json({ UserInfoDetail: { mode: 'byEmployeeNo', EmployeeNoList: [{ employeeNo: op.pin }] } }),
          okSub: ['employeeNoNotExist', 'userNotExist'],
          progress: '/ISAPI/AccessControl/UserInfoDetail/DeleteProcess?format=json',
        },
      ];
    case 'unlock':
      return [
        {
          method: 'PUT',
          path: '/ISAPI/AccessControl/RemoteControl/door/1',
          contentType: 'application/xml',
          body: Buffer.from('<?xml version="1.0" encoding="UTF-8"?><RemoteControlDoor><cmd>open</cmd></RemoteControlDoor>'),
          urgent: true,
        },
      ];
    case 'info':
    case 'check':
      return [{ method: 'GET', path: '/ISAPI/AccessControl/UserInfo/Count?format=json' }];
    case 'reboot':
      return [{ method: 'PUT', path: '/ISAPI/System/reboot' }];
    case 'queryPunches':
    // Served by the delivery, not as one fixed request: the event search (searchEvents), the firmware upload
    // followed to the restart (upgradeFirmware), the log search written as a file (captureLog) and the searches of
    // people, cards and faces a take-over reads (roster.ts).
    case 'upgrade':
    case 'getLog':
    case 'readRoster':
      return [];
    case 'options':
      return undefined;
  }
}

/** DeleteProcess answer: 'processing', 'success' or 'failed' ('' when unreadable). */
export function parseProgress(text: string): string {
  return str(obj(jsonObject(text)?.UserInfoDetail).status);
}

// ---------------------------------------------------------------- device-local time (events, the terminal's log)

/**
 * '2026-11-26T08:00:00+08:00' → '2026-11-26 08:00:00': device-local time as punches keep it, in the zone the device
 * is set to (`tz`, minutes east of UTC). A time with an offset is an instant: a terminal whose clock runs in another
 * zone than the one the administrator gave it still files each event at its true moment (and the backlog search,
 * asked in the device's zone, resumes where the pushed events ended). Without `tz` or an offset, the wall clock stays.
 */
export function localTime(iso: string, tz?: number): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(Z|[+-]\d{2}:?\d{2})?/.exec(iso);
  if (!m) return undefined;
  const wall = `${m[1]} ${m[2]}`;
  if (tz === undefined || !m[3]) return wall;
  const off = m[3] === 'Z' ? 0 : (m[3][0] === '-' ? -1 : 1) * (Number(m[3].slice(1, 3)) * 60 + Number(m[3].slice(-2)));
  const ms = Date.parse(`${m[1]}T${m[2]}Z`);
  if (!Number.isFinite(ms) || Math.abs(off) > 14 * 60) return wall;
  return new Date(ms - off * 60_000 + tz * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

// ---------------------------------------------------------------- firmware (docs/isapi-protocol.md §10)

/**
 * Our code for a refused firmware package (PUT /ISAPI/System/updateFirmware). The public documentation names no
 * fixed list of sub-statuses for this request and firmware spell them differently, so the cause is read from the
 * name's family: the language, an older version, a package that is not for this model (or not a package at all),
 * a flash that failed. Anything else keeps its status's meaning.
 */
export function firmwareRefusal(s: IsapiStatus): number {
  const sub = s.subStatusCode;
  if (/lang/i.test(sub)) return ISAPI_CODES.firmwareLanguage;
  if (/lower|downgrade|versionlow|oldversion/i.test(sub)) return ISAPI_CODES.firmwareLower;
  if (/package|packet|mismatch|model|platform|devicetype|checksum|verify|sign|file/i.test(sub)) return ISAPI_CODES.firmwareMismatch;
  if (/upgrade|flash|fail/i.test(sub)) return ISAPI_CODES.upgradeFailed;
  // a bare "invalid content" to a firmware upload: the terminal did not take the package
  if (s.statusCode === 6 && (s.code === ISAPI_CODES.badContent || s.code === ISAPI_CODES.badParameters)) return ISAPI_CODES.firmwareMismatch;
  return s.code;
}

/** Codes meaning "this firmware is not for this terminal": shown as spec §8 "upgrade unknown version". */
export const WRONG_FIRMWARE: ReadonlySet<number> = new Set([ISAPI_CODES.firmwareMismatch, ISAPI_CODES.firmwareLanguage]);

/** GET /ISAPI/System/upgradeStatus: `<upgradeStatus><upgrading>true</upgrading><percent>40</percent></upgradeStatus>` (XML or JSON). */
export function parseUpgradeStatus(text: string): { upgrading: boolean; percent: number | undefined } | undefined {
  const j = jsonObject(text);
  const x: Record<string, unknown> = j ? obj(j.UpgradeStatus ?? j.upgradeStatus) : /<upgradeStatus[\s>]/i.test(text) ? xmlLeaves(text) : {};
  const flag = typeof x.upgrading === 'boolean' ? String(x.upgrading) : str(x.upgrading).trim().toLowerCase();
  if (flag !== 'true' && flag !== 'false') return undefined;
  const p = int(x.percent);
  return { upgrading: flag === 'true', percent: p !== undefined && p >= 0 && p <= 100 ? p : undefined };
}

// ---------------------------------------------------------------- the terminal's own log (docs/isapi-protocol.md §11)

/** POST /ISAPI/ContentMgmt/logSearch body: every log type over [from, to] (ISAPI times with offset), one page. */
export function logSearchXml(searchID: string, position: number, maxResults: number, from: string, to: string): Buffer {
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>' +
      '<CMSearchDescription version="2.0" xmlns="http://www.isapi.org/ver20/XMLSchema">' +
      `<searchID>${escapeXml(searchID)}</searchID><metaId>log.std-cgi.com</metaId>` +
      `<timeSpanList><timeSpan><startTime>${escapeXml(from)}</startTime><endTime>${escapeXml(to)}</endTime></timeSpan></timeSpanList>` +
      // "searchResultPostion" is how the documentation (and firmware) spell it.
      `<maxResults>${maxResults}</maxResults><searchResultPostion>${position}</searchResultPostion>` +
      '</CMSearchDescription>',
  );
}

/** One entry of the terminal's log. */
export interface LogEntry {
  /** device-local 'YYYY-MM-DD HH:mm:ss' ('' when the terminal gave none) */
  time: string;
  /** e.g. Operation, Exception, Alarm, Information */
  major: string;
  /** e.g. remoteReboot, remoteLogin */
  minor: string;
  user: string;
  ip: string;
  /** what else the entry says (parameter, information) */
  details: string;
}

const oneLine = (s: string, max: number) =>
  s
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, max);

/**
 * POST /ISAPI/ContentMgmt/logSearch answer (XML CMSearchResult): its entries and whether more follow, or undefined
 * when it is not one. `metaId` names the type: `log.std-cgi.com/Operation/remoteReboot` (some firmware
 * log.hikvision.com/…). Read item by item with a cap, so a huge or broken answer yields at most `max` entries.
 */
export function parseLogSearch(text: string, max = 1000): { entries: LogEntry[]; more: boolean } | undefined {
  if (!/<CMSearchResult[\s>]/.test(text)) return undefined;
  const head = xmlLeaves(text.replace(/<matchList[\s>][\s\S]*$/, ''));
  const entries: LogEntry[] = [];
  const re = /<searchMatchItem(?:\s[^<>]*)?>([\s\S]*?)<\/searchMatchItem\s*>/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) && entries.length < max) {
    const x = xmlLeaves(m[1]!);
    const type = (x.metaId ?? '').replace(/^[^/]*\/?/, '').split('/');
    const details = [x.paraType, x.infoContent, x.additionInformation, x.description].filter((v) => v && v.trim()).join(' ');
    entries.push({
      time: localTime(x.StartDateTime ?? x.startDateTime ?? x.time ?? '') ?? '',
      major: oneLine(type[0] ?? '', 40),
      minor: oneLine(type.slice(1).join('/'), 80),
      user: oneLine(x.userName ?? '', 40),
      ip: oneLine(x.ipAddress ?? '', 60),
      details: oneLine(details, 500),
    });
  }
  return { entries, more: /^MORE$/i.test((head.responseStatusStrg ?? '').trim()) };
}

/** The log as the text file an administrator downloads: a heading, then one line per entry (time, type, user, address, details). */
export function logText(heading: string, entries: LogEntry[]): Buffer {
  const lines = [`# ${oneLine(heading, 300)}`, `# ${entries.length} entries: time | major/minor type | user | address | details`];
  for (const e of entries) lines.push([e.time || '-', `${e.major || '-'}/${e.minor || '-'}`, e.user || '-', e.ip || '-', e.details].join(' | ').trimEnd());
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}
