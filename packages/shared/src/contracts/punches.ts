import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.ts';
import { DAY_STATUSES } from './attendance.ts';
import { Flag, Id, Nullable, Page, PageQuery, StringEnum, XLSX_TYPE } from './common.ts';
import { binary, endpoint } from './endpoint.ts';

const filters = {
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  device_id: Type.Optional(Id),
  person_id: Type.Optional(Id),
  from: Type.Optional(Type.String({ format: 'date' })),
  to: Type.Optional(Type.String({ format: 'date' })),
  stranger: Type.Optional(Flag),
};
export const PunchExportBody = Type.Object(filters);
export type PunchExportBody = Static<typeof PunchExportBody>;
export const PunchListQuery = Type.Object({ ...PageQuery, ...filters });
export type PunchListQuery = Static<typeof PunchListQuery>;

export const Punch = Type.Object({
  id: Type.Integer(),
  person_id: Nullable(Type.Integer()),
  number: Type.String(),
  name: Type.String(),
  device_id: Type.Integer(),
  device: Type.String(),
  direction: Type.String(),
  day: Type.String(),
  time: Type.String(),
  utc: Type.String(),
  status: Type.Integer(),
  verify: Type.Integer(),
  temperature: Nullable(Type.Number()),
  mask: Nullable(Type.Integer()),
  alcohol: Nullable(Type.Number()),
  /** the reading failed the device's threshold (spec §3 alcohol tab) */
  alcohol_over: Type.Boolean(),
  pic_url: Type.String(),
  stranger: Type.Boolean(),
  /** spec §3 "Attendance record": the status of the attendance day that used this punch (null: none did) */
  result: Nullable(StringEnum(DAY_STATUSES)),
  /**
   * spec §9 two-person authentication (company option dualAuth, devices of function type 'dualAuth'): 'pending'
   * while the 10 s window is open, 'paired' with `dual_partner`, 'unpaired' (an alarm); null elsewhere.
   */
  dual_state: Type.Optional(Nullable(StringEnum(['pending', 'paired', 'unpaired'] as const))),
  dual_partner: Type.Optional(Nullable(Type.String())),
});
export type Punch = Static<typeof Punch>;
export const PunchPage = Page(Punch);

/** Punch records (spec §2 /attendance/list). */
export const punchesApi = {
  list: endpoint({ method: 'GET', path: '/attendance/list', query: PunchListQuery, response: PunchPage }),
  photo: endpoint({ method: 'GET', path: '/attendance/photo/:id', params: Type.Object({ id: Id }), response: binary('image/jpeg') }),
  export: endpoint({ method: 'POST', path: '/attendance/export', body: PunchExportBody, response: binary(XLSX_TYPE) }),
};
