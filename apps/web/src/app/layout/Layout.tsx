import { Suspense, useEffect, useState } from 'react';
import { Drawer, Layout as AntLayout } from 'antd';
import { Outlet, useLocation } from 'react-router';
import { PageLoading } from '../../ui/PageLoading.tsx';
import { useUserInfo } from '../../lib/session.ts';
import { useAccessibleRoutes } from '../routes/useAccessibleRoutes.ts';
import { updateSettings, useSettings } from '../../lib/settings.ts';
import { addTag } from '../../lib/tags.ts';
import { rememberPage } from '../../lib/lastPage.ts';
import { findRoute, NO_SIDEBAR_PATHS, NO_TAGS_PATHS, routeTrail } from '../routes/routeTable.ts';
import { Navbar } from './Navbar.tsx';
import { SettingsDrawer } from './SettingsDrawer.tsx';
import { Sidebar } from './Sidebar.tsx';
import { TagsView } from './TagsView.tsx';
import { useIsMobile } from '../../ui/useIsMobile.ts';
import './antdStylesheet.ts';

const SIDER_WIDTH = 210;

/** The signed-in shell (spec §2 "Shell behaviour"): sidebar, navbar, tag tabs, content. */
export function Layout() {
  const user = useUserInfo().data;
  // spec §2: with company 0 only /company/create is usable, so there is no menu and no tag bar to offer.
  const noCompany = !user || user.company === 0;
  const allRoutes = useAccessibleRoutes();
  const routes = noCompany ? [] : (allRoutes ?? []);
  const settings = useSettings();
  const mobile = useIsMobile();
  const location = useLocation();
  const [mobileOpen, setMobileOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);

  // Entering mobile mode closes the sidebar (spec §2): adjusted while rendering, not in an effect.
  const [wasMobile, setWasMobile] = useState(mobile);
  if (mobile !== wasMobile) {
    setWasMobile(mobile);
    if (mobile) setMobileOpen(false);
  }

  const route = allRoutes ? findRoute(allRoutes, location.pathname) : undefined;
  useEffect(() => {
    if (route?.page && !noCompany) addTag({ path: location.pathname, titleKey: route.titleKey });
  }, [route, location.pathname, noCompany]);
  // the page opened in a section that remembers (the watchers' screens), for the section's next opening
  const section = allRoutes ? routeTrail(allRoutes, location.pathname)[0] : undefined;
  useEffect(() => {
    if (section?.rememberLast && section.path !== location.pathname) rememberPage(section.path, location.pathname);
  }, [section, location.pathname]);

  const showSidebar = !NO_SIDEBAR_PATHS.includes(location.pathname);
  const showTags = !noCompany && settings.tagsView && !NO_TAGS_PATHS.includes(location.pathname);
  const opened = mobile ? mobileOpen : settings.sidebarOpened;
  const toggle = () => (mobile ? setMobileOpen((o) => !o) : updateSettings({ sidebarOpened: !settings.sidebarOpened }));

  return (
    <AntLayout style={{ minHeight: '100%' }}>
      {showSidebar && !mobile && (
        <AntLayout.Sider
          width={SIDER_WIDTH}
          collapsedWidth={64}
          collapsed={!opened}
          trigger={null}
          collapsible
          style={{ position: 'sticky', top: 0, height: '100vh', overflowY: 'auto' }}
        >
          <Sidebar routes={routes} collapsed={!opened} showLogo={settings.sidebarLogo} />
        </AntLayout.Sider>
      )}
      {showSidebar && mobile && (
        <Drawer
          placement="left"
          rootClassName="fa-sidebar-drawer"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          closable={false}
          size={SIDER_WIDTH}
          styles={{ body: { padding: 0, background: '#001529' } }}
        >
          <Sidebar routes={routes} collapsed={false} showLogo={settings.sidebarLogo} onNavigate={() => setMobileOpen(false)} />
        </Drawer>
      )}
      <AntLayout>
        <AntLayout.Header className={settings.fixedHeader ? 'fa-layout-header fixed' : 'fa-layout-header'}>
          <Navbar
            routes={routes}
            sidebarOpened={opened}
            onToggleSidebar={showSidebar ? toggle : undefined}
            onOpenSettings={() => setSettingsOpen(true)}
            mobile={mobile}
          />
        </AntLayout.Header>
        {showTags && <TagsView routes={routes} />}
        <AntLayout.Content className="fa-content">
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </AntLayout.Content>
      </AntLayout>
      <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </AntLayout>
  );
}
