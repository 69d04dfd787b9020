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
const dayNumbers = new Map<string, number>();

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
export const hmMin = (hm: string): number =>
  (hm.charCodeAt(0) - 48) * 600 + (hm.charCodeAt(1) - 48) * 60 + (hm.charCodeAt(3) - 48) * 10 + hm.charCodeAt(4) - 48;

/** Days since 1970-01-01 of 'YYYY-MM-DD' (a plain calendar count, no zone). */
export function dayNumber(date: string): number {
  let n = dayNumbers.get(date);
  if (n === undefined) {
    n = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY;
    if (dayNumbers.size > LIMIT) dayNumbers.clear();
    dayNumbers.set(date, n);
  }
  return n;
}
export const dateOfDay = (n: number): string => new Date(n * DAY).toISOString().slice(0, 10);
export const addDays = (date: string, n: number): string => dateOfDay(dayNumber(date) + n);

/** The instant a wall time names: `date` + `minutes` after its midnight (may exceed a day). DST gaps move forward. */
export function wallToMs(zone: string, date: string, minutes: number): number {
  const wall = dayNumber(date) * DAY + minutes * MINUTE;
  return wall - offsetAt(zone, wall - offsetAt(zone, wall));
}

const pad = (n: number) => (n < 10 ? `0${n}` : `${n}`);
/**
 * An instant as the wall time people read: 'HH:mm', 'HH:mm:ss' when the seconds matter, and ' (+1)' / ' (-1)'
 * when it falls on another date than `date` (a night shift's check-out).
 */
export function clockText(zone: string, ms: number, date: string): string {
  const wall = ms + offsetAt(zone, ms);
  const day = Math.floor(wall / DAY);
  const s = Math.floor((wall - day * DAY) / 1000);
  const sec = s % 60;
  let text = `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}`;
  if (sec) text += `:${pad(sec)}`;
  const shift = day - dayNumber(date);
  return shift ? `${text} (${shift > 0 ? '+' : ''}${shift})` : text;
}
