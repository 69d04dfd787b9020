import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AlcoholRecord } from '@faceadmin/shared';
import { useListQuery } from '../../../ui/ListPage.tsx';
import { useAlcoholRecords, useExportAlcohol } from '../api.ts';
import { ReadingList, temperatureColumn } from '../components/ReadingList.tsx';
import type { AlcoholFilters } from '../logic.ts';

/** /attendance/alcohol: punches with a breath-alcohol reading (spec §2 "alcohol record"; right `attendance`). */
export default function AlcoholListPage() {
  const { t } = useTranslation();
  const state = useListQuery<AlcoholFilters>({}, 20);
  const list = useAlcoholRecords(state.query);
  const exportList = useExportAlcohol();

  return (
    <ReadingList<AlcoholRecord, AlcoholFilters>
      prefix="alcohol"
      title={t('route.attendanceAlcohol')}
      state={state}
      list={list}
      exportList={exportList}
      keyword={{ placeholder: t('health.alcoholKeyword'), width: 220 }}
      filter={{
        kind: 'select',
        param: 'over',
        placeholder: t('health.result'),
        width: 160,
        options: [
          { value: 1, label: t('health.over') },
          { value: 0, label: t('health.under') },
        ],
        testId: 'alcohol-over-filter',
      }}
      columns={[
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
        temperatureColumn(t),
      ]}
    />
  );
}
