import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, ConfigProvider, theme } from 'antd';
import { RollbackOutlined } from '@ant-design/icons';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
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
import { DESIGN, fitScale, resultLink, SLICES } from '../logic.ts';
import { AlarmList, AttendanceDonut, FlowChart, RecognitionGrid, TrendChart, useSliceColors } from './Blocks.tsx';
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
function Clock() {
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
      <div style={{ fontSize: 40, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>{time}</div>
      <div style={{ fontSize: 18, opacity: 0.7 }}>{date}</div>
    </div>
  );
}

function Panel({ title, children, style, extra }: { title: string; children: ReactNode; style?: React.CSSProperties; extra?: ReactNode }) {
  return (
    <div style={{ ...PANEL, padding: '12px 16px', display: 'flex', flexDirection: 'column', minHeight: 0, minWidth: 0, ...style }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', marginBottom: 8 }}>
        <div style={{ fontSize: 22, fontWeight: 600, borderLeft: '4px solid #4096ff', paddingLeft: 10 }}>{title}</div>
        {extra}
      </div>
      <div style={{ flex: 1, minHeight: 0, overflow: 'hidden' }}>{children}</div>
    </div>
  );
}

function Total({ label, value, to, color }: { label: string; value: ReactNode; to?: string; color?: string }) {
  const body = (
    <div style={{ ...PANEL, padding: '14px 20px', height: '100%' }}>
      <div style={{ fontSize: 18, opacity: 0.7 }}>{label}</div>
      <div style={{ fontSize: 44, fontWeight: 700, color: color ?? '#69b1ff', fontVariantNumeric: 'tabular-nums' }}>{value}</div>
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
function DeviceMapSummary({ siteId, enabled }: { siteId: number | undefined; enabled: boolean }) {
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
    return {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0, textStyle: { fontSize: 14 } },
      grid: { left: 8, right: 24, top: 32, bottom: 8, containLabel: true },
      xAxis: { type: 'value', minInterval: 1 },
      yAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: { fontSize: 15 } },
      series: [
        { name: t('dashboard.dev.online'), type: 'bar', stack: 'd', barMaxWidth: 22, itemStyle: { color: token.colorSuccess }, data: rows.map((r) => r.on) },
        { name: t('dashboard.dev.offline'), type: 'bar', stack: 'd', barMaxWidth: 22, itemStyle: { color: '#8c8c8c' }, data: rows.map((r) => r.off) },
      ],
    };
  }, [shown, perSite, whole.data, t, token]);
  return <EChart option={option} height="100%" dark data-testid="bigscreen-devicemap" />;
}

/**
 * The big screen (spec §2 /maininfo, /fullscreen, /spotconsoles; issue #16): designed at 1920×1080 and scaled to
 * the window (letterboxed, no scroll bars), dark; the company and a clock, totals, today's attendance, the in/out
 * flow, alarms, devices by site and the latest recognitions, updating live. `siteId` shows one site's devices.
 */
export function BigScreen({ siteId, siteName, onClick, hint }: { siteId?: number; siteName?: string; onClick?: () => void; hint?: ReactNode }) {
  const { t } = useTranslation();
  const { w, h } = useWindowSize();
  const fit = fitScale(w, h);
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

  return (
    <ConfigProvider theme={DARK_THEME}>
      <div style={{ position: 'fixed', inset: 0, zIndex: 1000, background: '#000', overflow: 'hidden' }} onClick={onClick} data-testid="bigscreen">
        <div
          style={{
            position: 'absolute',
            left: fit.left,
            top: fit.top,
            width: DESIGN.width,
            height: DESIGN.height,
            transform: `scale(${fit.scale})`,
            transformOrigin: '0 0',
            background: BG,
            color: 'rgba(255,255,255,0.9)',
            padding: 24,
            boxSizing: 'border-box',
            display: 'grid',
            gridTemplateRows: '90px 130px minmax(0, 1fr)',
            gap: 16,
          }}
        >
          <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto minmax(0, 1fr)', gap: 24, alignItems: 'center' }}>
            <div style={{ fontSize: 26, fontWeight: 600, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }} data-testid="bigscreen-company">
              {company}
              <div style={{ fontSize: 14, fontWeight: 400, opacity: 0.7 }}>
                <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, marginRight: 6, background: live ? '#52c41a' : '#8c8c8c' }} />
                {t(live ? 'dashboard.live.open' : 'dashboard.live.down')}
              </div>
            </div>
            <div style={{ textAlign: 'center', fontSize: 40, fontWeight: 700, letterSpacing: 4 }}>
              {t('dashboard.big.title')}
              {siteName ? ` · ${siteName}` : ''}
            </div>
            <div style={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 16 }}>
              <Clock />
              <Link to="/dashboard" onClick={(e) => e.stopPropagation()}>
                <Button icon={<RollbackOutlined />} title={t('dashboard.big.exit')} aria-label={t('dashboard.big.exit')} data-testid="bigscreen-exit" />
              </Link>
            </div>
          </div>

          {/* as many equal columns as there are totals this administrator may see */}
          <div style={{ display: 'grid', gridAutoFlow: 'column', gridAutoColumns: 'minmax(0, 1fr)', gap: 16 }}>
            {rights.attendance && <Total label={t('dashboard.big.people')} value={att.data?.people ?? '–'} />}
            {rights.attendance && (
              <Total
                label={`${t('dashboard.att.present')} / ${t('dashboard.att.expected')}`}
                value={att.data ? `${att.data.present + att.data.late + att.data.early} / ${att.data.expected}` : '–'}
                to={att.data ? resultLink(att.data.date) : undefined}
                color={colors.present}
              />
            )}
            {d?.terminals && <Total label={t('dashboard.big.terminalsOnline')} value={`${d.terminals.online} / ${d.terminals.total}`} to="/device/list" />}
            {d?.breakers && <Total label={t('dashboard.big.breakersOnline')} value={`${d.breakers.online} / ${d.breakers.total}`} to="/circuitBreaker/index" />}
            {flow.data?.enabled && <Total label={t('dashboard.big.insideNow')} value={flow.data.inside} color="#ffd666" />}
          </div>

          <div style={{ display: 'grid', gridTemplateColumns: '560px minmax(0, 1fr) 560px', gap: 16, minHeight: 0 }}>
            <div
              style={{
                display: 'grid',
                gridTemplateRows: 'minmax(0, 1fr) minmax(0, 1fr)',
                gridTemplateColumns: 'minmax(0, 1fr)',
                gap: 16,
                minHeight: 0,
                minWidth: 0,
              }}
            >
              {rights.attendance && (
                <Panel title={t('dashboard.blocks.attendance')}>
                  <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 210px', alignItems: 'center', gap: 8, height: '100%' }}>
                    <AttendanceDonut data={att.data} dark height={330} />
                    <div>
                      {SLICES.map((s) => (
                        <Link
                          key={s}
                          to={att.data ? resultLink(att.data.date, s) : '/attendance/result'}
                          style={{ display: 'flex', justifyContent: 'space-between', gap: 8, color: 'inherit', fontSize: 18, padding: '4px 0' }}
                        >
                          <span style={{ minWidth: 0 }}>
                            <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: colors[s], marginRight: 8 }} />
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
                <Panel title={t('dashboard.blocks.trend')}>
                  <TrendChart items={trend.data?.items} dark height={310} />
                </Panel>
              )}
            </div>
            <div
              style={{
                display: 'grid',
                gridTemplateRows: 'minmax(0, 1fr) minmax(0, 1fr)',
                gridTemplateColumns: 'minmax(0, 1fr)',
                gap: 16,
                minHeight: 0,
                minWidth: 0,
              }}
            >
              {rights.attendance && (
                <Panel title={t('dashboard.blocks.flow')}>
                  {flow.data?.enabled ? (
                    <FlowChart flow={flow.data} dark height={310} />
                  ) : (
                    <div style={{ fontSize: 18, opacity: 0.7, padding: 24 }}>{t('dashboard.flow.off')}</div>
                  )}
                </Panel>
              )}
              {(rights.terminals || rights.breakers) && (
                <Panel title={t('dashboard.big.deviceMap')}>
                  <DeviceMapSummary siteId={siteId} enabled={rights.terminals || rights.breakers} />
                </Panel>
              )}
            </div>
            <div
              style={{
                display: 'grid',
                gridTemplateRows: 'minmax(0, 1fr) minmax(0, 1fr)',
                gridTemplateColumns: 'minmax(0, 1fr)',
                gap: 16,
                minHeight: 0,
                minWidth: 0,
              }}
            >
              {(rights.attendance || rights.breakers) && (
                <Panel title={t('dashboard.blocks.alarms')}>
                  <AlarmList alarms={alarms.data?.items} max={7} dark />
                </Panel>
              )}
              {rights.attendance && (
                <Panel title={t('dashboard.blocks.recognitions')}>
                  <RecognitionGrid items={rec.items} dark photo={100} columns={4} />
                </Panel>
              )}
            </div>
          </div>
          {hint && (
            <div style={{ position: 'absolute', bottom: 8, left: 0, right: 0, textAlign: 'center', fontSize: 16, opacity: 0.6, pointerEvents: 'none' }}>
              {hint}
            </div>
          )}
        </div>
      </div>
    </ConfigProvider>
  );
}
