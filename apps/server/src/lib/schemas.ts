import { sql } from 'kysely';

/** Escapes LIKE wildcards so a keyword matches literally on both databases. */
export const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** A case-insensitive "contains" operand for `lower(column) like …` (or an already lower-cased column), with its escape clause. */
export const likeKeyword = (keyword: string) => sql<string>`${likePattern(keyword.toLowerCase())} escape '\\'`;

export function pageOf(q: { page?: number; pageSize?: number }) {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 20;
  return { page, pageSize, offset: (page - 1) * pageSize };
}
