import type { Generated } from 'kysely';

/**
 * Table types for the typed query layer. Times are ISO-8601 UTC strings (sortable, identical on both
 * databases); flags are 0/1 integers; JSON is stored as text.
 */
export interface AdminTable {
  id: Generated<number>;
  username: string;
  name: string;
  mobile: string;
  password_hash: string;
  avatar: string;
  introduction: string;
  current_company_id: number;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
}

export interface CompanyTable {
  id: Generated<number>;
  name: string;
  address: string;
  phone: string;
  location: string;
  filter_seconds: number;
  options: string;
  /** IANA zone name (e.g. Asia/Shanghai): the company's clock */
  time_zone: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** An administrator's membership of a company: role, rights, and whether they are its initial admin. */
export interface MembershipTable {
  id: Generated<number>;
  company_id: number;
  admin_id: number;
  role: string;
  is_init: number;
  rights: string;
  status: string;
  created_at: string;
}

export interface SessionTable {
  id: Generated<number>;
  token_hash: string;
  admin_id: number;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  ip: string;
  user_agent: string;
}

export interface OperationLogTable {
  id: Generated<number>;
  company_id: number;
  admin_id: number | null;
  admin_name: string;
  module: string;
  action: string;
  data: string;
  ip: string;
  created_at: string;
}

export interface MessageTable {
  id: Generated<number>;
  company_id: number;
  /** null: every administrator of the company */
  admin_id: number | null;
  type: string;
  params: string;
  created_at: string;
}

export interface MessageReadTable {
  message_id: number;
  admin_id: number;
  read_at: string;
}

export interface CaptchaTable {
  id: string;
  answer_hash: string;
  expires_at: string;
}

/** One checked sign-in attempt (kept an hour): what the throttle counts. */
export interface SignInAttemptTable {
  id: Generated<number>;
  account: string;
  address: string;
  device_id: number | null;
  ok: number;
  at: string;
}

/** A browser an administrator signed in from (its device cookie, hashed). */
export interface KnownDeviceTable {
  id: Generated<number>;
  token_hash: string;
  admin_id: number;
  created_at: string;
  last_used_at: string;
}

export interface SmsCodeTable {
  id: Generated<number>;
  phone: string;
  purpose: string;
  code_hash: string;
  attempts: number;
  expires_at: string;
  created_at: string;
}

export interface DepartmentTable {
  id: Generated<number>;
  company_id: number;
  /** 0 for a top-level department */
  parent_id: number;
  name: string;
  sort: number;
  created_at: string;
  updated_at: string;
}

export interface PersonTable {
  id: Generated<number>;
  company_id: number;
  number: string;
  name: string;
  phone: string;
  description: string;
  /** stored face picture's file name under DATA_DIR/faces/<company>/, '' when none */
  photo: string;
  rfid: string;
  idcard: string;
  address: string;
  /** 1 on the job, 0 left (spec §4) */
  work_status: number;
  /** when the person was marked as left (null while working): attendance gives no results after that day */
  left_at: string | null;
  /** hire date 'YYYY-MM-DD' (null: not known): attendance gives no results before it */
  joined_on: string | null;
  /** 'male' | 'female', null when not said (0047) */
  gender: string | null;
  /** the administrator account this person is (spec §7 bindAdmin), null when none (0031) */
  admin_id: Generated<number | null>;
  notify: number;
  access_from: string | null;
  access_to: string | null;
  /** JSON [{start:"HH:mm", end:"HH:mm"}], at most three */
  access_periods: string;
  /** Sent to terminals in plain text (the protocol needs it); never returned by the API. */
  door_password: string;
  remote_open: number;
  is_admin: number;
  /** Terminal management password; same handling as door_password. */
  admin_password: string;
  feature_rights: string;
  user_pri: number;
  sync_status: number;
  /** bumped on every change a terminal must learn about */
  revision: number;
  /** lower-cased "name number phone card", maintained by the repository for keyword search */
  search: Generated<string>;
  /** 'employee', or 'visitor': the hidden person of an invitation (migration 0028), absent from every list of people */
  kind: Generated<string>;
  /** the terminal's own user validity (instants), a visitor's window; null for employees */
  valid_from: Generated<string | null>;
  valid_until: Generated<string | null>;
  /** plate numbers, comma-separated, '' none (0030): sent to bound parking operators */
  plates: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface PersonDepartmentTable {
  company_id: number;
  person_id: number;
  department_id: number;
}

export interface DepartmentHeadTable {
  company_id: number;
  department_id: number;
  person_id: number;
}

export interface DeviceTable {
  id: Generated<number>;
  company_id: number;
  protocol: string;
  name: string;
  serial: string;
  ip: string;
  account: string;
  /** the terminal's own password: never returned by the API */
  password: string;
  /** where a dialled terminal (ISAPI) answers, with `ip` (migration 0032) */
  port: number;
  /** carried in the URL of a dialled terminal's event notifications; never returned by the API (0032) */
  event_secret: string;
  capacity: number;
  direction: string;
  attendance: number;
  attendance_scope: string;
  restrict_inout: number;
  upload_face_image: number;
  upload_strangers: number;
  function_type: string;
  tz_offset: number;
  options: string;
  special: string;
  firmware: string;
  user_count: number;
  user_count_at: string | null;
  info: string;
  reported_at: string | null;
  online: number;
  last_seen_at: string | null;
  open_status: string;
  clock_drift: number;
  att_stamp: string;
  op_stamp: string;
  photo_stamp: string;
  created_at: string;
  updated_at: string;
}

export interface DevicePersonTable {
  company_id: number;
  device_id: number;
  person_id: number;
  pin: string;
  desired_rev: number;
  applied_rev: Generated<number>;
  state: Generated<string>;
  last_code: number | null;
  last_error: Generated<string>;
  attempts: Generated<number>;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  inflight: Generated<number>;
  updated_at: string;
}

export interface DeviceCommandTable {
  id: Generated<number>;
  company_id: number;
  device_id: number;
  person_id: number | null;
  revision: number;
  kind: string;
  payload: string;
  state: string;
  return_code: number | null;
  result: Generated<string>;
  created_at: string;
  sent_at: string | null;
  done_at: string | null;
}

export interface PunchTable {
  id: Generated<number>;
  company_id: number;
  device_id: number;
  person_id: number | null;
  pin: string;
  local_time: string;
  time: string;
  status: number;
  verify: number;
  workcode: string;
  temperature: number | null;
  mask: number | null;
  /** breath alcohol, mg/100 mL (breathalyser terminals) */
  alcohol: number | null;
  /** 1 when the reading was at or above the device's threshold when it was taken */
  alcohol_over: number | null;
  /** health-code colour (green | yellow | red) from the terminal's HEALTHLOG record of this punch */
  health: string | null;
  photo: string;
  stranger: number;
  created_at: string;
  /** spec §9 dual authentication (0030): '' (not a two-person device), 'pending', 'paired', 'unpaired' */
  dual_state: Generated<string>;
  /** the other person of a paired passage */
  dual_partner_id: number | null;
}

/** A health-code record a terminal reported with a punch (migration 0010, spec §3 "Health record"). */
export interface HealthRecordTable {
  id: Generated<number>;
  company_id: number;
  device_id: number;
  person_id: number | null;
  pin: string;
  local_time: string;
  time: string;
  name: string;
  id_number: string;
  temperature: number | null;
  color: string | null;
  place: string;
  nat_time: string;
  nat_result: string;
  trip: string;
  vaccine_count: number | null;
  vaccine_time: string;
  created_at: string;
}

export interface UnknownDeviceTable {
  serial: string;
  ip: string;
  first_seen_at: string;
  last_seen_at: string;
  requests: number;
}

/** Attendance (migration 0009): see docs/attendance.md. */
export interface AttendanceRuleTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  mode: string;
  model: Generated<string>;
  use_direction: Generated<number>;
  overtime_min_min: Generated<number>;
  late_absent_after_min: number | null;
  half_day_below_min: number | null;
  absent_below_min: number | null;
  /** under the temperature model, a punch at or above it is refused (migration 0019, #17) */
  alarm_temp: Generated<number>;
  /** how worked time is counted: 'firstLast' or 'pairs' (migration 0021, #17) */
  worked_by: Generated<string>;
  /** 1: punches on holidays/rest days are rest-day overtime; 0: ignored (migration 0021) */
  count_off_day_punches: Generated<number>;
  /** 1: overtime counts only within approved overtime periods (migration 0021) */
  overtime_needs_approval: Generated<number>;
  /** automatic shift matching: JSON shift ids, the candidates of the weekdays and cycle days marked -1 (migration 0022, #17) */
  auto_shift_ids: Generated<string>;
  weekdays: Generated<string>;
  day_boundary: Generated<string>;
  required_min: Generated<number>;
  cycle_id: number | null;
  start_date: string | null;
  start_index: Generated<number>;
  created_at: string;
  updated_at: string;
}
export interface AttendanceShiftTable {
  id: Generated<number>;
  company_id: number;
  rule_id: number;
  name: string;
  start: string;
  end: string;
  breaks: Generated<string>;
  late_grace_min: Generated<number>;
  early_grace_min: Generated<number>;
  check_in_before_min: Generated<number>;
  check_in_after_min: Generated<number>;
  check_out_before_min: Generated<number>;
  check_out_after_min: Generated<number>;
  sort: Generated<number>;
}
export interface AttendanceCycleTable {
  id: Generated<number>;
  company_id: number;
  rule_id: number;
  name: string;
  days: string;
}
export interface AttendanceRuleMemberTable {
  company_id: number;
  rule_id: number;
  kind: string;
  ref_id: number;
}
/** A rule as it was from a date on (migration 0023, #17): see docs/attendance.md "Rule history". */
export interface AttendanceRuleVersionTable {
  id: Generated<number>;
  company_id: number;
  rule_id: number;
  effective_from: string;
  /** JSON of the rule as the recompute loads it (row, shifts, cycles) */
  rule: string;
  /** JSON [{kind, ref_id}] */
  members: string;
  created_at: string;
}
/** Days that are never recalculated nor edited until reopened (migration 0023, #17). */
export interface AttendanceClosedPeriodTable {
  id: Generated<number>;
  company_id: number;
  from_date: string;
  to_date: string;
  closed_by: string;
  closed_at: string;
}
export interface AttendanceScheduleTable {
  company_id: number;
  person_id: number;
  date: string;
  shift_id: number;
  cycle_id: number | null;
}
export interface AttendanceHolidayTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  kind: Generated<string>;
  from_date: string;
  to_date: string;
  as_weekday: number | null;
  rule_ids: Generated<string>;
  created_at: string;
}
export interface AttendanceAbsenceTable {
  id: Generated<number>;
  company_id: number;
  person_id: number;
  kind: string;
  from_at: string;
  to_at: string;
  reason: Generated<string>;
  source: Generated<string>;
  created_by: number | null;
  created_at: string;
  /** the approved application that wrote it (source 'approval') */
  application_id: Generated<number | null>;
  /** a leave's type (the leave app's option value; migration 0024, #17) */
  leave_type: Generated<string | null>;
}
export interface AttendanceDayTable {
  company_id: number;
  person_id: number;
  date: string;
  rule_id: number | null;
  status: string;
  late_min: Generated<number>;
  early_min: Generated<number>;
  worked_min: Generated<number>;
  overtime_min: Generated<number>;
  /** approved leave / out-of-office / absent minutes, and leave minutes by type as JSON (migration 0024, #17) */
  leave_min: Generated<number>;
  out_min: Generated<number>;
  absent_min: Generated<number>;
  leave_kinds: Generated<string>;
  /** the day's leave in half days, 0 to 2 (migration 0039, #18) */
  leave_half_days: Generated<number>;
  detail: Generated<string>;
  manual_status: string | null;
  manual_reason: string | null;
  computed_at: string;
}
export interface AttendanceDirtyTable {
  person_id: number;
  company_id: number;
  from_date: string;
  to_date: string;
  queued_at: string;
  /** bumped by every change that widens or renews the row: a batch removes the row only if it is unchanged (0027) */
  seq: Generated<number>;
}

export interface WorkflowAppTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  icon: string;
  sort: number;
  enabled: number;
  kind: string;
  builtin: number;
  scope: string;
  department_ids: string;
  person_ids: string;
  description: string;
  form_version: number;
  process_version: number;
  created_at: string;
  updated_at: string;
}
export interface WorkflowVersionTable {
  id: Generated<number>;
  company_id: number;
  app_id: number;
  version: number;
  body: string;
  created_by: number | null;
  created_at: string;
}
export interface WorkflowApplicationTable {
  id: Generated<number>;
  company_id: number;
  app_id: number;
  order_no: string;
  person_id: number;
  form_version: number;
  process_version: number;
  form_values: string;
  status: number;
  source: string;
  plan: string;
  plan_index: number;
  leave_type: string | null;
  period_from: string | null;
  period_to: string | null;
  duration_days: number | null;
  duration_hours: number | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}
export interface WorkflowStepTable {
  id: Generated<number>;
  company_id: number;
  application_id: number;
  seq: number;
  node_id: string | null;
  node_name: Generated<string>;
  kind: string;
  mode: string | null;
  state: string;
  actor_kind: string | null;
  actor_id: number | null;
  actor_name: Generated<string>;
  comment: Generated<string>;
  created_at: string;
  decided_at: string | null;
}
export interface WorkflowTaskTable {
  id: Generated<number>;
  company_id: number;
  application_id: number;
  step_id: number;
  seq: number;
  approver_kind: string;
  person_id: number | null;
  name: Generated<string>;
  state: string;
  comment: Generated<string>;
  decided_by_admin: number | null;
  decided_at: string | null;
}
export interface PersonSessionTable {
  id: Generated<number>;
  company_id: number;
  person_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
}
export interface PersonLinkTable {
  id: Generated<number>;
  company_id: number;
  person_id: number;
  token_hash: string;
  created_by: number | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
export interface PersonMessageTable {
  id: Generated<number>;
  company_id: number;
  person_id: number;
  type: string;
  params: string;
  application_id: number | null;
  created_at: string;
  read_at: string | null;
}

export interface DB {
  workflow_apps: WorkflowAppTable;
  workflow_forms: WorkflowVersionTable;
  workflow_processes: WorkflowVersionTable;
  workflow_applications: WorkflowApplicationTable;
  workflow_steps: WorkflowStepTable;
  workflow_tasks: WorkflowTaskTable;
  person_sessions: PersonSessionTable;
  person_links: PersonLinkTable;
  person_messages: PersonMessageTable;
  devices: DeviceTable;
  device_persons: DevicePersonTable;
  device_commands: DeviceCommandTable;
  punches: PunchTable;
  health_records: HealthRecordTable;
  unknown_devices: UnknownDeviceTable;
  departments: DepartmentTable;
  persons: PersonTable;
  person_departments: PersonDepartmentTable;
  department_heads: DepartmentHeadTable;
  admins: AdminTable;
  companies: CompanyTable;
  memberships: MembershipTable;
  sessions: SessionTable;
  operation_logs: OperationLogTable;
  messages: MessageTable;
  message_reads: MessageReadTable;
  captchas: CaptchaTable;
  sms_codes: SmsCodeTable;
  sign_in_attempts: SignInAttemptTable;
  known_devices: KnownDeviceTable;
  attendance_rules: AttendanceRuleTable;
  attendance_shifts: AttendanceShiftTable;
  attendance_cycles: AttendanceCycleTable;
  attendance_rule_members: AttendanceRuleMemberTable;
  attendance_rule_versions: AttendanceRuleVersionTable;
  attendance_closed_periods: AttendanceClosedPeriodTable;
  attendance_schedule: AttendanceScheduleTable;
  attendance_holidays: AttendanceHolidayTable;
  attendance_absences: AttendanceAbsenceTable;
  attendance_days: AttendanceDayTable;
  attendance_dirty: AttendanceDirtyTable;
  breakers: BreakerTable;
  breaker_lines: BreakerLineTable;
  breaker_timers: BreakerTimerTable;
  breaker_alarms: BreakerAlarmTable;
  breaker_samples: BreakerSampleTable;
  breaker_minutes: BreakerMinuteTable;
  dormitory_settings: DormitorySettingsTable;
  sites: SiteTable;
  site_placements: SitePlacementTable;
  leave_policies: LeavePolicyTable;
  leave_quotas: LeaveQuotaTable;
  leave_ledger: LeaveLedgerTable;
  visitors: VisitorTable;
  api_keys: ApiKeyTable;
  api_key_uses: ApiKeyUseTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_outbox: WebhookOutboxTable;
  webhook_deliveries: WebhookDeliveryTable;
  parking_bindings: ParkingBindingTable;
  parking_nonces: ParkingNonceTable;
  parking_outbox: ParkingOutboxTable;
  parking_push_state: ParkingPushStateTable;
  firmware: FirmwareTable;
  firmware_upgrades: FirmwareUpgradeTable;
  device_logs: DeviceLogTable;
  instances: InstanceTable;
  client_errors: ClientErrorTable;
  client_error_quota: ClientErrorQuotaTable;
  request_quota: RequestQuotaTable;
  change_counters: ChangeCounterTable;
  changes: ChangeTable;
  terminal_users: TerminalUserTable;
  legacy_imports: LegacyImportTable;
  roster_applies: RosterApplyTable;
  files: FileTable;
  file_chunks: FileChunkTable;
}

/** An invitation (migration 0028, #19): the visitor is the hidden person `person_id` (kind 'visitor'). */
export interface VisitorTable {
  id: Generated<number>;
  company_id: number;
  person_id: number;
  inviter_admin_id: number | null;
  inviter_person_id: number | null;
  inviter_name: string;
  name: string;
  phone: string;
  visitor_company: string;
  reason: string;
  starts_at: string;
  ends_at: string;
  /** JSON [device id] */
  device_ids: string;
  state: string;
  /** sha-256 of the visitor's link token */
  token_hash: string;
  /** the first accepted punch on a door */
  arrived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Smart circuit breakers (migration 0011, issue #12): docs/breaker-protocol.md. */
export interface BreakerTable {
  id: Generated<number>;
  company_id: number;
  uuid: string;
  alias: string;
  sort: number;
  linenum: number;
  online: number;
  last_seen_at: string | null;
  /** the instance holding its connection ('' none; migration 0038) */
  served_by: Generated<string>;
  password_hash: string;
  broker_hash: string;
  created_at: string;
  updated_at: string;
}

export interface BreakerLineTable {
  id: Generated<number>;
  company_id: number;
  breaker_id: number;
  addr: number;
  title: string;
  main: number;
  line_type: string;
  mxgg: number;
  mxgl: number;
  limits_synced: number;
  oc: number;
  power: number;
  current: number;
  voltage: number;
  energy_wh: number;
  temperature: number | null;
  leakage: number;
  alarm: string | null;
  selfcheck: string;
  selfcheck_at: string | null;
  updated_at: string | null;
}

export interface BreakerTimerTable {
  id: Generated<number>;
  company_id: number;
  breaker_id: number;
  type: string;
  line_ids: string;
  day: string | null;
  time: string;
  weekdays: string;
  action: string;
  enabled: number;
  job_id: number | null;
  sync: string;
  sync_error: string;
  created_at: string;
  updated_at: string;
}

export interface BreakerAlarmTable {
  id: Generated<number>;
  company_id: number;
  breaker_id: number;
  line_id: number | null;
  type: string;
  value: number | null;
  at: string;
  cleared_at: string | null;
}

export interface BreakerSampleTable {
  line_id: number;
  at: string;
  power: number;
  current: number;
  voltage: number;
  energy_wh: number;
}

export interface BreakerMinuteTable {
  line_id: number;
  minute: string;
  avg_w: number;
  max_w: number;
  energy_wh: number;
  n: number;
}

/** A company's dormitory settings (migration 0016, issue #16). */
export interface DormitorySettingsTable {
  company_id: number;
  /** 'HH:mm' in the company's zone */
  return_by: string;
  /** JSON array of department ids (the buildings); [] means the top-level departments */
  department_ids: string;
  updated_at: string;
}
/** Sites and the device map (migration 0014, issue #16). */
export interface SiteTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  sort: number;
  /** the floor plan's file name under DATA_DIR/sites/<company>/, '' when none */
  image: string;
  /** the floor plan's size in pixels (0 without one) */
  image_width: number;
  image_height: number;
  /** '' unless the administrator set one: then the map is a tile map with this URL template */
  tile_url: string;
  created_at: string;
  updated_at: string;
}

/** A device or breaker on a site: pixels from the image's top-left corner, or lng (x) / lat (y) on a tile map. */
export interface SitePlacementTable {
  company_id: number;
  site_id: number;
  /** device | breaker */
  kind: string;
  ref_id: number;
  x: number;
  y: number;
}

/** Leave balances (migration 0025, #17 item 15). */
export interface LeavePolicyTable {
  company_id: number;
  leave_type: string;
  tracked: number;
  allow_negative: number;
  /** 'manual' | 'fixed' | 'seniority' */
  mode: string;
  days: number;
  /** JSON [{years, days}] */
  tiers: string;
  /** 'year' | 'month' */
  accrual: string;
  carry_max: number;
  carry_months: number;
  updated_at: string;
}
export interface LeaveQuotaTable {
  id: Generated<number>;
  company_id: number;
  person_id: number;
  leave_type: string;
  year: number;
  quota: number;
  carried: number | null;
  /** 'manual' | 'import' */
  source: string;
  updated_at: string;
}
export interface LeaveLedgerTable {
  id: Generated<number>;
  company_id: number;
  person_id: number;
  application_id: number;
  leave_type: string;
  year: number;
  date: string;
  days: number;
  minutes: number;
  created_at: string;
  returned_at: string | null;
}

/** Integrations (migration 0029, issue #19): API keys and webhooks. */
export interface ApiKeyTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  prefix: string;
  key_hash: string;
  /** JSON array of API_SCOPES */
  scopes: string;
  /** the expiry date as chosen, in the company's zone of the day the key was made (the API shows it) */
  expires_on: string | null;
  /** ISO UTC: the end of `expires_on` in that zone (migration 0041, #28); a request at or after it is refused */
  expires_at: string | null;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
export interface ApiKeyUseTable {
  key_id: number;
  /** the minute's start, ISO */
  minute: string;
  /** 'METHOD /path', or '*' for the key's total */
  route: string;
  count: number;
}
export interface WebhookEndpointTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  url: string;
  /** JSON array of WEBHOOK_EVENTS */
  events: string;
  secret: string;
  status: string;
  failing_since: string | null;
  paused_at: string | null;
  created_at: string;
  updated_at: string;
}
export interface WebhookOutboxTable {
  id: Generated<number>;
  company_id: number;
  event_id: string;
  type: string;
  data: string;
  created_at: string;
  /** deliveries with one key reach an endpoint in order (a punch's device; '' none: migration 0042) */
  order_key: Generated<string>;
}
export interface WebhookDeliveryTable {
  id: Generated<number>;
  company_id: number;
  endpoint_id: number;
  event_id: string;
  type: string;
  payload: string;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  response_code: number | null;
  response_body: Generated<string>;
  duration_ms: number | null;
  created_at: string;
  /** waits while an earlier pending delivery of its endpoint has the same key ('' none: migration 0042) */
  order_key: Generated<string>;
}

/** Parking-lot binding (migration 0030, issue #19): docs/api-parking.md. */
export interface ParkingBindingTable {
  id: Generated<number>;
  company_id: number;
  dzg_id: string;
  lot_name: string;
  bound_by: number | null;
  created_at: string;
}
export interface ParkingNonceTable {
  company_id: number;
  nonce: string;
  expires_at: string;
  used_at: string;
}
export interface ParkingOutboxTable {
  id: Generated<number>;
  company_id: number;
  person_id: number | null;
  number: string;
  /** 'saved' | 'deleted' | 'all' */
  kind: string;
  created_at: string;
}
export interface ParkingPushStateTable {
  company_id: number;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string;
  last_pushed_at: string | null;
}

/** Firmware files, upgrades and terminal log captures (migration 0033, issue #20). */
export interface FirmwareTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  version: string;
  size: number;
  sha256: string;
  md5: string;
  file: string;
  created_at: string;
}
export interface FirmwareUpgradeTable {
  id: Generated<number>;
  company_id: number;
  device_id: number;
  firmware_id: number;
  command_id: number;
  version_before: Generated<string>;
  version_after: string | null;
  downloaded_at: string | null;
  created_at: string;
}
export interface DeviceLogTable {
  id: Generated<number>;
  company_id: number;
  device_id: number;
  command_id: number;
  file_name: Generated<string>;
  file: Generated<string>;
  size: Generated<number>;
  created_at: string;
}

/** Running server instances' heartbeats (migration 0038, issue #21). */
export interface InstanceTable {
  id: string;
  host: Generated<string>;
  version: Generated<string>;
  started_at: string;
  seen_at: string;
}
/** Errors the console reported, one row per company and fingerprint (migration 0036, issue #21). */
export interface ClientErrorTable {
  id: Generated<number>;
  /** 0: reported without a company (signed out, or no company yet) */
  company_id: number;
  fingerprint: string;
  kind: string;
  message: string;
  stack: Generated<string>;
  component_stack: Generated<string>;
  url: Generated<string>;
  release: Generated<string>;
  user_agent: Generated<string>;
  count: Generated<number>;
  first_seen: string;
  last_seen: string;
}
/** Client error reports per address or session and window (0036): the limit every instance shares. */
export interface ClientErrorQuotaTable {
  key: string;
  slot: number;
  count: number;
}
/** Route limits' counts per route, address and window (migration 0040, issue #21): plugins/request-quota.ts. */
export interface RequestQuotaTable {
  key: string;
  count: number;
  /** epoch ms */
  expires: number | string;
}
/** Stored files when FILE_STORE=database (migration 0037, issue #21): db/file-store.ts, docs/files.md. */
export interface FileTable {
  key: string;
  size: number;
  content_type: string;
  /** ms since the epoch (PostgreSQL bigint: read as a string) */
  modified_at: number | string;
  created_at: string;
}
export interface FileChunkTable {
  key: string;
  n: number;
  data: Uint8Array;
}

/** A company's last change number (migration 0042, issue #28): db/changes.ts draws from it right before a commit. */
export interface ChangeCounterTable {
  company_id: number;
  seq: number;
}
/** The integrators' changes feed (migration 0042, issue #28): what changed, in commit order per company. */
export interface ChangeTable {
  company_id: number;
  seq: number;
  kind: string;
  ref: number;
  date: Generated<string>;
  at: string;
}

/** What a terminal holds, as read from it (migration 0044, issue #30): reviewed before it becomes anyone's person. */
export interface TerminalUserTable {
  id: Generated<number>;
  company_id: number;
  device_id: number;
  pin: string;
  name: Generated<string>;
  card: Generated<string>;
  valid_from: Generated<string>;
  valid_to: Generated<string>;
  admin: Generated<number>;
  kind: Generated<string>;
  /** the file store key of its enrolment face ('' none) */
  face: Generated<string>;
  /** 'male' | 'female' as the terminal holds it, '' not said (0047) */
  gender: Generated<string>;
  face_bytes: Generated<number>;
  /** what the face check made of the face (migration 0046): '' not yet, else JSON (roster.service FaceVerdict) */
  face_check: Generated<string>;
  read_at: string;
}

/** An export of the old software being taken over (migration 0045, issue #30): its mapping, progress and report. */
export interface LegacyImportTable {
  id: Generated<number>;
  company_id: number;
  admin_id: number | null;
  kind: string;
  file_name: string;
  file_key: string;
  encoding: string;
  /** JSON string[] */
  headers: Generated<string>;
  /** JSON field → column */
  mapping: Generated<string>;
  state: string;
  dry_run: Generated<number>;
  total: Generated<number>;
  done: Generated<number>;
  /** JSON LegacyReport ('' none yet) */
  report: Generated<string>;
  reason: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** A take-over review being applied in the background (0048, issue #30). */
export interface RosterApplyTable {
  id: Generated<number>;
  company_id: number;
  admin_id: number | null;
  /** 'device' | 'site' */
  scope: string;
  device_id: Generated<number>;
  /** 'running' | 'done' | 'failed' */
  state: string;
  total: Generated<number>;
  done: Generated<number>;
  /** JSON RosterApplied ('' not done) */
  result: Generated<string>;
  reason: Generated<string>;
  created_at: string;
  updated_at: string;
}
