import { ADMIN_ROLES, FUNCTION_RIGHT_KEYS, LIMITS, MANAGER_STATUSES } from '@faceadmin/shared';
import { Type } from 'typebox';
import { Id, Nullable, Page, PageQuery } from '../../lib/schemas.ts';
import { Account, Mobile, RightsSchema } from '../auth/auth.schemas.ts';

export const Status = Type.Enum([...MANAGER_STATUSES]);
export const Role = Type.Enum([...ADMIN_ROLES]);
export const FunctionRights = Type.Array(Type.Enum([...FUNCTION_RIGHT_KEYS]), { maxItems: 20, uniqueItems: true });

export const ManagerSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Type.String(),
  mobile: Type.String(),
  status: Type.String(),
  role: Type.String(),
  is_init: Type.Integer(),
  rights: Type.Array(Type.String()),
  created_at: Type.String(),
  last_login_at: Nullable(Type.String()),
});
export const ManagerPage = Page(ManagerSchema);
export const ManagerListQuery = Type.Object({
  ...PageQuery,
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  status: Type.Optional(Status),
});

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
export const AdminRightData = Type.Object({ role: Type.String(), is_init: Type.Integer(), rights: RightsSchema, functions: Type.Array(Type.String()) });
export const TransferSearchQuery = Type.Object({ keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })) });
export const TransferSearchData = Type.Object({ items: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })), total: Type.Integer() });
export const TransferBody = Type.Object({ admin_id: Id });
