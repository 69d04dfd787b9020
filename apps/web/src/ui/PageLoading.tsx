import { i18next } from '../lib/i18n.ts';

/**
 * A page (or the console's shell) on its way: a spinner in the theme's colour, named for screen readers. Drawn without
 * antd, so the sign-in page can show it before antd has come (#31's first load).
 */
export function PageLoading() {
  return (
    <div className="fa-page-loading" role="status">
      <span className="fa-spinner" aria-hidden />
      <span className="fa-sr-only">{i18next.t('common.loading')}</span>
    </div>
  );
}
