import { useState } from 'react';
import { Button, DatePicker, Descriptions, Drawer, Space, Spin, Tag, Typography } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { CalendarDay } from '@faceadmin/shared';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { useIsMobile } from '../../../ui/useIsMobile.ts';
import { usePersonMonth } from '../api.ts';
import { calendarWeeks, clockOf, hm } from '../logic.ts';
import { DayDrawer } from './DayDrawer.tsx';
import { LeaveTime } from './LeaveFigures.tsx';
import { Legend, StatusTag } from './StatusTag.tsx';

/** Monday first, as attendance sheets here are laid out. */
const WEEK = ['1', '2', '3', '4', '5', '6', '0'] as const;

/**
 * One person's month as a calendar: each day's result in the legend's colours with its first and last counted
 * punch; a day opens its explanation. The month's totals above, as the month report counts them.
 */
export function PersonMonthDrawer(props: { person: { id: number; name: string } | undefined; month: string; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const [month, setMonth] = useState(props.month);
  const [shownFor, setShownFor] = useState(props.person?.id);
  // a drawer opened for someone else starts at the month it was opened with
  if (props.person?.id !== shownFor) {
    setShownFor(props.person?.id);
    setMonth(props.month);
  }
  const [day, setDay] = useState<{ person_id: number; date: string }>();
  const data = usePersonMonth(props.person?.id, month);
  const m = data.data;
  const byDate = new Map((m?.days ?? []).map((d) => [d.date, d]));
  const move = (n: number) => setMonth((v) => dayjs(`${v}-01`).add(n, 'month').format('YYYY-MM'));
  const totals = m?.totals;
  const count = (v: number, minutes: number) => (minutes ? `${v} (${hm(minutes)})` : String(v));

  return (
    <Drawer
      open={Boolean(props.person)}
      onClose={props.onClose}
      size={mobile ? '100%' : 880}
      title={props.person ? t('att.calendar.title', { name: props.person.name }) : ''}
      destroyOnHidden
      data-testid="person-month"
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Button icon={<LeftOutlined />} aria-label={t('att.calendar.prev')} onClick={() => move(-1)} data-testid="calendar-prev" />
        <DatePicker
          picker="month"
          allowClear={false}
          value={dayjs(`${month}-01`)}
          onChange={(d) => d && setMonth(d.format('YYYY-MM'))}
          data-testid="calendar-month"
        />
        <Button icon={<RightOutlined />} aria-label={t('att.calendar.next')} onClick={() => move(1)} data-testid="calendar-next" />
        {data.isFetching && <Spin size="small" />}
      </Space>
      {data.error ? (
        <ErrorState error={data.error} onRetry={() => void data.refetch()} retrying={data.isFetching} />
      ) : (
        <>
          {totals && (
            <Descriptions size="small" column={mobile ? 2 : 5} style={{ marginBottom: 12 }} data-testid="calendar-totals">
              <Descriptions.Item label={t('att.month.workDays')}>{totals.work_days}</Descriptions.Item>
              <Descriptions.Item label={t('att.month.presentDays')}>{totals.present_days}</Descriptions.Item>
              <Descriptions.Item label={t('att.month.late')}>
                <span data-testid="calendar-late">{count(totals.late_count, totals.late_min)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('att.month.early')}>{count(totals.early_count, totals.early_min)}</Descriptions.Item>
              <Descriptions.Item label={t('att.month.missing')}>{totals.missing_count}</Descriptions.Item>
              <Descriptions.Item label={t('att.month.absent')}>{totals.absent_days}</Descriptions.Item>
              <Descriptions.Item label={t('att.month.leave')}>{totals.leave_days}</Descriptions.Item>
              <Descriptions.Item label={t('att.month.out')}>{totals.out_days}</Descriptions.Item>
              <Descriptions.Item label={t('att.month.leaveTime')}>
                <LeaveTime minutes={totals.leave_min} kinds={totals.leave_kinds} />
              </Descriptions.Item>
              <Descriptions.Item label={t('att.month.outTime')}>{hm(totals.out_min, true) || '0'}</Descriptions.Item>
              <Descriptions.Item label={t('att.month.absentTime')}>{hm(totals.absent_min, true) || '0'}</Descriptions.Item>
              <Descriptions.Item label={t('att.day.fields.worked')}>{hm(totals.worked_min)}</Descriptions.Item>
              <Descriptions.Item label={t('att.day.fields.overtime')}>{hm(totals.overtime_min, true) || '0'}</Descriptions.Item>
            </Descriptions>
          )}
          <div style={{ marginBottom: 8 }}>
            <Legend />
          </div>
          <div className="fa-att-calendar" data-testid="calendar-grid">
            {WEEK.map((w) => (
              <div key={w} className="fa-att-calendar-head">
                {t(`att.weekdayShort.${w}`)}
              </div>
            ))}
            {calendarWeeks(month)
              .flat()
              .map((date, i) =>
                date ? (
                  <DayCell key={date} date={date} day={byDate.get(date)} onOpen={() => props.person && setDay({ person_id: props.person.id, date })} />
                ) : (
                  <div key={`blank${i}`} className="fa-att-calendar-blank" />
                ),
              )}
          </div>
        </>
      )}
      <DayDrawer day={day} onClose={() => setDay(undefined)} />
    </Drawer>
  );
}

function DayCell({ date, day, onOpen }: { date: string; day: CalendarDay | undefined; onOpen: () => void }) {
  const { t } = useTranslation();
  const times = day && (day.check_in || day.check_out) ? `${clockOf(day.check_in, date, formatDateTime)}–${clockOf(day.check_out, date, formatDateTime)}` : '';
  return (
    <button
      type="button"
      className="fa-att-calendar-cell"
      disabled={!day}
      onClick={onOpen}
      data-testid="calendar-day"
      data-date={date}
      data-status={day?.status ?? ''}
    >
      <Typography.Text strong>{Number(date.slice(8))}</Typography.Text>
      {day ? (
        <>
          <StatusTag row={day} />
          {day.manual && <Tag>{t('att.day.manual')}</Tag>}
          {times && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {times}
            </Typography.Text>
          )}
        </>
      ) : (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('att.calendar.noResult')}
        </Typography.Text>
      )}
    </button>
  );
}
