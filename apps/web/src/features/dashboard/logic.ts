import type { DashboardAttendance, DayStatus, LiveAlarm } from '@faceadmin/shared';

/** The donut's slices, in the order they are drawn (GET /dashboard/attendance says what each counts). */
export const SLICES = ['present', 'late', 'early', 'absent', 'leave', 'notYetDue'] as const;
export type Slice = (typeof SLICES)[number];

/** The day-result status a slice opens the result list filtered to (its main status). */
const SLICE_STATUS: Record<Slice, DayStatus> = { present: 'normal', late: 'late', early: 'early', absent: 'absent', leave: 'leave', notYetDue: 'pending' };

/** The day results behind a figure: /attendance/result on that date, filtered to the slice's status (none: all). */
export const resultLink = (date: string, slice?: Slice) => `/attendance/result?date=${date}${slice ? `&status=${SLICE_STATUS[slice]}` : ''}`;

export const sliceValue = (d: DashboardAttendance, s: Slice) => d[s];

/** Where an alarm is looked into: the breaker, the punch list, the strangers, the devices. */
export function alarmLink(a: LiveAlarm): string {
  if (a.source === 'breaker') return a.breaker_id ? `/circuitBreaker/${a.breaker_id}` : '/circuitBreaker/index';
  if (a.source === 'stranger') return '/stranger';
  if (a.source === 'device') return '/device/list';
  return '/attendance/list';
}

/**
 * The big screen's measures (issue #31). Its sizes are written for 1920×1080 and laid out for the window it is on
 * (not one design scaled down): `k` is the window's share of that design, and no text is drawn under 14 px, so a
 * 1366×768 screen gets larger type than a scaled-down design would give it (8.5 px tags, 7 px chart axes). A window
 * narrower than 1000 px or taller than wide (a phone, a portrait screen) stacks the panels in one scrolling column.
 */
export const BIG_DESIGN = { width: 1920, height: 1080 } as const;
export const BIG_MIN_TEXT = 14;
export function bigLayout(width: number, height: number): { k: number; narrow: boolean } {
  const narrow = width < 1000 || height > width;
  // a portrait wall screen scales with its width (a 2160 px wide one as twice a 1080 px one); a phone's type stays 0.75
  if (narrow) return { k: Math.max(0.75, width / BIG_DESIGN.height), narrow };
  return { k: Math.max(0.05, Math.min(width / BIG_DESIGN.width, height / BIG_DESIGN.height)), narrow };
}
/** A text size of the design (px at 1920×1080) on this window: never under BIG_MIN_TEXT. */
export const bigText = (size: number, k: number) => Math.max(BIG_MIN_TEXT, Math.round(size * k));
/** A length of the design (gaps, paddings, photos) on this window. */
export const bigSpace = (size: number, k: number) => Math.max(1, Math.round(size * k));

/** 'HH:mm' of an ISO instant in a zone. */
export function hm(iso: string, zone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
}
