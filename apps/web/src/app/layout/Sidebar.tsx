import { useMemo, useState } from 'react';
import { Menu, type MenuProps } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSystemConfig } from '../../lib/session.ts';
import { DEFAULT_OPEN_SECTIONS, routeTrail, type RouteNode } from '../routes/routeTable.ts';
import { ROUTE_ICONS } from './icons.tsx';

type MenuItem = NonNullable<MenuProps['items']>[number];

function toItems(routes: RouteNode[], t: (k: string) => string): MenuItem[] {
  return routes
    .filter((r) => !r.hidden)
    .map((r) => {
      const icon = r.icon ? ROUTE_ICONS[r.icon] : undefined;
      const children = r.children ? toItems(r.children, t) : undefined;
      if (children && children.length) return { key: r.path, icon, label: t(r.titleKey), children };
      return { key: r.path, icon, label: t(r.titleKey) };
    });
}

interface Props {
  routes: RouteNode[];
  collapsed: boolean;
  showLogo: boolean;
  /** Called after a menu navigation (mobile closes the sidebar, spec §2). */
  onNavigate?: () => void;
}

export function Sidebar({ routes, collapsed, showLogo, onNavigate }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const config = useSystemConfig();
  const items = useMemo(() => toItems(routes, t), [routes, t]);
  const trail = routeTrail(routes, location.pathname);
  const selected = trail.map((r) => r.path);
  // the sections open: the usual ones, and the current page's whenever a page in another is opened (a link, the tags)
  const section = trail.length > 1 ? trail[0]!.path : undefined;
  const [open, setOpen] = useState<string[]>(() => [...new Set([...DEFAULT_OPEN_SECTIONS, ...(section ? [section] : [])])]);
  const [shownSection, setShownSection] = useState(section);
  if (section !== shownSection) {
    setShownSection(section);
    if (section && !open.includes(section)) setOpen([...open, section]);
  }

  return (
    <nav className="fa-sidebar" aria-label={t('layout.sidebar')} data-testid="sidebar">
      {showLogo && (
        <div className="fa-logo">
          <img src="/favicon.svg" alt="" />
          {!collapsed && <span>{config.data?.title || t('layout.appName')}</span>}
        </div>
      )}
      <Menu
        theme="dark"
        mode="inline"
        items={items}
        selectedKeys={selected}
        // folded, the sections open as pop-ups on hover, so none is held open
        {...(collapsed ? { defaultOpenKeys: DEFAULT_OPEN_SECTIONS } : { openKeys: open, onOpenChange: setOpen })}
        onClick={({ key }) => {
          void navigate(key);
          onNavigate?.();
        }}
      />
    </nav>
  );
}
