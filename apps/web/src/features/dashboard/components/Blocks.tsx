import { useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import { Empty, Image, Tag, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { DashboardAlarms, DashboardAttendance, DashboardFlow, LiveAlarm, Punch, TrendDay } from '@faceadmin/shared';
import { EChart } from '../../../ui/EChart.tsx';
import { displayTimeZone } from '../../../ui/format.ts';
import { alarmLink, bigSpace, bigText, hm, resultLink, SLICES, type Slice } from '../logic.ts';

/**
 * The dashboard's blocks, shared by /dashboard (light, in cards) and the big screens (dark, in panels): each draws
 * one answer of GET /dashboard/* and opens the list behind what is clicked. `big` is the big screen's share of its
 * 1920×1080 design (logic.ts bigLayout): given, a block is drawn dark, its type sized for the window (never under
 * 14 px), its legend written out whole above the chart (a wall screen cannot page one), names wrapping instead of cut.
 */

/** A chart's legend as text: every entry shown, wrapping onto more lines when they do not fit (never paged). */
export function BigLegend({ items, big }: { items: { name: string; color: string }[]; big: number }) {
  return (
    <div
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'center',
        columnGap: bigSpace(20, big),
        rowGap: 2,
        fontSize: bigText(16, big),
        lineHeight: 1.3,
      }}
      data-testid="bigscreen-legend"
    >
      {items.map((i) => (
        <span key={i.name} style={{ display: 'inline-flex', alignItems: 'center', gap: 6, opacity: 0.85 }}>
          <span aria-hidden style={{ width: bigText(14, big), height: bigText(10, big), borderRadius: 2, background: i.color, flex: 'none' }} />
          {i.name}
        </span>
      ))}
    </div>
  );
}

/** A chart under its legend, filling what is left of its panel. */
export function Legended({ legend, children }: { legend: ReactNode; children: ReactNode }) {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%', gap: 4 }}>
      {legend}
      <div style={{ flex: 1, minHeight: 0 }}>{children}</div>
    </div>
  );
}

/**
 * On the big screen a list shows only the items that fit its panel whole: a guard reads whole names, never half a
 * row cut by the panel's edge. The items below are hidden (and out of the accessibility tree), again on every resize.
 */
function useWholeItems<T extends HTMLElement>(enabled: boolean, itemsKey: string) {
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    const list = ref.current;
    const box = list?.parentElement;
    if (!enabled || !list || !box) return;
    const fit = () => {
      const items = Array.from(list.children) as HTMLElement[];
      for (const item of items) item.style.visibility = '';
      // measured once all are shown (visibility moves nothing), then hidden
      const bottom = box.getBoundingClientRect().bottom;
      const over = items.filter((item) => item.getBoundingClientRect().bottom > bottom + 0.5);
      for (const item of over) item.style.visibility = 'hidden';
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(box);
    observer.observe(list);
    return () => observer.disconnect();
  }, [enabled, itemsKey]);
  return ref;
}

/** The axes' and tooltip's type on the big screen. */
export const bigAxes = (big: number) => {
  const label = { axisLabel: { fontSize: bigText(16, big) } };
  return { xAxis: label, yAxis: label, tooltip: { textStyle: { fontSize: bigText(16, big) } } };
};

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
  big,
  height = 260,
  loading,
}: {
  data: DashboardAttendance | undefined;
  big?: number;
  /** on the big screen the donut fills its box */
  height?: number;
  loading?: boolean;
}) {
  const dark = big !== undefined;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const colors = useSliceColors();
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)', ...(big ? { textStyle: { fontSize: bigText(16, big) } } : {}) },
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
    [data, colors, t, dark, big],
  );
  return (
    <div style={{ position: 'relative', height: dark ? '100%' : undefined }} data-testid="dashboard-donut">
      <EChart
        option={option}
        height={dark ? '100%' : height}
        dark={dark}
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
          top: dark ? '50%' : `calc(${height * 0.5}px - 24px)`,
          transform: dark ? 'translateY(-50%)' : undefined,
          textAlign: 'center',
          pointerEvents: 'none',
        }}
      >
        <div style={{ fontSize: big ? bigText(40, big) : 28, fontWeight: 600, lineHeight: 1.1 }} data-testid="dashboard-expected">
          {data?.expected ?? '–'}
        </div>
        <div style={{ fontSize: big ? bigText(16, big) : 12, opacity: 0.75 }}>{t('dashboard.att.expected')}</div>
      </div>
    </div>
  );
}

/** The last 30 days' results as stacked bars per day. */
const TREND_KINDS = ['present', 'late', 'early', 'absent', 'leave'] as const;
export function TrendChart({ items, big, height = 260, loading }: { items: TrendDay[] | undefined; big?: number; height?: number; loading?: boolean }) {
  const { t } = useTranslation();
  const colors = useSliceColors();
  const option = useMemo(() => {
    const days = items ?? [];
    const kinds = TREND_KINDS;
    const axes = big ? bigAxes(big) : undefined;
    return {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, ...axes?.tooltip },
      legend: big ? { show: false } : { top: 0, type: 'scroll' },
      grid: { left: 8, right: 8, top: big ? 8 : 36, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: days.map((d) => d.date.slice(5)), ...axes?.xAxis },
      yAxis: { type: 'value', minInterval: 1, ...axes?.yAxis },
      series: kinds.map((k) => ({
        name: t(`dashboard.att.${k}`),
        type: 'bar',
        stack: 'day',
        barMaxWidth: 18,
        itemStyle: { color: colors[k] },
        data: days.map((d) => d[k]),
      })),
    };
  }, [items, colors, t, big]);
  if (big === undefined) return <EChart option={option} height={height} loading={loading ?? false} data-testid="dashboard-trend" />;
  return (
    <Legended legend={<BigLegend big={big} items={TREND_KINDS.map((k) => ({ name: t(`dashboard.att.${k}`), color: colors[k] }))} />}>
      <EChart option={option} height="100%" dark loading={loading ?? false} data-testid="dashboard-trend" />
    </Legended>
  );
}

/** Entries and exits per hour today (bars); a bar opens the punch list. */
export function FlowChart({ flow, big, height = 240, loading }: { flow: DashboardFlow | undefined; big?: number; height?: number; loading?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const option = useMemo(() => {
    const hours = flow?.hours ?? [];
    const axes = big ? bigAxes(big) : undefined;
    return {
      tooltip: { trigger: 'axis', ...axes?.tooltip },
      legend: big ? { show: false } : { top: 0 },
      grid: { left: 8, right: 8, top: big ? 8 : 32, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: hours.map((h) => t('dashboard.flow.hour', { hour: String(h.hour).padStart(2, '0') })), ...axes?.xAxis },
      yAxis: { type: 'value', minInterval: 1, ...axes?.yAxis },
      series: [
        { name: t('dashboard.flow.in'), type: 'bar', barMaxWidth: 14, itemStyle: { color: token.colorPrimary }, data: hours.map((h) => h.in) },
        { name: t('dashboard.flow.out'), type: 'bar', barMaxWidth: 14, itemStyle: { color: token.colorWarning }, data: hours.map((h) => h.out) },
      ],
    };
  }, [flow, t, token, big]);
  const chart = (
    <EChart
      option={option}
      height={big === undefined ? height : '100%'}
      dark={big !== undefined}
      loading={loading ?? false}
      onClick={() => void navigate('/attendance/list')}
      data-testid="dashboard-flow"
    />
  );
  if (big === undefined) return chart;
  const legend = [
    { name: t('dashboard.flow.in'), color: token.colorPrimary },
    { name: t('dashboard.flow.out'), color: token.colorWarning },
  ];
  return <Legended legend={<BigLegend big={big} items={legend} />}>{chart}</Legended>;
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
export function AlarmList({ alarms, max = 8, big }: { alarms: DashboardAlarms['items'] | undefined; max?: number; big?: number }) {
  const dark = big !== undefined;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const text = useAlarmText();
  const zone = displayTimeZone();
  const items = (alarms ?? []).slice(0, max);
  const whole = useWholeItems<HTMLDivElement>(dark, items.map((a) => `${a.source}/${a.at}/${a.subject}`).join('|'));
  if (!items.length)
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={<span style={big ? { color: 'rgba(255,255,255,0.6)', fontSize: bigText(18, big) } : undefined}>{t('dashboard.alarm.none')}</span>}
      />
    );
  return (
    <div ref={whole} data-testid="dashboard-alarms">
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
            padding: big ? `${bigSpace(8, big)}px 0` : '6px 0',
            borderBottom: `1px solid ${dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.06)'}`,
            cursor: 'pointer',
            fontSize: big ? bigText(18, big) : undefined,
          }}
          data-testid="dashboard-alarm"
          data-source={a.source}
        >
          <span style={{ opacity: 0.75, minWidth: dark ? '3.2em' : 44, fontVariantNumeric: 'tabular-nums' }}>{hm(a.at, zone)}</span>
          <Tag color={SOURCE_COLOR[a.source]} style={{ marginInlineEnd: 0, ...(big ? { fontSize: bigText(14, big), lineHeight: 1.5 } : {}) }}>
            {t(`dashboard.alarm.sources.${a.source}`)}
          </Tag>
          {/* on the big screen a long name takes a second line instead of being cut */}
          <span
            style={
              dark
                ? { flex: 1, minWidth: 0, overflowWrap: 'anywhere' }
                : { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }
            }
          >
            {a.source === 'stranger' ? t('dashboard.alarm.strangerAt', { device: a.subject }) : a.subject}
          </span>
          <span style={{ opacity: 0.8, whiteSpace: 'nowrap' }}>{text(a)}</span>
        </div>
      ))}
    </div>
  );
}

/** The latest recognitions with their capture photos (newest first). */
export function RecognitionGrid({ items, big, columns = 4, photo = 96 }: { items: Punch[]; big?: number; columns?: number; photo?: number }) {
  const dark = big !== undefined;
  // on the big screen names and places wrap instead of being cut (and only the recognitions that fit whole are shown)
  const line = dark ? ({ overflowWrap: 'anywhere' } as const) : ({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const);
  const whole = useWholeItems<HTMLDivElement>(dark, items.map((p) => `${p.id}/${p.pic_url}`).join('|'));
  const { t } = useTranslation();
  const zone = displayTimeZone();
  if (!items.length)
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={<span style={big ? { color: 'rgba(255,255,255,0.6)', fontSize: bigText(18, big) } : undefined}>{t('dashboard.rec.none')}</span>}
      />
    );
  return (
    <div
      ref={whole}
      style={{
        display: 'grid',
        gridTemplateColumns: `repeat(auto-fill, minmax(${photo}px, 1fr))`,
        gap: big ? bigSpace(12, big) : 12,
        maxWidth: columns * (photo + 40),
      }}
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
          <div style={{ fontWeight: 500, ...line, fontSize: big ? bigText(16, big) : undefined }}>
            {p.stranger ? (
              <Tag color="purple" style={big ? { fontSize: bigText(14, big), lineHeight: 1.5, marginInlineEnd: 0 } : undefined}>
                {t('dashboard.rec.stranger')}
              </Tag>
            ) : (
              p.name || p.number
            )}
          </div>
          <div style={{ fontSize: big ? bigText(14, big) : 12, opacity: 0.75, ...line }}>
            {hm(p.utc, zone)} · {p.device}
          </div>
        </div>
      ))}
    </div>
  );
}
