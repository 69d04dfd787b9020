import { useSyncExternalStore } from 'react';

/** One subscription per media query, made once: React subscribes again whenever the function it is given changes. */
const subscriptions = new Map<string, (changed: () => void) => () => void>();
function subscribe(query: string) {
  let on = subscriptions.get(query);
  if (!on) {
    on = (changed) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener('change', changed);
      return () => list?.removeEventListener('change', changed);
    };
    subscriptions.set(query, on);
  }
  return on;
}

/**
 * Whether a CSS media query matches, followed live: a hook follows the same breakpoints as the stylesheets (a layout
 * switch in CSS and the component that sizes for it change together). False where the browser has no matchMedia.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(subscribe(query), () => !!window.matchMedia?.(query).matches);
}
