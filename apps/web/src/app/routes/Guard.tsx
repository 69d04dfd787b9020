import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../ui/PageLoading.tsx';
import { toast } from '../../lib/feedback.ts';
import { resetSession, useSystemConfig, useUserInfo } from '../../lib/session.ts';
import { lastPage } from '../../lib/lastPage.ts';
import { useToken } from '../../lib/token.ts';
import { decideAccess } from './access.ts';
import { findRoute, ROUTE_TABLE } from './routeTable.ts';
import { useAccessibleRoutes } from './useAccessibleRoutes.ts';

/** Applies spec §2 "Access rules" to every navigation and keeps the page title in step. */
export function Guard() {
  const location = useLocation();
  const navigate = useNavigate();
  const token = useToken();
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const info = useUserInfo();
  const config = useSystemConfig();
  const routes = useAccessibleRoutes();
  const reported = useRef(false);

  // spec §8: a failed profile resets the token, shows the message and goes to login with a redirect.
  useEffect(() => {
    if (!token || !info.isError || reported.current) return;
    reported.current = true;
    toast({ type: 'error', content: info.error.message || t('errors.hasError') });
    const back = location.pathname + location.search;
    resetSession(queryClient);
    void navigate(`/login?redirect=${encodeURIComponent(back)}`, { replace: true });
  }, [token, info.isError, info.error, t, location, navigate, queryClient]);
  useEffect(() => {
    if (token) reported.current = false;
  }, [token]);

  // spec §2: page title = translated route title + system title.
  const titleKey = findRoute(ROUTE_TABLE, location.pathname)?.titleKey ?? publicTitle(location.pathname);
  const systemTitle = config.data?.title ?? '';
  useEffect(() => {
    const pageTitle = titleKey ? t(titleKey) : '';
    document.title = [pageTitle, systemTitle].filter(Boolean).join(' - ') || 'FaceAdmin';
  }, [titleKey, systemTitle, t]);

  const decision = decideAccess({
    path: location.pathname,
    search: location.search,
    token,
    company: info.data?.company,
    routes,
    lastPage,
  });
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'wait') return <PageLoading />;
  return <Outlet />;
}

function publicTitle(path: string): string | undefined {
  if (path === '/login') return 'route.login';
  if (path.endsWith('404')) return 'route.notFound';
  if (path.endsWith('401')) return 'route.unauthorized';
  return undefined;
}
