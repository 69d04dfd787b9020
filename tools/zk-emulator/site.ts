// A working site that pre-exists the server (docs/zk-push-protocol.md §12.6): the people a terminal holds, their
// enrolment faces and its punch log, put into an emulated terminal directly (Terminal.seed), never by commands.
// seedSite() makes one deterministically from a seed, cheaply enough for a 3,000-face bench.

import { createHash } from 'node:crypto';
import { seededRandom } from '../../apps/server/src/lib/random.ts';
import { siteFaces, varyJpeg } from '../site-faces.ts';

/** One person as the terminal holds them; keys left out take the terminal's defaults (as DATA UPDATE USERINFO). */
export interface SiteUser {
  pin: string;
  name: string;
  /** 0 user, 2 registrar, 6 admin, 14 super admin */
  pri?: number;
  /** the door password, in clear (as the terminal keeps it) */
  passwd?: string;
  card?: string;
  grp?: string;
  tz?: string;
  verify?: string;
  /** Validity (not in 2.4.1), device-local `YYYY-MM-DD hh:mm:ss`; empty = always valid. */
  startDatetime?: string;
  endDatetime?: string;
  /** The enrolment JPEG (BIOPHOTO Type=9); the terminal also holds the template it extracted from it. */
  face?: Buffer;
  /** The photo shown on the screen (USERPIC). */
  userPic?: Buffer;
}

/** One stored punch (§11.2 fields); device-local time. */
export interface SitePunch {
  pin: string;
  time: string;
  status?: number;
  verify?: number;
  workcode?: string;
}

export interface Site {
  users: SiteUser[];
  /** Oldest first, as a terminal's log. */
  punches: SitePunch[];
}

export interface SiteSpec {
  users: number;
  punches?: number;
  /** Same seed ⇒ the same site, byte for byte. Default 1. */
  seed?: number;
  /** Seed of the punch log alone (several terminals of one site: the same people, different punches). Default: derived from `seed`. */
  punchSeed?: number;
  /** First PIN; the others follow. Default 1. */
  firstPin?: number;
  /** Share of users with an enrolment face (0–1). Default 1. */
  faces?: number;
  /** Share of users with a USERPIC (0–1); it is their face photo. Default 0. */
  userPics?: number;
  /** Share of users with a validity window (0–1). Default 0.05. */
  validity?: number;
  /** The JPEGs faces are made from (each user's bytes made unique). Default: the repository's test portrait. */
  facePhotos?: Buffer[];
  /** First day of the punch log, `YYYY-MM-DD` (device-local). Default `2026-01-01`. */
  from?: string;
  /** Days the punch log spans. Default 30. */
  days?: number;
}

/**
 * What a face terminal extracts from an enrolment photo, as the emulator stands it in: the photo's SHA-256 in base64
 * (no face extraction is simulated; the same photo always gives the same "template").
 */
export function standInTemplate(photo: Buffer): string {
  return createHash('sha256').update(photo).digest().toString('base64');
}

/** The given and family names the site's users are drawn from (a journey naming its own users takes them too). */
export const GIVEN = [
  'Ann',
  'Ben',
  'Chen',
  'Dana',
  'Emil',
  'Fang',
  'Gita',
  'Hugo',
  'Iris',
  'Jun',
  'Kofi',
  'Lena',
  'Mei',
  'Nils',
  'Omar',
  'Pia',
  'Rui',
  'Sara',
  'Tom',
  'Yuki',
];
export const FAMILY = ['Lee', 'Wang', 'Smith', 'Garcia', 'Kim', 'Novak', 'Li', 'Okafor', 'Silva', 'Zhang', 'Meyer', 'Khan', 'Liu', 'Rossi', 'Sato', 'Dubois'];

const DAY_MS = 86_400_000;

function pick<T>(list: readonly T[], r: () => number): T {
  return list[Math.floor(r() * list.length)]!;
}

/** Midnight of a `YYYY-MM-DD` day on the device's clock, as a UTC instant (arithmetic only, no zone involved). */
function dayStart(day: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (!Number.isFinite(ms)) throw new Error(`seedSite: bad from date ${day}`);
  return ms;
}

/** That midnight + days + seconds → device-local `YYYY-MM-DD hh:mm:ss`. */
function localTime(base: number, day: number, seconds: number): string {
  return new Date(base + day * DAY_MS + seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

function makeUser(i: number, pin: string, spec: SiteSpec, photos: Buffer[], r: () => number): SiteUser {
  const user: SiteUser = { pin, name: `${pick(GIVEN, r)} ${pick(FAMILY, r)}` };
  // The first PIN is the installer's super administrator, as on most sites; a few others manage the terminal.
  user.pri = i === 0 ? 14 : r() < 0.02 ? 6 : 0;
  if (r() < 0.7) user.card = String(10_000_000 + Math.floor(r() * 4_000_000_000));
  if (r() < 0.05) user.passwd = String(1000 + Math.floor(r() * 9000));
  if (r() < (spec.validity ?? 0.05)) {
    const from = dayStart(spec.from ?? '2026-01-01');
    user.startDatetime = localTime(from, -Math.floor(r() * 90), 0);
    user.endDatetime = localTime(from, 30 + Math.floor(r() * 365), DAY_MS / 1000 - 1);
  }
  if (photos.length && r() < (spec.faces ?? 1)) {
    user.face = varyJpeg(photos[i % photos.length]!, `faceadmin-emulator site pin=${pin}`);
    if (r() < (spec.userPics ?? 0)) user.userPic = user.face;
  }
  return user;
}

/** Punches of random users on random days between 07:00 and 20:00, oldest first; no two of one PIN at one second. */
function makePunches(users: SiteUser[], spec: SiteSpec, r: () => number): SitePunch[] {
  const n = spec.punches ?? 0;
  if (!n || !users.length) return [];
  const days = Math.max(1, spec.days ?? 30);
  const from = dayStart(spec.from ?? '2026-01-01');
  // Numbers, not strings, until the end: 200,000 punches are drawn, checked and sorted in a fraction of a second.
  const seen = new Set<number>();
  const drawn: { user: number; at: number }[] = [];
  while (drawn.length < Math.min(n, days * 13 * 3600 * users.length)) {
    const user = Math.floor(r() * users.length);
    const at = Math.floor(r() * days) * 86_400 + 7 * 3600 + Math.floor(r() * 13 * 3600);
    const key = at * users.length + user;
    if (seen.has(key)) continue;
    seen.add(key);
    drawn.push({ user, at });
  }
  drawn.sort((a, b) => a.at - b.at || a.user - b.user);
  // Morning punches are check-ins, afternoon ones check-outs (the community meaning of Status 0/1, notes §5.1).
  return drawn.map(({ user, at }) => ({ pin: users[user]!.pin, time: localTime(from, 0, at), status: at % 86_400 < 12 * 3600 ? 0 : 1, verify: 15 }));
}

/** A deterministic working site: `users` people (faces from `facePhotos`, each photo's bytes unique) and `punches` punches. */
export function seedSite(spec: SiteSpec): Site {
  const seed = spec.seed ?? 1;
  const r = seededRandom(seed);
  const photos = (spec.faces ?? 1) > 0 ? (spec.facePhotos ?? siteFaces()) : [];
  const first = spec.firstPin ?? 1;
  const users = Array.from({ length: Math.max(0, spec.users) }, (_, i) => makeUser(i, String(first + i), spec, photos, r));
  return { users, punches: makePunches(users, spec, seededRandom(spec.punchSeed ?? seed + 0x5eed)) };
}
