import { useEffect, useRef } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  breakersApi,
  messagesApi,
  TIMING,
  type AlarmListQuery,
  type Breaker,
  type BreakerCreate,
  type BreakerCreated,
  type BreakerListQuery,
  type EnergyPeriod,
  type LineUpdate,
  type PowerRange,
  type TimerCreate,
} from '@faceadmin/shared';
import { useInvalidatingMutation } from '../../lib/mutations.ts';
import { livePoll, useLiveEvent, useLiveInvalidate, useLiveOpen } from '../../lib/live.ts';
import { call } from '../../lib/request.ts';
import { useRightLevel } from '../../lib/session.ts';

export const breakerKeys = {
  all: ['breaker'] as const,
  list: (q: BreakerListQuery) => ['breaker', 'list', q] as const,
  info: (id: number) => ['breaker', 'info', id] as const,
  line: (id: number) => ['breaker', 'line', id] as const,
  power: (id: number, lineId: number | undefined, range: PowerRange) => ['breaker', 'power', id, lineId ?? 0, range] as const,
  energy: (id: number, by: EnergyPeriod) => ['breaker', 'energy', id, by] as const,
  timers: (id: number) => ['breaker', 'timers', id] as const,
  alarms: (q: AlarmListQuery) => ['breaker', 'alarms', q] as const,
};

/** The list follows presence, switches, alarms and power from the live stream (at most every 2 s); polled every 5 s while it is down. */
export function useBreakers(q: BreakerListQuery) {
  const open = useLiveOpen();
  useLiveInvalidate(['breaker', 'figures', 'alarm'], breakerKeys.list(q), 2000);
  return useQuery({
    queryKey: breakerKeys.list(q),
    queryFn: () => call(breakersApi.list, q, { inline: true }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.status === 'error' ? false : livePoll(open, 5000)),
  });
}

/**
 * One breaker with its lines, kept live by the console's stream: a `figures` or `breaker` event naming this breaker
 * refetches it (at most once a second), and `reset` too. While the stream is down the query polls every 5 s so the
 * page never goes stale; a refusal (not found, no authority) shows as the query's error and stops the polling.
 */
export function useBreakerLive(id: number) {
  const qc = useQueryClient();
  const streaming = useLiveOpen();
  const query = useQuery({
    queryKey: breakerKeys.info(id),
    queryFn: () => call(breakersApi.info, { id }, { inline: true }),
    enabled: id > 0,
    refetchInterval: (q) => (q.state.status === 'error' ? false : livePoll(streaming, 5000)),
  });
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);
  const refresh = () => {
    if (pending.current || !(id > 0)) return;
    pending.current = setTimeout(() => {
      pending.current = undefined;
      void qc.invalidateQueries({ queryKey: breakerKeys.info(id) });
    }, 1000);
  };
  useLiveEvent('figures', (e) => {
    if (e.id === id) refresh();
  });
  useLiveEvent('breaker', (e) => {
    if (e.id === id) refresh();
  });
  useLiveEvent('reset', refresh);
  return { ...query, streaming };
}

export const useLine = (id: number, live: boolean) =>
  useQuery({
    queryKey: breakerKeys.line(id),
    queryFn: () => call(breakersApi.lineInfo, { id }, { inline: true }),
    enabled: id > 0,
    refetchInterval: (q) => (q.state.status === 'error' || !live ? false : 5000),
  });

export const usePower = (id: number, lineId: number | undefined, range: PowerRange) =>
  useQuery({
    queryKey: breakerKeys.power(id, lineId, range),
    queryFn: () => call(breakersApi.power, { id, range, ...(lineId ? { line_id: lineId } : {}) }, { inline: true }),
    enabled: id > 0,
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });

export const useEnergy = (lineId: number, by: EnergyPeriod) =>
  useQuery({
    queryKey: breakerKeys.energy(lineId, by),
    queryFn: () => call(breakersApi.lineEnergy, { id: lineId, by }, { inline: true }),
    enabled: lineId > 0,
    placeholderData: keepPreviousData,
  });

export const useTimers = (breakerId: number) =>
  useQuery({
    queryKey: breakerKeys.timers(breakerId),
    queryFn: () => call(breakersApi.timers, { breaker_id: breakerId }, { inline: true }),
    enabled: breakerId > 0,
    // a timer written while the breaker was away turns synced when it comes back
    refetchInterval: (q) => (q.state.status === 'error' ? false : (q.state.data ?? []).some((x) => x.sync === 'pending') ? 5000 : 30_000),
  });

export const useAlarms = (q: AlarmListQuery, enabled = true) =>
  useQuery({
    queryKey: breakerKeys.alarms(q),
    queryFn: () => call(breakersApi.alarms, q, { inline: true }),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.status === 'error' ? false : 15_000),
  });

/** Every breaker write moves the lists, the detail, the timers and the alarms. */
const useBreakerMutation = <V, R>(fn: (v: V) => Promise<R>) => useInvalidatingMutation(fn, [breakerKeys.all], { on: 'settled' });

/** Answers the saved breaker, and for a new one its MQTT password (shown once). */
export const useSaveBreaker = () =>
  useBreakerMutation(
    async ({ id, body }: { id?: number | undefined; body: Omit<BreakerCreate, 'password'> }): Promise<{ breaker: Breaker } | BreakerCreated> =>
      id ? { breaker: await call(breakersApi.update, { id, ...body }, { silent: true }) } : call(breakersApi.create, body, { silent: true }),
  );
export const useDeleteBreaker = () => useBreakerMutation((id: number) => call(breakersApi.delete, { id }));
export const useResetPassword = () => useBreakerMutation((id: number) => call(breakersApi.password, { id }));
export const useSaveLine = () => useBreakerMutation((body: LineUpdate) => call(breakersApi.lineUpdate, body, { silent: true }));
/** Switch and self-check wait for the breaker's answer (the server gives it 5 s); an offline breaker is refused with the server's message. */
export const useSwitchLine = () => useBreakerMutation((body: { id: number; oc: 0 | 1 }) => call(breakersApi.lineSwitch, body));
export const useSelfCheck = () => useBreakerMutation((id: number) => call(breakersApi.lineSelfCheck, { id }));
export const useSaveTimer = () =>
  useBreakerMutation(({ id, body }: { id?: number | undefined; body: TimerCreate }) => {
    if (!id) return call(breakersApi.timerCreate, body, { silent: true });
    const { breaker_id: _breaker, ...rest } = body;
    return call(breakersApi.timerUpdate, { id, ...rest }, { silent: true });
  });
export const useDeleteTimer = () => useBreakerMutation((id: number) => call(breakersApi.timerDelete, { id }));

/** The newest unread messages, for the alarm ring (read only when the bell's count moved). */
export const latestUnread = () => call(messagesApi.list, { page: 1, pageSize: 20, unread: 1 }, { silent: true, timeout: TIMING.requestTimeout });

/**
 * docs/api-breakers.md: reads need the breaker right or face-device view, writes face-device edit. The menu is shown
 * to everyone (spec §6), so the pages also cope with the server's refusal.
 */
export function useBreakerRights() {
  const face = useRightLevel('face');
  const breaker = useRightLevel('breaker');
  return { canView: face.canView || breaker.canView, canEdit: face.canEdit };
}
