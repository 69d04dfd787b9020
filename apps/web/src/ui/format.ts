import dayjs, { type Dayjs } from 'dayjs';
import { DEFAULT_TIME_ZONE } from '@faceadmin/shared';

/**
 * Every time the console shows is in the current company's time zone (issue #9 item 7), whatever the
 * browser's: the session sets it when the administrator's profile (with the company's zone) arrives.
 */
let displayZone: string = DEFAULT_TIME_ZONE;
const formats = new Map<string, Intl.DateTimeFormat>();

export function setDisplayTimeZone(zone: string) {
  displayZone = zone || DEFAULT_TIME_ZONE;
}
export const displayTimeZone = () => displayZone;

/** The browser's own zone (a new company's default). */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIME_ZONE;

/** Every IANA zone the browser knows, for a searchable select. */
export function timeZoneOptions(): { value: string; label: string }[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [DEFAULT_TIME_ZONE, 'UTC'];
  return zones.map((z) => ({ value: z, label: z.replace(/_/g, ' ') }));
}

/** Date-time in the company's zone for API timestamps (ISO strings); empty for missing values. */
export function formatDateTime(value: string | null | undefined, zone = displayZone): string {
  if (!value) return '';
  const d = dayjs(value);
  if (!d.isValid()) return value;
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(d.toDate()).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/**
 * A wall time 'YYYY-MM-DD HH:mm[:ss]' in `zone` → the ISO instant (DST-correct): what a date picker shows is
 * read as the company's time, whatever the browser's zone (issue #17 item 7, the self-service page).
 */
export function zonedWallToIso(wall: string, zone = displayZone): string {
  const n = wall.match(/\d+/g)?.map(Number) ?? [];
  const asUtc = Date.UTC(n[0] ?? 1970, (n[1] ?? 1) - 1, n[2] ?? 1, n[3] ?? 0, n[4] ?? 0, n[5] ?? 0);
  const wallOf = (ms: number) => {
    const m = formatDateTime(new Date(ms).toISOString(), zone).match(/\d+/g)!.map(Number);
    return Date.UTC(m[0]!, m[1]! - 1, m[2], m[3], m[4], m[5]);
  };
  let ms = asUtc;
  for (let i = 0; i < 3; i++) ms -= wallOf(ms) - asUtc;
  return new Date(ms).toISOString();
}

/** A date picker's value (its wall time) read in `zone` → the ISO instant. */
export const pickerToIso = (d: Dayjs, zone = displayZone) => zonedWallToIso(d.format('YYYY-MM-DD HH:mm:ss'), zone);
/** An ISO instant → a date picker's value showing its wall time in `zone`. */
export const isoToPicker = (iso: string, zone = displayZone) => dayjs(formatDateTime(iso, zone));

/** Bytes received by an export so far, for its progress label: "0 KB", "12 KB", "1.4 MB". */
export function receivedSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
