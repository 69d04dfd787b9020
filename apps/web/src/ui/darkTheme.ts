import { theme, type ThemeConfig } from 'antd';

/**
 * The watchers' dark screens (guard desk, dormitory board, big screen, spot consoles): antd's dark algorithm, with the
 * muted text the console darkens for white (AntdProviders) made light again for black: 5.1–5.7:1 on the dark panels
 * (WCAG AA), where the inherited grey was 4.0:1.
 */
export const DARK_THEME: ThemeConfig = {
  algorithm: theme.darkAlgorithm,
  // and what the console darkens for white (links, warning text) light for black: 7–13:1 on the dark panels
  token: {
    colorTextPlaceholder: '#8f8f8f',
    colorTextTertiary: '#8f8f8f',
    colorLink: '#69b1ff',
    colorLinkHover: '#91caff',
    colorLinkActive: '#4096ff',
    colorWarningText: '#ffd666',
  },
};
