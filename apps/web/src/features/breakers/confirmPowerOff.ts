import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../lib/i18n.ts';
import { LOCALE_FOLDER } from '../../lib/languages.ts';
import { powerOffText, type PowerOff } from './logic.ts';

export type { PowerOff };

/**
 * The one confirmation before power is cut (line switch, consoles, timers): `ask(p, onOk)` opens it; Cancel leaves
 * everything as it was. The OK button is `power-off-ok`, Cancel `power-off-cancel` (journeys).
 */
export function useConfirmPowerOff() {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  const lang = useLanguage();
  return (p: PowerOff, onOk: () => unknown, onCancel?: () => void) => {
    const text = powerOffText(t, LOCALE_FOLDER[lang], p);
    modal.confirm({
      title: text.title,
      content: text.content,
      okText: text.ok,
      okButtonProps: { danger: true, ...({ 'data-testid': 'power-off-ok' } as Record<string, string>) },
      cancelText: t('common.actions.cancel'),
      cancelButtonProps: { ...({ 'data-testid': 'power-off-cancel' } as Record<string, string>) },
      className: 'fa-power-off-confirm',
      onOk: async () => {
        await onOk();
      },
      ...(onCancel ? { onCancel } : {}),
    });
  };
}
