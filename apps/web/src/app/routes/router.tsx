import { lazy, Suspense, useLayoutEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, useLocation, type RouteObject } from 'react-router';
import { ErrorBoundary, RouteError } from '../ErrorBoundary.tsx';
import { PageLoading } from '../../ui/PageLoading.tsx';
import { Guard } from './Guard.tsx';
import { flattenRoutes, ROUTE_TABLE, type PageKey } from './routeTable.ts';

// Every page is its own chunk (React.lazy); the route table only names them.
const PAGES: Record<PageKey, LazyExoticComponent<ComponentType>> = {
  dashboard: lazy(() => import('../../features/dashboard/pages/DashboardPage.tsx')),
  log: lazy(() => import('../../features/logs/pages/LogPage.tsx')),
  manager: lazy(() => import('../../features/managers/pages/ManagerPage.tsx')),
  companyForm: lazy(() => import('../../features/companies/pages/CompanyFormPage.tsx')),
  companyList: lazy(() => import('../../features/companies/pages/CompanyListPage.tsx')),
  message: lazy(() => import('../../features/messages/pages/MessagePage.tsx')),
  organization: lazy(() => import('../../features/departments/pages/OrganizationPage.tsx')),
  personList: lazy(() => import('../../features/persons/pages/PersonListPage.tsx')),
  deviceList: lazy(() => import('../../features/devices/pages/DeviceListPage.tsx')),
  devicePersons: lazy(() => import('../../features/devices/pages/DevicePersonPage.tsx')),
  deviceRoster: lazy(() => import('../../features/devices/pages/DeviceRosterPage.tsx')),
  deviceTakeover: lazy(() => import('../../features/devices/pages/DeviceTakeoverPage.tsx')),
  legacyImport: lazy(() => import('../../features/legacy/pages/LegacyImportPage.tsx')),
  punchList: lazy(() => import('../../features/punches/pages/PunchListPage.tsx')),
  attendanceHealth: lazy(() => import('../../features/health/pages/HealthListPage.tsx')),
  attendanceAlcohol: lazy(() => import('../../features/health/pages/AlcoholListPage.tsx')),
  freeSchedule: lazy(() => import('../../features/attendance/schedule/pages/FreeSchedulePage.tsx')),
  attendanceRule: lazy(() => import('../../features/attendance/pages/RuleListPage.tsx')),
  attendanceHoliday: lazy(() => import('../../features/attendance/pages/HolidayPage.tsx')),
  attendanceResult: lazy(() => import('../../features/attendance/pages/DayResultPage.tsx')),
  attendanceReport: lazy(() => import('../../features/attendance/pages/MonthReportPage.tsx')),
  attendanceBalance: lazy(() => import('../../features/leave/pages/LeaveBalancePage.tsx')),
  breakerList: lazy(() => import('../../features/breakers/pages/BreakerListPage.tsx')),
  breakerDetail: lazy(() => import('../../features/breakers/pages/BreakerDetailPage.tsx')),
  breakerLine: lazy(() => import('../../features/breakers/pages/LineDetailPage.tsx')),
  workflowIndex: lazy(() => import('../../features/workflow/pages/WorkflowIndexPage.tsx')),
  workflowForm: lazy(() => import('../../features/workflow/pages/FormDesignPage.tsx')),
  workflowFlow: lazy(() => import('../../features/workflow/pages/FlowDesignPage.tsx')),
  workflowApproval: lazy(() => import('../../features/workflow/pages/ApprovalRecordsPage.tsx')),
  consoles: lazy(() => import('../../features/dashboard/pages/ConsolesPage.tsx')),
  ioconsoles: lazy(() => import('../../features/watch/pages/IoConsolePage.tsx')),
  ioconsoles2: lazy(() => import('../../features/watch/pages/IoConsoleSplitPage.tsx')),
  dormitory: lazy(() => import('../../features/watch/pages/DormitoryPage.tsx')),
  dormitory2: lazy(() => import('../../features/watch/pages/DormitoryBoardPage.tsx')),
  maininfo: lazy(() => import('../../features/dashboard/pages/MainInfoPage.tsx')),
  fullscreen: lazy(() => import('../../features/dashboard/pages/FullscreenPage.tsx')),
  spotconsoles: lazy(() => import('../../features/dashboard/pages/SpotConsolesPage.tsx')),
  map: lazy(() => import('../../features/map/pages/MapPage.tsx')),
  stranger: lazy(() => import('../../features/strangers/pages/StrangerPage.tsx')),
  visitors: lazy(() => import('../../features/visitors/pages/VisitorsPage.tsx')),
  visitorLog: lazy(() => import('../../features/visitors/pages/VisitorLogPage.tsx')),
  integrations: lazy(() => import('../../features/integrations/pages/IntegrationsPage.tsx')),
  clientErrors: lazy(() => import('../../features/clientErrors/pages/ClientErrorsPage.tsx')),
};

// antd's providers (theme, locale, size, messages) around what antd draws; the sign-in page draws without antd, so
// neither comes with it (#31's first load).
const AntdProviders = lazy(() => import('../../ui/AntdProviders.tsx'));
const LoginPage = lazy(() => import('../../features/auth/pages/LoginPage.tsx'));
// The console's shell (menu, tabs, header, drawers) loads once it is needed: the sign-in page goes without it (#31's
// first load).
const Layout = lazy(() => import('../layout/Layout.tsx').then((m) => ({ default: m.Layout })));
const AuthRedirectPage = lazy(() => import('../../features/auth/pages/AuthRedirectPage.tsx'));
const ErrorPage = lazy(() => import('../../features/errors/pages/ErrorPage.tsx'));
const RedirectPage = lazy(() => import('../../features/errors/pages/RedirectPage.tsx'));
// The employees' self-service page (issue #11): outside the console's shell and its administrator session.
const SelfServicePage = lazy(() => import('../../features/workflow/self/SelfServicePage.tsx'));
// A visitor's link page (#19): public, outside the console's shell and any session.
const VisitPage = lazy(() => import('../../features/visitors/pages/VisitPage.tsx'));
// spec §2: the public parking-lot binding page; it signs in with the console's own session when asked to.
const DzgPage = lazy(() => import('../../features/parking/pages/DzgPage.tsx'));

/**
 * The path whose page is on screen, as `<html data-route>`. The address changes when a navigation starts; the page
 * follows when React commits it, and a navigation to a page still loading keeps the previous page on screen meanwhile
 * (a transition). The journeys wait for this mark, so they never act on the page they are leaving.
 */
function RouteMark() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    document.documentElement.dataset.route = pathname;
  }, [pathname]);
  return null;
}

/**
 * A page that fails to render is reported and replaced by a reload offer (spec §8); the shell stays. `antd`: the page
 * is drawn outside the shell, so it brings antd's providers itself (the shell's pages have them from the shell).
 */
function page(Component: ComponentType, antd = false) {
  return (
    <>
      <RouteMark />
      <ErrorBoundary>
        <Suspense fallback={<PageLoading />}>
          {antd ? (
            <AntdProviders>
              <Component />
            </AntdProviders>
          ) : (
            <Component />
          )}
        </Suspense>
      </ErrorBoundary>
    </>
  );
}

const antdPage = (Component: ComponentType) => page(Component, true);

// All known pages are registered; the Guard decides per session which of them this user may open.
const layoutChildren: RouteObject[] = flattenRoutes(ROUTE_TABLE).flatMap((r) => {
  if (!r.page) return [];
  const Page = PAGES[r.page];
  return [{ path: r.path, element: page(Page) }];
});

export const router = createBrowserRouter([
  { path: '/self', element: antdPage(SelfServicePage) },
  { path: '/visit/:token', element: antdPage(VisitPage) },
  { path: '/dzg', element: antdPage(DzgPage) },
  {
    element: <Guard />,
    errorElement: <RouteError />,
    children: [
      { path: '/login', element: page(LoginPage) },
      { path: '/auth-redirect', element: antdPage(AuthRedirectPage) },
      { path: '/404', element: antdPage(() => <ErrorPage status={404} />) },
      { path: '/error/404', element: antdPage(() => <ErrorPage status={404} />) },
      { path: '/401', element: antdPage(() => <ErrorPage status={401} />) },
      { path: '/error/401', element: antdPage(() => <ErrorPage status={401} />) },
      { path: '/redirect/*', element: antdPage(RedirectPage) },
      {
        element: (
          <Suspense fallback={<PageLoading />}>
            <AntdProviders>
              <Layout />
            </AntdProviders>
          </Suspense>
        ),
        children: layoutChildren,
      },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
]);
