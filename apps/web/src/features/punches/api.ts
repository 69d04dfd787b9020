import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { punchesApi, TIMING } from '@faceadmin/shared';
import { call, download } from '../../lib/request.ts';
import type { PagedQuery } from '../../ui/paging.ts';
import { punchParams, type PunchFilters } from './logic.ts';

export const punchKeys = { list: (q: PagedQuery<PunchFilters>) => ['punch', 'list', q] as const };

export const usePunches = (q: PagedQuery<PunchFilters>) =>
  useQuery({
    queryKey: punchKeys.list(q),
    queryFn: () => call(punchesApi.list, { page: q.page, pageSize: q.pageSize, ...punchParams(q) }, { inline: true }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });

/** spec §9: exports have a 120 s timeout. A mutation for its busy flag; failures are shown by the API client. */
export const useExportPunches = () =>
  useMutation({
    mutationFn: (f: PunchFilters) => download(punchesApi.export, 'punches.xlsx', { body: punchParams(f), timeout: TIMING.exportTimeout }),
  });
