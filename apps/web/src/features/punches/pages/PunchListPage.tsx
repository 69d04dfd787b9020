import type { Punch } from '@faceadmin/shared';
import { pagination, type PagedQuery } from '../../../ui/paging.ts';
import { DataTable } from '../../../ui/DataTable.tsx';
import { KeywordSearch } from '../../../ui/KeywordSearch.tsx';
import { useState } from 'react';
import { Avatar, Button, Card, Checkbox, Image, Space, Tag, Typography, type TableProps } from 'antd';
import { DownloadOutlined, PictureOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useCompanyInfo } from '../../companies/api.ts';
import { DeviceFilter } from '../../devices/components/DeviceFilter.tsx';
import { DayRangeFilter } from '../../../ui/DayRangeFilter.tsx';
import { useExportPunches, usePunches } from '../api.ts';
import { measure, type PunchFilters } from '../logic.ts';

const DUAL_COLOR = { paired: 'green', pending: 'processing', unpaired: 'red' } as const;

/** /attendance/list: punch records from the face devices (right `attendance`). */
export default function PunchListPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<PagedQuery<PunchFilters>>({ page: 1, pageSize: 20 });
  const list = usePunches(query);
  const exportList = useExportPunches();
  // spec §3 Company filter seconds: every punch is listed; the attendance engine counts a burst once.
  const company = useCompanyInfo(true).data;
  const filterSeconds = company?.filter_seconds;

  const columns: TableProps<Punch>['columns'] = [
    {
      title: t('punch.fields.name'),
      key: 'name',
      render: (_, r) => (r.stranger ? <Tag color="volcano">{t('punch.stranger')}</Tag> : r.name),
    },
    { title: t('punch.fields.number'), dataIndex: 'number', key: 'number' },
    { title: t('punch.fields.device'), dataIndex: 'device', key: 'device' },
    {
      title: t('punch.fields.direction'),
      dataIndex: 'direction',
      key: 'direction',
      render: (v: string) => (v ? t(v === 'out' ? 'device.direction.out' : 'device.direction.in') : ''),
    },
    { title: t('punch.fields.day'), dataIndex: 'day', key: 'day' },
    { title: t('punch.fields.time'), dataIndex: 'time', key: 'time' },
    {
      title: t('punch.fields.picture'),
      key: 'picture',
      render: (_, r) =>
        r.pic_url ? (
          <Image src={r.pic_url} width={40} height={40} style={{ objectFit: 'cover', borderRadius: 4 }} alt={r.name} data-testid="punch-photo" />
        ) : (
          <Avatar shape="square" size={40} icon={<PictureOutlined />} />
        ),
    },
    { title: t('punch.fields.temperature'), dataIndex: 'temperature', key: 'temperature', render: (v: number | null) => measure(v, 1, ' °C') },
    {
      title: t('punch.fields.alcohol'),
      dataIndex: 'alcohol',
      key: 'alcohol',
      render: (v: number | null, r) =>
        r.alcohol_over ? (
          <Tag color="red" title={t('punch.alcoholOver')} data-testid="alcohol-over">
            {measure(v, 1, '')}
          </Tag>
        ) : (
          measure(v, 1, '')
        ),
    },
    {
      title: t('punch.fields.stranger'),
      dataIndex: 'stranger',
      key: 'stranger',
      render: (v: boolean) => (v ? <Tag color="volcano">{t('punch.stranger')}</Tag> : <Tag color="green">{t('punch.known')}</Tag>),
    },
    // spec §9 two-person authentication: shown while the company's option is on
    ...(company?.options.dualAuth === 1
      ? [
          {
            title: t('punch.fields.dualAuth'),
            key: 'dual',
            render: (_: unknown, r: Punch) =>
              r.dual_state ? (
                <Tag color={DUAL_COLOR[r.dual_state]} data-testid="punch-dual">
                  {r.dual_state === 'paired' ? t('punch.dual.pairedWith', { name: r.dual_partner ?? '' }) : t(`punch.dual.${r.dual_state}`)}
                </Tag>
              ) : null,
          },
        ]
      : []),
  ];

  return (
    <Card
      title={t('route.attendanceList')}
      data-testid="punch-list-page"
      extra={
        filterSeconds ? (
          <Typography.Text type="secondary" data-testid="punch-filter-note">
            {t('punch.filterNote', { seconds: filterSeconds })}
          </Typography.Text>
        ) : undefined
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <KeywordSearch
          placeholder={t('punch.keyword')}
          width={220}
          onSearch={(keyword) => setQuery((q) => ({ ...q, page: 1, keyword }))}
          data-testid="punch-keyword"
        />
        <DeviceFilter
          placeholder={t('punch.fields.device')}
          onChange={(device_id) => setQuery((q) => ({ ...q, page: 1, device_id }))}
          testId="punch-device-filter"
        />
        <DayRangeFilter onChange={(range) => setQuery((q) => ({ ...q, page: 1, ...range }))} testId="punch-range" />
        <Checkbox onChange={(e) => setQuery((q) => ({ ...q, page: 1, stranger: e.target.checked ? 1 : undefined }))} data-testid="punch-strangers">
          {t('punch.strangersOnly')}
        </Checkbox>
        <Button icon={<DownloadOutlined />} loading={exportList.isPending} onClick={() => exportList.mutate(query)} data-testid="punch-export">
          {t('punch.export')}
        </Button>
      </Space>
      <DataTable<Punch>
        rowKey="id"
        loading={list.isLoading}
        error={list.error}
        onRetry={list.refetch}
        retrying={list.isFetching}
        dataSource={list.data?.items ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="punch-table"
        pagination={pagination(query, setQuery, list.data?.total, t, [20, 50, 100])}
      />
    </Card>
  );
}
