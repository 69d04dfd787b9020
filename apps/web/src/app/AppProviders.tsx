import { lazy, Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import type { Language } from '@faceadmin/shared';
import { useFeedbackHostWanted } from '../lib/feedback.ts';
import { useLanguage } from '../lib/i18n.ts';
import { useSettings } from '../lib/settings.ts';
import { readablePrimary } from '../ui/contrast.ts';
import { paletteVariables } from '../ui/palette.ts';
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

/**
 * The palette and the theme colour (in antd's readable shade) as CSS variables, for what is drawn without antd
 * (global.css's --fa-*), before the first paint.
 */
function usePaletteVariables(themeColor: string) {
  useLayoutEffect(() => {
    for (const [name, value] of Object.entries(paletteVariables(readablePrimary(themeColor)))) document.documentElement.style.setProperty(name, value);
  }, [themeColor]);
}

/** The console's providers. antd's (theme, locale, size, messages) wrap what antd draws: ui/AntdProviders.tsx. */
export function AppProviders() {
  const language = useLanguage();
  useRefetchOnLanguage(language);
  usePaletteVariables(useSettings().themeColor);
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
