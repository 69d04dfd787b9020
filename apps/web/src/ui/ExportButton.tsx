import { Button, Space, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { receivedSize } from './format.ts';

/** Export with its progress: while the workbook streams in (its length is not known ahead), the size received so far. */
export function ExportButton(props: { pending: boolean; bytes: number; onClick: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Space>
      <Button icon={<DownloadOutlined />} loading={props.pending} onClick={props.onClick} data-testid={props.testId}>
        {t('common.export')}
      </Button>
      {props.pending && (
        <Typography.Text type="secondary" data-testid={`${props.testId}-progress`}>
          {t('common.exporting', { size: receivedSize(props.bytes) })}
        </Typography.Text>
      )}
    </Space>
  );
}
