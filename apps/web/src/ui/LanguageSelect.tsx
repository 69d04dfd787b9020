import { Button, Dropdown } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@faceadmin/shared';
import { setLanguage, useLanguage } from '../lib/i18n.ts';
import { LANGUAGE_LABEL } from '../lib/languages.ts';

/** Switches the interface, antd and dayjs languages together; the choice is saved (spec §1). */
export function LanguageSelect() {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: LANGUAGES.map((l) => ({ key: l, label: <span data-lang={l}>{LANGUAGE_LABEL[l]}</span> })),
        onClick: ({ key }) => void setLanguage(key as Language),
      }}
    >
      <Button type="text" aria-label={t('layout.language')} data-testid="language-select" icon={<TranslationOutlined />} />
    </Dropdown>
  );
}
