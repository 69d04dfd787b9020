import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  API_PREFIX,
  CODES,
  pathOf,
  TIMING,
  visitApi,
  visitorsApi,
  type Envelope,
  type VisitLogExportBody,
  type VisitLogQuery,
  type VisitorInvite,
  type VisitorListQuery,
  type VisitPublic,
} from '@faceadmin/shared';
import { getLanguage, i18next } from '../../lib/i18n.ts';
import { livePoll, useLiveInvalidate, useLiveOpen } from '../../lib/live.ts';
import { useExportWithProgress, useInvalidatingMutation } from '../../lib/mutations.ts';
import { ApiError, call, download } from '../../lib/request.ts';
import type { PagedQuery } from '../../ui/paging.ts';

export const visitorKeys = {
  all: ['visitor'] as const,
  list: (q: PagedQuery<VisitorListQuery>) => ['visitor', 'list', q] as const,
  doors: ['visitor', 'doors'] as const,
  log: (q: PagedQuery<VisitLogQuery>) => ['visitor', 'log', q] as const,
};

/** The console's invitations (System → Visitors). */
export function useVisitors(q: PagedQuery<VisitorListQuery>) {
  useLiveInvalidate(['visitor', 'sync'], visitorKeys.all);
  return useQuery({ queryKey: visitorKeys.list(q), queryFn: () => call(visitorsApi.list, q, { inline: true }), placeholderData: keepPreviousData });
}
/** Doors a visitor may be invited to: devices with "Allow visitors" on. */
/** The doors offered to visitors: asked only by who may invite or read the visit log (the server's rule), `enabled` says so. */
export const useVisitorDoors = (enabled = true) => useQuery({ queryKey: visitorKeys.doors, queryFn: () => call(visitorsApi.doors), enabled });
export const useInviteVisitor = () => useInvalidatingMutation((v: VisitorInvite) => call(visitorsApi.invite, v), [visitorKeys.all], { on: 'success' });
export const useCancelVisitor = () => useInvalidatingMutation((id: number) => call(visitorsApi.cancel, { id }), [visitorKeys.all], { on: 'settled' });

/** The visit log; an arrival refreshes it, polling only while the live stream is down. */
export function useVisitLog(q: PagedQuery<VisitLogQuery>) {
  const open = useLiveOpen();
  useLiveInvalidate(['visitor', 'punch'], ['visitor', 'log']);
  return useQuery({
    queryKey: visitorKeys.log(q),
    queryFn: () => call(visitorsApi.log, q, { inline: true }),
    placeholderData: keepPreviousData,
    refetchInterval: livePoll(open, 15_000),
  });
}
export const useExportVisits = () =>
  useExportWithProgress((f: VisitLogExportBody, onProgress) =>
    download(visitorsApi.logExport, 'visits.xlsx', { body: f, timeout: TIMING.exportTimeout, onProgress }),
  );

/** The visitor's page calls (public: the link's token is the key; no session of any kind is sent). */
async function visitFetch<T>(url: string, init: RequestInit = {}): Promise<T> {
  let envelope: Envelope<T> | null;
  try {
    const res = await fetch(url, { ...init, headers: { 'X-Lang': getLanguage(), Accept: 'application/json' } });
    envelope = (await res.json().catch(() => null)) as Envelope<T> | null;
  } catch {
    throw new ApiError('network', i18next.t('errors.network'));
  }
  if (!envelope || typeof envelope.code !== 'number') throw new ApiError('network', i18next.t('errors.network'));
  if (envelope.code !== CODES.OK) throw new ApiError('api', envelope.message || i18next.t('errors.error'), envelope.code, envelope.data);
  return envelope.data;
}
export const showVisit = (token: string) => visitFetch<VisitPublic>(API_PREFIX + pathOf(visitApi.show, { token }));
export function uploadVisitFace(token: string, file: File) {
  const form = new FormData();
  form.append('file', file);
  return visitFetch<VisitPublic>(API_PREFIX + pathOf(visitApi.face, { token }), { method: 'POST', body: form });
}
