import { Type } from 'typebox';
import { Flag, Id, Page, PageQuery } from '../../lib/schemas.ts';

export const MessageSchema = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  title: Type.String(),
  content: Type.String(),
  read: Type.Boolean(),
  created_at: Type.String(),
});
export const MessageListQuery = Type.Object({ ...PageQuery, unread: Type.Optional(Flag) });
export const MessagePage = Page(MessageSchema);
export const ReadBody = Type.Object({
  ids: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
  all: Type.Optional(Type.Boolean()),
});
export const CountData = Type.Object({ count: Type.Integer() });
