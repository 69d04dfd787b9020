import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageLoading } from '../../../ui/PageLoading.tsx';
import { setToken } from '../../../lib/token.ts';
import { safeRedirect } from '../../../lib/safeRedirect.ts';

/** /auth-redirect?token=…&redirect=…: signs in with a token handed over by another system. */
export default function AuthRedirectPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const token = params.get('token');
    if (token) setToken(token);
    void navigate(token ? safeRedirect(params.get('redirect')) : '/login', { replace: true });
  }, [params, navigate]);
  return <PageLoading />;
}
