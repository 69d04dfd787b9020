import type { TableProps } from 'antd';
import type { TFunction } from 'i18next';
import type { LogItem } from '@faceadmin/shared';
import { displayTimeZone, formatDateTime } from '../../ui/format.ts';
import { moduleLabel } from './moduleLabel.ts';

/** Operation-log columns of the log page and the dashboard's latest entries (which leave out the IP). */
export function logColumns(t: TFunction, { ip = true }: { ip?: boolean } = {}): NonNullable<TableProps<LogItem>['columns']> {
  return [
    // The zone is named where times are read against other clocks (issue #9 item 7).
    { title: `${t('log.fields.time')} (${displayTimeZone()})`, dataIndex: 'created_at', width: 200, render: (v: string) => formatDateTime(v) },
    { title: t('log.fields.admin'), dataIndex: 'admin_name', width: 140 },
    { title: t('log.fields.module'), dataIndex: 'module', width: 140, render: (m: string) => moduleLabel(t, m) },
    { title: t('log.fields.description'), dataIndex: 'description' },
    ...(ip ? [{ title: t('log.fields.ip'), dataIndex: 'ip', width: 140 }] : []),
  ];
}
