import {
  BREAKER_LIMITS,
  type BreakerLine,
  type BrokerAddress,
  type EnergyItem,
  type MessageItem,
  type PowerSeries,
  type Timer,
  type TimerAction,
  type TimerCreate,
  type TimerType,
} from '@faceadmin/shared';
import type { TFunction } from 'i18next';

/** spec §3 Line: mxgl is in units of 10 mA; the console shows and takes amperes. */
export const mxglToAmps = (mxgl: number): number => Math.round(mxgl) / 100;
export const ampsToMxgl = (amps: number): number => Math.round(amps * 100);
/** The overcurrent limit's bounds in amperes (mxgl 1..mxglMax). */
export const AMPS_MIN = 0.01;
export const AMPS_MAX = BREAKER_LIMITS.mxglMax / 100;

export const UUID_RE = new RegExp(BREAKER_LIMITS.uuidPattern);

/** Power for people: W below 1 kW, kW with two decimals above. */
export function formatPower(w: number): string {
  if (!Number.isFinite(w)) return '—';
  return Math.abs(w) >= 1000 ? `${(w / 1000).toFixed(2)} kW` : `${Math.round(w)} W`;
}
export const formatNumber = (v: number | null | undefined, digits: number, unit: string): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : `${v.toFixed(digits)} ${unit}`;

/** Days of the week in the order people read them (Monday first); 0 is Sunday as on the wire. */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;

/** Short weekday names by day number (0 Sunday), from `breaker.weekdays.d0` … `d6`. */
export const weekdayNames = (t: (key: string) => string): string[] => [0, 1, 2, 3, 4, 5, 6].map((d) => t(`breaker.weekdays.d${d}`));

/** Weekdays as short labels in week order ("Mon, Wed, Fri"); `names[d]` is the label of day d. */
export const weekdaysText = (weekdays: readonly number[], names: readonly string[]): string =>
  WEEK_ORDER.filter((d) => weekdays.includes(d))
    .map((d) => names[d])
    .join(', ');

/** The timer dialog's values. */
export interface TimerValues {
  type: TimerType;
  line_ids: number[];
  /** HH:mm */
  time: string;
  weekdays: number[];
  /** YYYY-MM-DD */
  day: string | undefined;
  action: TimerAction;
  enabled: boolean;
}

export const emptyTimer = (lines: readonly Pick<BreakerLine, 'id'>[]): TimerValues => ({
  type: 'cyclic',
  line_ids: lines.map((l) => l.id),
  time: '08:00',
  weekdays: [1, 2, 3, 4, 5],
  day: undefined,
  action: 'on',
  enabled: true,
});

export const timerToValues = (t: Timer): TimerValues => ({
  type: t.type,
  line_ids: [...t.line_ids],
  time: t.time,
  weekdays: [...t.weekdays],
  day: t.day ?? undefined,
  action: t.action,
  enabled: t.enabled,
});

/**
 * spec §5 / §3 Timer: lines and time are required; a cyclic timer needs weekdays, a single one its day. Answers the
 * first field that is missing (the dialog marks it), or the body to send.
 */
export function timerBody(v: TimerValues): { ok: true; body: Omit<TimerCreate, 'breaker_id'> } | { ok: false; field: keyof TimerValues } {
  if (!v.line_ids.length) return { ok: false, field: 'line_ids' };
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(v.time ?? '')) return { ok: false, field: 'time' };
  if (v.type === 'cyclic' && !v.weekdays.length) return { ok: false, field: 'weekdays' };
  if (v.type === 'single' && !v.day) return { ok: false, field: 'day' };
  const body: Omit<TimerCreate, 'breaker_id'> = {
    type: v.type,
    line_ids: [...new Set(v.line_ids)],
    time: v.time,
    action: v.action,
    enabled: v.enabled ? 1 : 0,
  };
  if (v.type === 'cyclic') body.weekdays = [...new Set(v.weekdays)].sort((a, b) => a - b);
  else body.day = v.day!;
  return { ok: true, body };
}

/** spec §3 Company alarmRing: the company's option (the session's `alarm_ring`) switches every alarm sound. */
export const alarmRingOn = (user: { company: number; alarm_ring: number } | undefined): boolean => Boolean(user && user.company !== 0 && user.alarm_ring === 1);

/**
 * The alarm ring (spec §3 Company alarmRing): of the unread messages the bell sees, the breaker alarms newer than
 * the newest one already seen. The first look (`seen` null) only takes note, so opening the console does not ring
 * for alarms from before.
 */
export function newBreakerAlarms(items: readonly Pick<MessageItem, 'id' | 'type'>[], seen: number | null): { ring: boolean; seen: number } {
  const newest = items.reduce((m, x) => Math.max(m, x.id), seen ?? 0);
  if (seen === null) return { ring: false, seen: newest };
  return { ring: items.some((x) => x.id > seen && x.type === 'breakerAlarm'), seen: newest };
}

/**
 * The chart's points on an even axis: every 5-minute bucket (day) or day (month) from the first point to the last,
 * a bucket without readings as a gap (null), not drawn next to its neighbours as if no time had passed. Labels: the
 * bucket's local time (day, via `label`) or the server's local date as it is (month: 'YYYY-MM-DD' already in the
 * company's zone).
 */
export function powerSeries(series: PowerSeries | undefined, label: (iso: string) => string) {
  const points = series?.points ?? [];
  const labels: string[] = [];
  const avg: (number | null)[] = [];
  const max: (number | null)[] = [];
  if (!points.length || !series) return { labels, avg, max };
  const month = series.range === 'month';
  const at = (t: string) => Date.parse(month ? `${t}T00:00:00Z` : t);
  const step = series.step_s * 1000;
  const byAt = new Map(points.map((p) => [at(p.t), p]));
  const last = at(points.at(-1)!.t);
  for (let x = at(points[0]!.t); x <= last; x += step) {
    const p = byAt.get(x);
    labels.push(month ? new Date(x).toISOString().slice(5, 10) : label(new Date(x).toISOString()));
    avg.push(p ? Math.round(p.avg * 10) / 10 : null);
    max.push(p ? Math.round(p.max * 10) / 10 : null);
  }
  return { labels, avg, max };
}

/** One month's energy of each line (kWh, null: no readings), from each line's monthly list. */
export function lineEnergyOfMonth(lists: readonly (readonly EnergyItem[] | undefined)[], month: string): (number | null)[] {
  return lists.map((items) => {
    const e = items?.find((i) => i.period === month);
    return e ? Math.round(e.kwh * 1000) / 1000 : null;
  });
}

/** The months any line has readings in, newest first. */
export const energyMonths = (lists: readonly (readonly EnergyItem[] | undefined)[]): string[] =>
  [...new Set(lists.flatMap((items) => (items ?? []).map((i) => i.period)))].sort().reverse();

/** kWh per period, rounded for the chart's labels; the total beside it. */
export function energySeries(items: readonly EnergyItem[] | undefined) {
  const list = items ?? [];
  return {
    labels: list.map((i) => i.period),
    kwh: list.map((i) => Math.round(i.kwh * 1000) / 1000),
    total: Math.round(list.reduce((s, i) => s + i.kwh, 0) * 100) / 100,
  };
}

/**
 * The MQTT facts a technician types into the breaker (docs/breaker-protocol.md: username = uuid, prefix fa/<uuid>),
 * at the address the server gives (a null host: the embedded broker on the console's own host).
 */
export function connectionFacts(uuid: string, password: string, broker: BrokerAddress, consoleHost: string) {
  return { host: broker.host ?? consoleHost, port: broker.port, tls: broker.tls, username: uuid, password, prefix: `fa/${uuid}` };
}

/**
 * What cuts power, to be confirmed first (issue #18: switching power off asked nothing while the harmless self-check
 * asked): `now` a line switched off at once (the line and device consoles); `timer` a timer that will switch lines
 * off at its time (created, enabled, or given more lines).
 */
export interface PowerOff {
  kind: 'now' | 'timer';
  /** The breaker's name as the page shows it (alias, else uuid). */
  breaker: string;
  /** The lines' titles (a line without a title: `#addr`). */
  lines: readonly string[];
}

/**
 * The confirmation's title, body and button, naming the line(s) and the breaker. `locale` is the BCP 47 locale of
 * the console's language (LOCALE_FOLDER): several lines are listed as that language lists them, each quoted as the
 * titles quote (English "…", Chinese and Japanese 「…」).
 */
export function powerOffText(t: TFunction, locale: string, p: PowerOff): { title: string; content: string; ok: string } {
  const many = p.lines.length > 1;
  const quoted = p.lines.map((name) => (locale.startsWith('en') ? `"${name}"` : `「${name}」`));
  const lines = new Intl.ListFormat(locale, { type: 'conjunction' }).format(quoted);
  const vars = { breaker: p.breaker, line: p.lines[0] ?? '', lines };
  if (p.kind === 'timer')
    return {
      title: t(many ? 'breaker.powerOff.timerTitleLines' : 'breaker.powerOff.timerTitle', vars),
      content: t(many ? 'breaker.powerOff.timerContentLines' : 'breaker.powerOff.timerContent'),
      ok: t('breaker.powerOff.timerOk'),
    };
  return {
    title: t(many ? 'breaker.powerOff.titleLines' : 'breaker.powerOff.title', vars),
    content: t(many ? 'breaker.powerOff.contentLines' : 'breaker.powerOff.content'),
    ok: t('breaker.powerOff.ok'),
  };
}

/**
 * Whether saving a timer cuts power the administrator has not confirmed yet: the saved timer switches off and is
 * enabled, and the timer as it was did not already switch all of these lines off.
 */
export function timerCutsPower(
  before: Pick<Timer, 'action' | 'enabled' | 'line_ids'> | undefined,
  after: { action: string; enabled?: number | boolean | undefined; line_ids: readonly number[] },
): boolean {
  if (after.action !== 'off' || after.enabled === 0 || after.enabled === false) return false;
  if (!before || before.action !== 'off' || !before.enabled) return true;
  return after.line_ids.some((id) => !before.line_ids.includes(id));
}
