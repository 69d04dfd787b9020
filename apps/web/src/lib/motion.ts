import { useMediaQuery } from './media.ts';

/**
 * The system's "reduce motion" setting, followed live. With it, antd's dialogs, drawers and menus open without zooming
 * or sliding (ui/AntdProviders), charts draw without growing into place (ui/EChart), and nothing loops (global.css).
 */
export const useReducedMotion = (): boolean => useMediaQuery('(prefers-reduced-motion: reduce)');
