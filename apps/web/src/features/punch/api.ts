import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { TIMING, type Page } from '@faceadmin/shared';
import { downloadFile, get } from '../../app/request.ts';
import { browserTzOffset, punchParams, type PunchFilters } from './logic.ts';

export interface Punch {
  id: number;
  person_id: number | null;
  number: string;
  name: string;
  device_id: number;
  device: string;
  direction: string;
  day: string;
  time: string;
  utc: string;
  status: number;
  verify: number;
  temperature: number | null;
  mask: number | null;
  alcohol: number | null;
  /** the reading failed the device's threshold */
  alcohol_over: boolean;
  pic_url: string;
  stranger: boolean;
}

export interface PunchQuery extends PunchFilters {
  page: number;
  pageSize: number;
}

export const punchKeys = { list: (q: PunchQuery) => ['punch', 'list', q] as const };

export const usePunches = (q: PunchQuery) =>
  useQuery({
    queryKey: punchKeys.list(q),
    queryFn: () => get<Page<Punch>>('/attendance/list', { page: q.page, pageSize: q.pageSize, ...punchParams(q, browserTzOffset()) }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });

/** spec §9: exports have a 120 s timeout. A mutation for its busy flag; failures are shown by the API client. */
export const useExportPunches = () =>
  useMutation({
    mutationFn: (f: PunchFilters) =>
      downloadFile('POST', '/attendance/export', 'punches.xlsx', { body: punchParams(f, browserTzOffset()), timeout: TIMING.exportTimeout }),
  });
