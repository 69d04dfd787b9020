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

export const LogListQuery = Type.Object({
  ...PageQuery,
  module: Type.Optional(Type.String({ maxLength: 40 })),
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  from: Type.Optional(Type.String({ format: 'date-time' })),
  to: Type.Optional(Type.String({ format: 'date-time' })),
});
export const LogPage = Page(LogItemSchema);
