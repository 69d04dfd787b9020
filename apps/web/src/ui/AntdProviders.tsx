import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import type { ConfigProviderProps } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import zhTW from 'antd/locale/zh_TW';
import enUS from 'antd/locale/en_US';
import jaJP from 'antd/locale/ja_JP';
import type { Language, Size } from '@faceadmin/shared';
import { useAntdStylesheet } from '../lib/antdStyles.ts';
import { registerFeedback, wantFeedbackHost } from '../lib/feedback.ts';
import { takeFlash } from '../lib/flash.ts';
import { i18next, useLanguage } from '../lib/i18n.ts';
import { useReducedMotion } from '../lib/motion.ts';
import { useSettings } from '../lib/settings.ts';
import { readablePrimary } from './contrast.ts';
import { PALETTE } from './palette.ts';

const ANTD_LOCALE: Record<Language, NonNullable<ConfigProviderProps['locale']>> = { 'zh-CN': zhCN, zh_tw: zhTW, 'en-US': enUS, ja: jaJP };

// spec §9 sizes default/medium/small/mini mapped onto antd's three sizes; mini adds the compact algorithm.
// antd 6 spells the middle size 'medium': its Table reads the legacy 'middle' as large, so "Medium" tables had
// the default's padding and pages that fixed their tables at middle looked the same in "Small" (issue #9).
// Tables take the size from here; a page never fixes it.
const COMPONENT_SIZE: Record<Size, 'large' | 'medium' | 'small'> = {
  default: 'large',
  medium: 'medium',
  small: 'small',
  mini: 'small',
};

/** Hands the host's context-aware message/modal to lib/feedback.ts, and shows a message left for after a reload (flash.ts). */
function FeedbackBridge() {
  const { message, modal } = AntApp.useApp();
  useEffect(() => registerFeedback({ message, modal }), [message, modal]); // unregistered with the tree
  useEffect(() => {
    const key = takeFlash();
    if (key) void message.success(i18next.t(key));
  }, [message]);
  return null;
}

/**
 * antd's theme, locale, size and App (its message and dialogs for the pages' own use) around what antd draws: the
 * signed-in shell and the pages outside it. A chunk of its own, so the sign-in page, drawn without antd, goes without it
 * (#31's first load). With it, the feedback host comes too (lib/feedback.ts).
 */
export default function AntdProviders({ children }: { children: ReactNode }) {
  useEffect(wantFeedbackHost, []);
  return <AntdConfig app={<AntApp style={{ height: '100%' }}>{children}</AntApp>} />;
}

/**
 * The App whose message and dialogs lib/feedback.ts shows (the API client's errors, the sign-in-again dialog, the
 * guard's): mounted once beside the router (app/AppProviders.tsx), so they outlive any page. No element of its own.
 */
export function FeedbackHost() {
  return (
    <AntdConfig
      app={
        <AntApp component={false}>
          <FeedbackBridge />
        </AntApp>
      }
    />
  );
}

/** antd's ConfigProvider as the console sets it (settings, language, contrast, motion) around `app`. */
function AntdConfig({ app }: { app: ReactNode }) {
  const language = useLanguage();
  const settings = useSettings();
  const reducedMotion = useReducedMotion();
  const stylesheet = useAntdStylesheet();
  return (
    <ConfigProvider
      locale={ANTD_LOCALE[language]}
      componentSize={COMPONENT_SIZE[settings.size]}
      // antd puts a space between a button's two CJK characters ("保 存"); the console's labels are written as they read
      button={{ autoInsertSpace: false }}
      theme={{
        // WCAG AA asks 4.5:1 for text, on white and on a hovered row's grey (#fafafa): the palette's colours (ui/palette.ts);
        // the theme colour is used in a shade white text on it reads (readablePrimary)
        token: {
          colorPrimary: readablePrimary(settings.themeColor),
          colorError: PALETTE.danger,
          colorTextPlaceholder: PALETTE.muted,
          colorTextTertiary: PALETTE.muted,
          colorLink: PALETTE.link,
          colorLinkHover: PALETTE.linkHover,
          colorLinkActive: PALETTE.linkActive,
          colorWarningText: PALETTE.warningText, // Typography type="warning"
          motion: !reducedMotion,
        },
        // antd's component styles come from antd/dist/antd.css once the signed-in shell has brought it
        // (lib/antdStyles.ts) instead of being generated in the browser on each component's first render: about a
        // tenth less of the browser's CPU for a sign-in and a tour of eleven pages, the same pixels (theme colour, mini
        // size, dark screens, phone width compared screen by screen); the CSS variables of each theme are still
        // written at run time. Before it, the sign-in page's few components write their own.
        zeroRuntime: stylesheet,
        algorithm: settings.size === 'mini' ? [theme.defaultAlgorithm, theme.compactAlgorithm] : theme.defaultAlgorithm,
      }}
    >
      {app}
    </ConfigProvider>
  );
}
