import { Type, type Static } from 'typebox';
import { Id, Nullable } from './common.ts';
import { endpoint } from './endpoint.ts';

/** A wall-clock hour and minute, 00:00–23:59 ('24:00' and '23:60' are refused by the pattern). */
export const HOUR_MINUTE_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
const HourMinute = Type.String({ pattern: HOUR_MINUTE_PATTERN, maxLength: 5 });
/** The return hour a company has not set yet. */
export const DEFAULT_RETURN_BY = '23:00';
export const DORMITORY_LIMITS = { buildingsMax: 200 } as const;

/**
 * The dormitory settings (issue #16): the hour residents must be back by, in the company's time zone, and the
 * departments that are buildings (empty: every top-level department is one).
 */
export const DormitorySettings = Type.Object({
  return_by: HourMinute,
  department_ids: Type.Array(Id, { maxItems: DORMITORY_LIMITS.buildingsMax }),
});
export type DormitorySettings = Static<typeof DormitorySettings>;

/** The settings with the company's departments to choose buildings from (readers may lack the people right). */
export const DormitorySettingsView = Type.Object({
  ...DormitorySettings.properties,
  departments: Type.Array(Type.Object({ id: Type.Integer(), parent_id: Type.Integer(), name: Type.String() })),
});
export type DormitorySettingsView = Static<typeof DormitorySettingsView>;

export const DormitoryStatusQuery = Type.Object({
  /** another hour than the stored one, to look at (not saved) */
  return_by: Type.Optional(HourMinute),
});
export type DormitoryStatusQuery = Static<typeof DormitoryStatusQuery>;

/** A resident named on a list: the punch that put them there. */
export const DormitoryPerson = Type.Object({
  person_id: Type.Integer(),
  number: Type.String(),
  name: Type.String(),
  /** the punch's instant (ISO, UTC) */
  time: Type.String(),
  device: Type.String(),
  /** for a late return: minutes after the hour */
  late_min: Nullable(Type.Integer()),
});
export type DormitoryPerson = Static<typeof DormitoryPerson>;

export const DormitoryBuilding = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** residents on the job in the department or below it */
  total: Type.Integer(),
  /** last punch (within the window) at an entrance */
  inside: Type.Integer(),
  /** last punch at an exit */
  out: Type.Integer(),
  /** no punch within the window */
  unknown: Type.Integer(),
  /** out when the hour struck and still out */
  not_back: Type.Array(DormitoryPerson),
  /** out when the hour struck, came in after it (their first entrance punch since) */
  late: Type.Array(DormitoryPerson),
});
export type DormitoryBuilding = Static<typeof DormitoryBuilding>;

export const DormitoryStatus = Type.Object({
  return_by: Type.String(),
  /** the latest instant the hour struck (ISO, UTC): today's when it has passed, else yesterday's */
  deadline: Type.String(),
  /** whether today's hour has passed (else the figures are about last night's) */
  passed_today: Type.Boolean(),
  /** punches from this instant on count (24 h before the deadline) */
  since: Type.String(),
  at: Type.String(),
  buildings: Type.Array(DormitoryBuilding),
  /** over the company's residents once each (a person in two buildings counts once) */
  totals: Type.Object({
    total: Type.Integer(),
    inside: Type.Integer(),
    out: Type.Integer(),
    unknown: Type.Integer(),
    not_back: Type.Integer(),
    late: Type.Integer(),
  }),
});
export type DormitoryStatus = Static<typeof DormitoryStatus>;

/** Dormitory in/out by building (issue #16 /dormitory, /dormitory2): the attendance right or face-device view. */
export const dormitoryApi = {
  status: endpoint({ method: 'GET', path: '/dormitory/status', query: DormitoryStatusQuery, response: DormitoryStatus }),
  settings: endpoint({ method: 'GET', path: '/dormitory/settings', response: DormitorySettingsView }),
  saveSettings: endpoint({ method: 'POST', path: '/dormitory/settings', body: DormitorySettings, response: DormitorySettingsView }),
};
