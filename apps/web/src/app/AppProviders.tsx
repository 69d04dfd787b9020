import { lazy, Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import type { Language } from '@faceadmin/shared';
import { useFeedbackHostWanted } from '../lib/feedback.ts';
import { useLanguage } from '../lib/i18n.ts';
import { useSettings } from '../lib/settings.ts';
import { readablePrimary } from '../ui/contrast.ts';
import { router } from './routes/router.tsx';

// The antd App that lib/feedback.ts shows toasts and dialogs through, beside the router so they outlive any page; it
// comes with antd (the sign-in page goes without: #31's first load).
const FeedbackHost = lazy(() => import('../ui/AntdProviders.tsx').then((m) => ({ default: m.FeedbackHost })));

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
  },
});

/**
 * The server renders log descriptions and messages in the X-Lang of each request, so cached answers
 * are in the old language after a switch: refetch them.
 */
function useRefetchOnLanguage(language: Language) {
  const previous = useRef(language);
  useEffect(() => {
    if (language === previous.current) return;
    previous.current = language;
    void queryClient.invalidateQueries();
  }, [language]);
}

/** The theme colour for what is drawn without antd (global.css's --fa-primary), in antd's readable shade, before the first paint. */
function useThemeColorVariable(themeColor: string) {
  useLayoutEffect(() => {
    document.documentElement.style.setProperty('--fa-primary', readablePrimary(themeColor));
  }, [themeColor]);
}

/** The console's providers. antd's (theme, locale, size, messages) wrap what antd draws: ui/AntdProviders.tsx. */
export function AppProviders() {
  const language = useLanguage();
  useRefetchOnLanguage(language);
  useThemeColorVariable(useSettings().themeColor);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {useFeedbackHostWanted() && (
        <Suspense fallback={null}>
          <FeedbackHost />
        </Suspense>
      )}
    </QueryClientProvider>
  );
}
