import { useMemo } from 'react';
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
  const selected = routeTrail(routes, location.pathname).map((r) => r.path);

  return (
    <nav aria-label={t('layout.sidebar')} data-testid="sidebar">
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
        defaultOpenKeys={DEFAULT_OPEN_SECTIONS}
        onClick={({ key }) => {
          void navigate(key);
          onNavigate?.();
        }}
      />
    </nav>
  );
}
