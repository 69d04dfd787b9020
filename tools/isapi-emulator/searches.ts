// The searches a take-over makes of an ISAPI terminal that already holds a site (docs/isapi-protocol.md §12): people,
// cards, the face library and the event log, each paged the way firmware pages them. Pure functions over the
// terminal's store; terminal.ts routes the requests here and hands out the picture URLs.

export interface EmulatedUser {
  employeeNo: string;
  name: string;
  userType: string;
  valid: { enable: boolean; beginTime: string; endTime: string };
  password: string;
  /** as UserInfo carries it; 'unknown' when left out */
  gender?: 'male' | 'female' | 'unknown';
}

export interface EmulatedEvent {
  serialNo: number;
  /** UTC ms */
  at: number;
  major: number;
  minor: number;
  employeeNo: string;
  name: string;
  verifyMode: string;
  /** the card shown (card events) */
  cardNo?: string;
  /** checkIn, checkOut, breakOut, breakIn … (absent: `undefined`, as firmware says it) */
  attendanceStatus?: string;
}

/** What the searches read: the terminal's memory. */
export interface SiteStore {
  users: Map<string, EmulatedUser>;
  /** employeeNo → enrolment JPEG (library blackFD, FDID 1) */
  faces: Map<string, Buffer>;
  /** cardNo → employeeNo */
  cards: Map<string, string>;
  /** cardNo → cardType; a card without one is a `normalCard` (the card writes of §4 carry none) */
  cardTypes: Map<string, string>;
  /** employeeNo → fingerprints enrolled (only counted: numOfFP) */
  fingerprints: Map<string, number>;
  /** the event log, oldest first (serialNo increasing) */
  events: EmulatedEvent[];
}

export interface SearchContext extends SiteStore {
  /** records one page holds at most: the capability's `maxResults` `@max`; more asked is capped without an error */
  pageMax: number;
  /** minutes east of UTC of the terminal's clock */
  timezone: number;
  /** the URL a listed face is fetched at; every call hands out a new token (the one before stops working) */
  faceUrl(employeeNo: string): string;
  /** the same for an event's capture picture, undefined when the terminal no longer holds it */
  captureUrl(ev: EmulatedEvent): string | undefined;
  /** ISAPI time with the terminal's offset */
  time(ms: number): string;
  /** ISAPI time (an offset or the terminal's) → UTC ms, NaN when unreadable */
  parseTime(s: string): number;
}

/** `EmployeeNoList` / `CardNoList` entries one search takes at most (the capability's `maxSize`, 30 in the capture). */
export const LIST_MAX = 30;
/** The card types the access-control documentation lists. */
export const CARD_TYPES = ['normalCard', 'patrolCard', 'hijackCard', 'superCard', 'dismissingCard', 'emergencyCard'] as const;

/** A search's answer, or the subStatusCode it is refused with (HTTP 400, statusCode 6). */
export type SearchAnswer = { json: unknown } | { refused: string };

type Cond = Record<string, unknown>;
const isObject = (v: unknown): v is Cond => !!v && typeof v === 'object' && !Array.isArray(v);

/** A whole number ≥ `min` from a JSON number or numeric string; `fallback` when absent, NaN when unreadable. */
function whole(v: unknown, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= min ? n : NaN;
}

/** `[{ employeeNo: "1" }, …]` → the values; undefined when absent, 'bad' when not such a list or over LIST_MAX. */
function keyList(v: unknown, key: string): string[] | undefined | 'bad' {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.length || v.length > LIST_MAX) return 'bad';
  const out = v.map((e) => (isObject(e) && (typeof e[key] === 'string' || typeof e[key] === 'number') ? String(e[key]) : ''));
  return out.includes('') ? 'bad' : out;
}

interface Page<T> {
  head: { searchID: string; responseStatusStrg: string; numOfMatches: number; totalMatches: number };
  items: T[];
}

/**
 * One page of `all` from `searchResultPosition`, at most `maxResults` capped at `pageMax` (silently, as firmware does:
 * a caller must advance by `numOfMatches`). `MORE` while records follow, `OK` on the last page, `noMatch` when the
 * page is empty.
 */
function pageOf<T>(all: T[], c: Cond, pageMax: number, noMatch = 'NO MATCH'): Page<T> | undefined {
  const pos = whole(c.searchResultPosition, 0, 0);
  const asked = whole(c.maxResults, pageMax, 1);
  if (Number.isNaN(pos) || Number.isNaN(asked)) return undefined;
  const items = all.slice(pos, pos + Math.min(asked, pageMax));
  const responseStatusStrg = !items.length ? noMatch : pos + items.length < all.length ? 'MORE' : 'OK';
  return { head: { searchID: String(c.searchID ?? ''), responseStatusStrg, numOfMatches: items.length, totalMatches: all.length }, items };
}

/** The page's keys plus its list under `key`, which is left out (not empty) when nothing matched, as the capture shows. */
const withList = <T>(p: Page<T>, key: string, map: (t: T) => unknown) => (p.items.length ? { ...p.head, [key]: p.items.map(map) } : p.head);

/** Counts per employeeNo of the cards they hold. */
function cardCounts(cards: Map<string, string>): Map<string, number> {
  const n = new Map<string, number>();
  for (const who of cards.values()) n.set(who, (n.get(who) ?? 0) + 1);
  return n;
}

/** `GET /ISAPI/AccessControl/UserInfo/capabilities`: the search's limits with the store's size (§3, §12.2). */
export function userCapabilities(capacity: number, pageMax: number) {
  return {
    UserInfo: {
      supportFunction: { '@opt': 'post,delete,put,get,setUp' },
      maxRecordNum: capacity,
      employeeNo: { '@min': 1, '@max': 32 },
      name: { '@min': 1, '@max': 128 },
      userType: { '@opt': 'normal,visitor,blackList' },
      UserInfoSearchCond: {
        searchID: { '@min': 1, '@max': 36 },
        searchResultPosition: { '@min': 0, '@max': capacity },
        maxResults: { '@min': 1, '@max': pageMax },
        EmployeeNoList: { maxSize: LIST_MAX, employeeNo: { '@min': 1, '@max': 32 } },
      },
      isSupportNumOfCard: true,
      isSupportNumOfFP: true,
      isSupportNumOfFace: true,
    },
  };
}

/** `GET /ISAPI/AccessControl/CardInfo/capabilities` */
export function cardCapabilities(capacity: number, pageMax: number) {
  return {
    CardInfo: {
      supportFunction: { '@opt': 'post,delete,put,get,setUp' },
      maxRecordNum: capacity * 5,
      cardNo: { '@min': 1, '@max': 32 },
      cardType: { '@opt': CARD_TYPES.join(',') },
      CardInfoSearchCond: {
        searchID: { '@min': 1, '@max': 36 },
        maxResults: { '@min': 1, '@max': pageMax },
        EmployeeNoList: { maxSize: LIST_MAX },
        CardNoList: { maxSize: LIST_MAX },
      },
    },
  };
}

/**
 * `POST /ISAPI/AccessControl/UserInfo/Search` (§12.2): everybody, or those of `EmployeeNoList` the terminal holds, in
 * the order it holds them. The door password is withheld (empty), as in the capture; `faceURL` only when `withFaceUrl`
 * (some firmware), for people with a face.
 */
export function searchUsers(x: SearchContext, body: Cond, withFaceUrl: boolean): SearchAnswer {
  const c = body.UserInfoSearchCond;
  if (!isObject(c)) return { refused: 'badParameters' };
  const wanted = keyList(c.EmployeeNoList, 'employeeNo');
  if (wanted === 'bad') return { refused: 'badParameters' };
  const only = wanted && new Set(wanted);
  const all = only ? [...x.users.values()].filter((u) => only.has(u.employeeNo)) : [...x.users.values()];
  const page = pageOf(all, c, x.pageMax);
  if (!page) return { refused: 'badParameters' };
  const cardsOf = cardCounts(x.cards);
  return { json: { UserInfoSearch: withList(page, 'UserInfo', (u) => userJson(x, u, cardsOf.get(u.employeeNo) ?? 0, withFaceUrl)) } };
}

function userJson(x: SearchContext, u: EmulatedUser, numOfCard: number, withFaceUrl: boolean) {
  const face = x.faces.has(u.employeeNo);
  return {
    employeeNo: u.employeeNo,
    name: u.name,
    userType: u.userType,
    Valid: { ...u.valid, timeType: 'local' },
    password: '',
    doorRight: '1',
    RightPlan: [{ doorNo: 1, planTemplateNo: '1' }],
    localUIRight: false,
    userVerifyMode: '',
    gender: u.gender ?? 'unknown',
    numOfCard,
    numOfFP: x.fingerprints.get(u.employeeNo) ?? 0,
    numOfFace: face ? 1 : 0,
    ...(withFaceUrl && face ? { faceURL: x.faceUrl(u.employeeNo) } : {}),
  };
}

/** `POST /ISAPI/AccessControl/CardInfo/Search` (§12.4): every card, or those of `EmployeeNoList` or `CardNoList` (not both). */
export function searchCards(x: SearchContext, body: Cond): SearchAnswer {
  const c = body.CardInfoSearchCond;
  if (!isObject(c)) return { refused: 'badParameters' };
  const people = keyList(c.EmployeeNoList, 'employeeNo');
  const cardNos = keyList(c.CardNoList, 'cardNo');
  if (people === 'bad' || cardNos === 'bad' || (people && cardNos)) return { refused: 'badParameters' };
  const only = people ? new Set(people) : undefined;
  const numbers = cardNos ? new Set(cardNos) : undefined;
  const all = [...x.cards].filter(([card, who]) => (!only || only.has(who)) && (!numbers || numbers.has(card)));
  const page = pageOf(all, c, x.pageMax);
  if (!page) return { refused: 'badParameters' };
  const card = ([cardNo, employeeNo]: [string, string]) => ({ employeeNo, cardNo, leaderCard: '', cardType: x.cardTypes.get(cardNo) ?? 'normalCard' });
  return { json: { CardInfoSearch: withList(page, 'CardInfo', card) } };
}

/**
 * `POST /ISAPI/Intelligent/FDLib/FDSearch` (§12.3), not wrapped: the visible-light library (`blackFD`, FDID 1) whole
 * or one `FPID`; the infrared one (`infraredFD`, FDID 2) exists and is empty. Each face listed gets a new `faceURL`.
 * An empty page says `NO MATCHES`, as the Guide spells it for this search.
 */
export function searchFaces(x: SearchContext, body: Cond): SearchAnswer {
  const lib = library(body.faceLibType, body.FDID);
  if (!lib) return { refused: 'badParameters' };
  const fpid = body.FPID === undefined ? undefined : String(body.FPID);
  const all = lib === 'blackFD' ? [...x.faces.keys()].filter((no) => x.users.has(no) && (fpid === undefined || no === fpid)) : [];
  const page = pageOf(all, body, x.pageMax, 'NO MATCHES');
  if (!page) return { refused: 'badParameters' };
  const match = (no: string) => ({ FPID: no, faceURL: x.faceUrl(no), name: x.users.get(no)?.name ?? '' });
  return { json: { statusCode: 1, statusString: 'OK', subStatusCode: 'ok', ...withList(page, 'MatchList', match) } };
}

/** The library a `faceLibType` and `FDID` name: the two a face terminal creates by itself, else undefined. */
function library(type: unknown, fdid: unknown): 'blackFD' | 'infraredFD' | undefined {
  if (type === 'blackFD' && String(fdid) === '1') return 'blackFD';
  if (type === 'infraredFD' && String(fdid) === '2') return 'infraredFD';
  return undefined;
}

/** `GET /ISAPI/Intelligent/FDLib/Count?format=json[&FDID=1&faceLibType=blackFD]`: the faces per library. */
export function countFaces(x: SiteStore, query: URLSearchParams): SearchAnswer {
  const fdid = query.get('FDID');
  const type = query.get('faceLibType');
  if ((fdid === null) !== (type === null)) return { refused: 'badParameters' };
  const both = [
    { FDID: '1', faceLibType: 'blackFD', name: '', recordDataNumber: [...x.faces.keys()].filter((no) => x.users.has(no)).length },
    { FDID: '2', faceLibType: 'infraredFD', name: '', recordDataNumber: 0 },
  ];
  const chosen = fdid === null ? both : both.filter((l) => library(type, fdid) === l.faceLibType);
  if (!chosen.length) return { refused: 'badParameters' };
  return { json: { statusCode: 1, statusString: 'OK', subStatusCode: 'ok', FDRecordDataInfo: chosen } };
}

/**
 * The events an `AcsEventCond` (or `AcsEventTotalNumCond`) selects: time range (each end optional), major, minor
 * (0 = all), `employeeNoString`, `beginSerialNo`/`endSerialNo` (inclusive), newest first with `timeReverseOrder`.
 * A string when a bound is unreadable.
 */
function eventsMatching(x: SearchContext, c: Cond): EmulatedEvent[] | 'bad' {
  const from = c.startTime === undefined ? -Infinity : x.parseTime(String(c.startTime));
  const to = c.endTime === undefined ? Infinity : x.parseTime(String(c.endTime));
  const major = whole(c.major, 0, 0);
  const minor = whole(c.minor, 0, 0);
  const first = whole(c.beginSerialNo, 0, 0);
  const last = whole(c.endSerialNo, Infinity, 0);
  if ([from, to, major, minor, first, last].some(Number.isNaN)) return 'bad';
  const who = c.employeeNoString === undefined || c.employeeNoString === '' ? undefined : String(c.employeeNoString);
  const all = x.events.filter(
    (e) =>
      e.at >= from &&
      e.at <= to &&
      (!major || e.major === major) &&
      (!minor || e.minor === minor) &&
      (who === undefined || e.employeeNo === who) &&
      e.serialNo >= first &&
      e.serialNo <= last,
  );
  return c.timeReverseOrder === true ? all.reverse() : all;
}

/** `POST /ISAPI/AccessControl/AcsEvent` (§5, §12.5). */
export function searchEvents(x: SearchContext, body: Cond): SearchAnswer {
  const c = isObject(body.AcsEventCond) ? body.AcsEventCond : {};
  const all = eventsMatching(x, c);
  const page = all === 'bad' ? undefined : pageOf(all, c, x.pageMax);
  if (!page) return { refused: 'badParameters' };
  return { json: { AcsEvent: withList(page, 'InfoList', (e) => eventJson(x, e)) } };
}

function eventJson(x: SearchContext, e: EmulatedEvent) {
  const picture = x.captureUrl(e);
  return {
    major: e.major,
    minor: e.minor,
    time: x.time(e.at),
    cardReaderNo: 1,
    doorNo: 1,
    employeeNoString: e.employeeNo,
    name: e.name,
    ...(e.cardNo ? { cardNo: e.cardNo } : {}),
    serialNo: e.serialNo,
    userType: x.users.get(e.employeeNo)?.userType ?? 'normal',
    currentVerifyMode: e.verifyMode,
    attendanceStatus: e.attendanceStatus ?? 'undefined',
    ...(picture ? { pictureURL: picture, picturesNumber: 1 } : {}),
  };
}

/** `POST /ISAPI/AccessControl/AcsEventTotalNum` (§12.5): how many events the condition selects. */
export function countEvents(x: SearchContext, body: Cond): SearchAnswer {
  const c = isObject(body.AcsEventTotalNumCond) ? body.AcsEventTotalNumCond : undefined;
  const all = c ? eventsMatching(x, c) : 'bad';
  if (all === 'bad') return { refused: 'badParameters' };
  return { json: { AcsEventTotalNum: { totalNum: all.length } } };
}
