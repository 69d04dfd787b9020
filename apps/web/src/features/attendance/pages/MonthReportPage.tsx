import { useState } from 'react';
import { Button, Card, DatePicker, Space, Typography, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DAY_STATUSES, type DayStatus, type MonthQuery, type MonthRow } from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';
import { ExportButton } from '../../../ui/ExportButton.tsx';
import { displayTimeZone } from '../../../ui/format.ts';
import { KeywordSearch } from '../../../ui/KeywordSearch.tsx';
import { pagination } from '../../../ui/paging.ts';
import { DepartmentSelect } from '../../persons/components/DepartmentSelect.tsx';
import { useExportMonth, useMonthReport } from '../api.ts';
import { PersonMonthDrawer } from '../components/PersonMonthDrawer.tsx';
import { ClosedPeriodsButton } from '../components/ClosedPeriodsButton.tsx';
import { RecalculateButton } from '../components/RecalculateButton.tsx';
import { Legend } from '../components/StatusTag.tsx';
import { hm, LEGEND_COLOR, legendOf, zonedToday } from '../logic.ts';

type GridCell = NonNullable<MonthRow['days']>[number];

/** One day of the grid: the status symbol in its legend colour, and the minutes it shows (gridMinutes, #17). */
function DayCell({ cell }: { cell: GridCell | undefined }) {
  const { t } = useTranslation();
  if (!cell) return null;
  return (
    <span title={t(`att.status.${cell.status}`)} data-testid="month-grid-cell" data-status={cell.status} style={{ whiteSpace: 'nowrap' }}>
      <span style={{ color: LEGEND_COLOR[legendOf(cell.status)], fontWeight: 600 }}>{t(`att.symbol.${cell.status}`)}</span>
      {cell.minutes > 0 && <span style={{ fontSize: 11, marginInlineStart: 2 }}>{cell.minutes}</span>}
    </span>
  );
}

/** The grid's symbols, each with the status it stands for (the export's legend row). */
function SymbolLegend() {
  const { t } = useTranslation();
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="month-symbols">
      {t('att.month.symbols')}:{' '}
      {DAY_STATUSES.map((s: DayStatus) => (
        <span key={s} style={{ marginInlineEnd: 10, whiteSpace: 'nowrap' }}>
          <b style={{ color: LEGEND_COLOR[legendOf(s)] }}>{t(`att.symbol.${s}`)}</b> {t(`att.status.${s}`)}
        </span>
      ))}
      {' — '}
      {t('att.month.cellHint')}
    </Typography.Text>
  );
}

type Query = MonthQuery & { page: number; pageSize: number };

/** /attendance/report: the month per person (what payroll needs), from the stored day results. */
export default function MonthReportPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<Query>(() => ({ page: 1, pageSize: 20, month: zonedToday(displayTimeZone()).slice(0, 7) }));
  const report = useMonthReport(query);
  const exportMonth = useExportMonth();
  const [person, setPerson] = useState<{ id: number; name: string }>();
  const count = (v: number, minutes?: number) => (minutes ? `${v} (${hm(minutes)})` : String(v));
  const items = report.data?.items ?? [];
  // one column per day of the month, and per leave type someone on this page has (the export has every type)
  const dates = Array.from({ length: dayjs(`${query.month}-01`).daysInMonth() }, (_, i) => `${query.month}-${String(i + 1).padStart(2, '0')}`);
  const kinds = (report.data?.leave_types ?? []).filter((k) => items.some((r) => (r.leave_kinds[k.value] ?? 0) > 0));
  const columns: TableProps<MonthRow>['columns'] = [
    { title: t('att.day.fields.number'), dataIndex: 'number', key: 'number', fixed: 'left' },
    {
      title: t('att.day.fields.name'),
      dataIndex: 'name',
      key: 'name',
      fixed: 'left',
      // the name opens the person's month as a calendar
      render: (name: string, r) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setPerson({ id: r.person_id, name })} data-testid="month-calendar-open">
          {name}
        </Button>
      ),
    },
    { title: t('att.month.department'), dataIndex: 'department', key: 'department', render: (v: string) => v || '—' },
    {
      title: t('att.month.days'),
      key: 'days',
      children: dates.map((date) => ({
        title: String(Number(date.slice(8))),
        key: `d${date}`,
        width: 44,
        align: 'center' as const,
        render: (_: unknown, r: MonthRow) => <DayCell cell={r.days?.find((c) => c.date === date)} />,
      })),
    },
    { title: t('att.month.workDays'), dataIndex: 'work_days', key: 'work_days' },
    { title: t('att.month.presentDays'), dataIndex: 'present_days', key: 'present_days' },
    { title: t('att.month.late'), key: 'late', render: (_, r) => count(r.late_count, r.late_min) },
    { title: t('att.month.early'), key: 'early', render: (_, r) => count(r.early_count, r.early_min) },
    { title: t('att.month.missing'), dataIndex: 'missing_count', key: 'missing' },
    { title: t('att.month.absent'), dataIndex: 'absent_days', key: 'absent' },
    { title: t('att.month.absentTime'), dataIndex: 'absent_min', key: 'absent_min', render: (v: number) => hm(v, true) },
    { title: t('att.month.leave'), dataIndex: 'leave_days', key: 'leave' },
    { title: t('att.month.leaveTime'), dataIndex: 'leave_min', key: 'leave_min', render: (v: number) => hm(v, true) },
    ...kinds.map((k) => ({
      title: k.label,
      key: `leave:${k.value}`,
      render: (_: unknown, r: MonthRow) => <span data-testid={`month-leave-${k.value}`}>{hm(r.leave_kinds[k.value] ?? 0, true)}</span>,
    })),
    { title: t('att.month.out'), dataIndex: 'out_days', key: 'out' },
    { title: t('att.month.outTime'), dataIndex: 'out_min', key: 'out_min', render: (v: number) => hm(v, true) },
    { title: t('att.day.fields.worked'), dataIndex: 'worked_min', key: 'worked', render: (v: number) => hm(v) },
    { title: t('att.day.fields.overtime'), dataIndex: 'overtime_min', key: 'overtime', render: (v: number) => hm(v, true) },
  ];
  return (
    <Card
      title={t('route.attendanceReport')}
      data-testid="month-report-page"
      extra={
        <Space wrap>
          <ClosedPeriodsButton />
          <RecalculateButton />
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <DatePicker
          picker="month"
          value={dayjs(`${query.month}-01`)}
          allowClear={false}
          onChange={(d) => d && setQuery((q) => ({ ...q, page: 1, month: d.format('YYYY-MM') }))}
          data-testid="month-picker"
        />
        <DepartmentSelect
          allowClear
          placeholder={t('att.day.department')}
          style={{ width: 200 }}
          onChange={(department_id?: number) => setQuery((q) => ({ ...q, page: 1, department_id }))}
        />
        <KeywordSearch placeholder={t('att.day.keyword')} onSearch={(keyword) => setQuery((q) => ({ ...q, page: 1, keyword }))} data-testid="month-keyword" />
        <ExportButton
          pending={exportMonth.isPending}
          bytes={exportMonth.bytes}
          onClick={() => exportMonth.mutate({ month: query.month, department_id: query.department_id, keyword: query.keyword })}
          testId="month-export"
        />
      </Space>
      <div style={{ marginBottom: 8 }}>
        <Legend />
        <div>
          <SymbolLegend />
        </div>
      </div>
      <DataTable<MonthRow>
        rowKey="person_id"
        loading={report.isLoading}
        error={report.error}
        onRetry={report.refetch}
        retrying={report.isFetching}
        dataSource={items}
        bordered
        size="small"
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="month-table"
        pagination={pagination(query, setQuery, report.data?.total, t, [20, 50, 100], report.data?.more)}
      />
      <PersonMonthDrawer person={person} month={query.month} onClose={() => setPerson(undefined)} />
    </Card>
  );
}
