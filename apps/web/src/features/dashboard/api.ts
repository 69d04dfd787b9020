import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { dashboardApi, type Punch } from '@faceadmin/shared';
import { livePoll, useLiveEvent, useLiveInvalidate, useLiveOpen } from '../../lib/live.ts';
import { call } from '../../lib/request.ts';
import { useRightLevel } from '../../lib/session.ts';

/**
 * The dashboard's blocks (GET /dashboard/*, issue #16), each its own query so each loads and fails alone. The
 * figures refetch when the live stream says something moved, and poll every 30 s while the stream is down.
 */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  summary: ['dashboard', 'summary'] as const,
  figures: ['dashboard', 'figures'] as const,
  block: (name: string, site: number | undefined) => ['dashboard', 'figures', name, site ?? 0] as const,
  recognitions: (site: number | undefined) => ['dashboard', 'recognitions', site ?? 0] as const,
  sites: ['dashboard', 'sites'] as const,
  consoles: ['dashboard', 'consoles'] as const,
};
const POLL_MS = 30_000;
const site = (id: number | undefined) => (id ? { site_id: id } : {});

/** What the caller may see: the same rules as the server's blocks (and the lists each figure opens). */
export function useDashboardRights() {
  const attendance = useRightLevel('attendance').canView;
  const face = useRightLevel('face');
  const breaker = useRightLevel('breaker').canView;
  return { attendance, terminals: face.canView, breakers: breaker || face.canView, openDoor: face.canEdit, switchLine: face.canEdit };
}

export const useDashboardSummary = () => useQuery({ queryKey: dashboardKeys.summary, queryFn: () => call(dashboardApi.summary, {}, { inline: true }) });

const useBlock = <T>(name: string, siteId: number | undefined, enabled: boolean, fn: () => Promise<T>) => {
  const open = useLiveOpen();
  return useQuery({
    queryKey: dashboardKeys.block(name, siteId),
    queryFn: fn,
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: livePoll(open, POLL_MS),
  });
};

export const useAttendanceToday = (siteId: number | undefined, enabled: boolean) =>
  useBlock('attendance', siteId, enabled, () => call(dashboardApi.attendance, site(siteId), { inline: true }));
export const useTrend = (siteId: number | undefined, enabled: boolean) =>
  useBlock('trend', siteId, enabled, () => call(dashboardApi.trend, { ...site(siteId), days: 30 }, { inline: true }));
export const useDeviceFigures = (siteId: number | undefined, enabled: boolean) =>
  useBlock('devices', siteId, enabled, () => call(dashboardApi.devices, site(siteId), { inline: true }));
export const useAlarms = (siteId: number | undefined, enabled: boolean) =>
  useBlock('alarms', siteId, enabled, () => call(dashboardApi.alarms, site(siteId), { inline: true }));
export const useFlow = (siteId: number | undefined, enabled: boolean) =>
  useBlock('flow', siteId, enabled, () => call(dashboardApi.flow, site(siteId), { inline: true }));

export const useSites = () => useQuery({ queryKey: dashboardKeys.sites, queryFn: () => call(dashboardApi.sites, undefined, { inline: true }) });

/** Refetches the figures when punches, day results, devices, breakers or alarms move (at most every 2 s). */
export const useLiveFigures = () => useLiveInvalidate(['punch', 'day', 'device', 'breaker', 'alarm'], dashboardKeys.figures, 2_000);

/**
 * The latest recognitions with photos: the query's list with the stream's punches put in front (a capture photo
 * usually follows its punch as a `photo` event). A site's screen refetches instead: the stream does not say
 * which site a terminal is on.
 */
export function useRecognitions(siteId: number | undefined, enabled: boolean, limit = 12) {
  const open = useLiveOpen();
  const q = useQuery({
    queryKey: dashboardKeys.recognitions(siteId),
    queryFn: () => call(dashboardApi.recognitions, { ...site(siteId), limit }, { inline: true }),
    enabled,
    refetchInterval: livePoll(open, POLL_MS),
  });
  const [live, setLive] = useState<{ items: Punch[]; photos: Record<number, string> }>({ items: [], photos: {} });
  useLiveInvalidate(siteId ? ['punch', 'photo'] : ['reset'], dashboardKeys.recognitions(siteId), 2_000);
  useLiveEvent('punch', (p) => {
    if (siteId || !enabled) return;
    setLive((s) => ({ ...s, items: [p, ...s.items.filter((x) => x.id !== p.id)].slice(0, limit * 2) }));
  });
  useLiveEvent('photo', (p) => {
    if (siteId || !enabled) return;
    // only the photos of what can still be shown are kept (the newest ids: integer keys keep ascending order)
    setLive((s) => ({ ...s, photos: Object.fromEntries([...Object.entries(s.photos), [String(p.id), p.pic_url]].slice(-limit * 2)) }));
  });
  const seen = new Set<number>();
  const items = [...live.items, ...(q.data?.items ?? [])]
    .map((p) => (live.photos[p.id] ? { ...p, pic_url: live.photos[p.id]! } : p))
    .filter((p) => p.pic_url && !seen.has(p.id) && seen.add(p.id))
    .slice(0, limit);
  return { ...q, items };
}

export const useConsoles = () => {
  const open = useLiveOpen();
  return useQuery({
    queryKey: dashboardKeys.consoles,
    queryFn: () => call(dashboardApi.consoles, {}, { inline: true }),
    placeholderData: keepPreviousData,
    refetchInterval: livePoll(open, POLL_MS),
  });
};
