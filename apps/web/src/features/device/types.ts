/** Shapes of docs/api-devices.md (the server's devices.schemas.ts); the console reads them as plain JSON. */

export type Direction = 'in' | 'out';
export type OpenStatus = 'open' | 'close' | 'unknown' | 'success' | 'failure';
export type DeviceState = 'normal' | 'abnormal';
export type FunctionType = 'attendance' | 'dualAuth';
export type AttendanceScope = 'selected' | 'all';
export type LedgerState = 'pending' | 'synced' | 'failed';

export interface SyncSummary {
  total: number;
  synced: number;
  pending: number;
  failed: number;
}

/** spec §3 "Device options" (ranges: docs/api-devices.md). */
export interface DeviceOptions {
  ctrl_type?: number;
  delay?: number;
  voice_mute?: number;
  voice_value?: number;
  alarmTemp?: number;
  tempratureMode?: number;
  tempratureEnable?: number;
  allowvisit?: number;
  autoface?: number;
  autoface_type?: number;
  minface?: number;
  screen_auto_close_time?: number;
  recognition_threshold?: number;
  sfz_recognition_threshold?: number;
  openType?: 'card' | 'face' | 'faceAndCard' | 'faceOrCard';
  facemodel?: number;
  wiegand_mode?: number;
  wiegand_form?: '26' | '34' | '66';
  wiegand_inout?: Direction;
  timezone?: number;
  timemode?: '12' | '24';
  facial?: number;
  alcohol_enable?: number;
  alcohol_threshold?: number;
  alcohol_timeout?: number;
  alcohol_over_action?: 'deny' | 'allow';
  alcohol_unit?: 'mg100ml' | 'mgl' | 'bac';
}

/** spec §3 "Special device settings". */
export interface DeviceSpecial {
  wiegand_type?: '26' | '34' | '66';
  card_mode?: number;
  open_action?: number;
  IOStayTime?: number;
  net_ip?: string;
  net_mask?: string;
  net_gateway?: string;
  LiveThreshold?: number;
  LiveFrameNum?: number;
  LedLightType?: number;
  LedTime?: number;
  LedBrightness?: number;
  TimeZone?: number;
  display_mode?: number;
  AutoRebootDay?: number;
}

export interface Device {
  id: number;
  name: string;
  serial: string;
  protocol: string;
  ip: string;
  account: string;
  has_password: boolean;
  capacity: number;
  direction: Direction;
  version: string;
  online: boolean;
  last_seen_at: string | null;
  open_status: OpenStatus;
  state: DeviceState;
  attendance: number;
  attendance_scope: AttendanceScope;
  restrict_inout: number;
  upload_face_image: number;
  upload_strangers: number;
  function_type: FunctionType;
  tz_offset: number;
  user_count: number;
  clock_drift: number;
  options: DeviceOptions;
  special: DeviceSpecial;
  sync: SyncSummary;
  created_at: string;
}

/** POST /device/create and /device/update body (password blank on update keeps the stored one). */
export interface DeviceBody {
  name: string;
  serial: string;
  ip: string;
  password?: string;
  account?: string;
  capacity?: number;
  direction?: Direction;
  attendance?: number;
  attendance_scope?: AttendanceScope;
  restrict_inout?: number;
  upload_face_image?: number;
  upload_strangers?: number;
  function_type?: FunctionType;
  tz_offset?: number;
}

export interface CommandResult {
  command_id: number;
  state: 'success' | 'failure' | 'pending';
  code: number | null;
  message: string;
}

export type CommandKind = 'info' | 'reboot' | 'check' | 'queryPunches';

export interface LedgerItem {
  person_id: number;
  device_id: number;
  device_name: string;
  number: string;
  name: string;
  pic_url: string;
  state: LedgerState;
  removing: boolean;
  code: number | null;
  reason: string;
  attempts: number;
  last_attempt_at: string | null;
}

export interface UnknownTerminal {
  serial: string;
  ip: string;
  first_seen_at: string;
  last_seen_at: string;
  requests: number;
}

export interface PersonDevice {
  id: number;
  name: string;
  online: boolean;
  state: LedgerState;
  removing: boolean;
  code: number | null;
  reason: string;
}

export interface SyncAnswer {
  people: number;
  devices: number;
  offline: { id: number; name: string }[];
}

/** POST /person/device_org_persons: working people by department. */
export interface DeviceOrgNode {
  id: number;
  name: string;
  persons: { id: number; number: string; name: string }[];
  children: DeviceOrgNode[];
}
