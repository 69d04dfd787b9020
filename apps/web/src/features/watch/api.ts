import { useQuery } from '@tanstack/react-query';
import { dashboardApi, dormitoryApi, type DormitorySettings } from '@faceadmin/shared';
import { livePoll, useLiveInvalidate, useLiveOpen } from '../../lib/live.ts';
import { useInvalidatingMutation } from '../../lib/mutations.ts';
import { call } from '../../lib/request.ts';

export const watchKeys = {
  recent: ['punch', 'watch', 'recent'] as const,
  dormitory: ['dormitory'] as const,
  statusAll: ['dormitory', 'status'] as const,
  status: (returnBy: string | undefined) => ['dormitory', 'status', returnBy ?? ''] as const,
  settings: ['dormitory', 'settings'] as const,
};

/**
 * The guard desk's starting history: the newest 30 recognitions (for the attendance right or face view, as the
 * live punch events); polled every 5 s while the live stream is down.
 */
export function useRecentPunches() {
  const open = useLiveOpen();
  return useQuery({
    queryKey: watchKeys.recent,
    queryFn: () => call(dashboardApi.recognitions, { limit: 30 }, { inline: true }),
    refetchInterval: livePoll(open, 5000),
  });
}

/**
 * The dormitory figures: refetched when a punch arrives on the live stream, polled every 30 s while it is down
 * (and once a minute anyway: the hour strikes without any punch).
 */
export function useDormitoryStatus(returnBy?: string) {
  const open = useLiveOpen();
  useLiveInvalidate(['punch'], watchKeys.statusAll, 2000);
  return useQuery({
    queryKey: watchKeys.status(returnBy),
    queryFn: () => call(dormitoryApi.status, returnBy ? { return_by: returnBy } : {}, { inline: true }),
    refetchInterval: open ? 60_000 : 30_000,
  });
}

export const useDormitorySettings = () => useQuery({ queryKey: watchKeys.settings, queryFn: () => call(dormitoryApi.settings, undefined, { silent: true }) });

export const useSaveDormitorySettings = () =>
  useInvalidatingMutation((body: DormitorySettings) => call(dormitoryApi.saveSettings, body), [watchKeys.dormitory], { on: 'success' });
