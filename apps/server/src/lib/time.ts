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

/** Whether a 'YYYY-MM-DD' is a real calendar date (2026-02-30 is not). */
export function isCalendarDate(s: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(wallClockMs(`${s} 00:00:00`));
}

const INSTANT = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-](\d{2}):(\d{2}))$/;
/**
 * Whether an ISO-8601 date-time (with its offset) names a real instant: a real calendar day, hours 00–23,
 * minutes and seconds 00–59, an offset within ±23:59. Date.parse would roll 2026-02-31 into March.
 */
export function isInstant(s: string): boolean {
  const m = INSTANT.exec(s);
  if (!m) return false;
  const [, day, h, mi, se = '00', zone, zh = '00', zm = '00'] = m;
  if (!isCalendarDate(day!) || +h! > 23 || +mi! > 59 || +se > 59) return false;
  return zone === 'Z' || zone === 'z' || (+zh <= 23 && +zm <= 59);
}

/** Device-local time → the UTC instant (ms), with the terminal's offset in minutes east of UTC. */
export function localToUtcMs(local: string, tzOffsetMinutes: number): number {
  return wallClockMs(local) - tzOffsetMinutes * 60_000;
}
export function utcToLocal(iso: string, tzOffsetMinutes: number): string {
  return new Date(Date.parse(iso) + tzOffsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Whether the runtime knows this IANA zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
/** The zone's offset from UTC at an instant, in ms, as Intl reads it (about 10 µs a call; zoneOffsetMs caches it). */
export function readZoneOffsetMs(zone: string, ms: number): number {
  let f = zoneFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    zoneFormats.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** Offsets by zone and quarter hour, where a quarter hour has one offset throughout (nearly all of them). */
const QUARTER_MS = 15 * 60_000;
const DAY_MS = 86_400_000;
const quarterOffsets = new Map<string, number>();
/**
 * The zone's offset from UTC at an instant, in ms (east positive; DST included). Punch ingest and attendance ask it
 * for every punch: a quarter hour whose first and last second have the same offset has it throughout (zones change
 * at most twice a year), so it is read once; a quarter hour holding a change is read each time.
 */
export function zoneOffsetMs(zone: string, ms: number): number {
  const quarter = Math.floor(ms / QUARTER_MS);
  const key = `${zone}|${quarter}`;
  const known = quarterOffsets.get(key);
  if (known !== undefined) return known;
  const start = readZoneOffsetMs(zone, quarter * QUARTER_MS);
  if (start !== readZoneOffsetMs(zone, (quarter + 1) * QUARTER_MS - 1000)) return readZoneOffsetMs(zone, ms);
  if (quarterOffsets.size >= 50_000) quarterOffsets.clear();
  quarterOffsets.set(key, start);
  return start;
}

/**
 * The instant a wall-clock time ('YYYY-MM-DD' or 'YYYY-MM-DD HH:mm[:ss]') names in a zone. A time the clocks skip (a
 * DST gap) moves forward by the gap; a time they pass twice (clocks going back) is its first instance, east and west
 * of Greenwich alike.
 */
export function zonedToUtcMs(local: string, zone: string): number {
  const [date, time = '00:00:00'] = local.split(/[ T]/);
  const [y, mo, d] = date!.split('-').map(Number);
  const [h = 0, mi = 0, s = 0] = time.split(':').map(Number);
  const wall = Date.UTC(y!, mo! - 1, d, h, mi, s);
  // the offsets a day either side: the two a change around this wall time lies between (the same one, mostly)
  const before = wall - zoneOffsetMs(zone, wall - DAY_MS);
  const after = wall - zoneOffsetMs(zone, wall + DAY_MS);
  const fits = [before, after].filter((c) => c + zoneOffsetMs(zone, c) === wall);
  // none fits: the gap, read on the offset before it
  return fits.length ? Math.min(...fits) : before;
}

/**
 * The instant a calendar date ('YYYY-MM-DD') ends in a zone: the next day's midnight there, as ISO UTC. A date that
 * means "through this day" (an API key's expiry) becomes this once, so a later change of zone does not move it.
 */
export function endOfDayIn(date: string, zone: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const next = new Date(Date.UTC(y!, m! - 1, d! + 1)).toISOString().slice(0, 10);
  return new Date(zonedToUtcMs(next, zone)).toISOString();
}

const isoDays = new Map<string, number>();
const digits2 = (s: string, i: number) => (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48;
/**
 * Date.parse for the stored form 'YYYY-MM-DDTHH:mm:ss.sssZ' without its general parser (a month of punches for
 * 10,000 people is 1.24 M of them); any other form goes to Date.parse.
 */
export function isoToMs(iso: string): number {
  if (iso.length !== 24 || iso.charCodeAt(23) !== 90 /* Z */ || iso.charCodeAt(10) !== 84 /* T */) return Date.parse(iso);
  const day = iso.slice(0, 10);
  let base = isoDays.get(day);
  if (base === undefined) {
    base = Date.parse(`${day}T00:00:00.000Z`);
    if (Number.isNaN(base)) return Date.parse(iso);
    if (isoDays.size > 100_000) isoDays.clear();
    isoDays.set(day, base);
  }
  const h = digits2(iso, 11);
  const m = digits2(iso, 14);
  const s = digits2(iso, 17);
  const ms = (iso.charCodeAt(20) - 48) * 100 + digits2(iso, 21);
  const shaped = iso.charCodeAt(13) === 58 && iso.charCodeAt(16) === 58 && iso.charCodeAt(19) === 46; // ':' ':' '.'
  if (!(shaped && h >= 0 && h < 24 && m >= 0 && m < 60 && s >= 0 && s < 60 && ms >= 0 && ms < 1000)) return Date.parse(iso);
  return base + ((h * 60 + m) * 60 + s) * 1000 + ms;
}
