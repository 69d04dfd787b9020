import { Alert, Button, Result } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

interface Props {
  /** The failure to explain (the API client's message: the server's, or network / timeout). */
  error: Error;
  /** Loads again (a query's refetch). */
  onRetry: () => unknown;
  retrying?: boolean;
  /**
   * Earlier data is still on screen (a refresh failed): a one-line notice above it instead of a page-sized
   * state, so what was loaded stays readable.
   */
  compact?: boolean;
}

/**
 * What a page or table shows when its data could not be loaded: the reason and a Retry button, in place of an
 * empty list that would read as "there is nothing". It is the one message for that failure (issue #9 item 15):
 * the query asks the API client not to toast it too (`inline`).
 */
export function ErrorState({ error, onRetry, retrying, compact }: Props) {
  const { t } = useTranslation();
  const retry = (
    <Button size={compact ? 'small' : undefined} icon={<ReloadOutlined />} loading={retrying} onClick={() => void onRetry()} data-testid="error-retry">
      {t('common.actions.retry')}
    </Button>
  );
  if (compact) {
    return (
      <Alert
        type="warning"
        showIcon
        title={t('common.refreshFailed', { reason: error.message })}
        action={retry}
        style={{ marginBottom: 12 }}
        data-testid="error-state"
      />
    );
  }
  return <Result status="warning" title={t('common.loadFailed')} subTitle={error.message} extra={retry} data-testid="error-state" />;
}
