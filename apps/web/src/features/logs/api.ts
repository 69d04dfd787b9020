import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { logsApi, type LogListQuery } from '@faceadmin/shared';
import { call } from '../../lib/request.ts';

export const useLogs = (q: LogListQuery) =>
  useQuery({
    queryKey: ['log', 'list', q],
    queryFn: () => call(logsApi.list, q, { inline: true }),
    placeholderData: keepPreviousData,
  });

export const useLogModules = () => useQuery({ queryKey: ['log', 'modules'], queryFn: () => call(logsApi.modules), staleTime: 5 * 60_000 });
