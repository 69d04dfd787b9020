import { LIMITS } from '@faceadmin/shared';
import { Type } from 'typebox';
import { Id, Nullable, Page, PageQuery } from '../../lib/schemas.ts';

const Flag = Type.Integer({ minimum: 0, maximum: 1 });

/** spec §3 "Device options" with the ranges of spec §5/§9. */
export const DeviceOptions = Type.Object({
  ctrl_type: Type.Optional(Type.Integer({ minimum: 0, maximum: 9 })),
  delay: Type.Optional(Type.Integer({ minimum: 0, maximum: 255 })),
  voice_mute: Type.Optional(Flag),
  voice_value: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  alarmTemp: Type.Optional(Type.Number({ minimum: 30, maximum: 45 })),
  tempratureMode: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
  tempratureEnable: Type.Optional(Flag),
  allowvisit: Type.Optional(Flag),
  autoface: Type.Optional(Flag),
  autoface_type: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
  minface: Type.Optional(Type.Integer({ minimum: 910, maximum: 8192 })),
  screen_auto_close_time: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })),
  recognition_threshold: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  sfz_recognition_threshold: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  /** card, face, face and card, face or card */
  openType: Type.Optional(Type.Enum(['card', 'face', 'faceAndCard', 'faceOrCard'])),
  facemodel: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
  wiegand_mode: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
  wiegand_form: Type.Optional(Type.Enum(['26', '34', '66'])),
  wiegand_inout: Type.Optional(Type.Enum(['in', 'out'])),
  timezone: Type.Optional(Type.Integer({ minimum: -720, maximum: 840 })),
  timemode: Type.Optional(Type.Enum(['12', '24'])),
  facial: Type.Optional(Flag),
});
export const DEFAULT_OPTIONS = {
  ctrl_type: 0,
  delay: 5,
  voice_mute: 0,
  voice_value: 80,
  alarmTemp: 37.3,
  tempratureMode: 0,
  tempratureEnable: 0,
  allowvisit: 0,
  autoface: 1,
  autoface_type: 0,
  minface: 910,
  screen_auto_close_time: 15,
  recognition_threshold: 500,
  sfz_recognition_threshold: 300,
  openType: 'face',
  facemodel: 0,
  wiegand_mode: 0,
  wiegand_form: '26',
  wiegand_inout: 'in',
  timezone: 480,
  timemode: '24',
  facial: 1,
};

/** spec §3 "Special device settings". */
export const DeviceSpecial = Type.Object({
  wiegand_type: Type.Optional(Type.Enum(['26', '34', '66'])),
  card_mode: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
  open_action: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
  IOStayTime: Type.Optional(Type.Integer({ minimum: 0, maximum: 255 })),
  net_ip: Type.Optional(Type.String({ maxLength: 45, pattern: '^$|^(\\d{1,3}\\.){3}\\d{1,3}$' })),
  net_mask: Type.Optional(Type.String({ maxLength: 45, pattern: '^$|^(\\d{1,3}\\.){3}\\d{1,3}$' })),
  net_gateway: Type.Optional(Type.String({ maxLength: 45, pattern: '^$|^(\\d{1,3}\\.){3}\\d{1,3}$' })),
  LiveThreshold: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  LiveFrameNum: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
  LedLightType: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
  LedTime: Type.Optional(Type.Integer({ minimum: 0, maximum: 255 })),
  LedBrightness: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  TimeZone: Type.Optional(Type.Integer({ minimum: -720, maximum: 840 })),
  display_mode: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
  AutoRebootDay: Type.Optional(Type.Integer({ minimum: 0, maximum: 31 })),
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
export const IdQuery = Type.Object({ id: Id });
export const IdBody = Type.Object({ id: Id });
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
