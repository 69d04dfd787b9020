import dayjs from 'dayjs';
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

/** Bytes received by an export so far, for its progress label: "0 KB", "12 KB", "1.4 MB". */
export function receivedSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
