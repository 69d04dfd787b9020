import { Component, useCallback, useEffect, useState, type ErrorInfo, type ReactNode } from 'react';
import { useRouteError } from 'react-router';
import { i18next } from '../lib/i18n.ts';
import { reportClientError } from '../lib/clientErrors.ts';
import { isChunkLoadError, reloadForNewBuild, STILL_HERE_MS } from '../lib/staleBuild.ts';
import { PageLoading } from '../ui/PageLoading.tsx';

/**
 * The screen shown instead of what failed: "something went wrong", translated, and a reload button. Drawn without antd,
 * as antd's Result: whatever failed (antd's own chunk included) cannot take it down too.
 */
function Failed(): ReactNode {
  return (
    <div className="fa-failed" role="alert" data-testid="render-error">
      <svg className="fa-failed-icon" viewBox="0 0 24 24" aria-hidden>
        <circle cx="12" cy="12" r="12" />
        <path d="M8 8l8 8M16 8l-8 8" />
      </svg>
      <h1 className="fa-failed-title">{i18next.t('clientError.boundary.title')}</h1>
      <p className="fa-failed-text">{i18next.t('clientError.boundary.text')}</p>
      <button type="button" className="fa-button-primary" onClick={() => location.reload()}>
        {i18next.t('clientError.boundary.reload')}
      </button>
    </div>
  );
}

/**
 * What shows instead of what failed: the page loading while it reloads for a new build (a chunk of an older build did
 * not load: lib/staleBuild.ts), else "something went wrong", reported once shown. A reload that was cancelled ("leave
 * this page?") leaves the page here: after STILL_HERE_MS it shows the failure too.
 */
function Fallback({ error, report }: { error: unknown; report: () => void }): ReactNode {
  // decided once (reloadForNewBuild answers the same page load the same way, however often React calls this)
  const [reloadAsked] = useState(() => isChunkLoadError(error) && reloadForNewBuild());
  const [stillHere, setStillHere] = useState(false);
  const reloading = reloadAsked && !stillHere;
  useEffect(() => {
    if (!reloading) return report();
    const timer = setTimeout(() => setStillHere(true), STILL_HERE_MS);
    return () => clearTimeout(timer);
  }, [reloading, report]);
  return reloading ? <PageLoading /> : <Failed />;
}

/**
 * A page that fails to render shows a translated "something went wrong" with a reload button instead of a blank
 * screen, and the error (with React's component stack) is reported to the server (spec §8). A page whose chunk is of
 * an older build reloads instead, once (Fallback).
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error?: { thrown: unknown } }> {
  override state: { error?: { thrown: unknown } } = {};
  /** set when React calls componentDidCatch, before the fallback's effect reports */
  private componentStack: string | undefined;

  static getDerivedStateFromError(thrown: unknown) {
    return { error: { thrown } };
  }

  override componentDidCatch(_error: unknown, info: ErrorInfo): void {
    this.componentStack = info.componentStack ?? undefined;
  }

  private readonly report = () => reportClientError('render', this.state.error?.thrown, this.componentStack);

  override render(): ReactNode {
    const { error } = this.state;
    return error ? <Fallback error={error.thrown} report={this.report} /> : this.props.children;
  }
}

/** The router's own error element (the shell itself failed): reported like a page, with the same reload offer. */
export function RouteError(): ReactNode {
  const error = useRouteError();
  const report = useCallback(() => reportClientError('render', error), [error]);
  return <Fallback error={error} report={report} />;
}
