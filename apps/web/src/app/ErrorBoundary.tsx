import { Component, useEffect, useState, type ErrorInfo, type ReactNode } from 'react';
import { useRouteError } from 'react-router';
import { Button, Result } from 'antd';
import { i18next } from '../lib/i18n.ts';
import { reportClientError } from '../lib/clientErrors.ts';
import { isChunkLoadError, reloadForNewBuild, STILL_HERE_MS } from '../lib/staleBuild.ts';
import { PageLoading } from '../ui/PageLoading.tsx';

interface State {
  failed: boolean;
  /** a chunk of an older build did not load: the page is reloading (lib/staleBuild.ts) */
  reloading: boolean;
}

/** The screen shown instead of what failed: "something went wrong", translated, and a reload button. */
function Failed(): ReactNode {
  return (
    <Result
      status="error"
      title={i18next.t('clientError.boundary.title')}
      subTitle={i18next.t('clientError.boundary.text')}
      extra={
        <Button type="primary" onClick={() => location.reload()}>
          {i18next.t('clientError.boundary.reload')}
        </Button>
      }
      data-testid="render-error"
    />
  );
}

/**
 * A page that fails to render shows a translated "something went wrong" with a reload button instead of a blank
 * screen, and the error (with React's component stack) is reported to the server (spec §8). A page whose chunk is of
 * an older build reloads instead, once (lib/staleBuild.ts).
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false, reloading: false };

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, reloading: isChunkLoadError(error) };
  }

  private stillHere: ReturnType<typeof setTimeout> | undefined;

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    const failed = () => {
      this.setState({ reloading: false });
      reportClientError('render', error, info.componentStack ?? undefined);
    };
    if (isChunkLoadError(error) && reloadForNewBuild()) this.stillHere = setTimeout(failed, STILL_HERE_MS);
    else failed();
  }

  override componentWillUnmount(): void {
    clearTimeout(this.stillHere);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return this.state.reloading ? <PageLoading /> : <Failed />;
  }
}

/** The router's own error element (the shell itself failed): reported like a page, with the same reload offer. */
export function RouteError(): ReactNode {
  const error = useRouteError();
  // decided once (reloadForNewBuild answers the same page the same way, however often React calls this)
  const [reloadAsked] = useState(() => isChunkLoadError(error) && reloadForNewBuild());
  const [stillHere, setStillHere] = useState(false);
  const reloading = reloadAsked && !stillHere;
  useEffect(() => {
    if (!reloading) {
      reportClientError('render', error);
      return;
    }
    const timer = setTimeout(() => setStillHere(true), STILL_HERE_MS);
    return () => clearTimeout(timer);
  }, [error, reloading]);
  return reloading ? <PageLoading /> : <Failed />;
}
