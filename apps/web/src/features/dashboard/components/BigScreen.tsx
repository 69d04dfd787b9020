import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, ConfigProvider, theme } from 'antd';
import { RollbackOutlined } from '@ant-design/icons';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { dashboardApi } from '@faceadmin/shared';
import { useLiveOpen } from '../../../lib/live.ts';
import { call } from '../../../lib/request.ts';
import { useUserInfo } from '../../../lib/session.ts';
import { EChart } from '../../../ui/EChart.tsx';
import { displayTimeZone } from '../../../ui/format.ts';
import {
  dashboardKeys,
  useAlarms,
  useAttendanceToday,
  useDashboardRights,
  useDeviceFigures,
  useFlow,
  useLiveFigures,
  useRecognitions,
  useSites,
  useTrend,
} from '../api.ts';
import { bigLayout, bigSpace, bigText, resultLink, SLICES } from '../logic.ts';
import { AlarmList, AttendanceDonut, bigAxes, BigLegend, FlowChart, Legended, RecognitionGrid, TrendChart, useSliceColors } from './Blocks.tsx';
import { DARK_THEME } from '../../../ui/darkTheme.ts';

const BG = 'linear-gradient(160deg, #061329 0%, #0b2447 55%, #08172f 100%)';
const PANEL = { background: 'rgba(16, 42, 84, 0.55)', border: '1px solid rgba(64, 150, 255, 0.25)', borderRadius: 8 } as const;

/** The window's size, followed. */
function useWindowSize() {
  const [size, setSize] = useState(() => ({ w: window.innerWidth, h: window.innerHeight }));
  useEffect(() => {
    const on = () => setSize({ w: window.innerWidth, h: window.innerHeight });
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return size;
}

/** Date and time in the company's zone, ticking every second (only this re-renders). */
function Clock({ k }: { k: number }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(id);
  }, []);
  const zone = displayTimeZone();
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', weekday: undefined }).format(now);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(now);
  return (
    <div style={{ textAlign: 'right', lineHeight: 1.1 }} data-testid="bigscreen-clock">
      <div style={{ fontSize: bigText(40, k), fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>{time}</div>
      <div style={{ fontSize: bigText(18, k), opacity: 0.7 }}>{date}</div>
    </div>
  );
}

function Panel({ title, children, k, height, extra }: { title: string; children: ReactNode; k: number; height?: number; extra?: ReactNode }) {
  return (
    <div
      style={{ ...PANEL, padding: `${bigSpace(12, k)}px ${bigSpace(16, k)}px`, display: 'flex', flexDirection: 'column', minHeight: 0, minWidth: 0, height }}
      data-testid="bigscreen-panel"
    >
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', marginBottom: bigSpace(8, k) }}>
        <div style={{ fontSize: bigText(22, k), fontWeight: 600, lineHeight: 1.25, borderLeft: '4px solid #4096ff', paddingLeft: bigSpace(10, k) }}>
          {title}
        </div>
        {extra}
      </div>
      <div style={{ flex: 1, minHeight: 0, overflow: 'hidden' }}>{children}</div>
    </div>
  );
}

function Total({ label, value, to, color, k }: { label: string; value: ReactNode; to?: string; color?: string; k: number }) {
  const body = (
    <div style={{ ...PANEL, padding: `${bigSpace(14, k)}px ${bigSpace(20, k)}px`, height: '100%', boxSizing: 'border-box' }}>
      <div style={{ fontSize: bigText(18, k), opacity: 0.7, lineHeight: 1.3 }}>{label}</div>
      <div style={{ fontSize: bigText(44, k), fontWeight: 700, lineHeight: 1.25, color: color ?? '#69b1ff', fontVariantNumeric: 'tabular-nums' }}>{value}</div>
    </div>
  );
  return to ? (
    <Link to={to} style={{ color: 'inherit', display: 'block', height: '100%' }}>
      {body}
    </Link>
  ) : (
    body
  );
}

/** Online and offline devices per site (the device map's summary), or terminals and breakers when there are no sites. */
function DeviceMapSummary({ siteId, enabled, k }: { siteId: number | undefined; enabled: boolean; k: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const sites = useSites();
  const live = useLiveOpen();
  const shown = siteId ? (sites.data?.items ?? []).filter((s) => s.id === siteId) : (sites.data?.items ?? []).slice(0, 8);
  const perSite = useQueries({
    queries: shown.map((s) => ({
      queryKey: dashboardKeys.block('devices', s.id),
      queryFn: () => call(dashboardApi.devices, { site_id: s.id }, { inline: true }),
      enabled,
      refetchInterval: live ? (false as const) : 30_000,
    })),
  });
  const whole = useDeviceFigures(undefined, enabled && shown.length === 0);
  const offline = '#8c8c8c';
  const option = useMemo(() => {
    const rows =
      shown.length > 0
        ? shown.map((s, i) => {
            const d = perSite[i]?.data;
            const on = (d?.terminals?.online ?? 0) + (d?.breakers?.online ?? 0);
            const off = (d?.terminals?.offline ?? 0) + (d?.breakers?.offline ?? 0);
            return { name: s.name, on, off };
          })
        : [
            ...(whole.data?.terminals ? [{ name: t('dashboard.dev.terminals'), on: whole.data.terminals.online, off: whole.data.terminals.offline }] : []),
            ...(whole.data?.breakers ? [{ name: t('dashboard.dev.breakers'), on: whole.data.breakers.online, off: whole.data.breakers.offline }] : []),
          ];
    const axes = bigAxes(k);
    return {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, ...axes.tooltip },
      legend: { show: false },
      grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
      xAxis: { type: 'value', minInterval: 1, ...axes.xAxis },
      // a long site name breaks onto more lines instead of being cut or squeezing the bars away
      yAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: { ...axes.yAxis.axisLabel, width: bigSpace(220, k), overflow: 'break' } },
      series: [
        { name: t('dashboard.dev.online'), type: 'bar', stack: 'd', barMaxWidth: 22, itemStyle: { color: token.colorSuccess }, data: rows.map((r) => r.on) },
        { name: t('dashboard.dev.offline'), type: 'bar', stack: 'd', barMaxWidth: 22, itemStyle: { color: offline }, data: rows.map((r) => r.off) },
      ],
    };
  }, [shown, perSite, whole.data, t, token, k]);
  const legend = [
    { name: t('dashboard.dev.online'), color: token.colorSuccess },
    { name: t('dashboard.dev.offline'), color: offline },
  ];
  return (
    <Legended legend={<BigLegend big={k} items={legend} />}>
      <EChart option={option} height="100%" dark data-testid="bigscreen-devicemap" />
    </Legended>
  );
}

/**
 * The big screen (spec §2 /maininfo, /fullscreen, /spotconsoles; issues #16, #31): dark; the company and a clock,
 * totals, today's attendance, the in/out flow, alarms, devices by site and the latest recognitions, updating live.
 * It is laid out for the window it is on (logic.ts bigLayout), not one design scaled: on a wide window the panels
 * fill it without scroll bars, type follows the window's size and is never under 14 px, charts are drawn at the
 * screen's own pixels (sharp on a 4K wall); a phone or a portrait screen gets one scrolling column. `siteId` shows
 * one site's devices.
 */
export function BigScreen({ siteId, siteName, onClick, hint }: { siteId?: number; siteName?: string; onClick?: () => void; hint?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { w, h } = useWindowSize();
  const { k, narrow } = bigLayout(w, h);
  const tx = (n: number) => bigText(n, k);
  const sp = (n: number) => bigSpace(n, k);
  const user = useUserInfo().data;
  const company = user?.companys.find((c) => c.id === user.company)?.name ?? '';
  const rights = useDashboardRights();
  const live = useLiveOpen();
  useLiveFigures();
  const att = useAttendanceToday(siteId, rights.attendance);
  const trend = useTrend(siteId, rights.attendance);
  const devices = useDeviceFigures(siteId, rights.terminals || rights.breakers);
  const alarms = useAlarms(siteId, rights.attendance || rights.breakers);
  const flow = useFlow(siteId, rights.attendance);
  const rec = useRecognitions(siteId, rights.attendance, 8);
  const colors = useSliceColors();
  const d = devices.data;
  // Letter spacing suits a CJK title; it pulls a Latin one apart.
  const cjk = /^(zh|ja)/.test(i18n.language);
  // one column on a phone: each panel as tall as a chart needs
  const panelHeight = narrow ? 340 : undefined;
  const column = {
    display: 'grid',
    gridTemplateRows: narrow ? undefined : 'minmax(0, 1fr) minmax(0, 1fr)',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: sp(16),
    minHeight: 0,
    minWidth: 0,
  } as const;

  return (
    <ConfigProvider theme={DARK_THEME}>
      <div
        style={{
          position: 'fixed',
          inset: 0,
          zIndex: 1000,
          background: BG,
          color: 'rgba(255,255,255,0.9)',
          overflowX: 'hidden',
          overflowY: narrow ? 'auto' : 'hidden',
        }}
        onClick={onClick}
        data-testid="bigscreen"
        data-layout={narrow ? 'narrow' : 'wide'}
      >
        <div
          style={{
            height: narrow ? undefined : '100%',
            padding: sp(24),
            boxSizing: 'border-box',
            display: 'grid',
            gridTemplateRows: narrow ? undefined : 'auto auto minmax(0, 1fr)',
            gridTemplateColumns: 'minmax(0, 1fr)',
            gap: sp(16),
          }}
          data-testid="bigscreen-stage"
        >
          <div
            style={{
              display: 'grid',
              gridTemplateColumns: narrow ? 'minmax(0, 1fr)' : 'minmax(0, 1fr) auto minmax(0, 1fr)',
              gap: sp(24),
              alignItems: 'center',
            }}
          >
            <div
              style={{ fontSize: tx(26), fontWeight: 600, lineHeight: 1.25, overflowWrap: 'anywhere', order: narrow ? 1 : 0 }}
              data-testid="bigscreen-company"
            >
              {company}
              <div style={{ fontSize: tx(14), fontWeight: 400, opacity: 0.75 }}>
                <span
                  style={{
                    display: 'inline-block',
                    width: sp(10),
                    height: sp(10),
                    borderRadius: '50%',
                    marginRight: sp(6),
                    background: live ? '#52c41a' : '#8c8c8c',
                  }}
                />
                {t(live ? 'dashboard.live.open' : 'dashboard.live.down')}
              </div>
            </div>
            <div
              style={{
                textAlign: 'center',
                fontSize: tx(40),
                fontWeight: 700,
                lineHeight: 1.2,
                letterSpacing: cjk ? '0.1em' : undefined,
              }}
            >
              {t('dashboard.big.title')}
              {siteName ? ` · ${siteName}` : ''}
            </div>
            <div
              style={{
                display: 'flex',
                justifyContent: narrow ? 'space-between' : 'flex-end',
                alignItems: 'center',
                flexWrap: 'wrap',
                gap: sp(16),
                order: narrow ? 2 : 0,
              }}
            >
              <Clock k={k} />
              {/* a link (it can open in a new tab), drawn as a button, its words saying where it leads */}
              <Button
                href="/dashboard"
                icon={<RollbackOutlined aria-hidden />}
                onClick={(e) => {
                  e.stopPropagation();
                  if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
                  e.preventDefault();
                  void navigate('/dashboard');
                }}
                style={{ fontSize: tx(16), height: 'auto', paddingBlock: sp(6), paddingInline: sp(14) }}
                data-testid="bigscreen-exit"
              >
                {t('dashboard.big.exit')}
              </Button>
            </div>
          </div>

          {/* as many equal columns as there are totals this administrator may see (on a phone, as many as fit) */}
          <div
            style={
              narrow
                ? { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(160px, 1fr))', gap: sp(16) }
                : { display: 'grid', gridAutoFlow: 'column', gridAutoColumns: 'minmax(0, 1fr)', gap: sp(16) }
            }
          >
            {rights.attendance && <Total k={k} label={t('dashboard.big.people')} value={att.data?.people ?? '–'} />}
            {rights.attendance && (
              <Total
                k={k}
                label={`${t('dashboard.att.present')} / ${t('dashboard.att.expected')}`}
                value={att.data ? `${att.data.present + att.data.late + att.data.early} / ${att.data.expected}` : '–'}
                to={att.data ? resultLink(att.data.date) : undefined}
                color={colors.present}
              />
            )}
            {d?.terminals && (
              <Total k={k} label={t('dashboard.big.terminalsOnline')} value={`${d.terminals.online} / ${d.terminals.total}`} to="/device/list" />
            )}
            {d?.breakers && (
              <Total k={k} label={t('dashboard.big.breakersOnline')} value={`${d.breakers.online} / ${d.breakers.total}`} to="/circuitBreaker/index" />
            )}
            {flow.data?.enabled && <Total k={k} label={t('dashboard.big.insideNow')} value={flow.data.inside} color="#ffd666" />}
          </div>

          <div
            style={{
              display: 'grid',
              gridTemplateColumns: narrow ? 'minmax(0, 1fr)' : 'minmax(0, 7fr) minmax(0, 9fr) minmax(0, 7fr)',
              gap: sp(16),
              minHeight: 0,
            }}
          >
            <div style={column}>
              {rights.attendance && (
                // on a phone the donut sits above its figures, and the panel is as tall as both
                <Panel k={k} title={t('dashboard.blocks.attendance')}>
                  <div
                    style={
                      narrow
                        ? { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gridTemplateRows: '200px auto', gap: sp(8) }
                        : { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', alignItems: 'center', gap: sp(8), height: '100%' }
                    }
                  >
                    <AttendanceDonut data={att.data} big={k} />
                    <div>
                      {SLICES.map((s) => (
                        <Link
                          key={s}
                          to={att.data ? resultLink(att.data.date, s) : '/attendance/result'}
                          style={{ display: 'flex', justifyContent: 'space-between', gap: sp(12), color: 'inherit', fontSize: tx(18), padding: `${sp(4)}px 0` }}
                        >
                          <span style={{ minWidth: 0 }}>
                            <span
                              style={{ display: 'inline-block', width: sp(10), height: sp(10), borderRadius: '50%', background: colors[s], marginRight: sp(8) }}
                            />
                            {t(`dashboard.att.${s}`)}
                          </span>
                          <b style={{ fontVariantNumeric: 'tabular-nums' }}>{att.data?.[s] ?? 0}</b>
                        </Link>
                      ))}
                    </div>
                  </div>
                </Panel>
              )}
              {rights.attendance && (
                <Panel k={k} height={panelHeight} title={t('dashboard.blocks.trend')}>
                  <TrendChart items={trend.data?.items} big={k} />
                </Panel>
              )}
            </div>
            <div style={column}>
              {rights.attendance && (
                <Panel k={k} height={panelHeight} title={t('dashboard.blocks.flow')}>
                  {flow.data?.enabled ? (
                    <FlowChart flow={flow.data} big={k} />
                  ) : (
                    <div style={{ fontSize: tx(18), opacity: 0.75, padding: sp(24) }}>{t('dashboard.flow.off')}</div>
                  )}
                </Panel>
              )}
              {(rights.terminals || rights.breakers) && (
                <Panel k={k} height={panelHeight} title={t('dashboard.big.deviceMap')}>
                  <DeviceMapSummary siteId={siteId} enabled={rights.terminals || rights.breakers} k={k} />
                </Panel>
              )}
            </div>
            <div style={column}>
              {(rights.attendance || rights.breakers) && (
                <Panel k={k} height={panelHeight} title={t('dashboard.blocks.alarms')}>
                  <AlarmList alarms={alarms.data?.items} max={7} big={k} />
                </Panel>
              )}
              {rights.attendance && (
                <Panel k={k} height={panelHeight} title={t('dashboard.blocks.recognitions')}>
                  <RecognitionGrid items={rec.items} big={k} photo={Math.max(56, sp(96))} columns={4} />
                </Panel>
              )}
            </div>
          </div>
          {hint && (
            <div style={{ position: 'fixed', bottom: sp(8), left: 0, right: 0, textAlign: 'center', fontSize: tx(16), opacity: 0.75, pointerEvents: 'none' }}>
              {hint}
            </div>
          )}
        </div>
      </div>
    </ConfigProvider>
  );
}
