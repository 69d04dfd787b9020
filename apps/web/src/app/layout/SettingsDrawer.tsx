import { Drawer, Flex, Switch, Typography } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { THEME_COLORS } from '@faceadmin/shared';
import { updateSettings, useSettings } from '../../lib/settings.ts';

type BoolSetting = 'tagsView' | 'fixedHeader' | 'sidebarLogo';
const SWITCHES: BoolSetting[] = ['tagsView', 'fixedHeader', 'sidebarLogo'];

/** spec §2 settings panel; every choice persists (settings store). */
export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const settings = useSettings();
  return (
    <Drawer title={t('layout.settings.title')} open={open} onClose={onClose} size={300}>
      <Typography.Text strong>{t('layout.settings.themeColor')}</Typography.Text>
      <Flex wrap gap={8} style={{ margin: '12px 0 24px' }}>
        {THEME_COLORS.map((c) => (
          <button
            key={c}
            type="button"
            aria-label={c}
            onClick={() => updateSettings({ themeColor: c })}
            style={{
              width: 28,
              height: 28,
              borderRadius: 4,
              border: 'none',
              cursor: 'pointer',
              background: c,
              color: '#fff',
            }}
          >
            {settings.themeColor === c ? <CheckOutlined /> : null}
          </button>
        ))}
      </Flex>
      {SWITCHES.map((key) => (
        <Flex key={key} justify="space-between" align="center" style={{ marginBottom: 16 }}>
          <span>{t(`layout.settings.${key}`)}</span>
          <Switch checked={settings[key]} onChange={(v) => updateSettings({ [key]: v })} />
        </Flex>
      ))}
    </Drawer>
  );
}
