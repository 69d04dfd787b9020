import { useState } from 'react';
import { Button, Card, DatePicker, Space, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { MonthQuery, MonthRow } from '@faceadmin/shared';
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
import { hm, zonedToday } from '../logic.ts';

type Query = MonthQuery & { page: number; pageSize: number };

/** /attendance/report: the month per person (what payroll needs), from the stored day results. */
export default function MonthReportPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<Query>(() => ({ page: 1, pageSize: 20, month: zonedToday(displayTimeZone()).slice(0, 7) }));
  const report = useMonthReport(query);
  const exportMonth = useExportMonth();
  const [person, setPerson] = useState<{ id: number; name: string }>();
  const count = (v: number, minutes?: number) => (minutes ? `${v} (${hm(minutes)})` : String(v));
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
    { title: t('att.month.workDays'), dataIndex: 'work_days', key: 'work_days' },
    { title: t('att.month.presentDays'), dataIndex: 'present_days', key: 'present_days' },
    { title: t('att.month.late'), key: 'late', render: (_, r) => count(r.late_count, r.late_min) },
    { title: t('att.month.early'), key: 'early', render: (_, r) => count(r.early_count, r.early_min) },
    { title: t('att.month.missing'), dataIndex: 'missing_count', key: 'missing' },
    { title: t('att.month.absent'), dataIndex: 'absent_days', key: 'absent' },
    { title: t('att.month.leave'), dataIndex: 'leave_days', key: 'leave' },
    { title: t('att.month.out'), dataIndex: 'out_days', key: 'out' },
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
      <DataTable<MonthRow>
        rowKey="person_id"
        loading={report.isLoading}
        error={report.error}
        onRetry={report.refetch}
        retrying={report.isFetching}
        dataSource={report.data?.items ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="month-table"
        pagination={pagination(query, setQuery, report.data?.total, t, [20, 50, 100])}
      />
      <PersonMonthDrawer person={person} month={query.month} onClose={() => setPerson(undefined)} />
    </Card>
  );
}
