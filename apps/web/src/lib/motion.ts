import { useSyncExternalStore } from 'react';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
// module-level, so React subscribes once rather than again at every render
const onReducedMotionChange = (changed: () => void) => {
  const query = window.matchMedia?.(REDUCED_MOTION);
  query?.addEventListener('change', changed);
  return () => query?.removeEventListener('change', changed);
};
const prefersReducedMotion = () => !!window.matchMedia?.(REDUCED_MOTION).matches;

/**
 * The system's "reduce motion" setting, followed live. With it, antd's dialogs, drawers and menus open without zooming
 * or sliding (AppProviders), charts draw without growing into place (ui/EChart), and nothing loops (global.css).
 */
export const useReducedMotion = (): boolean => useSyncExternalStore(onReducedMotionChange, prefersReducedMotion);
