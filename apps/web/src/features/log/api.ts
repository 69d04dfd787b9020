import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LogItem, Page } from '@faceadmin/shared';
import { get } from '../../app/request.ts';

export interface LogQuery {
  page: number;
  pageSize: number;
  module?: string;
  keyword?: string;
  /** ISO dates (YYYY-MM-DD) */
  from?: string;
  to?: string;
}

export const useLogs = (q: LogQuery) =>
  useQuery({
    queryKey: ['log', 'list', q],
    queryFn: () => get<Page<LogItem>>('/log/list', { ...q }),
    placeholderData: keepPreviousData,
  });

export const useLogModules = () => useQuery({ queryKey: ['log', 'modules'], queryFn: () => get<string[]>('/log/modules'), staleTime: 5 * 60_000 });
