import { CARD_PATTERN, DATE_PATTERN, DOOR_PASSWORD_PATTERN, LIMITS, PERSON_NUMBER_PATTERN, TIME_PATTERN } from '@faceadmin/shared';
import { Type } from 'typebox';
import { Flag, Id, Nullable, Page, PageQuery } from '../../lib/schemas.ts';

const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });
export const Period = Type.Object({ start: Type.String({ pattern: TIME_PATTERN }), end: Type.String({ pattern: TIME_PATTERN }) });
export const Access = Type.Object({
  from: Type.Optional(Nullable(Type.String({ pattern: DATE_PATTERN }))),
  to: Type.Optional(Nullable(Type.String({ pattern: DATE_PATTERN }))),
  periods: Type.Optional(Type.Array(Period, { maxItems: LIMITS.accessPeriodsMax })),
});

export const PersonSchema = Type.Object({
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
  access: Type.Object({ from: Nullable(Type.String()), to: Nullable(Type.String()), periods: Type.Array(Period) }),
  has_door_password: Type.Boolean(),
  remote_open: Type.Integer(),
  is_admin: Type.Integer(),
  has_admin_password: Type.Boolean(),
  incharges: Type.Array(Ref),
  feature_rights: Type.Array(Type.String()),
  user_pri: Type.Integer(),
  sync_status: Type.Integer(),
  tags: Type.Array(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

/** spec §3 fields; spec §5: name, phone, face picture and organizations are required. */
const fields = {
  number: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.personNumberMax, pattern: PERSON_NUMBER_PATTERN })),
  name: Type.String({ minLength: 1, maxLength: LIMITS.personNameMax }),
  phone: Type.String({ minLength: 1, maxLength: 20, pattern: '^[0-9+()\\- ]+$' }),
  description: Type.Optional(Type.String({ maxLength: LIMITS.longTextMax })),
  organizations: Type.Array(Id, { minItems: 1, maxItems: 20, uniqueItems: true }),
  pic: Type.String({ minLength: 1, maxLength: 64 }),
  rfid: Type.Optional(Type.Union([Type.Literal(''), Type.String({ pattern: CARD_PATTERN })])),
  idcard: Type.Optional(Type.Union([Type.Literal(''), Type.String({ pattern: '^[0-9A-Za-z]{6,20}$' })])),
  address: Type.Optional(Type.String({ maxLength: 200 })),
  workStatus: Type.Optional(Flag),
  notify: Type.Optional(Flag),
  access: Type.Optional(Access),
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
export const PersonUpdate = Type.Object({ id: Id, ...fields });

export const PersonListQuery = Type.Object({
  ...PageQuery,
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  department_id: Type.Optional(Type.Integer({ minimum: 1 })),
  /** 1 (default): the department and everything below it */
  include_sub: Type.Optional(Flag),
  workStatus: Type.Optional(Flag),
  sync_status: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
  sort: Type.Optional(Type.Enum(['number', 'name', 'created_at', 'updated_at'])),
  order: Type.Optional(Type.Enum(['asc', 'desc'])),
});
export const PersonPage = Page(PersonSchema);
export const IdsBody = Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: 5000, uniqueItems: true }) });
export const TransferBody = Type.Object({
  ids: Type.Array(Id, { minItems: 1, maxItems: 5000, uniqueItems: true }),
  department_id: Id,
  /** move (default): replaces their departments; add: keeps them and adds this one */
  mode: Type.Optional(Type.Enum(['move', 'add'])),
});
export const CountData = Type.Object({ count: Type.Integer() });
export const UploadData = Type.Object({ pic: Type.String(), pic_url: Type.String(), size: Type.Integer() });
export const NextNumberData = Type.Object({ number: Type.String() });

const OptionNode = Type.Object({ value: Type.Integer(), label: Type.String(), children: Type.Array(Type.Any()) });
export const OrgOptionsData = Type.Array(OptionNode);
const PersonLeaf = Type.Object({ id: Type.Integer(), number: Type.String(), name: Type.String() });
const OrgPersonsNode = Type.Object({ id: Type.Integer(), name: Type.String(), persons: Type.Array(PersonLeaf), children: Type.Array(Type.Any()) });
export const OrgPersonsData = Type.Array(OrgPersonsNode);
export const OrgPersonsBody = Type.Object({ keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })) });

export const ImportReportSchema = Type.Object({
  total: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
  failed: Type.Integer(),
  written: Type.Boolean(),
  errors: Type.Array(Type.Object({ row: Type.Integer(), field: Type.String(), reason: Type.String() })),
});
export const PhotoReportSchema = Type.Object({
  total: Type.Integer(),
  matched: Type.Integer(),
  failed: Type.Integer(),
  errors: Type.Array(Type.Object({ file: Type.String(), reason: Type.String() })),
});
export const ExportBody = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  department_id: Type.Optional(Type.Integer({ minimum: 1 })),
  include_sub: Type.Optional(Flag),
  workStatus: Type.Optional(Flag),
  sync_status: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
  ids: Type.Optional(Type.Array(Id, { maxItems: 50_000 })),
});
