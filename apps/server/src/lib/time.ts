/** The clock, replaceable in tests. Times are ISO-8601 UTC strings in the database. */
export const clock = { now: () => Date.now() };
export const nowIso = () => new Date(clock.now()).toISOString();
export const isoIn = (ms: number) => new Date(clock.now() + ms).toISOString();

/** A device clock reading, 'YYYY-MM-DD HH:mm:ss' in the device's own zone. */
export const DEVICE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/**
 * A terminal's "YYYY-MM-DD hh:mm:ss" reading as milliseconds on a UTC clock, or NaN when it is not a
 * real date and time (31 February is refused, not rolled over into March as Date.parse does).
 */
export function wallClockMs(s: string): number {
  if (!DEVICE_TIME.test(s)) return NaN;
  const y = +s.slice(0, 4);
  const mo = +s.slice(5, 7);
  const d = +s.slice(8, 10);
  const h = +s.slice(11, 13);
  const mi = +s.slice(14, 16);
  const se = +s.slice(17, 19);
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (mo < 1 || mo > 12 || d < 1 || d > (mo === 2 && leap ? 29 : DAYS[mo - 1]!) || h > 23 || mi > 59 || se > 59) return NaN;
  return Date.UTC(y, mo - 1, d, h, mi, se);
}

/** Device-local time → the UTC instant (ms), with the terminal's offset in minutes east of UTC. */
export function localToUtcMs(local: string, tzOffsetMinutes: number): number {
  return wallClockMs(local) - tzOffsetMinutes * 60_000;
}
export function utcToLocal(iso: string, tzOffsetMinutes: number): string {
  return new Date(Date.parse(iso) + tzOffsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}
