import { LIMITS } from '@faceadmin/shared';
import { Type } from 'typebox';

export const Id = Type.Integer({ minimum: 1 });
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.pageSizeMax, default: 20 })),
};
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
export const Page = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ items: Type.Array(item), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() });

/** Escapes LIKE wildcards so a keyword matches literally on both databases. */
export const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function pageOf(q: { page?: number; pageSize?: number }) {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 20;
  return { page, pageSize, offset: (page - 1) * pageSize };
}
