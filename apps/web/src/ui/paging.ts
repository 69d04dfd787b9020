import type { TablePaginationConfig } from 'antd';
import type { Dispatch, SetStateAction } from 'react';
import type { TFunction } from 'i18next';

interface Paged {
  page: number;
  pageSize: number;
}
/** A list query as a page holds it: the API's query with the page always set. */
export type PagedQuery<Q> = Q & Paged;

/**
 * A list page's pagination: its query state, the server's total, a size changer and the translated total ("more than
 * 10,000" when the server stopped counting there: `more`).
 */
export function pagination<Q extends Paged>(
  query: Q,
  setQuery: Dispatch<SetStateAction<Q>>,
  total: number | undefined,
  t: TFunction,
  pageSizeOptions: number[] = [10, 20, 50, 100],
  more = false,
): TablePaginationConfig {
  const counted = total ?? 0;
  return {
    current: query.page,
    pageSize: query.pageSize,
    // A list the server stopped counting goes on past its count: the pager always offers the page after this one.
    total: more ? Math.max(counted, (query.page + 1) * query.pageSize) : counted,
    showSizeChanger: true,
    pageSizeOptions,
    showTotal: () => t(more ? 'common.totalMore' : 'common.total', { count: counted }),
    onChange: (page, pageSize) => setQuery((q) => ({ ...q, page, pageSize })),
  };
}
