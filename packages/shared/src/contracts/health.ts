import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.ts';
import { Flag, Id, Nullable, Page, PageQuery, StringEnum, XLSX_TYPE } from './common.ts';
import { binary, endpoint } from './endpoint.ts';

/** Health-code colours (spec §4). */
export const HEALTH_COLORS = ['green', 'yellow', 'red'] as const;
export type HealthColor = (typeof HEALTH_COLORS)[number];

const range = {
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  device_id: Type.Optional(Id),
  /** the company's calendar days (its time zone) */
  from: Type.Optional(Type.String({ format: 'date' })),
  to: Type.Optional(Type.String({ format: 'date' })),
};
const healthFilters = { ...range, color: Type.Optional(Type.Union(HEALTH_COLORS.map((c) => Type.Literal(c)))) };
export const HealthExportBody = Type.Object(healthFilters);
export type HealthExportBody = Static<typeof HealthExportBody>;
export const HealthListQuery = Type.Object({ ...PageQuery, ...healthFilters });
export type HealthListQuery = Static<typeof HealthListQuery>;

/** One health-code record (spec §3 "Health record"). */
export const HealthRecord = Type.Object({
  id: Type.Integer(),
  person_id: Nullable(Type.Integer()),
  number: Type.String(),
  /** as the health-code platform returned it, else the roster's */
  name: Type.String(),
  id_number: Type.String(),
  device_id: Type.Integer(),
  device: Type.String(),
  place: Type.String(),
  day: Type.String(),
  time: Type.String(),
  utc: Type.String(),
  temperature: Nullable(Type.Number()),
  color: Nullable(StringEnum(HEALTH_COLORS)),
  nat_time: Type.String(),
  nat_result: StringEnum(['negative', 'positive', ''] as const),
  trip: Type.String(),
  vaccine_count: Nullable(Type.Integer()),
  vaccine_time: Type.String(),
  /** the capture photo of the punch the record belongs to ('' when none) */
  pic_url: Type.String(),
});
export type HealthRecord = Static<typeof HealthRecord>;
export const HealthPage = Page(HealthRecord);

const alcoholFilters = { ...range, over: Type.Optional(Flag) };
export const AlcoholExportBody = Type.Object(alcoholFilters);
export type AlcoholExportBody = Static<typeof AlcoholExportBody>;
export const AlcoholListQuery = Type.Object({ ...PageQuery, ...alcoholFilters });
export type AlcoholListQuery = Static<typeof AlcoholListQuery>;

/** A punch with a breath-alcohol reading (spec §2 /attendance/alcohol). */
export const AlcoholRecord = Type.Object({
  id: Type.Integer(),
  person_id: Nullable(Type.Integer()),
  number: Type.String(),
  name: Type.String(),
  device_id: Type.Integer(),
  device: Type.String(),
  day: Type.String(),
  time: Type.String(),
  utc: Type.String(),
  /** mg/100 mL */
  alcohol: Type.Number(),
  /** at or over the device's threshold when it was taken */
  over: Type.Boolean(),
  temperature: Nullable(Type.Number()),
  pic_url: Type.String(),
});
export type AlcoholRecord = Static<typeof AlcoholRecord>;
export const AlcoholPage = Page(AlcoholRecord);

/** Health-code records and alcohol records (spec §2 /attendance/alcohol, §3 "Health record"). */
export const healthApi = {
  list: endpoint({ method: 'GET', path: '/attendance/health/list', query: HealthListQuery, response: HealthPage }),
  export: endpoint({ method: 'POST', path: '/attendance/health/export', body: HealthExportBody, response: binary(XLSX_TYPE) }),
  alcoholList: endpoint({ method: 'GET', path: '/attendance/alcohol/list', query: AlcoholListQuery, response: AlcoholPage }),
  alcoholExport: endpoint({ method: 'POST', path: '/attendance/alcohol/export', body: AlcoholExportBody, response: binary(XLSX_TYPE) }),
};
