import { useState, type ReactNode } from 'react';
import { App, Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { selfApi, type SessionUser } from '@faceadmin/shared';
import { ChangePasswordDialog } from '../../features/profile/components/ChangePasswordDialog.tsx';
import { TransferAdminDialog } from '../../features/profile/components/TransferAdminDialog.tsx';
import { selfTokenStore } from '../../features/workflow/self/selfClient.ts';
import { call } from '../../lib/request.ts';
import { useLogout, useSystemConfig } from '../../lib/session.ts';

/**
 * spec §2 avatar dropdown: company list, dashboard, profile, initial-admin transfer, logout. The items, their
 * actions and the dialogs they open; the desktop avatar button and the phone's overflow menu both show them.
 */
export function useAvatarMenu(user: SessionUser): { items: NonNullable<MenuProps['items']>; onClick: (key: string) => boolean; dialogs: ReactNode } {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { modal } = App.useApp();
  const logout = useLogout();
  const [dialog, setDialog] = useState<'password' | 'transfer' | null>(null);

  const hasCompany = user.company !== 0;
  // no self-service in LAN mode (spec §2: approvals are not there; docs/lan-mode.md)
  const lan = useSystemConfig().data?.runMode === 'lan';
  const items: MenuProps['items'] = [
    { key: 'companyList', label: t('layout.avatar.companyList') },
    ...(hasCompany ? [{ key: 'companyInfo', label: t('layout.avatar.companyInfo') }] : []),
    ...(hasCompany ? [{ key: 'dashboard', label: t('layout.avatar.dashboard') }] : []),
    // spec §7 bindAdmin: an account that is also one of the company's people opens self-service as them.
    ...(hasCompany && user.person_id && !lan ? [{ key: 'selfService', label: t('layout.avatar.selfService') }] : []),
    { key: 'profile', label: t('layout.avatar.profile') },
    ...(user.is_init && hasCompany ? [{ key: 'transfer', label: t('layout.avatar.transfer') }] : []),
    { type: 'divider' },
    { key: 'logout', label: t('layout.avatar.logout'), danger: true },
  ];

  const confirmLogout = () => {
    const back = location.pathname + location.search;
    modal.confirm({
      title: t('layout.logout.title'),
      content: t('layout.logout.confirm'),
      okText: t('common.actions.ok'),
      cancelText: t('common.actions.cancel'),
      // Closes at once: the sign-out goes on without holding the dialog open (the Guard also sends a
      // token-less session to /login, so this navigation only makes the redirect explicit).
      onOk: () => {
        void logout().then(() => navigate(`/login?redirect=${encodeURIComponent(back)}`, { replace: true }));
      },
    });
  };

  /** Runs the item's action; false when the key is not one of these items. */
  const onClick = (key: string): boolean => {
    if (key === 'companyList') void navigate('/company/list');
    else if (key === 'companyInfo') void navigate('/company/update');
    else if (key === 'dashboard') void navigate('/dashboard');
    else if (key === 'selfService')
      void call(selfApi.fromAdmin).then((session) => {
        selfTokenStore.set(session.token);
        void navigate('/self');
      });
    else if (key === 'profile') setDialog('password');
    else if (key === 'transfer') setDialog('transfer');
    else if (key === 'logout') confirmLogout();
    else return false;
    return true;
  };

  const dialogs = (
    <>
      <ChangePasswordDialog open={dialog === 'password'} onClose={() => setDialog(null)} />
      {user.is_init ? <TransferAdminDialog open={dialog === 'transfer'} onClose={() => setDialog(null)} /> : null}
    </>
  );
  return { items, onClick, dialogs };
}

export function AvatarMenu({ user }: { user: SessionUser }) {
  const { items, onClick, dialogs } = useAvatarMenu(user);
  return (
    <>
      <Dropdown trigger={['click']} menu={{ items, onClick: ({ key }) => onClick(key) }}>
        <Button type="text" data-testid="avatar-menu" style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
          <Avatar size="small" src={user.avatar || undefined} icon={<UserOutlined />} />
          <span>{user.name || user.username}</span>
        </Button>
      </Dropdown>
      {dialogs}
    </>
  );
}
