import { useState } from 'react';
import { App, Badge, Button, Card, Empty, Image, Segmented, Space, Switch, Tag, Typography } from 'antd';
import { UnlockOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ConsoleBreaker, ConsoleLine, ConsoleTerminal, DashboardConsoles } from '@faceadmin/shared';
import { useLiveEvent, useLiveOpen } from '../../../lib/live.ts';
import { formatDateTime } from '../../../ui/format.ts';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { useSwitchLine } from '../../breakers/api.ts';
import { useConfirmPowerOff } from '../../breakers/confirmPowerOff.ts';
import { useShowOutcome } from '../../breakers/components/LineStatus.tsx';
import { awaitCommand, useOpenDoor } from '../../devices/api.ts';
import { dashboardKeys, useConsoles, useDashboardRights } from '../api.ts';

type Filter = 'all' | 'online' | 'offline';
// tiles at least 320 px wide (a date and its time on one line beside the photo), as many as fill the row
const GRID = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(320px, 100%), 1fr))', gap: 12 } as const;
/** A moment on one line, never broken inside (the tiles are wide enough; tables use DateTime's date over time). */
const Moment = ({ value }: { value: string }) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(value)}</span>;

/**
 * /consoles (spec §2 "device console", issue #16): every terminal and breaker as a live tile: online or offline,
 * the last punch (with its capture photo) or the last line change; opening a door (face edit right) and switching
 * a breaker line (switching off asks first, naming the line and the breaker). Tiles follow the live stream.
 */
export default function ConsolesPage() {
  const { t } = useTranslation();
  const rights = useDashboardRights();
  const live = useLiveOpen();
  const consoles = useConsoles();
  const qc = useQueryClient();
  const [filter, setFilter] = useState<Filter>('all');

  const patch = (fn: (d: DashboardConsoles) => DashboardConsoles) => qc.setQueryData<DashboardConsoles>(dashboardKeys.consoles, (d) => (d ? fn(d) : d));
  const patchTerminal = (id: number, fn: (x: ConsoleTerminal) => ConsoleTerminal) =>
    patch((d) => ({ ...d, terminals: d.terminals?.map((x) => (x.id === id ? fn(x) : x)) ?? null }));
  useLiveEvent('device', (e) => patchTerminal(e.id, (x) => ({ ...x, online: e.online, last_seen_at: e.at })));
  useLiveEvent('punch', (p) =>
    patchTerminal(p.device_id, (x) => ({
      ...x,
      online: true,
      last_punch: {
        id: p.id,
        name: p.name,
        number: p.number,
        utc: p.utc,
        pic_url: p.pic_url || (x.last_punch?.id === p.id ? x.last_punch.pic_url : ''),
        stranger: p.stranger,
      },
    })),
  );
  useLiveEvent('photo', (p) =>
    patch((d) => ({
      ...d,
      terminals: d.terminals?.map((x) => (x.last_punch?.id === p.id ? { ...x, last_punch: { ...x.last_punch, pic_url: p.pic_url } } : x)) ?? null,
    })),
  );
  useLiveEvent('breaker', (e) =>
    patch((d) => ({
      ...d,
      breakers:
        d.breakers?.map((b) =>
          b.id !== e.id
            ? b
            : {
                ...b,
                online: e.online,
                lines: b.lines.map((l) => {
                  const c = e.lines.find((x) => x.id === l.id);
                  return c ? { ...l, oc: c.oc, alarm: c.alarm, updated_at: new Date().toISOString() } : l;
                }),
              },
        ) ?? null,
    })),
  );
  // A terminal's answer to a door opening (from here or anywhere) shows on its tile; the opener's own toast says it too.
  const [answers, setAnswers] = useState<Record<number, boolean>>({});
  useLiveEvent('command', (c) => {
    if (c.kind === 'unlock') setAnswers((a) => ({ ...a, [c.device_id]: c.ok }));
  });

  const keep = <T extends { online: boolean }>(xs: T[] | null | undefined) => (xs ?? []).filter((x) => filter === 'all' || x.online === (filter === 'online'));
  const terminals = keep(consoles.data?.terminals);
  const breakers = keep(consoles.data?.breakers);
  const d = consoles.data;

  if (!rights.terminals && !rights.breakers) return <Empty description={t('dashboard.consoles.noRights')} />;
  if (consoles.error && !d) return <ErrorState error={consoles.error} onRetry={consoles.refetch} retrying={consoles.isFetching} />;

  return (
    <div data-testid="consoles">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('dashboard.consoles.title')}
        </Typography.Title>
        <Space wrap>
          <Segmented<Filter>
            value={filter}
            onChange={setFilter}
            options={[
              { value: 'all', label: t('dashboard.consoles.all') },
              { value: 'online', label: t('dashboard.consoles.onlineOnly') },
              { value: 'offline', label: t('dashboard.consoles.offlineOnly') },
            ]}
            data-testid="consoles-filter"
          />
          <Badge status={live ? 'processing' : 'default'} text={t(live ? 'dashboard.live.open' : 'dashboard.live.down')} />
        </Space>
      </Space>
      {consoles.error && <ErrorState compact error={consoles.error} onRetry={consoles.refetch} retrying={consoles.isFetching} />}
      {d?.terminals && (
        <Card title={<Link to="/device/list">{t('dashboard.consoles.terminals')}</Link>} loading={consoles.isPending} style={{ marginBottom: 16 }}>
          {terminals.length ? (
            <div style={GRID}>
              {terminals.map((x) => (
                <TerminalTile
                  key={x.id}
                  terminal={x}
                  canOpen={rights.openDoor}
                  answer={answers[x.id]}
                  onAnswer={(ok) => setAnswers((a) => ({ ...a, [x.id]: ok }))}
                />
              ))}
            </div>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.consoles.none')} />
          )}
        </Card>
      )}
      {d?.breakers && (
        <Card title={<Link to="/circuitBreaker/index">{t('dashboard.consoles.breakers')}</Link>} loading={consoles.isPending}>
          {breakers.length ? (
            <div style={GRID}>
              {breakers.map((b) => (
                <BreakerTile key={b.id} breaker={b} canSwitch={rights.switchLine} />
              ))}
            </div>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.consoles.none')} />
          )}
        </Card>
      )}
    </div>
  );
}

const tileStyle = (online: boolean) => ({ borderLeft: `4px solid ${online ? '#52c41a' : '#bfbfbf'}`, opacity: online ? 1 : 0.85 });

function OnlineTag({ online }: { online: boolean }) {
  const { t } = useTranslation();
  return <Tag color={online ? 'success' : 'default'}>{t(online ? 'dashboard.dev.online' : 'dashboard.dev.offline')}</Tag>;
}

function TerminalTile({
  terminal: x,
  canOpen,
  answer,
  onAnswer,
}: {
  terminal: ConsoleTerminal;
  canOpen: boolean;
  answer: boolean | undefined;
  onAnswer: (ok: boolean) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const openDoor = useOpenDoor();
  const p = x.last_punch;

  /** Queued at once; the terminal's answer follows at its next poll (or as a live `command` event). */
  const open = async () => {
    const key = `open-${x.id}`;
    try {
      let r = await openDoor.mutateAsync(x.id);
      if (r.state === 'pending') {
        message.open({ key, type: 'loading', content: t('device.result.sentWaiting', { name: x.name }), duration: 0 });
        for (let round = 0; round < 3 && r.state === 'pending'; round++) r = await awaitCommand(r.command_id);
        message.destroy(key);
      }
      if (r.state === 'pending') void message.warning(t('device.result.noAnswer', { name: x.name }));
      else if (r.state === 'success') {
        onAnswer(true);
        void message.success(t('device.result.opened'));
      } else {
        onAnswer(false);
        void message.error(t('device.result.failure', { reason: r.message || String(r.code ?? '') }));
      }
    } catch {
      message.destroy(key);
      // shown by the API client
    }
  };

  return (
    <Card size="small" style={tileStyle(x.online)} data-testid="console-terminal" data-online={String(x.online)}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
        <Typography.Text strong style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {x.name}
        </Typography.Text>
        <Space size={0}>
          {answer !== undefined && (
            <Tag color={answer ? 'success' : 'error'} data-testid="console-door-answer">
              {t(answer ? 'dashboard.consoles.doorOpened' : 'dashboard.consoles.doorRefused')}
            </Tag>
          )}
          <Tag>{t(x.direction === 'out' ? 'dashboard.consoles.exit' : 'dashboard.consoles.entrance')}</Tag>
          <OnlineTag online={x.online} />
        </Space>
      </div>
      <div style={{ display: 'flex', gap: 12, marginTop: 8, minHeight: 72 }}>
        {p?.pic_url ? (
          <Image
            src={p.pic_url}
            width={72}
            height={72}
            style={{ objectFit: 'cover', borderRadius: 4 }}
            alt={p.stranger ? t('dashboard.rec.stranger') : p.name || p.number}
          />
        ) : (
          <div style={{ width: 72, height: 72, borderRadius: 4, background: 'rgba(0,0,0,0.04)' }} />
        )}
        <div style={{ minWidth: 0, flex: 1, fontSize: 13 }}>
          <div style={{ opacity: 0.75 }}>{t('dashboard.consoles.lastPunch')}</div>
          {p ? (
            <>
              <div style={{ fontWeight: 500 }}>{p.stranger ? <Tag color="purple">{t('dashboard.rec.stranger')}</Tag> : p.name || p.number}</div>
              <div>
                <Moment value={p.utc} />
              </div>
            </>
          ) : (
            <div>{t('dashboard.consoles.noPunch')}</div>
          )}
          <div style={{ opacity: 0.75, marginTop: 4 }}>
            <div>{t('dashboard.consoles.lastSeen')}</div>
            <div>{x.last_seen_at ? <Moment value={x.last_seen_at} /> : t('dashboard.consoles.never')}</div>
          </div>
        </div>
      </div>
      {canOpen && (
        <Button
          block
          size="small"
          icon={<UnlockOutlined />}
          style={{ marginTop: 8 }}
          loading={openDoor.isPending}
          disabled={!x.online}
          onClick={() => void open()}
          data-testid="console-open-door"
        >
          {t('dashboard.consoles.openDoor')}
        </Button>
      )}
    </Card>
  );
}

function BreakerTile({ breaker: b, canSwitch }: { breaker: ConsoleBreaker; canSwitch: boolean }) {
  const { t } = useTranslation();
  const lastChange = b.lines.reduce<string | null>((m, l) => (l.updated_at && (!m || l.updated_at > m) ? l.updated_at : m), null);
  return (
    <Card size="small" style={tileStyle(b.online)} data-testid="console-breaker" data-online={String(b.online)}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
        <Link to={`/circuitBreaker/${b.id}`} style={{ flex: 1, minWidth: 0 }}>
          <Typography.Text strong style={{ overflowWrap: 'anywhere' }}>
            {b.name}
          </Typography.Text>
        </Link>
        <OnlineTag online={b.online} />
      </div>
      <div style={{ marginTop: 8 }}>
        {b.lines.length ? (
          b.lines.map((l) => <LineRow key={l.id} line={l} breaker={b} canSwitch={canSwitch} />)
        ) : (
          <Typography.Text type="secondary">{t('dashboard.consoles.noLines')}</Typography.Text>
        )}
      </div>
      <div style={{ fontSize: 12, opacity: 0.75, marginTop: 6 }}>
        {t('dashboard.consoles.lastChange')} {lastChange ? <Moment value={lastChange} /> : t('dashboard.consoles.never')}
      </div>
    </Card>
  );
}

function LineRow({ line: l, breaker: b, canSwitch }: { line: ConsoleLine; breaker: ConsoleBreaker; canSwitch: boolean }) {
  const { t } = useTranslation();
  const confirmOff = useConfirmPowerOff();
  const toggle = useSwitchLine();
  const show = useShowOutcome();
  const qc = useQueryClient();
  const switching = toggle.isPending && toggle.variables?.id === l.id;
  const send = async (oc: 0 | 1) => {
    try {
      const r = await toggle.mutateAsync({ id: l.id, oc });
      show(r);
      // the breaker's answer is the line's state now: the tile shows it without waiting for the stream
      qc.setQueryData<DashboardConsoles>(dashboardKeys.consoles, (d) =>
        d
          ? {
              ...d,
              breakers:
                d.breakers?.map((x) =>
                  x.id !== b.id ? x : { ...x, lines: x.lines.map((y) => (y.id === l.id ? { ...y, oc: r.oc, updated_at: new Date().toISOString() } : y)) },
                ) ?? null,
            }
          : d,
      );
    } catch {
      // refused (offline, no authority): the API client showed the server's message
    }
  };
  const onChange = (on: boolean) => {
    if (on) return void send(1);
    // switching a line off cuts its power: the one confirmation of the breakers feature, naming the line and the breaker
    confirmOff({ kind: 'now', breaker: b.name, lines: [l.title || `#${l.addr}`] }, () => send(0));
  };
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '3px 0' }} data-testid="console-line">
      <span style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {l.addr}. {l.title}
      </span>
      {l.alarm && <Tag color="red">{t(`breaker.alarmTypes.${l.alarm}`, { defaultValue: l.alarm })}</Tag>}
      <Switch
        size="small"
        checked={l.oc === 1}
        loading={switching}
        disabled={!canSwitch || !b.online}
        checkedChildren={t('breaker.switch.on')}
        unCheckedChildren={t('breaker.switch.off')}
        onChange={onChange}
        data-testid="console-line-switch"
      />
    </div>
  );
}
