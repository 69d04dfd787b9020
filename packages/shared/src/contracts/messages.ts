import { Type, type Static } from 'typebox';
import { Count, Flag, Id, Page, PageQuery } from './common.ts';
import { endpoint } from './endpoint.ts';

export const MessageItem = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  title: Type.String(),
  content: Type.String(),
  read: Type.Boolean(),
  created_at: Type.String(),
  /** the console page where it is acted on ('' when none) */
  link: Type.String(),
});
export type MessageItem = Static<typeof MessageItem>;
export const MessageListQuery = Type.Object({ ...PageQuery, unread: Type.Optional(Flag) });
export type MessageListQuery = Static<typeof MessageListQuery>;
export const MessagePage = Page(MessageItem);
export const MessageReadBody = Type.Object({
  ids: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
  all: Type.Optional(Type.Boolean()),
});
export type MessageReadBody = Static<typeof MessageReadBody>;

export const messagesApi = {
  list: endpoint({ method: 'GET', path: '/message/list', query: MessageListQuery, response: MessagePage }),
  count: endpoint({ method: 'GET', path: '/message/count', response: Count }),
  read: endpoint({ method: 'POST', path: '/message/read', body: MessageReadBody, response: Count }),
};
