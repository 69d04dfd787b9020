import type { TableProps } from 'antd';
import type { TFunction } from 'i18next';
import type { LogItem } from '@faceadmin/shared';
import { formatDateTime } from '../../ui/format.ts';
import { moduleLabel } from './moduleLabel.ts';

/** Operation-log columns of the log page and the dashboard's latest entries (which leave out the IP). */
export function logColumns(t: TFunction, { ip = true }: { ip?: boolean } = {}): NonNullable<TableProps<LogItem>['columns']> {
  return [
    { title: t('log.fields.time'), dataIndex: 'created_at', width: 180, render: (v: string) => formatDateTime(v) },
    { title: t('log.fields.admin'), dataIndex: 'admin_name', width: 140 },
    { title: t('log.fields.module'), dataIndex: 'module', width: 140, render: (m: string) => moduleLabel(t, m) },
    { title: t('log.fields.description'), dataIndex: 'description' },
    ...(ip ? [{ title: t('log.fields.ip'), dataIndex: 'ip', width: 140 }] : []),
  ];
}
