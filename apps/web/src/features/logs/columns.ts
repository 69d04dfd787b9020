import type { TFunction } from 'i18next';
import type { LogItem } from '@faceadmin/shared';
import { displayTimeZone, formatDateTime } from '../../ui/format.ts';
import type { ListColumn } from '../../ui/ListPage.tsx';
import { moduleLabel } from './moduleLabel.ts';

/** Operation-log columns of the log page and the dashboard's latest entries (which leave out the IP). */
export function logColumns(t: TFunction, { ip = true }: { ip?: boolean } = {}): ListColumn<LogItem>[] {
  return [
    // The zone is named where times are read against other clocks (issue #9 item 7).
    {
      title: `${t('log.fields.time')} (${displayTimeZone()})`,
      dataIndex: 'created_at',
      key: 'created_at',
      width: 200,
      render: (v: string) => formatDateTime(v),
    },
    { title: t('log.fields.admin'), dataIndex: 'admin_name', key: 'admin_name', width: 140 },
    { title: t('log.fields.module'), dataIndex: 'module', key: 'module', width: 140, render: (m: string) => moduleLabel(t, m) },
    { title: t('log.fields.description'), dataIndex: 'description', key: 'description' },
    ...(ip ? [{ title: t('log.fields.ip'), dataIndex: 'ip', key: 'ip', width: 140 }] : []),
  ];
}
