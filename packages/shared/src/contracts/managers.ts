import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.ts';
import { ADMIN_ROLES, FUNCTION_RIGHT_KEYS, MANAGER_STATUSES } from '../rights.ts';
import { Account, Mobile, RightsSchema } from './auth.ts';
import { Id, IdBody, Nullable, StringEnum, Page, PageQuery, Ref } from './common.ts';
import { endpoint } from './endpoint.ts';

const Status = Type.Enum([...MANAGER_STATUSES]);
const Role = Type.Enum([...ADMIN_ROLES]);
const FunctionRights = Type.Array(Type.Enum([...FUNCTION_RIGHT_KEYS]), { maxItems: 20, uniqueItems: true });

export const Manager = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Type.String(),
  mobile: Type.String(),
  status: StringEnum(MANAGER_STATUSES),
  role: StringEnum(ADMIN_ROLES),
  is_init: Type.Integer(),
  rights: Type.Array(StringEnum(FUNCTION_RIGHT_KEYS)),
  created_at: Type.String(),
  last_login_at: Nullable(Type.String()),
});
export type Manager = Static<typeof Manager>;
export const ManagerPage = Page(Manager);
export const ManagerListQuery = Type.Object({
  ...PageQuery,
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  status: Type.Optional(Status),
});
export type ManagerListQuery = Static<typeof ManagerListQuery>;

/** spec §5: name, account and password required; password ≥ 6 and repeated. */
export const ManagerCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 40 }),
  username: Account,
  password: Type.String({ minLength: LIMITS.passwordMin, maxLength: LIMITS.passwordMax }),
  repassword: Type.String({ maxLength: LIMITS.passwordMax }),
  mobile: Type.Optional(Type.Union([Type.Literal(''), Mobile])),
  status: Type.Optional(Status),
  role: Type.Optional(Role),
  rights: Type.Optional(FunctionRights),
});
export type ManagerCreate = Static<typeof ManagerCreate>;
/** On edit a blank password keeps the old one (spec §5). */
export const ManagerUpdate = Type.Object({
  id: Id,
  name: Type.String({ minLength: 1, maxLength: 40 }),
  mobile: Type.Optional(Type.Union([Type.Literal(''), Mobile])),
  status: Type.Optional(Status),
  role: Type.Optional(Role),
  rights: Type.Optional(FunctionRights),
  password: Type.Optional(Type.Union([Type.Literal(''), Type.String({ minLength: LIMITS.passwordMin, maxLength: LIMITS.passwordMax })])),
  repassword: Type.Optional(Type.String({ maxLength: LIMITS.passwordMax })),
});
export type ManagerUpdate = Static<typeof ManagerUpdate>;
/** The session's role in the current company (main admins edit the company). */
export const AdminRight = Type.Object({
  role: StringEnum(ADMIN_ROLES),
  is_init: Type.Integer(),
  rights: RightsSchema,
  functions: Type.Array(StringEnum(FUNCTION_RIGHT_KEYS)),
});
export type AdminRight = Static<typeof AdminRight>;
export const AdminTransferSearchQuery = Type.Object({ keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })) });
export const AdminTransferCandidates = Type.Object({ items: Type.Array(Ref), total: Type.Integer() });
export const AdminTransferBody = Type.Object({ admin_id: Id });

export const managersApi = {
  list: endpoint({ method: 'GET', path: '/manager/list', query: ManagerListQuery, response: ManagerPage }),
  create: endpoint({ method: 'POST', path: '/manager/create', body: ManagerCreate, response: Manager }),
  update: endpoint({ method: 'POST', path: '/manager/update', body: ManagerUpdate, response: Manager }),
  delete: endpoint({ method: 'POST', path: '/manager/delete', body: IdBody, response: Type.Null() }),
  adminRight: endpoint({ method: 'GET', path: '/admin/get_adminright', response: AdminRight }),
  transferSearch: endpoint({ method: 'GET', path: '/admin/transfer/search', query: AdminTransferSearchQuery, response: AdminTransferCandidates }),
  transfer: endpoint({ method: 'POST', path: '/admin/transfer', body: AdminTransferBody, response: Type.Null() }),
};
