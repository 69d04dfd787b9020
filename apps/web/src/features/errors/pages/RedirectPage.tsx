import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** /redirect/<path>: the tag view's "refresh" comes here and goes straight back, remounting the page. */
export default function RedirectPage() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const target = location.pathname.replace(/^\/redirect/, '') || '/';
    void navigate(target + location.search, { replace: true });
  }, [location, navigate]);
  return null;
}
