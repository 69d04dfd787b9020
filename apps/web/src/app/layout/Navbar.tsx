import { Breadcrumb, Button, Tooltip } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routeTrail, type RouteNode } from '../routes/routeTable.ts';
import { useSystemConfig, useUserInfo } from '../../lib/session.ts';
import { AvatarMenu } from './AvatarMenu.tsx';
import { CompanySwitcher } from './CompanySwitcher.tsx';
import { FullscreenToggle } from '../../ui/FullscreenToggle.tsx';
import { LanguageSelect } from '../../ui/LanguageSelect.tsx';
import { MessageBell } from './MessageBell.tsx';
import { MobileMenu } from './MobileMenu.tsx';
import { useUnreadCount } from '../../features/messages/api.ts';
import { SizeSelect } from './SizeSelect.tsx';

interface Props {
  routes: RouteNode[];
  sidebarOpened: boolean;
  onToggleSidebar: (() => void) | undefined;
  onOpenSettings: () => void;
  /** Below 992 px: a compact bar (the page title and an overflow menu instead of the breadcrumb and the tools). */
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

  // spec §2: the bell is hidden in LAN mode (and there are no messages without a company)
  const showMessages = config.data?.runMode !== 'lan' && Boolean(user) && user?.company !== 0;
  const unread = useUnreadCount(mobile && showMessages).data?.count ?? 0;

  if (mobile) {
    // Below 992 px: hamburger, the page's title, the bell, and everything else in one overflow menu.
    const current = trail[trail.length - 1];
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
        <span className="fa-navbar-title">{current ? t(current.titleKey) : ''}</span>
        <div className="fa-navbar-right">
          {showMessages && <MessageBell />}
          {user && <MobileMenu user={user} showMessages={showMessages} unread={unread} onOpenSettings={onOpenSettings} />}
        </div>
      </>
    );
  }

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
      <Breadcrumb items={items} />
      <div className="fa-navbar-right">
        {user && user.companys.length > 0 && <CompanySwitcher user={user} />}
        <FullscreenToggle />
        <SizeSelect />
        <LanguageSelect />
        {showMessages && <MessageBell />}
        <Tooltip title={t('layout.settings.title')}>
          <Button type="text" aria-label={t('layout.settings.title')} icon={<SettingOutlined />} onClick={onOpenSettings} />
        </Tooltip>
        {user && <AvatarMenu user={user} />}
      </div>
    </>
  );
}
