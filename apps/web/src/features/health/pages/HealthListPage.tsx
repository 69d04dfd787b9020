import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { HEALTH_COLORS, type HealthColor, type HealthRecord } from '@faceadmin/shared';
import { useListQuery } from '../../../ui/ListPage.tsx';
import { useExportHealth, useHealthRecords } from '../api.ts';
import { ReadingList, temperatureColumn } from '../components/ReadingList.tsx';
import { COLOR_TAG, type HealthFilters } from '../logic.ts';

/** /attendance/health: health-code records the terminals reported with punches (spec §3 "Health record"; right `attendance`). */
export default function HealthListPage() {
  const { t } = useTranslation();
  const state = useListQuery<HealthFilters>({}, 20);
  const list = useHealthRecords(state.query);
  const exportList = useExportHealth();
  const dash = (v: string | number | null) => (v === null || v === '' ? '' : v);

  return (
    <ReadingList<HealthRecord, HealthFilters>
      prefix="health"
      title={t('route.attendanceHealth')}
      state={state}
      list={list}
      exportList={exportList}
      keyword={{ placeholder: t('health.keyword') }}
      filter={{
        kind: 'select',
        param: 'color',
        placeholder: t('health.fields.color'),
        options: HEALTH_COLORS.map((c) => ({ value: c, label: <Tag color={COLOR_TAG[c]}>{t(`health.colors.${c}`)}</Tag> })),
        testId: 'health-color-filter',
      }}
      columns={[
        { title: t('health.fields.id_number'), dataIndex: 'id_number', key: 'id_number' },
        { title: t('health.fields.device'), dataIndex: 'device', key: 'device' },
        { title: t('health.fields.place'), dataIndex: 'place', key: 'place' },
        { title: t('health.fields.day'), dataIndex: 'day', key: 'day' },
        { title: t('health.fields.time'), dataIndex: 'time', key: 'time' },
        temperatureColumn(t),
        {
          title: t('health.fields.color'),
          dataIndex: 'color',
          key: 'color',
          render: (v: HealthColor | null) =>
            v ? (
              <Tag color={COLOR_TAG[v]} data-testid={`health-color-${v}`}>
                {t(`health.colors.${v}`)}
              </Tag>
            ) : (
              <Tag>{t('health.colors.none')}</Tag>
            ),
        },
        { title: t('health.fields.nat_time'), dataIndex: 'nat_time', key: 'nat_time' },
        {
          title: t('health.fields.nat_result'),
          dataIndex: 'nat_result',
          key: 'nat_result',
          render: (v: HealthRecord['nat_result']) => (v ? <Tag color={v === 'positive' ? 'red' : 'green'}>{t(`health.nat.${v}`)}</Tag> : ''),
        },
        { title: t('health.fields.trip'), dataIndex: 'trip', key: 'trip', ellipsis: true },
        { title: t('health.fields.vaccine_count'), dataIndex: 'vaccine_count', key: 'vaccine_count', render: dash },
        { title: t('health.fields.vaccine_time'), dataIndex: 'vaccine_time', key: 'vaccine_time' },
      ]}
    />
  );
}
