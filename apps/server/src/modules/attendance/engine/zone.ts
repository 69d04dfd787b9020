import { zoneOffsetMs } from '../../../lib/time.ts';

/**
 * Wall times ↔ instants in an IANA zone, memoised: a month for 10,000 people asks the same few thousand
 * questions millions of times, and one Intl call costs microseconds. Offsets are looked up per quarter hour
 * (every zone changes its offset on a quarter-hour boundary); the memo is bounded and simply starts over.
 */
const QUARTER = 15 * 60_000;
const MINUTE = 60_000;
const DAY = 86_400_000;
const LIMIT = 200_000;
const offsets = new Map<string, Map<number, number>>();
const instants = new Map<string, number>();

export function offsetAt(zone: string, ms: number): number {
  let byQuarter = offsets.get(zone);
  if (!byQuarter) offsets.set(zone, (byQuarter = new Map()));
  const q = Math.floor(ms / QUARTER);
  let off = byQuarter.get(q);
  if (off === undefined) {
    if (byQuarter.size > LIMIT) byQuarter.clear();
    off = zoneOffsetMs(zone, q * QUARTER);
    byQuarter.set(q, off);
  }
  return off;
}

/** Minutes since midnight of 'HH:mm'. */
export const hmMin = (hm: string): number => Number(hm.slice(0, 2)) * 60 + Number(hm.slice(3, 5));

/** Days since 1970-01-01 of 'YYYY-MM-DD' (a plain calendar count, no zone). */
export const dayNumber = (date: string): number => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY;
export const dateOfDay = (n: number): string => new Date(n * DAY).toISOString().slice(0, 10);
export const addDays = (date: string, n: number): string => dateOfDay(dayNumber(date) + n);

/** The instant a wall time names: `date` + `minutes` after its midnight (may exceed a day). DST gaps move forward. */
export function wallToMs(zone: string, date: string, minutes: number): number {
  const key = `${zone}|${date}|${minutes}`;
  let ms = instants.get(key);
  if (ms === undefined) {
    const wall = dayNumber(date) * DAY + minutes * MINUTE;
    const first = wall - offsetAt(zone, wall);
    ms = wall - offsetAt(zone, first);
    if (instants.size > LIMIT) instants.clear();
    instants.set(key, ms);
  }
  return ms;
}

/** The wall clock of an instant in the zone: its day number and ms since that day's midnight. */
export function wallOf(zone: string, ms: number): { day: number; msOfDay: number } {
  const wall = ms + offsetAt(zone, ms);
  const day = Math.floor(wall / DAY);
  return { day, msOfDay: wall - day * DAY };
}

const pad = (n: number) => String(n).padStart(2, '0');
/**
 * An instant as the wall time people read: 'HH:mm', 'HH:mm:ss' when the seconds matter, and ' (+1)' / ' (-1)'
 * when it falls on another date than `date` (a night shift's check-out).
 */
export function clockText(zone: string, ms: number, date: string): string {
  const { day, msOfDay } = wallOf(zone, ms);
  const s = Math.floor(msOfDay / 1000);
  const hm = `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}`;
  const text = s % 60 ? `${hm}:${pad(s % 60)}` : hm;
  const shift = day - dayNumber(date);
  return shift ? `${text} (${shift > 0 ? '+' : ''}${shift})` : text;
}
