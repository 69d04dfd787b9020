import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { healthApi, TIMING } from '@faceadmin/shared';
import { call, download } from '../../app/request.ts';
import type { PagedQuery } from '../../ui/paging.ts';
import { alcoholParams, healthParams, type AlcoholFilters, type HealthFilters } from './logic.ts';

export const healthKeys = {
  list: (q: PagedQuery<HealthFilters>) => ['health', 'list', q] as const,
  alcohol: (q: PagedQuery<AlcoholFilters>) => ['health', 'alcohol', q] as const,
};

export const useHealthRecords = (q: PagedQuery<HealthFilters>) =>
  useQuery({
    queryKey: healthKeys.list(q),
    queryFn: () => call(healthApi.list, { page: q.page, pageSize: q.pageSize, ...healthParams(q) }, { inline: true }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });

export const useAlcoholRecords = (q: PagedQuery<AlcoholFilters>) =>
  useQuery({
    queryKey: healthKeys.alcohol(q),
    queryFn: () => call(healthApi.alcoholList, { page: q.page, pageSize: q.pageSize, ...alcoholParams(q) }, { inline: true }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });

/**
 * An export with its progress: the bytes of the streamed workbook received so far (spec §9: 120 s timeout).
 * Failures are shown by the API client.
 */
function useExportWithProgress<F>(run: (f: F, onProgress: (bytes: number) => void) => Promise<void>) {
  const [bytes, setBytes] = useState(0);
  const mutation = useMutation({
    mutationFn: (f: F) => {
      setBytes(0);
      return run(f, setBytes);
    },
  });
  return { ...mutation, bytes };
}

export const useExportHealth = () =>
  useExportWithProgress((f: HealthFilters, onProgress) =>
    download(healthApi.export, 'health.xlsx', { body: healthParams(f), timeout: TIMING.exportTimeout, onProgress }),
  );

export const useExportAlcohol = () =>
  useExportWithProgress((f: AlcoholFilters, onProgress) =>
    download(healthApi.alcoholExport, 'alcohol.xlsx', { body: alcoholParams(f), timeout: TIMING.exportTimeout, onProgress }),
  );
