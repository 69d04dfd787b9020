import { LIMITS } from '@faceadmin/shared';
import { sql } from 'kysely';
import { Type } from 'typebox';

export const Id = Type.Integer({ minimum: 1 });
/** `{id}` as a body or a query string. */
export const IdBody = Type.Object({ id: Id });
/** A 0/1 switch. */
export const Flag = Type.Integer({ minimum: 0, maximum: 1 });
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.pageSizeMax, default: 20 })),
};
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
export const Page = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ items: Type.Array(item), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() });

/** Escapes LIKE wildcards so a keyword matches literally on both databases. */
export const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** A case-insensitive "contains" operand for `lower(column) like …` (or an already lower-cased column), with its escape clause. */
export const likeKeyword = (keyword: string) => sql<string>`${likePattern(keyword.toLowerCase())} escape '\\'`;

export function pageOf(q: { page?: number; pageSize?: number }) {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 20;
  return { page, pageSize, offset: (page - 1) * pageSize };
}
