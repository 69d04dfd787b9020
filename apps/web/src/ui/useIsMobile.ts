import { useEffect, useState } from 'react';
import { LIMITS } from '@faceadmin/shared';

const isMobileWidth = () => window.innerWidth < LIMITS.mobileWidth;

/** spec §2: below 992 px the layout switches to mobile mode. */
export function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(isMobileWidth);
  useEffect(() => {
    const onResize = () => setMobile(isMobileWidth());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return mobile;
}
