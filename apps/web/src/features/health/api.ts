import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { healthApi, TIMING } from '@faceadmin/shared';
import { useExportWithProgress } from '../../lib/mutations.ts';
import { call, download } from '../../lib/request.ts';
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

export const useExportHealth = () =>
  useExportWithProgress((f: HealthFilters, onProgress) =>
    download(healthApi.export, 'health.xlsx', { body: healthParams(f), timeout: TIMING.exportTimeout, onProgress }),
  );

export const useExportAlcohol = () =>
  useExportWithProgress((f: AlcoholFilters, onProgress) =>
    download(healthApi.alcoholExport, 'alcohol.xlsx', { body: alcoholParams(f), timeout: TIMING.exportTimeout, onProgress }),
  );
