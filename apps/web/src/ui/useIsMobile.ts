import { LIMITS } from '@faceadmin/shared';
import { useMediaQuery } from '../lib/media.ts';

/** spec §2: below 992 px the layout switches to mobile mode (the viewport's width, as `window.innerWidth` counts it). */
const MOBILE = `(max-width: ${LIMITS.mobileWidth - 0.02}px)`;

export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE);
}
