import { Badge, Button, Dropdown, type MenuProps } from 'antd';
import {
  BellOutlined,
  BankOutlined,
  ColumnHeightOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  MoreOutlined,
  SettingOutlined,
  TranslationOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LIMITS, SIZES, type Language, type SessionUser, type Size } from '@faceadmin/shared';
import { useSwitchCompany } from '../../features/companies/api.ts';
import { setLanguage, useLanguage } from '../../lib/i18n.ts';
import { LANGUAGE_LABEL } from '../../lib/languages.ts';
import { updateSettings, useSettings } from '../../lib/settings.ts';
import { useAvatarMenu } from './AvatarMenu.tsx';
import { useFullscreen } from '../../ui/FullscreenToggle.tsx';

interface Props {
  user: SessionUser;
  /** The message bell's entry (spec §2: hidden in LAN mode and without a company). */
  showMessages: boolean;
  unread: number;
  onOpenSettings: () => void;
}

/**
 * The phone navbar's overflow menu (below 992 px): everything the desktop navbar shows in a row (company
 * switcher, full screen, size, language, notifications, layout settings, the avatar's items) in one menu, so the
 * bar fits a 390 px screen (issue #9: it overflowed to 539 px with the bell, settings and avatar off screen).
 */
export function MobileMenu({ user, showMessages, unread, onOpenSettings }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const language = useLanguage();
  const { size } = useSettings();
  const fullscreen = useFullscreen();
  const switchCompany = useSwitchCompany();
  const avatar = useAvatarMenu(user);

  const items: MenuProps['items'] = [
    { key: 'user', icon: <UserOutlined />, label: user.name || user.username, disabled: true },
    ...(user.companys.length > 0
      ? [
          {
            key: 'company',
            icon: <BankOutlined />,
            label: t('layout.company.switch'),
            children: user.companys.map((c) => ({ key: `company:${c.id}`, label: c.name, disabled: c.id === user.company })),
          },
        ]
      : []),
    ...(showMessages
      ? [
          {
            key: 'messages',
            icon: <BellOutlined />,
            label: (
              <span data-testid="mobile-messages">
                {t('layout.messages')} <Badge count={unread} overflowCount={LIMITS.badgeCap} size="small" />
              </span>
            ),
          },
        ]
      : []),
    {
      key: 'language',
      icon: <TranslationOutlined />,
      label: t('layout.language'),
      children: LANGUAGES.map((l) => ({ key: `lang:${l}`, label: <span data-lang={l}>{LANGUAGE_LABEL[l]}</span> })),
    },
    {
      key: 'size',
      icon: <ColumnHeightOutlined />,
      label: t('layout.size.title'),
      children: SIZES.map((s) => ({ key: `size:${s}`, label: t(`layout.size.${s}`) })),
    },
    { key: 'fullscreen', icon: fullscreen.full ? <FullscreenExitOutlined /> : <FullscreenOutlined />, label: fullscreen.label },
    { key: 'settings', icon: <SettingOutlined />, label: t('layout.settings.title') },
    { type: 'divider' },
    ...avatar.items,
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const [kind, value] = key.split(':') as [string, string | undefined];
    if (kind === 'company' && value) switchCompany.mutate(Number(value));
    else if (kind === 'lang' && value) void setLanguage(value as Language);
    else if (kind === 'size' && value) updateSettings({ size: value as Size });
    else if (key === 'messages') void navigate('/message/message');
    else if (key === 'fullscreen') void fullscreen.toggle();
    else if (key === 'settings') onOpenSettings();
    else avatar.onClick(key);
  };

  return (
    <>
      <Dropdown trigger={['click']} placement="bottomRight" menu={{ items, onClick, selectable: true, selectedKeys: [`lang:${language}`, `size:${size}`] }}>
        <Button type="text" aria-label={t('layout.more')} icon={<MoreOutlined />} data-testid="navbar-more" />
      </Dropdown>
      {avatar.dialogs}
    </>
  );
}
