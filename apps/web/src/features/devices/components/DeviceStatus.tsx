import { Badge, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../ui/format.ts';
import { syncText } from '../logic.ts';
import type { Device, LedgerState, OpenStatus } from '@faceadmin/shared';

/** spec §4: online or offline, with the last time the device was heard from when known. */
export function OnlineBadge({ device }: { device: Pick<Device, 'online'> & Partial<Pick<Device, 'last_seen_at'>> }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size={0}>
      <Badge
        status={device.online ? 'success' : 'default'}
        text={device.online ? t('device.online.on') : t('device.online.off')}
        data-testid="device-online"
        data-online={device.online ? '1' : '0'}
      />
      {device.last_seen_at && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('device.lastSeen', { time: formatDateTime(device.last_seen_at) })}
        </Typography.Text>
      )}
    </Space>
  );
}

/** People on the terminal / its capacity, as the terminal last reported (and when: the tooltip). */
export function UserCount({ device }: { device: Pick<Device, 'user_count' | 'user_count_at' | 'capacity'> }) {
  const { t } = useTranslation();
  const read = device.user_count_at;
  return (
    <Tooltip title={read ? t('device.usersReadAt', { time: formatDateTime(read) }) : t('device.usersNotRead')}>
      <span data-testid="device-users" data-read={read ? '1' : '0'}>{`${read ? device.user_count : '–'} / ${device.capacity}`}</span>
    </Tooltip>
  );
}

const OPEN_COLOR: Record<OpenStatus, string> = { open: 'green', close: 'default', unknown: 'default', success: 'green', failure: 'red' };

export function OpenStatusTag({ value }: { value: OpenStatus }) {
  const { t } = useTranslation();
  return <Tag color={OPEN_COLOR[value] ?? 'default'}>{t(`device.openStatus.${value}`)}</Tag>;
}

export function StateTag({ value }: { value: string }) {
  const { t } = useTranslation();
  return <Tag color={value === 'abnormal' ? 'red' : 'green'}>{t(value === 'abnormal' ? 'device.state.abnormal' : 'device.state.normal')}</Tag>;
}

/** "synced/total", failures in red, pending in blue. */
export function SyncSummaryText({ sync }: { sync: Device['sync'] }) {
  const { t } = useTranslation();
  const s = syncText(sync);
  return (
    <Space size={6} data-testid="device-sync">
      <span>{s.text}</span>
      {s.failed > 0 && <Typography.Text type="danger">{t('device.syncFailed', { count: s.failed })}</Typography.Text>}
      {s.pending > 0 && <Typography.Text style={{ color: '#0958d9' }}>{t('device.syncPending', { count: s.pending })}</Typography.Text>}
    </Space>
  );
}

const LEDGER_COLOR: Record<LedgerState, string> = { pending: 'processing', synced: 'success', failed: 'error' };

export function LedgerStateTag({ value }: { value: LedgerState }) {
  const { t } = useTranslation();
  return (
    <Tag color={LEDGER_COLOR[value]} data-testid="ledger-state" data-state={value}>
      {t(`device.ledger.states.${value}`)}
    </Tag>
  );
}
