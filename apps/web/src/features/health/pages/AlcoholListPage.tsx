import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AlcoholRecord } from '@faceadmin/shared';
import { ListPage, useListQuery, type ListColumn } from '../../../ui/ListPage.tsx';
import { deviceFilter } from '../../devices/components/DeviceFilter.tsx';
import { useAlcoholRecords, useExportAlcohol } from '../api.ts';
import { Picture } from '../components/Picture.tsx';
import type { AlcoholFilters } from '../logic.ts';

/** /attendance/alcohol: punches with a breath-alcohol reading (spec §2 "alcohol record"; right `attendance`). */
export default function AlcoholListPage() {
  const { t } = useTranslation();
  const state = useListQuery<AlcoholFilters>({}, 20);
  const list = useAlcoholRecords(state.query);
  const exportList = useExportAlcohol();

  const columns: ListColumn<AlcoholRecord>[] = [
    { title: t('health.fields.picture'), key: 'picture', render: (_, r) => <Picture url={r.pic_url} alt={r.name || t('health.stranger')} /> },
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
    <ListPage<AlcoholRecord, AlcoholFilters>
      title={t('route.attendanceAlcohol')}
      testId="alcohol-list-page"
      tableTestId="alcohol-table"
      columns={columns}
      state={state}
      list={list}
      pageSizeOptions={[20, 50, 100]}
      filters={[
        { kind: 'keyword', param: 'keyword', placeholder: t('health.alcoholKeyword'), width: 220, testId: 'alcohol-keyword' },
        deviceFilter(t('health.fields.device'), 'alcohol-device-filter'),
        {
          kind: 'select',
          param: 'over',
          placeholder: t('health.result'),
          width: 160,
          options: [
            { value: 1, label: t('health.over') },
            { value: 0, label: t('health.under') },
          ],
          testId: 'alcohol-over-filter',
        },
        { kind: 'dayRange', from: 'from', to: 'to', testId: 'alcohol-range' },
      ]}
      exporter={{ pending: exportList.isPending, bytes: exportList.bytes, run: () => exportList.mutate(state.query), testId: 'alcohol-export' }}
    />
  );
}
