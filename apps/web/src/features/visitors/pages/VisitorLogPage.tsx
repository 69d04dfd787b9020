import { useState } from 'react';
import { Card, Image, Select, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { VISIT_OPEN_STATES, type VisitLogQuery, type VisitRecord } from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';
import { DayRangeFilter } from '../../../ui/DayRangeFilter.tsx';
import { ExportButton } from '../../../ui/ExportButton.tsx';
import { KeywordSearch } from '../../../ui/KeywordSearch.tsx';
import { pagination, type PagedQuery } from '../../../ui/paging.ts';
import { useExportVisits, useVisitLog, useVisitorDoors } from '../api.ts';

/**
 * /system/visitorlog (spec §2, not in LAN mode; §3 "Visitor log": inviter, open time, open status): each time a door
 * let a visitor in (success) or refused them (failure), with the capture photo; filters and export.
 */
export default function VisitorLogPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<PagedQuery<VisitLogQuery>>({ page: 1, pageSize: 20 });
  const log = useVisitLog(query);
  const doors = useVisitorDoors();
  const exportLog = useExportVisits();
  const { page: _page, pageSize: _size, ...filters } = query;

  const columns = [
    { title: t('visitor.fields.inviter'), dataIndex: 'inviter', key: 'inviter' },
    { title: t('visitor.fields.visitor'), dataIndex: 'visitor', key: 'visitor' },
    { title: t('visitor.fields.phone'), dataIndex: 'phone', key: 'phone' },
    { title: t('visitor.fields.door'), dataIndex: 'door', key: 'door' },
    { title: t('visitor.fields.openTime'), dataIndex: 'time', key: 'time' },
    {
      title: t('visitor.fields.openStatus'),
      key: 'status',
      render: (_: unknown, v: VisitRecord) => (
        <Tag color={v.status === 'success' ? 'green' : 'red'} data-testid="visit-status">
          {t(`visitor.open.${v.status}`)}
        </Tag>
      ),
    },
    {
      title: t('visitor.fields.photo'),
      key: 'photo',
      render: (_: unknown, v: VisitRecord) =>
        v.pic_url ? <Image src={v.pic_url} width={48} height={64} style={{ objectFit: 'cover' }} alt={v.visitor} data-testid="visit-photo" /> : null,
    },
  ];

  return (
    <Card title={t('route.visitorLog')} data-testid="visitor-log-page">
      <Space wrap style={{ marginBottom: 16 }}>
        <DayRangeFilter onChange={(range) => setQuery((q) => ({ ...q, page: 1, ...range }))} testId="visit-range" />
        <KeywordSearch placeholder={t('visitor.logKeyword')} width={220} onSearch={(keyword) => setQuery((q) => ({ ...q, page: 1, keyword }))} />
        <Select
          allowClear
          placeholder={t('visitor.fields.door')}
          aria-label={t('visitor.fields.door')}
          style={{ width: 180 }}
          options={(doors.data?.items ?? []).map((d) => ({ value: d.id, label: d.name }))}
          onChange={(device_id?: number) => setQuery((q) => ({ ...q, page: 1, device_id }))}
          data-testid="visit-door-filter"
        />
        <Select
          allowClear
          placeholder={t('visitor.fields.openStatus')}
          aria-label={t('visitor.fields.openStatus')}
          style={{ width: 150 }}
          options={VISIT_OPEN_STATES.map((s) => ({ value: s, label: t(`visitor.open.${s}`) }))}
          onChange={(status?: VisitRecord['status']) => setQuery((q) => ({ ...q, page: 1, status }))}
          data-testid="visit-status-filter"
        />
        <ExportButton pending={exportLog.isPending} bytes={exportLog.bytes} onClick={() => exportLog.mutate(filters)} testId="visit-export" />
      </Space>
      <DataTable<VisitRecord>
        rowKey="id"
        loading={log.isFetching}
        error={log.error}
        onRetry={log.refetch}
        cardTitle="visitor"
        dataSource={log.data?.items ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        pagination={pagination(query, setQuery, log.data?.total, t)}
        data-testid="visit-table"
      />
    </Card>
  );
}
