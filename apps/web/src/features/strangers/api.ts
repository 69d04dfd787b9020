import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { strangersApi, TIMING } from '@faceadmin/shared';
import { call, download } from '../../lib/request.ts';
import { livePoll, useLiveOpen } from '../../lib/live.ts';
import { useExportWithProgress } from '../../lib/mutations.ts';
import type { PagedQuery } from '../../ui/paging.ts';
import { strangerParams, type StrangerFilters } from './logic.ts';

export const strangerKeys = {
  all: ['stranger'] as const,
  list: (q: PagedQuery<StrangerFilters>) => ['stranger', 'list', q] as const,
};

/** A page of strangers; live events keep it current, polling only while the stream is down. */
export function useStrangers(q: PagedQuery<StrangerFilters>) {
  const open = useLiveOpen();
  return useQuery({
    queryKey: strangerKeys.list(q),
    queryFn: () => call(strangersApi.list, { page: q.page, pageSize: q.pageSize, ...strangerParams(q) }, { inline: true }),
    placeholderData: keepPreviousData,
    refetchInterval: livePoll(open, 15_000),
  });
}

/** The strangers the filters select, as a workbook (spec §9: 120 s), with the bytes received so far. */
export const useExportStrangers = () =>
  useExportWithProgress((f: StrangerFilters, onProgress) =>
    download(strangersApi.export, 'strangers.xlsx', { body: strangerParams(f), timeout: TIMING.exportTimeout, onProgress }),
  );

/**
 * A stranger's capture as a file for the person form (its face picture). The photo route takes the session
 * cookie, as the <img> showing it does.
 */
export async function capturedPhoto(picUrl: string, id: number): Promise<File> {
  const res = await fetch(picUrl, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const blob = await res.blob();
  return new File([blob], `stranger-${id}.jpg`, { type: blob.type || 'image/jpeg' });
}
