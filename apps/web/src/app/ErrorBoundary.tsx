import { Component, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { useRouteError } from 'react-router';
import { Button, Result } from 'antd';
import { i18next } from '../lib/i18n.ts';
import { reportClientError } from '../lib/clientErrors.ts';

interface State {
  failed: boolean;
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
 * screen, and the error (with React's component stack) is reported to the server (spec §8).
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    reportClientError('render', error, info.componentStack ?? undefined);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return <Failed />;
  }
}

/** The router's own error element (the shell itself failed): reported like a page, with the same reload offer. */
export function RouteError(): ReactNode {
  const error = useRouteError();
  useEffect(() => reportClientError('render', error), [error]);
  return <Failed />;
}
