import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { TerminalEvents } from '../terminal-events.ts';
import { IsapiTransportError, silentOrRefused, type IsapiClient, type IsapiHttpRequest, type IsapiResponse, type IsapiTarget } from './client.ts';
import { ISAPI_CODES, refusalCode } from './codec.ts';
import type { DialledTerminal } from './driver.ts';
import {
  addNormalCards,
  cardSearchBody,
  faceablePin,
  faceSearchBody,
  faceUrlOf,
  listedUser,
  parseSearchPage,
  picturePath,
  userSearchBody,
  type ListedUser,
} from './roster.codec.ts';
import { isJpeg } from '../../lib/jpeg.ts';

/** Pages one search reads at most: a loop guard well above the largest terminals (100,000 records at 30 a page). */
const MAX_PAGES = 4_000;
/** An enrolment face is fetched up to this size (terminals take uploads of 200 KB or less): a bigger answer is skipped. */
export const FACE_MAX_BYTES = 1024 * 1024;

const PATHS = {
  users: '/ISAPI/AccessControl/UserInfo/Search?format=json',
  cards: '/ISAPI/AccessControl/CardInfo/Search?format=json',
  faces: '/ISAPI/Intelligent/FDLib/FDSearch?format=json',
};

interface Read<T extends DialledTerminal> {
  events: TerminalEvents<T>;
  d: T;
  request(req: IsapiHttpRequest): Promise<IsapiResponse>;
  /** the face library answers searches (false once it said notSupport: not asked again for every user) */
  faceSearch: boolean;
  counts: { requests: number; users: number; cards: number; faces: number; facesSkipped: number };
}

const post = (path: string, body: unknown): IsapiHttpRequest => ({
  method: 'POST',
  path,
  contentType: 'application/json',
  body: Buffer.from(JSON.stringify(body)),
});

/**
 * Pages one search (§12.1): one searchID, advancing by the numOfMatches each page gives (a terminal caps the page size
 * without saying so), until a page says it is the last, holds nothing, or the page cap. Our code: 0, or the refusal.
 */
async function search<T extends DialledTerminal>(
  r: Read<T>,
  path: string,
  bodyAt: (searchID: string, position: number) => unknown,
  wrapper: string,
  listKey: string,
  onPage: (items: Record<string, unknown>[]) => Promise<void>,
): Promise<number> {
  const searchID = randomBytes(8).toString('hex');
  let position = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await r.request(post(path, bodyAt(searchID, position)));
    const found = parseSearchPage(res.text, wrapper, [listKey]);
    if (!found) return refusalCode(res.status, res.text);
    await onPage(found.items);
    if (!found.more || found.matches <= 0) return ISAPI_CODES.ok;
    position += found.matches;
  }
  return ISAPI_CODES.ok;
}

/**
 * A picture by the path of its URL, from the address and port the server dials, with digest and no redirect (the
 * client follows none). 'gone' on a 404 (no picture, or a URL a later listing retired); a picture that is no JPEG,
 * too big or cut off is skipped. A terminal gone silent or refusing us still stops the read.
 */
async function fetchPicture<T extends DialledTerminal>(r: Read<T>, pin: string, url: string): Promise<'kept' | 'gone' | 'skipped'> {
  const path = picturePath(url);
  if (!path) return 'skipped';
  let res: IsapiResponse;
  try {
    res = await r.request({ method: 'GET', path, maxBodyBytes: FACE_MAX_BYTES });
  } catch (e) {
    if (silentOrRefused(e) || !(e instanceof IsapiTransportError)) throw e;
    return 'skipped';
  }
  if (res.status === 404) return 'gone';
  if (res.status !== 200 || !isJpeg(res.body)) return 'skipped';
  await r.events.rosterFace(r.d, pin, res.body);
  return 'kept';
}

/**
 * A user's enrolment face: by the URL the user search listed (some firmware), else by a face search of its FPID and
 * the URL that gives, fetched at once (the URL's token changes with every listing, §12.3).
 */
async function readFace<T extends DialledTerminal>(r: Read<T>, u: ListedUser): Promise<void> {
  const pin = u.user.pin;
  let got = u.faceUrl ? await fetchPicture(r, pin, u.faceUrl) : 'gone';
  if (got === 'gone' && r.faceSearch) {
    const res = await r.request(post(PATHS.faces, faceSearchBody(pin)));
    // (variants list under FaceMatchList, §12.3)
    const page = parseSearchPage(res.text, undefined, ['MatchList', 'FaceMatchList']);
    if (!page) r.faceSearch = refusalCode(res.status, res.text) !== ISAPI_CODES.notSupport;
    const url = page ? faceUrlOf(page, pin) : '';
    got = url ? await fetchPicture(r, pin, url) : 'gone';
  }
  if (got === 'kept') r.counts.faces++;
  else if (got === 'skipped') r.counts.facesSkipped++;
}

/**
 * Reads everything a terminal holds (docs/isapi-protocol.md §12, issue #30): its cards first (each person's first
 * normalCard), then its people page by page, each page reported at once with its cards (the console shows the read
 * progress) and followed by its people's faces. Never changes the terminal. Our code: 0, or the user search's refusal
 * (a card search refused other than notSupport fails it too: every user would be listed without a card). Transport
 * failures propagate, as for any operation.
 */
export async function readRoster<T extends DialledTerminal>(
  deps: { client: IsapiClient; events: TerminalEvents<T>; log: FastifyBaseLogger },
  d: T,
  t: IsapiTarget,
): Promise<number> {
  const counts = { requests: 0, users: 0, cards: 0, faces: 0, facesSkipped: 0 };
  const r: Read<T> = {
    events: deps.events,
    d,
    faceSearch: true,
    counts,
    request: (req) => {
      counts.requests++;
      return deps.client.request(t, req);
    },
  };
  const cards = new Map<string, string>();
  const cardCode = await search(r, PATHS.cards, cardSearchBody, 'CardInfoSearch', 'CardInfo', async (items) => addNormalCards(cards, items));
  if (cardCode !== ISAPI_CODES.ok && cardCode !== ISAPI_CODES.notSupport) return cardCode;
  const code = await search(r, PATHS.users, userSearchBody, 'UserInfoSearch', 'UserInfo', async (items) => {
    const listed = items.map((i) => listedUser(i, d.tz_offset)).filter((u): u is ListedUser => !!u);
    for (const u of listed) u.user.card = cards.get(u.user.pin) ?? '';
    if (listed.length)
      await deps.events.roster(
        d,
        listed.map((u) => u.user),
      );
    counts.users += listed.length;
    counts.cards += listed.filter((u) => u.user.card).length;
    // a long read keeps the terminal online: it answers all along
    await deps.events.seen(d.serial, d.ip);
    for (const u of listed) if (u.face && faceablePin(u.user.pin)) await readFace(r, u);
  });
  deps.log.info(
    { device: d.id, serial: d.serial, code, ...counts, cardSearch: cardCode === ISAPI_CODES.ok, faceSearch: r.faceSearch },
    code === ISAPI_CODES.ok ? 'roster read' : 'roster read refused',
  );
  return code;
}
