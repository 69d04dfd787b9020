import { useState } from 'react';
import { Card, Select, Tag, Typography, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALARM_TYPES, type AlarmListQuery, type AlarmType, type BreakerAlarm } from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { pagination, type PagedQuery } from '../../../ui/paging.ts';
import { useAlarms } from '../api.ts';

const UNIT: Record<AlarmType, string> = { overcurrent: 'A', overpower: 'W', leakage: 'mA', overtemp: '°C', offline: '' };

/** Alarm history of one breaker or one line, newest first, paged (docs/api-breakers.md /breaker/alarm/list). */
export function AlarmTable({ breakerId, lineId }: { breakerId?: number; lineId?: number }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState<PagedQuery<AlarmListQuery>>({
    page: 1,
    pageSize: 10,
    ...(breakerId ? { breaker_id: breakerId } : {}),
    ...(lineId ? { line_id: lineId } : {}),
  });
  const alarms = useAlarms(query, Boolean(breakerId || lineId));
  const columns: TableProps<BreakerAlarm>['columns'] = [
    { title: t('breaker.alarm.at'), key: 'at', render: (_, a) => formatDateTime(a.at) },
    {
      title: t('breaker.alarm.type'),
      key: 'type',
      render: (_, a) => (
        <Tag color={a.type === 'offline' ? 'default' : 'red'} data-testid="alarm-type" data-alarm={a.type}>
          {t(`breaker.alarmTypes.${a.type}`)}
        </Tag>
      ),
    },
    ...(lineId ? [] : [{ title: t('breaker.alarm.line'), key: 'line', render: (_: unknown, a: BreakerAlarm) => a.line_title || '—' }]),
    { title: t('breaker.alarm.value'), key: 'value', render: (_, a) => (a.value === null ? '—' : `${a.value} ${UNIT[a.type]}`) },
    {
      title: t('breaker.alarm.cleared'),
      key: 'cleared',
      render: (_, a) =>
        a.cleared_at ? (
          formatDateTime(a.cleared_at)
        ) : (
          <Typography.Text type="danger" data-testid="alarm-active">
            {t('breaker.alarm.active')}
          </Typography.Text>
        ),
    },
  ];
  return (
    <Card
      size="small"
      title={t('breaker.alarm.title')}
      data-testid="alarm-panel"
      extra={
        <Select<AlarmType>
          allowClear
          size="small"
          placeholder={t('breaker.alarm.type')}
          aria-label={t('breaker.alarm.type')}
          style={{ width: 150 }}
          options={ALARM_TYPES.filter((x) => !lineId || x !== 'offline').map((x) => ({ value: x, label: t(`breaker.alarmTypes.${x}`) }))}
          onChange={(type?: AlarmType) => setQuery((q) => ({ ...q, page: 1, type }))}
        />
      }
    >
      <DataTable<BreakerAlarm>
        rowKey="id"
        cardTitle="at"
        size="small"
        loading={alarms.isLoading}
        error={alarms.error}
        onRetry={alarms.refetch}
        retrying={alarms.isFetching}
        dataSource={alarms.data?.items ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="alarm-table"
        pagination={pagination(query, setQuery, alarms.data?.total, t)}
      />
    </Card>
  );
}
