import type { RosterUser } from '../terminal-events.ts';
import { ALWAYS, arr, FACE_LIBRARY, int, jsonObject, localTime, obj, str } from './codec.ts';

/**
 * What a terminal holds, read for a take-over (docs/isapi-protocol.md §12): the bodies of the paged searches of
 * people, cards and faces, their pages read tolerantly, and each record as the server keeps it. Pure functions.
 */

/** Records asked per page: the capability's `@max` on the terminals seen; one that caps lower says so by numOfMatches. */
export const SEARCH_PAGE = 30;
/** Records read from one page at most, whatever a terminal puts in it (a loop of pages is bounded apart). */
const PAGE_ITEMS_MAX = 1000;

export const userSearchBody = (searchID: string, position: number, maxResults = SEARCH_PAGE) => ({
  UserInfoSearchCond: { searchID, searchResultPosition: position, maxResults },
});
export const cardSearchBody = (searchID: string, position: number, maxResults = SEARCH_PAGE) => ({
  CardInfoSearchCond: { searchID, searchResultPosition: position, maxResults },
});
/**
 * The face of one person (FPID = employeeNo) in the visible-light library; not wrapped, unlike the other searches. A
 * full page is asked: firmware that ignores FPID lists others too, and the match is picked by FPID (faceUrlOf).
 */
export const faceSearchBody = (pin: string) => ({ searchResultPosition: 0, maxResults: SEARCH_PAGE, ...FACE_LIBRARY, FPID: pin });

/** One page of a search (§12.1). */
export interface SearchPage {
  /** another page follows (`responseStatusStrg` MORE): OK, NO MATCH, NO MATCHES or anything else ends the search */
  more: boolean;
  /** records this page holds as the terminal counts them: what the next position advances by */
  matches: number;
  items: Record<string, unknown>[];
}

/**
 * A search answer as a page: under `wrapper` (UserInfoSearch, CardInfoSearch) or at the top (FDSearch), its list under
 * the first of `listKeys` present (absent on NO MATCH). Undefined when it is no page (a refusal, even with HTTP 200).
 */
export function parseSearchPage(text: string, wrapper: string | undefined, listKeys: readonly string[]): SearchPage | undefined {
  const j = jsonObject(text);
  const p = j && (wrapper ? obj(j[wrapper]) : j);
  const status = str(p?.responseStatusStrg).trim().toUpperCase();
  if (!p || !status) return undefined;
  const key = listKeys.find((k) => k in p);
  const items = arr(key ? p[key] : undefined)
    .slice(0, PAGE_ITEMS_MAX)
    .map(obj);
  const n = int(p.numOfMatches);
  // numOfMatches is the rule; a terminal that leaves it out is advanced by what it listed
  return { more: status === 'MORE', matches: n !== undefined && n >= 0 ? n : items.length, items };
}

const CONTROL = /[\u0000-\u001f\u007f]/;
/** A terminal's text field, trimmed and capped; '' when it carries control characters (never a name or number). */
const field = (v: unknown, max: number) => {
  const s = str(v).trim();
  return CONTROL.test(s) ? '' : s.slice(0, max);
};

/** An employeeNo usable as a PIN: 1–32 characters (the terminal's limit), no control characters. */
const pinOf = (v: unknown) => {
  const s = str(v).trim();
  return s.length >= 1 && s.length <= 32 && !CONTROL.test(s) ? s : '';
};

/** A PIN that can name a stored face (a file key segment): the roster keeps users with other PINs, not their faces. */
export const faceablePin = (pin: string) => /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,31}$/.test(pin);

/**
 * One bound of `Valid` as device-local 'YYYY-MM-DD HH:mm:ss'; '' for none: absent, unreadable, or the "always" ends the
 * server writes itself (§4: 2000-01-01T00:00:00 and 2037-12-31T23:59:59, the documentation's top of the range). A time
 * with an offset, or under `timeType` UTC, is converted to the terminal's zone; a local one is kept as it is.
 */
function bound(v: unknown, utc: boolean, tz: number): string {
  const s = str(v).trim();
  if (!s || s.startsWith(ALWAYS.begin) || s.startsWith(ALWAYS.end)) return '';
  const offset = /(Z|[+-]\d{2}:?\d{2})$/.test(s.slice(19));
  return localTime(utc && !offset ? `${s}Z` : s, tz) ?? '';
}

/** `Valid` → the roster's validity: `enable` false (or no Valid) is valid for ever, '' both. */
function validity(v: unknown, tz: number): { validFrom: string; validTo: string } {
  const valid = obj(v);
  if (valid.enable !== true && str(valid.enable).toLowerCase() !== 'true') return { validFrom: '', validTo: '' };
  const utc = str(valid.timeType).toLowerCase() === 'utc';
  return { validFrom: bound(valid.beginTime, utc, tz), validTo: bound(valid.endTime, utc, tz) };
}

/**
 * `userType` as the roster kind. Absent is staff (firmware without visitors); an unknown type is kept apart as a
 * visitor, never imported as staff (§12.2).
 */
function kindOf(v: unknown): RosterUser['kind'] {
  const t = str(v).trim().toLowerCase();
  if (!t || t === 'normal') return 'normal';
  return t === 'blacklist' ? 'blackList' : 'visitor';
}

/** A person a user search listed: the roster row (card filled in by the caller), and what says where its face is. */
export interface ListedUser {
  user: RosterUser;
  /** worth a face search: numOfFace ≥ 1, or absent (firmware that does not count) */
  face: boolean;
  /** the picture's URL when the user search lists it (some firmware), '' otherwise */
  faceUrl: string;
}

/** One `UserInfo` of a user search (§12.2); undefined without a usable employeeNo. */
export function listedUser(u: Record<string, unknown>, tz: number): ListedUser | undefined {
  const pin = pinOf(u.employeeNo);
  if (!pin) return undefined;
  const faces = int(u.numOfFace);
  return {
    user: {
      pin,
      name: field(u.name, 128),
      card: '',
      ...validity(u.Valid, tz),
      admin: false,
      kind: kindOf(u.userType),
      // 'unknown' and anything else: not said
      ...(u.gender === 'male' || u.gender === 'female' ? { gender: u.gender } : {}),
    },
    face: faces === undefined ? !('numOfFace' in u) : faces >= 1,
    faceUrl: str(u.faceURL).trim(),
  };
}

/**
 * Adds a card search page's cards to `cards` (employeeNo → card): the first `normalCard` of each person (a card
 * without a type is one); duress, patrol and the other types never open as the person's card.
 */
export function addNormalCards(cards: Map<string, string>, items: Record<string, unknown>[]): void {
  for (const c of items) {
    const pin = pinOf(c.employeeNo);
    const card = field(c.cardNo, 32);
    const type = str(c.cardType).trim() || 'normalCard';
    if (pin && card && type === 'normalCard' && !cards.has(pin)) cards.set(pin, card);
  }
}

/** The face URL a face search gives for `pin`: its own match, or the only one listed when it names none. */
export function faceUrlOf(page: SearchPage, pin: string): string {
  const m = page.items.find((i) => str(i.FPID) === pin) ?? (page.items.length === 1 && !('FPID' in page.items[0]!) ? page.items[0] : undefined);
  return m ? str(m.faceURL).trim() : '';
}

/**
 * The path (with its query and `@WEB…` suffix) of a picture URL, to fetch from the address the server dials: the
 * scheme, host and port are the terminal's view of itself (wrong behind NAT), and following them would let a hostile
 * terminal make the server fetch from anywhere (§12.3). Normalised as fetch sends it, so the digest `uri` matches the
 * request line. Undefined when it is not an HTTP(S) URL or a path.
 */
export function picturePath(url: string): string | undefined {
  if (!url || url.length > 2048 || CONTROL.test(url)) return undefined;
  let u: URL;
  try {
    u = new URL(url, 'http://terminal.invalid');
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  const path = `${u.pathname}${u.search}`;
  return path.startsWith('/') && !path.startsWith('//') ? path : undefined;
}
