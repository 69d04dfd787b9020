import { useQuery, useQueryClient } from '@tanstack/react-query';
import { sitesApi, type LiveDevice, type PlaceBody, type SiteCreate, type SiteDetail, type SiteUpdate, type UnplaceBody } from '@faceadmin/shared';
import { livePoll, useLiveEvent, useLiveInvalidate, useLiveOpen } from '../../lib/live.ts';
import { useInvalidatingMutation } from '../../lib/mutations.ts';
import { call, upload } from '../../lib/request.ts';
import { useRightLevel } from '../../lib/session.ts';

export const siteKeys = {
  all: ['site'] as const,
  list: ['site', 'list'] as const,
  info: (id: number) => ['site', 'info', id] as const,
};

/** Reading the map takes face-device view or the breaker right; changing it face-device edit (as the server). */
export function useMapRights() {
  const face = useRightLevel('face');
  const breaker = useRightLevel('breaker');
  return { canView: face.canView || breaker.canView, canEdit: face.canEdit };
}

export const useSites = (enabled: boolean) => useQuery({ queryKey: siteKeys.list, queryFn: () => call(sitesApi.list, undefined, { inline: true }), enabled });

/**
 * One site with its placements and the devices and breakers not on it, kept current by the live stream: a device's
 * presence is patched in at once, anything else (a breaker's alarm, presence) refetches; polling while the stream is down.
 */
export function useSite(id: number | undefined) {
  const qc = useQueryClient();
  const open = useLiveOpen();
  const key = siteKeys.info(id ?? 0);
  useLiveInvalidate(['breaker', 'alarm', 'device'], key, 1000);
  useLiveEvent('device', (d: LiveDevice) => {
    qc.setQueryData<SiteDetail>(key, (s) => {
      if (!s) return s;
      const patch = <T extends { kind: string; ref_id: number; online: boolean; state: string; last_seen_at: string | null }>(i: T): T =>
        i.kind === 'device' && i.ref_id === d.id
          ? { ...i, online: d.online, state: d.online ? 'online' : 'offline', last_seen_at: d.online ? d.at : i.last_seen_at }
          : i;
      return { ...s, placements: s.placements.map(patch), unplaced: s.unplaced.map(patch) };
    });
  });
  return useQuery({
    queryKey: key,
    queryFn: () => call(sitesApi.info, { id: id! }, { inline: true }),
    enabled: !!id,
    refetchInterval: livePoll(open, 15_000),
  });
}

const useSiteMutation = <V, R>(fn: (v: V) => Promise<R>) => useInvalidatingMutation(fn, [siteKeys.all], { on: 'settled' });

export const useCreateSite = () => useSiteMutation((body: SiteCreate) => call(sitesApi.create, body));
export const useUpdateSite = () => useSiteMutation((body: SiteUpdate) => call(sitesApi.update, body));
export const useDeleteSite = () => useSiteMutation((id: number) => call(sitesApi.delete, { id }));
export const useUploadPlan = () =>
  useSiteMutation(({ siteId, file }: { siteId: number; file: File }) => {
    const form = new FormData();
    form.append('site_id', String(siteId));
    form.append('file', file);
    return upload(sitesApi.image, form, { timeout: 120_000 });
  });

/** Places or moves a marker: the cached site moves it at once, the answer (or a refusal's refetch) settles it. */
export function usePlace(siteId: number) {
  const qc = useQueryClient();
  const key = siteKeys.info(siteId);
  const m = useInvalidatingMutation((body: PlaceBody) => call(sitesApi.place, body), [siteKeys.all], { on: 'settled' });
  return {
    ...m,
    place: (body: PlaceBody) => {
      qc.setQueryData<SiteDetail>(key, (s) => {
        if (!s) return s;
        const item =
          s.placements.find((p) => p.kind === body.kind && p.ref_id === body.ref_id) ??
          s.unplaced.find((p) => p.kind === body.kind && p.ref_id === body.ref_id);
        if (!item) return s;
        const rest = s.placements.filter((p) => !(p.kind === body.kind && p.ref_id === body.ref_id));
        return {
          ...s,
          placements: [...rest, { ...item, x: body.x, y: body.y }],
          unplaced: s.unplaced.filter((p) => !(p.kind === body.kind && p.ref_id === body.ref_id)),
        };
      });
      return m.mutateAsync(body);
    },
  };
}

export const useUnplace = () => useSiteMutation((body: UnplaceBody) => call(sitesApi.unplace, body));
