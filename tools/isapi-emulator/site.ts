// A terminal that already holds a working site (docs/isapi-protocol.md §12): people of every user type, enrolment
// faces, cards (several for some people, of various types), fingerprints counted, and a long event log over past days,
// all put straight into its memory — what a take-over finds. Deterministic: the same seed (and `now`) gives the same
// site, byte for byte, so a test can name what it expects.

import { seededRandom } from '../../apps/server/src/lib/random.ts';
import { siteFaces, varyJpeg } from '../site-faces.ts';
import { CARD_TYPES, type EmulatedEvent, type EmulatedUser } from './searches.ts';
import type { IsapiTerminal } from './terminal.ts';

export interface SiteSpec {
  /** people the terminal holds (at most its capacity) */
  people: number;
  /** events in its log, spread over the `days` before today (default 0) */
  events?: number;
  /** the same seed gives the same site (default 1) */
  seed?: number;
  /** days the log goes back (default 30) */
  days?: number;
  /** the instant the site is seeded at (default now): validity windows and the log's days are counted from it */
  now?: number;
  /** enrolment photos to derive the faces from (default: the public-domain portrait the server's tests use) */
  faceJpegs?: Buffer[];
}

export interface SiteSummary {
  people: number;
  normal: number;
  visitors: number;
  blackList: number;
  faces: number;
  cards: number;
  /** people holding more than one card */
  multiCard: number;
  fingerprints: number;
  events: number;
}

const DAY = 86_400_000;
// Names in Latin and Chinese script (a site's roster mixes them; the searches carry them as UTF-8).
const FAMILY = ['Lee', 'Chen', 'Garcia', 'Müller', 'Kowalski', 'Nguyen', 'Silva', 'Ivanova', 'Okafor', 'Haddad', 'Tanaka', 'Rossi', "O'Brien"];
const GIVEN = ['Ann', 'Bo', 'Carlos', 'Dana', 'Elif', 'Femi', 'Grace', 'Hiro', 'Inès', 'Jun', 'Kai', 'Lena', 'Nadia', 'Omar', 'Priya'];
const HAN_FAMILY = ['王', '李', '张', '刘', '陈', '赵'];
const HAN_GIVEN = ['伟', '芳', '静', '磊', '洋', '婷', '子涵'];

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;

/** Terminal-local 'YYYY-MM-DDThh:mm:ss' of a UTC instant. */
const wall = (ms: number, tz: number) => new Date(ms + tz * 60_000).toISOString().slice(0, 19);

const nameOf = (r: () => number) => (r() < 0.25 ? `${pick(r, HAN_FAMILY)}${pick(r, HAN_GIVEN)}` : `${pick(r, GIVEN)} ${pick(r, FAMILY)}`);

/** A person's type and validity: mostly staff valid "always", some for ever, some expired; visitors for a week. */
function person(r: () => number, i: number, now: number, tz: number, type?: string): EmulatedUser {
  const roll = r();
  const userType = type ?? (roll < 0.08 ? 'visitor' : roll < 0.12 ? 'blackList' : 'normal');
  const since = now - Math.floor(r() * 700) * DAY;
  const valid =
    userType === 'visitor'
      ? { enable: true, beginTime: wall(now - 2 * DAY, tz), endTime: wall(now + 5 * DAY, tz) }
      : roll > 0.97
        ? { enable: true, beginTime: wall(since - 400 * DAY, tz), endTime: wall(now - 30 * DAY, tz) }
        : roll > 0.92
          ? { enable: false, beginTime: '2000-01-01T00:00:00', endTime: '2037-12-31T23:59:59' }
          : { enable: true, beginTime: wall(since, tz), endTime: '2037-12-31T23:59:59' };
  return {
    employeeNo: String(i + 1),
    name: nameOf(r),
    userType,
    valid,
    // a door password the searches must withhold
    password: r() < 0.1 ? String(100000 + Math.floor(r() * 900000)) : '',
    // not drawn (the same seed keeps giving the same site): some not said, as on a real terminal
    gender: i % 5 === 4 ? 'unknown' : i % 2 ? 'female' : 'male',
  };
}

/** Cards for a person: about half hold one `normalCard`, a few hold two or three, the extra ones of other types. */
function cardsFor(r: () => number, taken: Set<string>): { cardNo: string; cardType: string }[] {
  const roll = r();
  const n = roll < 0.45 ? 0 : roll < 0.92 ? 1 : roll < 0.97 ? 2 : 3;
  const out: { cardNo: string; cardType: string }[] = [];
  while (out.length < n) {
    const cardNo = String(1_000_000_000 + Math.floor(r() * 3_000_000_000));
    if (taken.has(cardNo)) continue;
    taken.add(cardNo);
    out.push({ cardNo, cardType: out.length ? pick(r, CARD_TYPES) : 'normalCard' });
  }
  return out;
}

/** How someone passes at an hour: the attendance status a terminal set for attendance marks it with. */
function attendance(hour: number): string {
  return hour < 10 ? 'checkIn' : hour === 12 ? 'breakOut' : hour === 13 ? 'breakIn' : hour >= 17 ? 'checkOut' : 'undefined';
}

/**
 * Fills a terminal with a working site (call it on a fresh one: the events take the next serial numbers, oldest
 * first). People are numbered 1…N; at least one visitor and one blackList person when N ≥ 3.
 */
export function seedSite(t: IsapiTerminal, spec: SiteSpec): SiteSummary {
  const { seed = 1, days = 30, now = Date.now(), events = 0 } = spec;
  if (t.users.size + spec.people > t.options.capacity) throw new Error(`${spec.people} people do not fit a terminal of ${t.options.capacity}`);
  const r = seededRandom(seed);
  const tz = t.options.timezone;
  const bases = spec.faceJpegs ?? siteFaces();
  const taken = new Set(t.cards.keys());
  const people: EmulatedUser[] = [];
  for (let i = 0; i < spec.people; i++) {
    // the types a take-over must list apart are always there
    const u = person(r, i, now, tz, i === 1 ? 'visitor' : i === 2 ? 'blackList' : undefined);
    people.push(u);
    t.users.set(u.employeeNo, u);
    if (r() < (u.userType === 'visitor' ? 0.5 : 0.9)) t.faces.set(u.employeeNo, varyJpeg(pick(r, bases), `faceadmin-emu site ${seed} person ${u.employeeNo}`));
    for (const c of cardsFor(r, taken)) {
      t.cards.set(c.cardNo, u.employeeNo);
      if (c.cardType !== 'normalCard') t.cardTypes.set(c.cardNo, c.cardType);
    }
    if (r() < 0.2) t.fingerprints.set(u.employeeNo, 1 + Math.floor(r() * 2));
  }
  seedEvents(t, r, people, { events, days, now });
  return summary(t, people);
}

/** The log: passes of the site's people, strangers refused, now and then a remote open, on working hours of past days. */
function seedEvents(t: IsapiTerminal, r: () => number, people: EmulatedUser[], o: { events: number; days: number; now: number }) {
  const tz = t.options.timezone;
  const today = Math.floor((o.now + tz * 60_000) / DAY) * DAY - tz * 60_000; // local midnight, as UTC ms
  const times = Array.from({ length: o.events }, () => today - (1 + Math.floor(r() * o.days)) * DAY + (7 * 3600 + Math.floor(r() * 13 * 3600)) * 1000).sort(
    (a, b) => a - b,
  );
  const cardOf = new Map<string, string>();
  for (const [card, who] of t.cards) if (!t.cardTypes.has(card) && !cardOf.has(who)) cardOf.set(who, card);
  for (const at of times) {
    const roll = r();
    const u = people.length ? pick(r, people) : undefined;
    if (roll < 0.03 || !u) t.record({ at, major: 3, minor: 1024, employeeNo: '', name: '', verifyMode: '' });
    else if (roll < 0.13) t.record({ at, major: 5, minor: 76, employeeNo: '', name: '', verifyMode: 'face' });
    else t.record(pass(t, u, at, cardOf.get(u.employeeNo)));
  }
}

/**
 * One person at the door: by face, else card, else fingerprint. A person out of validity or blackListed is refused at
 * the face reader (minor 76, named when enrolled; an unenrolled face is a stranger): card and fingerprint refusals have
 * minors of their own this log leaves out.
 */
function pass(t: IsapiTerminal, u: EmulatedUser, at: number, card: string | undefined): Omit<EmulatedEvent, 'serialNo'> {
  const local = wall(at, t.options.timezone);
  const inside = !u.valid.enable || (local >= u.valid.beginTime && local <= u.valid.endTime);
  const face = t.faces.has(u.employeeNo);
  const who = { employeeNo: u.employeeNo, name: u.name };
  if (!inside || u.userType === 'blackList' || (!face && !card && !t.fingerprints.has(u.employeeNo)))
    return { at, major: 5, minor: 76, verifyMode: 'face', ...(face ? who : { employeeNo: '', name: '' }) };
  const granted = { at, major: 5, ...who, attendanceStatus: attendance(Number(local.slice(11, 13))) };
  if (face) return { ...granted, minor: 75, verifyMode: 'face' };
  if (card) return { ...granted, minor: 1, verifyMode: 'card', cardNo: card };
  return { ...granted, minor: 38, verifyMode: 'fp' };
}

function summary(t: IsapiTerminal, people: EmulatedUser[]): SiteSummary {
  const mine = new Set(people.map((p) => p.employeeNo));
  const held = new Map<string, number>();
  for (const who of t.cards.values()) if (mine.has(who)) held.set(who, (held.get(who) ?? 0) + 1);
  return {
    people: people.length,
    normal: people.filter((p) => p.userType === 'normal').length,
    visitors: people.filter((p) => p.userType === 'visitor').length,
    blackList: people.filter((p) => p.userType === 'blackList').length,
    faces: people.filter((p) => t.faces.has(p.employeeNo)).length,
    cards: [...held.values()].reduce((a, b) => a + b, 0),
    multiCard: [...held.values()].filter((n) => n > 1).length,
    fingerprints: people.filter((p) => t.fingerprints.has(p.employeeNo)).length,
    events: t.events.length,
  };
}
