import { Button, Dropdown, Tooltip } from 'antd';
import { ColumnHeightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SIZES, type Size } from '@faceadmin/shared';
import { updateSettings, useSettings } from '../../lib/settings.ts';

export function SizeSelect() {
  const { t } = useTranslation();
  const { size } = useSettings();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZES.map((s) => ({ key: s, label: t(`layout.size.${s}`) })),
        onClick: ({ key }) => updateSettings({ size: key as Size }),
      }}
    >
      <Tooltip title={t('layout.size.title')}>
        <Button type="text" aria-label={t('layout.size.title')} icon={<ColumnHeightOutlined />} />
      </Tooltip>
    </Dropdown>
  );
}
