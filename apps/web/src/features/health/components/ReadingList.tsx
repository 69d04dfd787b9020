import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { HealthRecord } from '@faceadmin/shared';
import { boundParam, ListPage, type ListColumn, type ListFilter, type ListQuery, type ListResult } from '../../../ui/ListPage.tsx';
import { deviceFilter } from '../../devices/components/DeviceFilter.tsx';
import type { AlcoholFilters, HealthFilters } from '../logic.ts';
import { Picture } from './Picture.tsx';

/** What every reading a terminal reported with a punch has, a health code or a breath-alcohol test alike. */
type Reading = Pick<HealthRecord, 'pic_url' | 'name' | 'person_id' | 'number' | 'temperature'>;

/** The temperature taken with the reading, when the terminal took one. */
export function temperatureColumn<T extends Reading>(t: TFunction): ListColumn<T> {
  return {
    title: t('health.fields.temperature'),
    dataIndex: 'temperature',
    key: 'temperature',
    render: (v: number | null) => (v === null ? '' : `${v.toFixed(1)} °C`),
  };
}

/**
 * A list of readings (health codes, breath alcohol; spec §2–§3): who gave each one first (the capture, the name or
 * "stranger", the number, as on the punch records), then the reading's own columns; filtered by keyword, terminal, the
 * reading's own filter and days; exported as filtered. Test ids follow the prefix (`alcohol-table`, `alcohol-export`).
 */
export function ReadingList<T extends Reading, F extends HealthFilters | AlcoholFilters>(props: {
  prefix: 'health' | 'alcohol';
  title: string;
  /** the columns after who gave the reading */
  columns: ListColumn<T>[];
  state: ListQuery<F>;
  list: ListResult<T>;
  keyword: { placeholder: string; width?: number };
  /** the reading's own filter (the code's colour, over the limit or not) */
  filter: ListFilter<F>;
  exportList: { isPending: boolean; bytes: number; mutate: (f: F) => void };
}) {
  const { t } = useTranslation();
  const { prefix, state, exportList } = props;
  const who: ListColumn<T>[] = [
    { title: t('health.fields.picture'), key: 'picture', render: (_, r) => <Picture url={r.pic_url} alt={r.name || t('health.stranger')} /> },
    {
      title: t('health.fields.name'),
      key: 'name',
      // Not on the roster and no name reported: a stranger, as on the punch records.
      render: (_, r) => r.name || (r.person_id === null ? <Tag color="volcano">{t('health.stranger')}</Tag> : ''),
    },
    { title: t('health.fields.number'), dataIndex: 'number', key: 'number' },
  ];
  return (
    <ListPage<T, F>
      title={props.title}
      testId={`${prefix}-list-page`}
      tableTestId={`${prefix}-table`}
      columns={[...who, ...props.columns]}
      state={state}
      list={props.list}
      pageSizeOptions={[20, 50, 100]}
      filters={[
        { kind: 'keyword', param: boundParam<F>('keyword'), ...props.keyword, testId: `${prefix}-keyword` },
        deviceFilter(t('health.fields.device'), `${prefix}-device-filter`),
        props.filter,
        { kind: 'dayRange', from: boundParam<F>('from'), to: boundParam<F>('to'), testId: `${prefix}-range` },
      ]}
      exporter={{ pending: exportList.isPending, bytes: exportList.bytes, run: () => exportList.mutate(state.query), testId: `${prefix}-export` }}
    />
  );
}
