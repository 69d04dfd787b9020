import { setDisplayTimeZone } from '../ui/format.ts';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { authApi, managersApi, type RightKey } from '@faceadmin/shared';
import { call } from './request.ts';
import { clearToken, useToken } from './token.ts';
import { tagsStore } from './tags.ts';

export const sessionKeys = {
  config: ['system', 'config'] as const,
  info: ['session', 'info'] as const,
};

/** GET /system/config: run mode, title, registration switch (public). */
export function useSystemConfig() {
  return useQuery({
    queryKey: sessionKeys.config,
    queryFn: () => call(authApi.config, undefined, { silent: true }),
    staleTime: Infinity,
    retry: 1,
  });
}

/** GET /user/info; silent because the guard reports a failed profile itself (spec §8). */
export function useUserInfo() {
  const token = useToken();
  return useQuery({
    queryKey: sessionKeys.info,
    queryFn: async () => {
      const user = await call(authApi.info, undefined, { silent: true });
      // spec §8: "getInfo: roles must be a non-null array!"
      if (!Array.isArray(user.roles) || user.roles.length === 0) throw new Error('getInfo: roles must be a non-null array!');
      setDisplayTimeZone(user.time_zone);
      return user;
    },
    enabled: Boolean(token),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** The session's level in one right (0 outside the current company): ≥ 1 reads, ≥ 2 writes where the right has two levels. */
export function useRightLevel(key: RightKey): { level: number; canView: boolean; canEdit: boolean } {
  const user = useUserInfo().data;
  const level = user?.rights.is_admin ? user.rights[key] : 0;
  return { level, canView: level >= 1, canEdit: level >= 2 };
}

/** Ends the local session: token, cached server state, tag views (spec §4 logout). */
export function resetSession(queryClient: QueryClient): void {
  clearToken();
  tagsStore.set([]);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'system' });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return async () => {
    try {
      await call(authApi.logout, undefined, { silent: true });
    } catch {
      // the local session ends whatever the server says
    }
    resetSession(queryClient);
  };
}

/** GET /admin/get_adminright: the role in the current company (main admins edit the company). */
export function useAdminRight(enabled: boolean) {
  return useQuery({
    queryKey: ['session', 'adminright'],
    queryFn: () => call(managersApi.adminRight, undefined, { silent: true }),
    enabled,
    staleTime: 5 * 60_000,
  });
}
