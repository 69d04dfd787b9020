import { useState } from 'react';
import { Card, Select, Space, Tag, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AlcoholRecord } from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';
import { KeywordSearch } from '../../../ui/KeywordSearch.tsx';
import { pagination, type PagedQuery } from '../../../ui/paging.ts';
import { DeviceFilter } from '../../devices/components/DeviceFilter.tsx';
import { DayRangeFilter } from '../../../ui/DayRangeFilter.tsx';
import { useAlcoholRecords, useExportAlcohol } from '../api.ts';
import { ExportButton } from '../../../ui/ExportButton.tsx';
import { Picture } from '../components/Picture.tsx';
import type { AlcoholFilters } from '../logic.ts';

/** /attendance/alcohol: punches with a breath-alcohol reading (spec §2 "alcohol record"; right `attendance`). */
export default function AlcoholListPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<PagedQuery<AlcoholFilters>>({ page: 1, pageSize: 20 });
  const list = useAlcoholRecords(query);
  const exportList = useExportAlcohol();

  const columns: TableProps<AlcoholRecord>['columns'] = [
    { title: t('health.fields.picture'), key: 'picture', render: (_, r) => <Picture url={r.pic_url} alt={r.name} /> },
    {
      title: t('health.fields.name'),
      key: 'name',
      // Not on the roster and no name reported: a stranger, as on the punch records.
      render: (_, r) => r.name || (r.person_id === null ? <Tag color="volcano">{t('health.stranger')}</Tag> : ''),
    },
    { title: t('health.fields.number'), dataIndex: 'number', key: 'number' },
    { title: t('health.fields.device'), dataIndex: 'device', key: 'device' },
    { title: t('health.fields.day'), dataIndex: 'day', key: 'day' },
    { title: t('health.fields.time'), dataIndex: 'time', key: 'time' },
    {
      title: t('health.alcohol'),
      dataIndex: 'alcohol',
      key: 'alcohol',
      render: (v: number, r) => (r.over ? <Tag color="red">{v.toFixed(1)}</Tag> : v.toFixed(1)),
    },
    {
      title: t('health.result'),
      dataIndex: 'over',
      key: 'over',
      render: (over: boolean) =>
        over ? (
          <Tag color="red" data-testid="alcohol-result-over">
            {t('health.over')}
          </Tag>
        ) : (
          <Tag color="green" data-testid="alcohol-result-under">
            {t('health.under')}
          </Tag>
        ),
    },
    {
      title: t('health.fields.temperature'),
      dataIndex: 'temperature',
      key: 'temperature',
      render: (v: number | null) => (v === null ? '' : `${v.toFixed(1)} °C`),
    },
  ];

  return (
    <Card title={t('route.attendanceAlcohol')} data-testid="alcohol-list-page">
      <Space wrap style={{ marginBottom: 12 }}>
        <KeywordSearch
          placeholder={t('health.alcoholKeyword')}
          width={220}
          onSearch={(keyword) => setQuery((q) => ({ ...q, page: 1, keyword }))}
          data-testid="alcohol-keyword"
        />
        <DeviceFilter
          placeholder={t('health.fields.device')}
          onChange={(device_id) => setQuery((q) => ({ ...q, page: 1, device_id }))}
          testId="alcohol-device-filter"
        />
        <Select
          allowClear
          placeholder={t('health.result')}
          style={{ width: 160 }}
          options={[
            { value: 1, label: t('health.over') },
            { value: 0, label: t('health.under') },
          ]}
          onChange={(over?: 0 | 1) => setQuery((q) => ({ ...q, page: 1, over }))}
          data-testid="alcohol-over-filter"
        />
        <DayRangeFilter onChange={(range) => setQuery((q) => ({ ...q, page: 1, ...range }))} testId="alcohol-range" />
        <ExportButton pending={exportList.isPending} bytes={exportList.bytes} onClick={() => exportList.mutate(query)} testId="alcohol-export" />
      </Space>
      <DataTable<AlcoholRecord>
        rowKey="id"
        loading={list.isLoading}
        error={list.error}
        onRetry={list.refetch}
        retrying={list.isFetching}
        dataSource={list.data?.items ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="alcohol-table"
        pagination={pagination(query, setQuery, list.data?.total, t, [20, 50, 100])}
      />
    </Card>
  );
}
