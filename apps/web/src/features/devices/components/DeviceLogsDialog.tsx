import { App, Button, Modal, Space, Table, Tag, Typography, type TableProps } from 'antd';
import { DownloadOutlined, FileSearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Device, LogCapture } from '@faceadmin/shared';
import { formatDateTime } from '../../../ui/format.ts';
import { downloadLog, useCaptureLog, useDeviceLogs } from '../api.ts';

interface Props {
  device: Device | undefined;
  canEdit: boolean;
  onClose: () => void;
}

const COLORS: Record<LogCapture['state'], string> = { pending: 'processing', done: 'success', failed: 'error' };

/** A terminal's own log files for support (issue #20): asked for, then downloadable; spec §8 "Log capture failed" when it cannot. */
export function DeviceLogsDialog({ device, canEdit, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const logs = useDeviceLogs(device?.id);
  const capture = useCaptureLog();
  // A Hikvision terminal is dialled: the server searches its log now instead of waiting for a poll.
  const dialled = device?.protocol === 'isapi';

  const doCapture = async () => {
    if (!device) return;
    try {
      await capture.mutateAsync(device.id);
      message.info(t(dialled ? 'device.fleet.captureSentIsapi' : 'device.fleet.captureSent'));
    } catch {
      // shown by the API client
    }
  };
  const doDownload = async (l: LogCapture) => {
    const base = (l.file_name.split('/').pop() || 'device.log').replace(/[^A-Za-z0-9._-]/g, '_');
    try {
      await downloadLog(l.id, `${device?.serial ?? 'device'}-${l.created_at.slice(0, 10)}-${base}`);
    } catch {
      // shown by the API client
    }
  };

  const columns: TableProps<LogCapture>['columns'] = [
    { title: t('device.fleet.askedAt'), dataIndex: 'created_at', key: 'created_at', render: (v: string) => formatDateTime(v) },
    {
      title: t('device.fleet.state'),
      key: 'state',
      render: (_, l) => (
        <Space orientation="vertical" size={2}>
          <Tag color={COLORS[l.state]} data-testid="log-state">
            {t(`device.fleet.logStates.${l.state}`)}
          </Tag>
          {l.reason && <Typography.Text type="danger">{l.reason}</Typography.Text>}
        </Space>
      ),
    },
    { title: t('device.fleet.file'), key: 'file', render: (_, l) => (l.state === 'done' ? `${l.file_name} (${(l.size / 1024).toFixed(1)} KB)` : '—') },
    {
      title: t('common.actions.title'),
      key: 'actions',
      render: (_, l) =>
        l.state === 'done' ? (
          <Button size="small" icon={<DownloadOutlined />} onClick={() => void doDownload(l)} data-testid="log-download">
            {t('device.fleet.download')}
          </Button>
        ) : null,
    },
  ];

  return (
    <Modal
      open={Boolean(device)}
      title={t('device.fleet.logsTitle', { name: device?.name ?? '' })}
      onCancel={onClose}
      footer={null}
      width={760}
      destroyOnHidden
      data-testid="device-logs-dialog"
    >
      <Space style={{ marginBottom: 12 }}>
        {canEdit && (
          <Button type="primary" icon={<FileSearchOutlined />} loading={capture.isPending} onClick={() => void doCapture()} data-testid="log-capture">
            {t('device.fleet.capture')}
          </Button>
        )}
        <Typography.Text type="secondary">{t(dialled ? 'device.fleet.captureHintIsapi' : 'device.fleet.captureHint')}</Typography.Text>
      </Space>
      <Table<LogCapture>
        rowKey="id"
        size="small"
        loading={logs.isLoading}
        dataSource={logs.data ?? []}
        columns={columns}
        pagination={{ pageSize: 10 }}
        data-testid="log-table"
      />
    </Modal>
  );
}
