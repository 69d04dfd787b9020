import { useMemo } from 'react';
import { Empty, Image, Tag, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { DashboardAlarms, DashboardAttendance, DashboardFlow, LiveAlarm, Punch, TrendDay } from '@faceadmin/shared';
import { EChart } from '../../../ui/EChart.tsx';
import { displayTimeZone } from '../../../ui/format.ts';
import { alarmLink, hm, resultLink, SLICES, type Slice } from '../logic.ts';

/**
 * The dashboard's blocks, shared by /dashboard (light, in cards) and the big screens (dark, in panels): each draws
 * one answer of GET /dashboard/* and opens the list behind what is clicked.
 */

/** Slice colours: present follows the theme's success colour, leave the console's theme colour. */
export function useSliceColors(): Record<Slice, string> {
  const { token } = theme.useToken();
  return useMemo(
    () => ({
      present: token.colorSuccess,
      late: token.colorWarning,
      early: '#fa8c16',
      absent: token.colorError,
      leave: token.colorPrimary,
      notYetDue: '#8c8c8c',
    }),
    [token],
  );
}

/**
 * The slices' colours for their counts written on white (the dashboard's figures): the chart colours in a darker shade
 * of the same hue, at least 4.5:1 (WCAG AA); antd's success green and warning gold are 2.2:1 and 1.9:1.
 */
export const SLICE_TEXT: Record<Exclude<Slice, 'leave'>, string> = {
  present: '#237804',
  late: '#874d00',
  early: '#ad4e00',
  absent: '#cf1322',
  notYetDue: '#595959',
};

/** Today's attendance as a donut with the expected count in its middle; a slice opens the results of that status. */
export function AttendanceDonut({
  data,
  dark,
  height = 260,
  loading,
}: {
  data: DashboardAttendance | undefined;
  dark?: boolean;
  height?: number;
  loading?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const colors = useSliceColors();
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
      // no legend: the figures beside or below the donut name the slices in the same colours
      series: [
        {
          type: 'pie',
          radius: ['58%', '84%'],
          center: ['50%', '50%'],
          avoidLabelOverlap: true,
          label: { show: false },
          // nobody expected yet: an empty ring, not six equal slices of nothing
          stillShowZeroSum: false,
          showEmptyCircle: true,
          emptyCircleStyle: { color: dark ? '#2a3a5a' : '#f0f0f0' },
          data: SLICES.map((s) => ({ name: t(`dashboard.att.${s}`), value: data?.[s] ?? 0, slice: s, itemStyle: { color: colors[s] } })),
        },
      ],
    }),
    [data, colors, t, dark],
  );
  return (
    <div style={{ position: 'relative' }} data-testid="dashboard-donut">
      <EChart
        option={option}
        height={height}
        dark={dark ?? false}
        loading={loading ?? false}
        onClick={(e) => {
          const slice = (e.data as { slice?: Slice } | undefined)?.slice;
          if (data && slice) void navigate(resultLink(data.date, slice));
        }}
      />
      <div
        style={{
          position: 'absolute',
          left: 0,
          right: 0,
          top: `calc(${height * 0.5}px - ${dark ? 34 : 24}px)`,
          textAlign: 'center',
          pointerEvents: 'none',
        }}
      >
        <div style={{ fontSize: dark ? 40 : 28, fontWeight: 600, lineHeight: 1.1 }} data-testid="dashboard-expected">
          {data?.expected ?? '–'}
        </div>
        <div style={{ fontSize: dark ? 16 : 12, opacity: 0.75 }}>{t('dashboard.att.expected')}</div>
      </div>
    </div>
  );
}

/** The last 30 days' results as stacked bars per day. */
export function TrendChart({ items, dark, height = 260, loading }: { items: TrendDay[] | undefined; dark?: boolean; height?: number; loading?: boolean }) {
  const { t } = useTranslation();
  const colors = useSliceColors();
  const option = useMemo(() => {
    const days = items ?? [];
    const kinds = ['present', 'late', 'early', 'absent', 'leave'] as const;
    return {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0, type: 'scroll', textStyle: dark ? { fontSize: 14 } : {} },
      grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: days.map((d) => d.date.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: kinds.map((k) => ({
        name: t(`dashboard.att.${k}`),
        type: 'bar',
        stack: 'day',
        barMaxWidth: 18,
        itemStyle: { color: colors[k] },
        data: days.map((d) => d[k]),
      })),
    };
  }, [items, colors, t, dark]);
  return <EChart option={option} height={height} dark={dark ?? false} loading={loading ?? false} data-testid="dashboard-trend" />;
}

/** Entries and exits per hour today (bars); a bar opens the punch list. */
export function FlowChart({ flow, dark, height = 240, loading }: { flow: DashboardFlow | undefined; dark?: boolean; height?: number; loading?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const option = useMemo(() => {
    const hours = flow?.hours ?? [];
    return {
      tooltip: { trigger: 'axis' },
      legend: { top: 0, textStyle: dark ? { fontSize: 14 } : {} },
      grid: { left: 8, right: 8, top: 32, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: hours.map((h) => t('dashboard.flow.hour', { hour: String(h.hour).padStart(2, '0') })) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name: t('dashboard.flow.in'), type: 'bar', barMaxWidth: 14, itemStyle: { color: token.colorPrimary }, data: hours.map((h) => h.in) },
        { name: t('dashboard.flow.out'), type: 'bar', barMaxWidth: 14, itemStyle: { color: token.colorWarning }, data: hours.map((h) => h.out) },
      ],
    };
  }, [flow, t, token, dark]);
  return (
    <EChart
      option={option}
      height={height}
      dark={dark ?? false}
      loading={loading ?? false}
      onClick={() => void navigate('/attendance/list')}
      data-testid="dashboard-flow"
    />
  );
}

const SOURCE_COLOR: Record<LiveAlarm['source'], string> = {
  breaker: 'red',
  temperature: 'volcano',
  alcohol: 'orange',
  health: 'magenta',
  stranger: 'purple',
  device: 'default',
};

/** What an alarm says after its subject: the breaker alarm's type, the reading over its limit, a red code. */
export function useAlarmText() {
  const { t } = useTranslation();
  return (a: LiveAlarm) => {
    if (a.source === 'breaker') return `${t(`breaker.alarmTypes.${a.kind}`, { defaultValue: a.kind })}${a.value != null ? ` (${a.value})` : ''}`;
    if (a.source === 'temperature') return `${a.value ?? ''} ℃ ${t('dashboard.alarm.over')}`;
    if (a.source === 'alcohol') return `${a.value ?? ''} ${t('dashboard.alarm.over')}`;
    if (a.source === 'health') return t('dashboard.alarm.red');
    if (a.source === 'device') return t('dashboard.alarm.offline');
    return '';
  };
}

/** The latest alarms, newest first; a row opens the breaker, the punch list or the strangers. */
export function AlarmList({ alarms, max = 8, dark }: { alarms: DashboardAlarms['items'] | undefined; max?: number; dark?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const text = useAlarmText();
  const zone = displayTimeZone();
  const items = (alarms ?? []).slice(0, max);
  if (!items.length)
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={<span style={dark ? { color: 'rgba(255,255,255,0.6)' } : undefined}>{t('dashboard.alarm.none')}</span>}
      />
    );
  return (
    <div data-testid="dashboard-alarms">
      {items.map((a, i) => (
        <div
          key={`${a.source}-${a.punch_id ?? a.breaker_id ?? 0}-${a.at}-${i}`}
          role="link"
          tabIndex={0}
          onClick={() => void navigate(alarmLink(a))}
          onKeyDown={(e) => e.key === 'Enter' && void navigate(alarmLink(a))}
          style={{
            display: 'flex',
            gap: 8,
            alignItems: 'center',
            padding: dark ? '8px 0' : '6px 0',
            borderBottom: `1px solid ${dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.06)'}`,
            cursor: 'pointer',
            fontSize: dark ? 18 : undefined,
          }}
          data-testid="dashboard-alarm"
          data-source={a.source}
        >
          <span style={{ opacity: 0.75, minWidth: dark ? 56 : 44, fontVariantNumeric: 'tabular-nums' }}>{hm(a.at, zone)}</span>
          <Tag color={SOURCE_COLOR[a.source]} style={{ marginInlineEnd: 0 }}>
            {t(`dashboard.alarm.sources.${a.source}`)}
          </Tag>
          <span style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {a.source === 'stranger' ? t('dashboard.alarm.strangerAt', { device: a.subject }) : a.subject}
          </span>
          <span style={{ opacity: 0.8, whiteSpace: 'nowrap' }}>{text(a)}</span>
        </div>
      ))}
    </div>
  );
}

/** The latest recognitions with their capture photos (newest first). */
export function RecognitionGrid({ items, dark, columns = 4, photo = 96 }: { items: Punch[]; dark?: boolean; columns?: number; photo?: number }) {
  const { t } = useTranslation();
  const zone = displayTimeZone();
  if (!items.length)
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={<span style={dark ? { color: 'rgba(255,255,255,0.6)' } : undefined}>{t('dashboard.rec.none')}</span>}
      />
    );
  return (
    <div
      style={{ display: 'grid', gridTemplateColumns: `repeat(auto-fill, minmax(${photo}px, 1fr))`, gap: 12, maxWidth: columns * (photo + 40) }}
      data-testid="dashboard-recognitions"
    >
      {items.map((p) => (
        <div key={p.id} style={{ textAlign: 'center', minWidth: 0 }} data-testid="dashboard-recognition">
          <Image
            src={p.pic_url}
            width={photo}
            height={photo}
            style={{ objectFit: 'cover', borderRadius: 6 }}
            alt={p.name || t('dashboard.rec.stranger')}
            preview={!dark}
          />
          <div style={{ fontWeight: 500, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontSize: dark ? 16 : undefined }}>
            {p.stranger ? <Tag color="purple">{t('dashboard.rec.stranger')}</Tag> : p.name || p.number}
          </div>
          <div style={{ fontSize: dark ? 14 : 12, opacity: 0.75, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {hm(p.utc, zone)} · {p.device}
          </div>
        </div>
      ))}
    </div>
  );
}
