import { Breadcrumb, Button, Tooltip } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routeTrail, type RouteNode } from '../routes/routeTable.ts';
import { useSystemConfig, useUserInfo } from '../session.ts';
import { AvatarMenu } from './AvatarMenu.tsx';
import { CompanySwitcher } from './CompanySwitcher.tsx';
import { FullscreenToggle } from './FullscreenToggle.tsx';
import { LanguageSelect } from './LanguageSelect.tsx';
import { MessageBell } from './MessageBell.tsx';
import { SizeSelect } from './SizeSelect.tsx';

interface Props {
  routes: RouteNode[];
  sidebarOpened: boolean;
  onToggleSidebar: (() => void) | undefined;
  onOpenSettings: () => void;
  /** Narrow screens drop the breadcrumb to leave room for the tools. */
  mobile: boolean;
}

export function Navbar({ routes, sidebarOpened, onToggleSidebar, onOpenSettings, mobile }: Props) {
  const { t } = useTranslation();
  const location = useLocation();
  const config = useSystemConfig();
  const user = useUserInfo().data;
  const trail = routeTrail(routes, location.pathname);
  const items = [
    ...(routes.length ? [{ key: 'home', title: <Link to="/dashboard">{t('route.dashboard')}</Link> }] : []),
    ...trail
      .filter((r) => r.path !== '/dashboard')
      .map((r, i, all) => ({
        key: r.path,
        title: i < all.length - 1 && r.redirect ? <Link to={r.redirect}>{t(r.titleKey)}</Link> : t(r.titleKey),
      })),
  ];

  return (
    <>
      {onToggleSidebar && (
        <Button
          type="text"
          aria-label={t('layout.toggleSidebar')}
          icon={sidebarOpened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          onClick={onToggleSidebar}
        />
      )}
      {!mobile && <Breadcrumb items={items} />}
      <div className="fa-navbar-right">
        {user && user.companys.length > 0 && <CompanySwitcher user={user} />}
        <FullscreenToggle />
        <SizeSelect />
        <LanguageSelect />
        {/* spec §2: the bell is hidden in LAN mode */}
        {config.data?.runMode !== 'lan' && user && user.company !== 0 && <MessageBell />}
        <Tooltip title={t('layout.settings.title')}>
          <Button type="text" aria-label={t('layout.settings.title')} icon={<SettingOutlined />} onClick={onOpenSettings} />
        </Tooltip>
        {user && <AvatarMenu user={user} />}
      </div>
    </>
  );
}
