import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, DatePicker, Popover, Space, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DAY_STATUSES, type DayQuery, type DayRow, type DayStatus } from '@faceadmin/shared';
import { ExportButton } from '../../../ui/ExportButton.tsx';
import { displayTimeZone } from '../../../ui/format.ts';
import { KeywordSearch } from '../../../ui/KeywordSearch.tsx';
import { ListPage, useListQuery, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { departmentFilter } from '../../persons/components/DepartmentSelect.tsx';
import { useDays, useExportDays, useLatestDay } from '../api.ts';
import { PersonMonthDrawer } from '../components/PersonMonthDrawer.tsx';
import { DayDrawer } from '../components/DayDrawer.tsx';
import { ClosedPeriodsButton } from '../components/ClosedPeriodsButton.tsx';
import { RecalculateButton } from '../components/RecalculateButton.tsx';
import { LeaveTime } from '../components/LeaveFigures.tsx';
import { Legend, StatusTag } from '../components/StatusTag.tsx';
import { hm, openingDay, zonedToday } from '../logic.ts';

type Query = DayQuery & { page: number; pageSize: number };
/** The filters; no date yet means "the latest day with results" (asked from the server). */
type Filters = Omit<DayQuery, 'date' | 'page' | 'pageSize'> & { date?: string };

/** `?date=YYYY-MM-DD&status=late`: what a dashboard figure opens (an unreal date or unknown status is ignored). */
function fromUrl(params: URLSearchParams): Partial<Pick<Query, 'date' | 'status'>> {
  const out: Partial<Pick<Query, 'date' | 'status'>> = {};
  const date = params.get('date');
  if (date && /^\d{4}-\d{2}-\d{2}$/.test(date) && dayjs(date).format('YYYY-MM-DD') === date) out.date = date;
  const status = params.get('status');
  if (status && (DAY_STATUSES as readonly string[]).includes(status)) out.status = status as DayStatus;
  return out;
}

/** /attendance/result: one day's results, people × status (spec §4 legend); a row opens its explanation. */
export default function DayResultPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const today = zonedToday(displayTimeZone());
  const state = useListQuery<Filters>(fromUrl(params), 20);
  const filters = state.query;
  // with no date from a link the view opens on the latest day that has results (today when none); today is a click away
  const latest = useLatestDay(!filters.date);
  const date = filters.date ?? openingDay(latest.data, today, latest.isError);
  // pinned once known, so results arriving for a later day do not move the view under the reader
  if (!filters.date && date) state.defaultFilters({ date });
  const query: Query = { ...filters, date: date ?? today };
  // a figure opened again while the page stays mounted (its tag) brings its own date and status (the link's URL has
  // no page: the list is on page 1 already); the list's own paging in the URL is not such a link
  const urlKey = `${params.get('date') ?? ''}&${params.get('status') ?? ''}`;
  const [seenUrl, setSeenUrl] = useState(urlKey);
  if (urlKey !== seenUrl) {
    setSeenUrl(urlKey);
    const f = fromUrl(params);
    if (f.date || f.status) state.adjustFilters({ ...f, status: f.status });
  }
  const [open, setOpen] = useState<{ person_id: number; date: string }>();
  const list = useDays(query, date !== undefined);
  const [person, setPerson] = useState<{ id: number; name: string }>();
  const exportDays = useExportDays();
  // the export's range: the shown day's month up to the shown day, unless chosen otherwise
  const [range, setRange] = useState<[string, string]>();
  const exportRange = range ?? [`${query.date.slice(0, 8)}01`, query.date];
  // searching again for the same words loads the rows again (results change as punches arrive)
  const search = (keyword: string | undefined) => {
    if (keyword === query.keyword) void list.refetch();
    else state.setFilters({ keyword });
  };

  const columns: ListColumn<DayRow>[] = [
    { title: t('att.day.fields.number'), dataIndex: 'number', key: 'number' },
    { title: t('att.day.fields.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('att.day.fields.status'),
      key: 'status',
      render: (_, r) => (
        <Space size={4}>
          <StatusTag row={r} />
          {r.manual && <Tag>{t('att.day.manual')}</Tag>}
        </Space>
      ),
    },
    { title: t('att.day.fields.worked'), dataIndex: 'worked_min', key: 'worked', render: (v: number) => hm(v) },
    { title: t('att.day.fields.overtime'), dataIndex: 'overtime_min', key: 'overtime', render: (v: number) => hm(v, true) },
    { title: t('att.day.fields.leave'), key: 'leave', render: (_, r) => <LeaveTime minutes={r.leave_min} kinds={r.leave_kinds} /> },
    { title: t('att.day.fields.out'), dataIndex: 'out_min', key: 'out', render: (v: number) => hm(v, true) },
    { title: t('att.day.fields.absent'), dataIndex: 'absent_min', key: 'absent', render: (v: number) => hm(v, true) },
    { title: t('att.day.fields.rule'), dataIndex: 'rule', key: 'rule', render: (v: string | null) => v ?? '—' },
  ];
  // the row opens the explanation too; a narrow screen's cards have only these buttons
  const actions: ListAction<DayRow>[] = [
    { key: 'why', label: t('att.day.why'), run: (r) => setOpen({ person_id: r.person_id, date: r.date }), testId: 'day-open' },
    { key: 'calendar', label: t('att.calendar.open'), run: (r) => setPerson({ id: r.person_id, name: r.name }), testId: 'day-calendar-open' },
  ];

  return (
    <ListPage<DayRow, Filters>
      title={t('route.attendanceResult')}
      testId="day-result-page"
      tableTestId="day-table"
      rowKey="person_id"
      extra={
        <Space wrap>
          <ClosedPeriodsButton />
          <RecalculateButton />
        </Space>
      }
      columns={columns}
      actions={actions}
      state={state}
      list={list}
      pageSizeOptions={[20, 50, 100]}
      table={{ onRow: (r) => ({ onClick: () => setOpen({ person_id: r.person_id, date: r.date }), style: { cursor: 'pointer' } }) }}
      filters={[
        {
          kind: 'custom',
          testId: 'day-date',
          render: (set) => (
            // not typed into before the opening day is known: its arrival would replace what is being typed
            <DatePicker
              value={dayjs(query.date)}
              allowClear={false}
              disabled={date === undefined}
              onChange={(d) => d && set({ date: d.format('YYYY-MM-DD') })}
              data-testid="day-date"
            />
          ),
        },
        {
          kind: 'custom',
          testId: 'day-today',
          render: (set) => (
            <Button disabled={query.date === today} onClick={() => set({ date: today })} data-testid="day-today">
              {t('att.day.today')}
            </Button>
          ),
        },
        departmentFilter(t('att.day.department'), 'day-department'),
        {
          kind: 'select',
          param: 'status',
          placeholder: t('att.day.fields.status'),
          width: 160,
          options: DAY_STATUSES.map((s) => ({ value: s, label: t(`att.status.${s}`) })),
          testId: 'day-status-filter',
        },
        {
          // searching again for the same words loads the rows again
          kind: 'custom',
          testId: 'day-keyword',
          render: () => <KeywordSearch placeholder={t('att.day.keyword')} onSearch={search} data-testid="day-keyword" />,
        },
      ]}
      toolbar={
        <Popover
          trigger="click"
          title={t('att.export.range')}
          content={
            <Space orientation="vertical">
              <DatePicker.RangePicker
                allowClear={false}
                value={[dayjs(exportRange[0]), dayjs(exportRange[1])]}
                onChange={(v) => v?.[0] && v[1] && setRange([v[0].format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')])}
                data-testid="day-export-range"
              />
              <ExportButton
                pending={exportDays.isPending}
                bytes={exportDays.bytes}
                onClick={() =>
                  exportDays.mutate({
                    from: exportRange[0],
                    to: exportRange[1],
                    department_id: query.department_id,
                    status: query.status,
                    keyword: query.keyword,
                  })
                }
                testId="day-export-go"
              />
            </Space>
          }
        >
          <Button data-testid="day-export">{t('att.export.days')}</Button>
        </Popover>
      }
      notice={
        <div style={{ marginBottom: 12 }}>
          <Legend />
        </div>
      }
    >
      <DayDrawer day={open} onClose={() => setOpen(undefined)} />
      <PersonMonthDrawer person={person} month={query.date.slice(0, 7)} onClose={() => setPerson(undefined)} />
    </ListPage>
  );
}
