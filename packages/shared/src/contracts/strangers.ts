import { Type, type Static } from 'typebox';
import { Id, Nullable, Page, PageQuery, StringEnum, XLSX_TYPE } from './common.ts';
import { binary, endpoint } from './endpoint.ts';

/**
 * What a terminal refused (spec §2 /stranger): `unknown` a face (or PIN) the company does not know, `refused` a
 * registered person the terminal refused (verification failed, blacklisted). Neither is an attendance punch.
 */
export const STRANGER_KINDS = ['unknown', 'refused'] as const;
export type StrangerKind = (typeof STRANGER_KINDS)[number];

const filters = {
  device_id: Type.Optional(Id),
  /** the company's calendar days (its time zone), from ≤ to */
  from: Type.Optional(Type.String({ format: 'date' })),
  to: Type.Optional(Type.String({ format: 'date' })),
};
export const StrangerExportBody = Type.Object(filters);
export type StrangerExportBody = Static<typeof StrangerExportBody>;
export const StrangerListQuery = Type.Object({ ...PageQuery, ...filters });
export type StrangerListQuery = Static<typeof StrangerListQuery>;

/** One face a terminal refused, with its capture photo. */
export const Stranger = Type.Object({
  id: Type.Integer(),
  device_id: Type.Integer(),
  device: Type.String(),
  /** day and time as the terminal saw them (its clock) */
  day: Type.String(),
  time: Type.String(),
  utc: Type.String(),
  kind: StringEnum(STRANGER_KINDS),
  /** the refused person (kind `refused`), else null */
  person_id: Nullable(Type.Integer()),
  /** the refused person's name, '' for an unknown face */
  name: Type.String(),
  /** the PIN the terminal matched, '' for an unknown face */
  number: Type.String(),
  temperature: Nullable(Type.Number()),
  /** the capture photo ('' when none came) */
  pic_url: Type.String(),
});
export type Stranger = Static<typeof Stranger>;
export const StrangerPage = Page(Stranger);

/** Strangers and refused faces (spec §2 /stranger). */
export const strangersApi = {
  list: endpoint({ method: 'GET', path: '/stranger/list', query: StrangerListQuery, response: StrangerPage }),
  photo: endpoint({ method: 'GET', path: '/stranger/photo/:id', params: Type.Object({ id: Id }), response: binary('image/jpeg') }),
  export: endpoint({ method: 'POST', path: '/stranger/export', body: StrangerExportBody, response: binary(XLSX_TYPE) }),
};
