import { LIMITS } from '@faceadmin/shared';
import { Type } from 'typebox';
import { Nullable, Page, PageQuery } from '../../lib/schemas.ts';

export const LogItemSchema = Type.Object({
  id: Type.Integer(),
  module: Type.String(),
  action: Type.String(),
  description: Type.String(),
  data: Type.Any(),
  admin_id: Nullable(Type.Integer()),
  admin_name: Type.String(),
  ip: Type.String(),
  created_at: Type.String(),
});

const ISO_DATE = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2}))?$';

export const LogListQuery = Type.Object({
  ...PageQuery,
  module: Type.Optional(Type.String({ maxLength: 40 })),
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  // An ISO date (the console's date picker sends YYYY-MM-DD) or an ISO date-time with a zone.
  from: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_DATE })),
  to: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_DATE })),
});
export const LogPage = Page(LogItemSchema);
