import { DEVICE_OPTION_DEFAULTS } from '@faceadmin/shared';
import { parseJson } from '../../lib/json.ts';
import type { DeviceRow } from './devices.repository.ts';

/** Our setting keys by the names terminals report them under (ZK PUSH INFO and options; the first found wins). */
const REPORTED_AS: Record<string, string[]> = {
  net_ip: ['IPAddress', '~IPAddress'],
  net_mask: ['NetMask', 'Netmask', 'SubnetMask'],
  net_gateway: ['GATEIPAddress', 'Gateway', 'GateWay'],
  wiegand_type: ['WiegandFmt', '~WiegandFmt'],
  IOStayTime: ['IOStayTime'],
  LiveThreshold: ['LiveThreshold'],
  LiveFrameNum: ['LiveFrameNum'],
  LedLightType: ['LedLightType'],
  LedTime: ['LedTime'],
  LedBrightness: ['LedBrightness'],
};

/** The settings a terminal has reported (its INFO answer and pushed options), by our keys. */
export function reportedSettings(info: string): Record<string, string> {
  const facts = parseJson<Record<string, unknown>>(info, {});
  const pool: Record<string, unknown> = {};
  for (const part of ['options', 'device']) Object.assign(pool, (facts[part] as Record<string, unknown> | undefined) ?? {});
  const out: Record<string, string> = {};
  for (const [key, names] of Object.entries(REPORTED_AS)) {
    const found = names.map((n) => pool[n]).find((v) => typeof v === 'string' && v !== '');
    if (typeof found === 'string') out[key] = found;
  }
  return out;
}

/**
 * The last connection failure a dialled terminal's delivery reported (`connection.error` in its facts: the
 * protocol's result code), 0 for none.
 */
export function connectionError(info: string): number {
  const code = parseJson<{ connection?: { error?: unknown } } | null>(info, {})?.connection?.error;
  return typeof code === 'number' ? code : 0;
}

/** Until when the connection's problem lasts, when the terminal said (a locked account: `connection.until`). */
export function connectionUntil(info: string): string | undefined {
  const until = parseJson<{ connection?: { until?: unknown } } | null>(info, {})?.connection?.until;
  return typeof until === 'string' && Number.isFinite(Date.parse(until)) ? until : undefined;
}

/** The model a terminal reported of itself (`model` in its facts), '' when none. */
function modelOf(info: string): string {
  const model = parseJson<{ model?: unknown } | null>(info, {})?.model;
  return typeof model === 'string' ? model : '';
}

/** `problem`: the meaning of `connectionError`, in the reader's language ('' when none). */
export function presentDevice(d: DeviceRow, summary: { total: number; synced: number; pending: number; failed: number }, problem = '') {
  return {
    id: d.id,
    name: d.name,
    serial: d.serial,
    protocol: d.protocol,
    ip: d.ip,
    port: d.port,
    account: d.account,
    has_password: d.password !== '',
    model: modelOf(d.info),
    problem,
    capacity: d.capacity,
    direction: d.direction,
    version: d.firmware,
    online: d.online === 1,
    last_seen_at: d.last_seen_at,
    open_status: d.open_status,
    // spec §4: normal or abnormal — abnormal when people failed to sync, the clock is off, or the server cannot
    // work with the terminal (a refused password).
    state: summary.failed > 0 || Math.abs(d.clock_drift) > 120 || problem !== '' ? 'abnormal' : 'normal',
    attendance: d.attendance,
    attendance_scope: d.attendance_scope,
    restrict_inout: d.restrict_inout,
    upload_face_image: d.upload_face_image,
    upload_strangers: d.upload_strangers,
    function_type: d.function_type,
    tz_offset: d.tz_offset,
    user_count: d.user_count,
    user_count_at: d.user_count_at,
    clock_drift: d.clock_drift,
    reported: reportedSettings(d.info),
    reported_at: d.reported_at,
    options: { ...DEVICE_OPTION_DEFAULTS, ...parseJson<Record<string, unknown>>(d.options, {}) },
    special: parseJson<Record<string, unknown>>(d.special, {}),
    sync: summary,
    created_at: d.created_at,
  };
}
