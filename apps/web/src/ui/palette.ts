/**
 * The console's text colours at WCAG AA, one place for both of the console's ways of drawing: antd's theme tokens
 * (ui/AntdProviders.tsx) and the CSS variables of what is drawn without antd (global.css's --fa-*, written by
 * app/AppProviders.tsx before the first paint).
 */
export const PALETTE = {
  /** antd's error red (#ff4d4f) is 3.3:1 on white; this one of the same hue 5.6:1 */
  danger: '#cf1322',
  /** placeholders and tertiary text (antd's: 1.8:1 and 3.4:1), 5.7:1 */
  muted: '#666666',
  /** antd's link blue (#1677ff) is 4.1:1 on white; one shade darker 6.2:1, hover and press darker still */
  link: '#0958d9',
  linkHover: '#003eb3',
  linkActive: '#002c8c',
  /** warning text: antd's gold is 1.9:1 on white, this 7.5:1 */
  warningText: '#874d00',
} as const;

/** The CSS variables global.css and the sign-in page's sheets read: the palette and the theme colour (`primary`). */
export function paletteVariables(primary: string): Record<string, string> {
  return {
    '--fa-primary': primary,
    '--fa-danger': PALETTE.danger,
    '--fa-muted': PALETTE.muted,
    '--fa-link': PALETTE.link,
    '--fa-link-hover': PALETTE.linkHover,
  };
}
