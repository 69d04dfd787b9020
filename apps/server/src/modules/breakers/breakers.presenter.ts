import type {
  AlarmType,
  Breaker,
  BreakerAlarm,
  BreakerLine,
  Language,
  LineType,
  SelfCheckState,
  Timer,
  TimerAction,
  TimerSyncState,
  TimerType,
} from '@faceadmin/shared';
import { t } from '../../i18n/i18n.ts';
import { parseJson } from '../../lib/json.ts';
import type { BreakerRow, LineRow, TimerRow } from './breakers.repository.ts';

/** Rows → API shapes; password hashes and the broker's hash never leave. */

export function presentBreaker(row: BreakerRow, figures: { power: number; alarms: number } | undefined): Breaker {
  return {
    id: row.id,
    alias: row.alias,
    uuid: row.uuid,
    sort: row.sort,
    linenum: row.linenum,
    online: Boolean(row.online),
    last_seen_at: row.last_seen_at,
    power: figures?.power ?? 0,
    alarms: figures?.alarms ?? 0,
    created_at: row.created_at,
  };
}

const r2 = (n: number) => Math.round(Number(n) * 100) / 100;

export function presentLine(row: LineRow, online: boolean): BreakerLine {
  return {
    id: row.id,
    breaker_id: row.breaker_id,
    addr: row.addr,
    title: row.title,
    main: row.main,
    line_type: row.line_type as LineType,
    mxgg: row.mxgg,
    mxgl: row.mxgl,
    limits_synced: Boolean(row.limits_synced),
    oc: row.oc,
    online,
    power: r2(row.power),
    current: r2(row.current),
    voltage: r2(row.voltage),
    energy: Math.round(Number(row.energy_wh)) / 1000,
    temperature: row.temperature === null ? null : r2(row.temperature),
    leakage: r2(row.leakage),
    alarm: (row.alarm as AlarmType | null) ?? null,
    selfcheck: row.selfcheck as SelfCheckState,
    selfcheck_at: row.selfcheck_at,
    updated_at: row.updated_at,
  };
}

export function presentTimer(lang: Language, row: TimerRow, titles: Map<number, string>): Timer {
  const lineIds = parseJson<number[]>(row.line_ids, []);
  return {
    id: row.id,
    breaker_id: row.breaker_id,
    type: row.type as TimerType,
    line_ids: lineIds,
    line_titles: lineIds.map((id) => titles.get(id) ?? ''),
    day: row.day,
    time: row.time,
    weekdays: parseJson<number[]>(row.weekdays, []),
    action: row.action as TimerAction,
    enabled: Boolean(row.enabled),
    updated_at: row.updated_at,
    sync: row.sync as TimerSyncState,
    sync_error: row.sync_error ? t(lang, row.sync_error) : '',
  };
}

export function presentAlarm(row: {
  id: number;
  breaker_id: number;
  breaker_alias: string;
  breaker_uuid: string;
  line_id: number | null;
  line_title: string | null;
  type: string;
  value: number | null;
  at: string;
  cleared_at: string | null;
}): BreakerAlarm {
  return {
    id: row.id,
    breaker_id: row.breaker_id,
    breaker_alias: row.breaker_alias || row.breaker_uuid,
    line_id: row.line_id,
    line_title: row.line_title ?? '',
    type: row.type as AlarmType,
    value: row.value === null ? null : r2(row.value),
    at: row.at,
    cleared_at: row.cleared_at,
  };
}
