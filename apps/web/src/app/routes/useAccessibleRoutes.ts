import { useMemo } from 'react';
import { useSystemConfig, useUserInfo } from '../../lib/session.ts';
import { filterRoutes, ROUTE_TABLE, type RouteNode } from './routeTable.ts';

/** The routes this session may reach (spec §2), or undefined while the profile or config loads. */
export function useAccessibleRoutes(): RouteNode[] | undefined {
  const { data: user } = useUserInfo();
  const { data: config } = useSystemConfig();
  return useMemo(
    () =>
      user
        ? filterRoutes(ROUTE_TABLE, user.rights, config?.runMode ?? 'normal', {
            main: user.roles[0] === 'main',
            options: { thirdParty: user.third_party === 1 },
          })
        : undefined,
    [user, config?.runMode],
  );
}
