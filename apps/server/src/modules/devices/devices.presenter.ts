import { DEVICE_OPTION_DEFAULTS } from '@faceadmin/shared';
import { parseJson } from '../../lib/json.ts';
import type { DeviceRow } from './devices.repository.ts';

export function presentDevice(d: DeviceRow, summary: { total: number; synced: number; pending: number; failed: number }) {
  return {
    id: d.id,
    name: d.name,
    serial: d.serial,
    protocol: d.protocol,
    ip: d.ip,
    account: d.account,
    has_password: d.password !== '',
    capacity: d.capacity,
    direction: d.direction,
    version: d.firmware,
    online: d.online === 1,
    last_seen_at: d.last_seen_at,
    open_status: d.open_status,
    // spec §4: normal or abnormal — abnormal when people failed to sync or the clock is off.
    state: summary.failed > 0 || Math.abs(d.clock_drift) > 120 ? 'abnormal' : 'normal',
    attendance: d.attendance,
    attendance_scope: d.attendance_scope,
    restrict_inout: d.restrict_inout,
    upload_face_image: d.upload_face_image,
    upload_strangers: d.upload_strangers,
    function_type: d.function_type,
    tz_offset: d.tz_offset,
    user_count: d.user_count,
    clock_drift: d.clock_drift,
    options: { ...DEVICE_OPTION_DEFAULTS, ...parseJson<Record<string, unknown>>(d.options, {}) },
    special: parseJson<Record<string, unknown>>(d.special, {}),
    sync: summary,
    created_at: d.created_at,
  };
}
