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

/** A 1920×1080 design scaled to fit a window without scroll bars, centred (letterboxed) on the longer side. */
export const DESIGN = { width: 1920, height: 1080 } as const;
export function fitScale(width: number, height: number): { scale: number; left: number; top: number } {
  const scale = Math.max(0.05, Math.min(width / DESIGN.width, height / DESIGN.height));
  return { scale, left: (width - DESIGN.width * scale) / 2, top: (height - DESIGN.height * scale) / 2 };
}

/** 'HH:mm' of an ISO instant in a zone. */
export function hm(iso: string, zone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
}
