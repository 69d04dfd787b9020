import { Type, type Static } from 'typebox';
import { CARD_PATTERN, DOOR_PASSWORD_PATTERN, LIMITS, PERSON_NUMBER_PATTERN, PLATE_PATTERN, TIME_PATTERN } from '../limits.ts';
import { Children, Count, Flag, Id, IdBody, Nullable, StringEnum, Page, PageQuery, Ref, XLSX_TYPE } from './common.ts';
import { binary, endpoint } from './endpoint.ts';
import { LongText } from './request.ts';

export const AccessPeriod = Type.Object({ start: Type.String({ pattern: TIME_PATTERN }), end: Type.String({ pattern: TIME_PATTERN }) });
export type AccessPeriod = Static<typeof AccessPeriod>;
/** Limited-time access as sent (spec §3): a date range plus up to three daily periods. */
export const AccessInput = Type.Object({
  from: Type.Optional(Nullable(Type.String({ format: 'date' }))),
  to: Type.Optional(Nullable(Type.String({ format: 'date' }))),
  periods: Type.Optional(Type.Array(AccessPeriod, { maxItems: LIMITS.accessPeriodsMax })),
});
export const PersonAccess = Type.Object({ from: Nullable(Type.String()), to: Nullable(Type.String()), periods: Type.Array(AccessPeriod) });
export type PersonAccess = Static<typeof PersonAccess>;

export const PERSON_TAGS = ['admin', 'manager', 'left', 'working'] as const;
/** A person's gender as HR files and terminals carry it; null (not said) otherwise. */
export const GENDERS = ['male', 'female'] as const;
export type Gender = (typeof GENDERS)[number];
export type PersonTag = (typeof PERSON_TAGS)[number];

/** A person as the API returns it: door and admin passwords are write-only (has_* tells whether one is set). */
export const Person = Type.Object({
  id: Type.Integer(),
  number: Type.String(),
  name: Type.String(),
  phone: Type.String(),
  description: Type.String(),
  organizations: Type.Array(Ref),
  pic: Type.String(),
  pic_url: Type.String(),
  rfid: Type.String(),
  idcard: Type.String(),
  address: Type.String(),
  workStatus: Type.Integer(),
  notify: Type.Integer(),
  /** hire date 'YYYY-MM-DD', null when not known: attendance gives no results before it */
  joined_on: Nullable(Type.String()),
  gender: Nullable(StringEnum(GENDERS)),
  access: PersonAccess,
  has_door_password: Type.Boolean(),
  remote_open: Type.Integer(),
  is_admin: Type.Integer(),
  has_admin_password: Type.Boolean(),
  incharges: Type.Array(Ref),
  feature_rights: Type.Array(Type.String()),
  user_pri: Type.Integer(),
  /** plate numbers (sent to bound parking operators, docs/api-parking.md) */
  plates: Type.Optional(Type.Array(Type.String())),
  sync_status: Type.Integer(),
  tags: Type.Array(StringEnum(PERSON_TAGS)),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type Person = Static<typeof Person>;

/** spec §3 fields; spec §5: name, phone, face picture and organizations are required. */
const fields = {
  number: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.personNumberMax, pattern: PERSON_NUMBER_PATTERN })),
  name: Type.String({ minLength: 1, maxLength: LIMITS.personNameMax }),
  phone: Type.String({ minLength: 1, maxLength: 20, pattern: '^[0-9+()\\- ]+$' }),
  description: Type.Optional(LongText({ maxLength: LIMITS.longTextMax })),
  organizations: Type.Array(Id, { minItems: 1, maxItems: 20, uniqueItems: true }),
  pic: Type.String({ minLength: 1, maxLength: 64 }),
  rfid: Type.Optional(Type.Union([Type.Literal(''), Type.String({ pattern: CARD_PATTERN })])),
  idcard: Type.Optional(Type.Union([Type.Literal(''), Type.String({ pattern: '^[0-9A-Za-z]{6,20}$' })])),
  address: Type.Optional(Type.String({ maxLength: 200 })),
  /** plate numbers: letters, digits, Chinese characters, '·' and '-'; omitted keeps them, [] clears them */
  plates: Type.Optional(Type.Array(Type.String({ pattern: PLATE_PATTERN }), { maxItems: LIMITS.platesMax, uniqueItems: true })),
  workStatus: Type.Optional(Flag),
  notify: Type.Optional(Flag),
  /** hire date, a real calendar date; omitted keeps it, null clears it */
  joined_on: Type.Optional(Nullable(Type.String({ format: 'date' }))),
  /** omitted keeps it, null clears it */
  gender: Type.Optional(Nullable(StringEnum(GENDERS))),
  access: Type.Optional(AccessInput),
  /** Write-only. Omitted keeps the current one; '' clears it. */
  door_password: Type.Optional(Type.Union([Type.Literal(''), Type.String({ pattern: DOOR_PASSWORD_PATTERN })])),
  remote_open: Type.Optional(Flag),
  is_admin: Type.Optional(Flag),
  /** Write-only terminal management password; required when is_admin is set and none is stored. */
  admin_password: Type.Optional(Type.Union([Type.Literal(''), Type.String({ pattern: DOOR_PASSWORD_PATTERN })])),
  incharges: Type.Optional(Type.Array(Id, { maxItems: 20, uniqueItems: true })),
  feature_rights: Type.Optional(Type.Array(Type.String({ maxLength: 30 }), { maxItems: 20, uniqueItems: true })),
  user_pri: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
};
export const PersonCreate = Type.Object(fields);
export type PersonCreate = Static<typeof PersonCreate>;
export const PersonUpdate = Type.Object({ id: Id, ...fields });
export type PersonUpdate = Static<typeof PersonUpdate>;

/** The filters of the list, also those of the export. */
const filters = {
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  department_id: Type.Optional(Id),
  /** 1 (default): the department and everything below it */
  include_sub: Type.Optional(Flag),
  workStatus: Type.Optional(Flag),
  sync_status: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
};
export const PersonListQuery = Type.Object({
  ...PageQuery,
  ...filters,
  sort: Type.Optional(Type.Enum(['number', 'name', 'created_at', 'updated_at'])),
  order: Type.Optional(Type.Enum(['asc', 'desc'])),
});
export type PersonListQuery = Static<typeof PersonListQuery>;
export const PersonPage = Page(Person);
export const PersonIdsBody = Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: 5000, uniqueItems: true }) });
export const PersonTransferBody = Type.Object({
  ids: Type.Array(Id, { minItems: 1, maxItems: 5000, uniqueItems: true }),
  department_id: Id,
  /** move (default): replaces their departments; add: keeps them and adds this one */
  mode: Type.Optional(Type.Enum(['move', 'add'])),
});
export type PersonTransferBody = Static<typeof PersonTransferBody>;
export const FaceUpload = Type.Object({ pic: Type.String(), pic_url: Type.String(), size: Type.Integer() });
export const NextNumber = Type.Object({ number: Type.String() });

/** A department for pickers (TreeSelect shape). */
export interface DepartmentOption {
  value: number;
  label: string;
  children: DepartmentOption[];
}
const DepartmentOption = Type.Object({ value: Type.Integer(), label: Type.String(), children: Children<DepartmentOption>() });
export const DepartmentOptions = Type.Array(DepartmentOption);
const PersonLeaf = Type.Object({ id: Type.Integer(), number: Type.String(), name: Type.String() });
/** Working people by department. */
export interface OrgPersonsNode {
  id: number;
  name: string;
  persons: Static<typeof PersonLeaf>[];
  children: OrgPersonsNode[];
}
const OrgPersonsNode = Type.Object({ id: Type.Integer(), name: Type.String(), persons: Type.Array(PersonLeaf), children: Children<OrgPersonsNode>() });
export const OrgPersons = Type.Array(OrgPersonsNode);
export const OrgPersonsBody = Type.Object({ keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })) });

export const ImportRowError = Type.Object({ row: Type.Integer(), field: Type.String(), reason: Type.String() });
export type ImportRowError = Static<typeof ImportRowError>;
export const ImportReport = Type.Object({
  total: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
  failed: Type.Integer(),
  /** strict mode with errors: nothing was written */
  written: Type.Boolean(),
  errors: Type.Array(ImportRowError),
});
export type ImportReport = Static<typeof ImportReport>;
export const PhotoReport = Type.Object({
  total: Type.Integer(),
  matched: Type.Integer(),
  failed: Type.Integer(),
  errors: Type.Array(Type.Object({ file: Type.String(), reason: Type.String() })),
});
export type PhotoReport = Static<typeof PhotoReport>;
export const PersonExportBody = Type.Object({ ...filters, ids: Type.Optional(Type.Array(Id, { maxItems: 50_000 })) });
export type PersonExportBody = Static<typeof PersonExportBody>;

/** spec §7 /person/bindAdmin: a person who is also an administrator account of the company (one identity). */
export const AdminBinding = Type.Object({
  person_id: Type.Integer(),
  person_name: Type.String(),
  person_number: Type.String(),
  admin_id: Type.Integer(),
  admin_name: Type.String(),
  username: Type.String(),
});
export type AdminBinding = Static<typeof AdminBinding>;
export const AdminCandidate = Type.Object({ id: Type.Integer(), name: Type.String(), username: Type.String() });
export type AdminCandidate = Static<typeof AdminCandidate>;
export const BindAdminBody = Type.Object({ person_id: Id, admin_id: Id });
export type BindAdminBody = Static<typeof BindAdminBody>;
export const FetchAdminBody = Type.Object({ person_id: Type.Optional(Id) });
/** The company's links, and the administrator accounts not linked to anyone yet. */
export const AdminBindings = Type.Object({ items: Type.Array(AdminBinding), candidates: Type.Array(AdminCandidate) });
export type AdminBindings = Static<typeof AdminBindings>;
/** spec §7: company_id; without person_id the caller unlinks their own account in that company. */
export const UnbindAdminBody = Type.Object({ company_id: Id, person_id: Type.Optional(Id) });
export type UnbindAdminBody = Static<typeof UnbindAdminBody>;

export const personsApi = {
  list: endpoint({ method: 'GET', path: '/person/list', query: PersonListQuery, response: PersonPage }),
  info: endpoint({ method: 'GET', path: '/person/info', query: IdBody, response: Person }),
  nextNumber: endpoint({ method: 'GET', path: '/person/nextNumber', response: NextNumber }),
  create: endpoint({ method: 'POST', path: '/person/create', body: PersonCreate, response: Person }),
  update: endpoint({ method: 'POST', path: '/person/update', body: PersonUpdate, response: Person }),
  delete: endpoint({ method: 'POST', path: '/person/delete', body: IdBody, response: Count }),
  deleteMany: endpoint({ method: 'POST', path: '/person/deletes', body: PersonIdsBody, response: Count }),
  /**
   * A privacy request for someone with history (whom delete refuses): the row becomes an anonymous placeholder
   * (no name, phone, ids, card, face or punch photos; left) and their punches, results, absences and applications
   * stay linked to it, so computed months and reports keep their totals. Terminals forget them.
   */
  erase: endpoint({ method: 'POST', path: '/person/erase', body: IdBody, response: Person }),
  bindAdmin: endpoint({ method: 'POST', path: '/person/bindAdmin', body: BindAdminBody, response: AdminBinding }),
  fetchAdmin: endpoint({ method: 'POST', path: '/person/fetchAdmin', body: Type.Optional(FetchAdminBody), response: AdminBindings }),
  unbindAdmin: endpoint({ method: 'POST', path: '/person/unbind', body: UnbindAdminBody, response: Count }),
  transfer: endpoint({ method: 'POST', path: '/person/transfer', body: PersonTransferBody, response: Count }),
  departmentOptions: endpoint({ method: 'POST', path: '/person/personOrgOptions', response: DepartmentOptions }),
  orgPersons: endpoint({ method: 'POST', path: '/person/device_org_persons', body: Type.Optional(OrgPersonsBody), response: OrgPersons }),
  /** The face picture (form field "file"), normalised before anything is stored. */
  upload: endpoint({ method: 'POST', path: '/person/upload', multipart: true, response: FaceUpload }),
  template: endpoint({ method: 'GET', path: '/person/template', response: binary(XLSX_TYPE) }),
  /** Form fields strict and create_departments ('1' or '0') before the file. */
  import: endpoint({ method: 'POST', path: '/person/import', multipart: true, response: ImportReport }),
  /** A zip of face pictures named by person number. */
  importPhotos: endpoint({ method: 'POST', path: '/person/xlsx2', multipart: true, response: PhotoReport }),
  export: endpoint({ method: 'POST', path: '/person/exportPerson', body: Type.Optional(PersonExportBody), response: binary(XLSX_TYPE) }),
  uploadedPhoto: endpoint({
    method: 'GET',
    path: '/person/upload/:name',
    params: Type.Object({ name: Type.String({ maxLength: 64 }) }),
    response: binary('image/jpeg'),
  }),
  photo: endpoint({ method: 'GET', path: '/person/pic/:id', params: IdBody, response: binary('image/jpeg') }),
};
