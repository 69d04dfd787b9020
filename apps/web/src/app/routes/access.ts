import { safeRedirect } from '../../lib/safeRedirect.ts';
import { findRoute, type RouteNode } from './routeTable.ts';

/** Paths anyone may open (spec §2 "Public routes"). */
export const PUBLIC_PATHS = ['/login', '/auth-redirect', '/404', '/401', '/error/401', '/error/404'];
export const isPublicPath = (path: string): boolean => PUBLIC_PATHS.includes(path) || path.startsWith('/redirect/');

export type AccessDecision = { kind: 'allow' } | { kind: 'wait' } | { kind: 'redirect'; to: string };

export interface AccessInput {
  path: string;
  /** search + hash, kept in the login redirect */
  search: string;
  token: string;
  /** undefined while the profile is loading */
  company: number | undefined;
  /** filterRoutes() output; undefined while loading */
  routes: RouteNode[] | undefined;
  /** the page of a section (rememberLast) this browser opened last (lib/lastPage.ts) */
  lastPage?: (section: string) => string | undefined;
}

/** spec §2 "Access rules" as one pure function, so the rules are testable without a browser. */
export function decideAccess({ path, search, token, company, routes, lastPage }: AccessInput): AccessDecision {
  if (isPublicPath(path)) {
    // A signed-in user on /login goes to / — or back to where the login was asked for (?redirect=), when this
    // administrator may open it: the redirect may be another's, signed out on a shared computer, and a page they
    // cannot open would greet the next with "not found".
    if (path === '/login' && token) {
      const to = safeRedirect(new URLSearchParams(search).get('redirect'));
      if (to === '/') return { kind: 'redirect', to };
      if (company === undefined || routes === undefined) return { kind: 'wait' };
      // where these rules would send that path: anywhere but "not found" or the company form is this administrator's
      const url = new URL(to, 'http://console');
      const next = decideAccess({ path: url.pathname, search: url.search, token, company, routes });
      const reachable = next.kind === 'allow' || (next.kind === 'redirect' && next.to !== '/404' && next.to !== '/company/create');
      return { kind: 'redirect', to: reachable ? to : '/' };
    }
    return { kind: 'allow' };
  }
  if (!token) return { kind: 'redirect', to: `/login?redirect=${encodeURIComponent(path + search)}` };
  if (company === undefined || routes === undefined) return { kind: 'wait' };
  // Company 0: only /login, / and /company/create; / lands on /company/create since the dashboard needs a company.
  if (company === 0) {
    return path === '/company/create' ? { kind: 'allow' } : { kind: 'redirect', to: '/company/create' };
  }
  if (path === '/' || path === '') return { kind: 'redirect', to: '/dashboard' };
  const route = findRoute(routes, path);
  if (!route) return { kind: 'redirect', to: '/404' };
  if (!route.page && route.redirect) {
    // a section that remembers goes back to the page of it opened last, while that page is still one of its own
    const last = route.rememberLast ? lastPage?.(route.path) : undefined;
    return { kind: 'redirect', to: last && route.children?.some((c) => c.path === last) ? last : route.redirect };
  }
  if (!route.page) return { kind: 'redirect', to: '/404' };
  return { kind: 'allow' };
}
