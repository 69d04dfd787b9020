import {
  ALCOHOL_ACTIONS,
  ALCOHOL_UNITS,
  DEVICE_OPTION_DEFAULTS,
  DEVICE_OPTION_RANGES,
  DEVICE_SPECIAL_RANGES,
  LIMITS,
  OPEN_TYPES,
  WIEGAND_FORMS,
} from '@faceadmin/shared';
import { Type } from 'typebox';
import { Flag, Id, Nullable, Page, PageQuery } from '../../lib/schemas.ts';

const range = ([minimum, maximum]: readonly [number, number]) => Type.Optional(Type.Integer({ minimum, maximum }));
const ranged = <K extends string>(ranges: Record<K, readonly [number, number]>) =>
  Object.fromEntries(Object.entries(ranges).map(([k, r]) => [k, range(r as readonly [number, number])])) as Record<K, ReturnType<typeof range>>;

/** spec §3 "Device options" with the ranges of spec §5/§9 (packages/shared, the form uses the same). */
export const DeviceOptions = Type.Object({
  ...ranged(DEVICE_OPTION_RANGES),
  alarmTemp: Type.Optional(Type.Number({ minimum: DEVICE_OPTION_RANGES.alarmTemp[0], maximum: DEVICE_OPTION_RANGES.alarmTemp[1] })),
  openType: Type.Optional(Type.Enum([...OPEN_TYPES])),
  wiegand_form: Type.Optional(Type.Enum([...WIEGAND_FORMS])),
  wiegand_inout: Type.Optional(Type.Enum(['in', 'out'])),
  timemode: Type.Optional(Type.Enum(['12', '24'])),
  alcohol_over_action: Type.Optional(Type.Enum([...ALCOHOL_ACTIONS])),
  alcohol_unit: Type.Optional(Type.Enum([...ALCOHOL_UNITS])),
});
export const DEFAULT_OPTIONS = DEVICE_OPTION_DEFAULTS;

const Ipv4 = Type.Optional(Type.String({ maxLength: 45, pattern: '^$|^(\\d{1,3}\\.){3}\\d{1,3}$' }));
/** spec §3 "Special device settings". */
export const DeviceSpecial = Type.Object({
  ...ranged(DEVICE_SPECIAL_RANGES),
  wiegand_type: Type.Optional(Type.Enum([...WIEGAND_FORMS])),
  net_ip: Ipv4,
  net_mask: Ipv4,
  net_gateway: Ipv4,
});

const SyncSummary = Type.Object({ total: Type.Integer(), synced: Type.Integer(), pending: Type.Integer(), failed: Type.Integer() });
export const DeviceSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  serial: Type.String(),
  protocol: Type.String(),
  ip: Type.String(),
  account: Type.String(),
  has_password: Type.Boolean(),
  capacity: Type.Integer(),
  direction: Type.String(),
  version: Type.String(),
  online: Type.Boolean(),
  last_seen_at: Nullable(Type.String()),
  open_status: Type.String(),
  state: Type.String(),
  attendance: Type.Integer(),
  attendance_scope: Type.String(),
  restrict_inout: Type.Integer(),
  upload_face_image: Type.Integer(),
  upload_strangers: Type.Integer(),
  function_type: Type.String(),
  tz_offset: Type.Integer(),
  user_count: Type.Integer(),
  clock_drift: Type.Integer(),
  options: Type.Record(Type.String(), Type.Any()),
  special: Type.Record(Type.String(), Type.Any()),
  sync: SyncSummary,
  created_at: Type.String(),
});

/** spec §5: name, serial, IP and device password are required. */
const fields = {
  name: Type.String({ minLength: 1, maxLength: 60 }),
  serial: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9]+$' }),
  ip: Type.String({ minLength: 1, maxLength: 45, pattern: '^(\\d{1,3}\\.){3}\\d{1,3}$|^[0-9a-fA-F:]+$' }),
  account: Type.Optional(Type.String({ maxLength: 40 })),
  password: Type.String({ minLength: 1, maxLength: 40 }),
  capacity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  direction: Type.Optional(Type.Enum(['in', 'out'])),
  attendance: Type.Optional(Flag),
  attendance_scope: Type.Optional(Type.Enum(['selected', 'all'])),
  restrict_inout: Type.Optional(Flag),
  upload_face_image: Type.Optional(Flag),
  upload_strangers: Type.Optional(Flag),
  function_type: Type.Optional(Type.Enum(['attendance', 'dualAuth'])),
  tz_offset: Type.Optional(Type.Integer({ minimum: -720, maximum: 840 })),
};
export const DeviceCreate = Type.Object(fields);
/** On edit a blank password keeps the stored one. */
export const DeviceUpdate = Type.Object({ id: Id, ...fields, password: Type.Optional(Type.String({ maxLength: 40 })) });
export const DeviceListQuery = Type.Object({ ...PageQuery, keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })), online: Type.Optional(Flag) });
export const DevicePage = Page(DeviceSchema);
export const OptionsBody = Type.Object({ id: Id, options: Type.Optional(DeviceOptions), special: Type.Optional(DeviceSpecial) });
export const QueuedData = Type.Object({ queued: Type.Integer() });
export const CommandBody = Type.Object({
  id: Id,
  kind: Type.Enum(['info', 'reboot', 'check', 'queryPunches']),
  from: Type.Optional(Type.String({ format: 'date' })),
  to: Type.Optional(Type.String({ format: 'date' })),
});
export const CommandResultData = Type.Object({ command_id: Type.Integer(), state: Type.String(), code: Nullable(Type.Integer()), message: Type.String() });

export const LedgerItem = Type.Object({
  person_id: Type.Integer(),
  device_id: Type.Integer(),
  device_name: Type.String(),
  number: Type.String(),
  name: Type.String(),
  pic_url: Type.String(),
  state: Type.String(),
  removing: Type.Boolean(),
  code: Nullable(Type.Integer()),
  reason: Type.String(),
  attempts: Type.Integer(),
  last_attempt_at: Nullable(Type.String()),
});
export const LedgerQuery = Type.Object({
  ...PageQuery,
  id: Type.Optional(Id),
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  state: Type.Optional(Type.Enum(['pending', 'synced', 'failed'])),
});
export const LedgerPage = Page(LedgerItem);
export const AddPersonsBody = Type.Object({
  id: Id,
  person_ids: Type.Optional(Type.Array(Id, { maxItems: 50_000 })),
  department_ids: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
});
export const AddedData = Type.Object({ added: Type.Integer(), skippedLeft: Type.Integer() });
export const PersonIdsBody = Type.Object({ id: Id, person_ids: Type.Optional(Type.Array(Id, { maxItems: 50_000 })) });
export const CountData = Type.Object({ count: Type.Integer() });
export const UnknownData = Type.Array(
  Type.Object({ serial: Type.String(), ip: Type.String(), first_seen_at: Type.String(), last_seen_at: Type.String(), requests: Type.Integer() }),
);
export const PersonDevicesData = Type.Array(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    online: Type.Boolean(),
    state: Type.String(),
    removing: Type.Boolean(),
    code: Nullable(Type.Integer()),
    reason: Type.String(),
  }),
);
export const SyncBody = Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: 50_000 }), skip_offline: Type.Optional(Flag) });
export const SyncData = Type.Object({
  people: Type.Integer(),
  devices: Type.Integer(),
  offline: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
});
