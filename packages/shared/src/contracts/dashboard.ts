import { Type, type Static } from 'typebox';
import { Id, Nullable, Ref } from './common.ts';
import { endpoint } from './endpoint.ts';
import { LiveAlarm } from './live.ts';
import { LogItem } from './logs.ts';
import { Punch } from './punches.ts';

/**
 * The dashboard, the big screens and the device console (spec §2 "Shell and dashboard", issue #16): a few GET
 * routes so each block loads (and refreshes) on its own. Every route takes an optional `site_id` (a group of
 * devices and breakers, `/dashboard/sites`); a block the administrator has no right for is null (or the route is
 * refused when the whole route is that block). Days and hours are the company's (its time zone).
 */

export const DashboardSummary = Type.Object({
  managers: Type.Integer(),
  subManagers: Type.Integer(),
  unreadMessages: Type.Integer(),
  operationsToday: Type.Integer(),
  recentLogs: Type.Array(LogItem),
});
export type DashboardSummary = Static<typeof DashboardSummary>;
/** tzOffset: minutes east of UTC (like -Date#getTimezoneOffset()), so "today" is the viewer's day. */
export const DashboardQuery = Type.Object({ tzOffset: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })) });

/** Only the devices and breakers placed on this site (the map's sites); another company's site is not found. */
export const SiteQuery = Type.Object({ site_id: Type.Optional(Id) });
export type SiteQuery = Static<typeof SiteQuery>;

/**
 * Today's attendance from the stored day results (a person counts once, in the first slice that fits):
 * late (late, late and early, or a day still open whose check-in was late), early, absent (absent, missing a
 * punch), leave (leave, out of office), present (normal, half day, or checked in on time on a day still open),
 * not yet due (expected today, nothing punched yet: a day still open, or no result yet on a working day).
 * `expected` is their sum; rest days and holidays are not expected.
 */
export const DashboardAttendance = Type.Object({
  date: Type.String(),
  /** people on the job */
  people: Type.Integer(),
  expected: Type.Integer(),
  present: Type.Integer(),
  late: Type.Integer(),
  early: Type.Integer(),
  absent: Type.Integer(),
  leave: Type.Integer(),
  notYetDue: Type.Integer(),
});
export type DashboardAttendance = Static<typeof DashboardAttendance>;

export const TrendQuery = Type.Object({ ...SiteQuery.properties, days: Type.Optional(Type.Integer({ minimum: 7, maximum: 31, default: 30 })) });
export type TrendQuery = Static<typeof TrendQuery>;
export const TrendDay = Type.Object({
  date: Type.String(),
  present: Type.Integer(),
  late: Type.Integer(),
  early: Type.Integer(),
  absent: Type.Integer(),
  leave: Type.Integer(),
});
export type TrendDay = Static<typeof TrendDay>;
/** One entry per day, oldest first, today last: the decided day results by the donut's slices (days still open are left out). */
export const DashboardTrend = Type.Object({ items: Type.Array(TrendDay) });
export type DashboardTrend = Static<typeof DashboardTrend>;

export const DeviceCounts = Type.Object({ total: Type.Integer(), online: Type.Integer(), offline: Type.Integer(), abnormal: Type.Integer() });
export type DeviceCounts = Static<typeof DeviceCounts>;
/**
 * Terminals (face view right) and breakers (breaker right or face view): abnormal is a terminal with failed
 * syncs or a clock off by more than two minutes, a breaker with an open alarm on a line.
 */
export const DashboardDevices = Type.Object({ terminals: Nullable(DeviceCounts), breakers: Nullable(DeviceCounts) });
export type DashboardDevices = Static<typeof DashboardDevices>;

/**
 * The latest alarms, newest first (at most 20): open breaker alarms (breaker right or face view), today's
 * punches over a limit (a temperature at or above the terminal's alarm temperature, alcohol over the threshold)
 * and strangers (attendance right). The counts are the open breaker alarms and today's over-limit punches and
 * strangers; null when not the administrator's to see.
 */
export const DashboardAlarms = Type.Object({
  items: Type.Array(LiveAlarm),
  breakers: Nullable(Type.Integer()),
  overLimit: Nullable(Type.Integer()),
  strangers: Nullable(Type.Integer()),
});
export type DashboardAlarms = Static<typeof DashboardAlarms>;

export const FlowHour = Type.Object({ hour: Type.Integer(), in: Type.Integer(), out: Type.Integer() });
export type FlowHour = Static<typeof FlowHour>;
/**
 * Entries and exits per hour today by the terminal's direction, and the people inside now (whose last punch
 * today was an entrance). Counted only when the company's option iocount is on (`enabled` false: nothing).
 */
export const DashboardFlow = Type.Object({ enabled: Type.Boolean(), hours: Type.Array(FlowHour), inside: Type.Integer() });
export type DashboardFlow = Static<typeof DashboardFlow>;

export const RecognitionQuery = Type.Object({ ...SiteQuery.properties, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 12 })) });
export type RecognitionQuery = Static<typeof RecognitionQuery>;
/** The latest punches with a capture photo, newest first. */
export const DashboardRecognitions = Type.Object({ items: Type.Array(Punch) });
export type DashboardRecognitions = Static<typeof DashboardRecognitions>;

/** The company's sites (empty until the device map has any). */
export const DashboardSites = Type.Object({ items: Type.Array(Ref) });
export type DashboardSites = Static<typeof DashboardSites>;

export const ConsoleTerminal = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  direction: Type.String(),
  online: Type.Boolean(),
  last_seen_at: Nullable(Type.String()),
  /** the latest punch on it (attendance right; null: none, or not the administrator's to see) */
  last_punch: Nullable(
    Type.Object({ id: Type.Integer(), name: Type.String(), number: Type.String(), utc: Type.String(), pic_url: Type.String(), stranger: Type.Boolean() }),
  ),
});
export type ConsoleTerminal = Static<typeof ConsoleTerminal>;
export const ConsoleLine = Type.Object({
  id: Type.Integer(),
  addr: Type.Integer(),
  title: Type.String(),
  oc: Type.Integer(),
  alarm: Nullable(Type.String()),
  updated_at: Nullable(Type.String()),
});
export type ConsoleLine = Static<typeof ConsoleLine>;
export const ConsoleBreaker = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  online: Type.Boolean(),
  last_seen_at: Nullable(Type.String()),
  lines: Type.Array(ConsoleLine),
});
export type ConsoleBreaker = Static<typeof ConsoleBreaker>;
/** Every terminal (face view) and breaker (breaker right or face view) as a console tile; null: not the administrator's to see. */
export const DashboardConsoles = Type.Object({ terminals: Nullable(Type.Array(ConsoleTerminal)), breakers: Nullable(Type.Array(ConsoleBreaker)) });
export type DashboardConsoles = Static<typeof DashboardConsoles>;

export const dashboardApi = {
  summary: endpoint({ method: 'GET', path: '/dashboard/summary', query: DashboardQuery, response: DashboardSummary }),
  attendance: endpoint({ method: 'GET', path: '/dashboard/attendance', query: SiteQuery, response: DashboardAttendance }),
  trend: endpoint({ method: 'GET', path: '/dashboard/trend', query: TrendQuery, response: DashboardTrend }),
  devices: endpoint({ method: 'GET', path: '/dashboard/devices', query: SiteQuery, response: DashboardDevices }),
  alarms: endpoint({ method: 'GET', path: '/dashboard/alarms', query: SiteQuery, response: DashboardAlarms }),
  flow: endpoint({ method: 'GET', path: '/dashboard/flow', query: SiteQuery, response: DashboardFlow }),
  recognitions: endpoint({ method: 'GET', path: '/dashboard/recognitions', query: RecognitionQuery, response: DashboardRecognitions }),
  sites: endpoint({ method: 'GET', path: '/dashboard/sites', response: DashboardSites }),
  consoles: endpoint({ method: 'GET', path: '/dashboard/consoles', query: SiteQuery, response: DashboardConsoles }),
};
