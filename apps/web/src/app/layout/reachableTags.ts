import type { VisitedTag } from '../../lib/tags.ts';
import { findRoute, type RouteNode } from '../routes/routeTable.ts';

/**
 * The tabs this session may open, titled by the route table: a tab of a page the user can no longer reach
 * (another company, fewer rights) is left out rather than leading to 404.
 */
export function reachableTags(routes: RouteNode[], visited: readonly VisitedTag[]): VisitedTag[] {
  return visited.flatMap((v) => {
    const route = findRoute(routes, v.path);
    return route?.page ? [{ path: v.path, titleKey: route.titleKey }] : [];
  });
}
