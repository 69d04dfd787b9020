import { Type, type Static } from 'typebox';
import { ALCOHOL_ACTIONS, ALCOHOL_UNITS, DEVICE_OPTION_RANGES, DEVICE_SPECIAL_RANGES, OPEN_TYPES, WIEGAND_FORMS } from '../devices.ts';
import { IP_PATTERN, IPV4_PATTERN, LIMITS } from '../limits.ts';
import { Count, Flag, Id, IdBody, Nullable, StringEnum, Page, PageQuery, Ref, XLSX_TYPE } from './common.ts';
import { binary, endpoint } from './endpoint.ts';

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
export type DeviceOptions = Static<typeof DeviceOptions>;

const Ipv4 = Type.Optional(Type.String({ maxLength: 45, pattern: `^$|${IPV4_PATTERN}` }));
/** spec §3 "Special device settings". */
export const DeviceSpecial = Type.Object({
  ...ranged(DEVICE_SPECIAL_RANGES),
  wiegand_type: Type.Optional(Type.Enum([...WIEGAND_FORMS])),
  net_ip: Ipv4,
  net_mask: Ipv4,
  net_gateway: Ipv4,
});
export type DeviceSpecial = Static<typeof DeviceSpecial>;

export const DIRECTIONS = ['in', 'out'] as const;
/** How the server and a terminal talk: ZK PUSH (the terminal calls; works behind NAT) or Hikvision ISAPI (the server dials). */
export const DEVICE_PROTOCOLS = ['zk-push', 'isapi'] as const;
export type DeviceProtocol = (typeof DEVICE_PROTOCOLS)[number];
export const OPEN_STATUSES = ['open', 'close', 'unknown', 'success', 'failure'] as const;
export const DEVICE_STATES = ['normal', 'abnormal'] as const;
export const ATTENDANCE_SCOPES = ['selected', 'all'] as const;
export const FUNCTION_TYPES = ['attendance', 'dualAuth'] as const;
export const LEDGER_STATES = ['pending', 'synced', 'failed'] as const;
/** `readRoster`: read every user the terminal holds, with cards and faces, for a take-over's review (issue #30). */
export const COMMAND_KINDS = ['info', 'reboot', 'check', 'queryPunches', 'readRoster'] as const;
export const COMMAND_STATES = ['success', 'failure', 'pending'] as const;
export type Direction = (typeof DIRECTIONS)[number];
export type OpenStatus = (typeof OPEN_STATUSES)[number];
export type LedgerState = (typeof LEDGER_STATES)[number];
export type CommandKind = (typeof COMMAND_KINDS)[number];

export const SyncSummary = Type.Object({ total: Type.Integer(), synced: Type.Integer(), pending: Type.Integer(), failed: Type.Integer() });
export type SyncSummary = Static<typeof SyncSummary>;
export const Device = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  serial: Type.String(),
  protocol: Type.String(),
  ip: Type.String(),
  /** where a dialled terminal (ISAPI) answers */
  port: Type.Integer(),
  account: Type.String(),
  has_password: Type.Boolean(),
  /** the terminal's model, as it reported it ('' until it has) */
  model: Type.String(),
  /** why the server cannot work with the terminal (a refused password, unreachable), in the reader's language; '' when all is well */
  problem: Type.String(),
  capacity: Type.Integer(),
  direction: StringEnum(DIRECTIONS),
  version: Type.String(),
  online: Type.Boolean(),
  last_seen_at: Nullable(Type.String()),
  open_status: StringEnum(OPEN_STATUSES),
  state: StringEnum(DEVICE_STATES),
  attendance: Type.Integer(),
  attendance_scope: StringEnum(ATTENDANCE_SCOPES),
  restrict_inout: Type.Integer(),
  upload_face_image: Type.Integer(),
  upload_strangers: Type.Integer(),
  function_type: StringEnum(FUNCTION_TYPES),
  tz_offset: Type.Integer(),
  /** People enrolled on the terminal, as it last reported (INFO), and when it did; null: never read. */
  user_count: Type.Integer(),
  user_count_at: Nullable(Type.String()),
  clock_drift: Type.Integer(),
  /** Settings as the terminal last reported them (network address, mask, gateway, …), by the keys of `special`. */
  reported: Type.Record(Type.String(), Type.String()),
  /** When the terminal last reported its settings; null: not read yet (a "read from device" command asks). */
  reported_at: Nullable(Type.String()),
  // Stored settings (over the defaults) are answered as they are, keys the schema above does not know included.
  options: Type.Unsafe<DeviceOptions>(Type.Record(Type.String(), Type.Any())),
  special: Type.Unsafe<DeviceSpecial>(Type.Record(Type.String(), Type.Any())),
  sync: SyncSummary,
  created_at: Type.String(),
});
export type Device = Static<typeof Device>;

/** spec §5: name, serial, IP and device password are required. */
const fields = {
  name: Type.String({ minLength: 1, maxLength: 60 }),
  serial: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9]+$' }),
  ip: Type.String({ minLength: 1, maxLength: 45, pattern: IP_PATTERN }),
  /** 'zk-push' when omitted */
  protocol: Type.Optional(Type.Enum([...DEVICE_PROTOCOLS])),
  /** ISAPI: the terminal's HTTP port (80 when omitted) */
  port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  account: Type.Optional(Type.String({ maxLength: 40 })),
  password: Type.String({ minLength: 1, maxLength: 40 }),
  capacity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  direction: Type.Optional(Type.Enum([...DIRECTIONS])),
  attendance: Type.Optional(Flag),
  attendance_scope: Type.Optional(Type.Enum([...ATTENDANCE_SCOPES])),
  restrict_inout: Type.Optional(Flag),
  upload_face_image: Type.Optional(Flag),
  upload_strangers: Type.Optional(Flag),
  function_type: Type.Optional(Type.Enum([...FUNCTION_TYPES])),
  tz_offset: Type.Optional(Type.Integer({ minimum: -720, maximum: 840 })),
};
export const DeviceCreate = Type.Object(fields);
export type DeviceCreate = Static<typeof DeviceCreate>;
/** On edit a blank password keeps the stored one. */
export const DeviceUpdate = Type.Object({ id: Id, ...fields, password: Type.Optional(Type.String({ maxLength: 40 })) });
export type DeviceUpdate = Static<typeof DeviceUpdate>;
export const DeviceListQuery = Type.Object({ ...PageQuery, keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })), online: Type.Optional(Flag) });
export type DeviceListQuery = Static<typeof DeviceListQuery>;
export const DevicePage = Page(Device);
export const DeviceOptionsBody = Type.Object({ id: Id, options: Type.Optional(DeviceOptions), special: Type.Optional(DeviceSpecial) });
export type DeviceOptionsBody = Static<typeof DeviceOptionsBody>;
export const Queued = Type.Object({ queued: Type.Integer() });
export const DeviceCommandBody = Type.Object({
  id: Id,
  kind: Type.Enum([...COMMAND_KINDS]),
  from: Type.Optional(Type.String({ format: 'date' })),
  to: Type.Optional(Type.String({ format: 'date' })),
});
export type DeviceCommandBody = Static<typeof DeviceCommandBody>;
export const CommandResult = Type.Object({
  command_id: Type.Integer(),
  state: StringEnum(COMMAND_STATES),
  code: Nullable(Type.Integer()),
  message: Type.String(),
  /** pending for a terminal that is offline: it runs when the terminal calls in again */
  offline: Type.Optional(Type.Boolean()),
});
export type CommandResult = Static<typeof CommandResult>;
/** Door open: `wait` seconds for the terminal's answer before saying it is pending (0: answer at once). */
export const DeviceOpenBody = Type.Object({ id: Id, wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 15 })) });
/** A queued command's outcome: answers once the terminal has reported, or after `wait` seconds still pending. */
export const CommandResultQuery = Type.Object({ id: Id, wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 15 })) });

export const LedgerItem = Type.Object({
  person_id: Type.Integer(),
  device_id: Type.Integer(),
  device_name: Type.String(),
  number: Type.String(),
  name: Type.String(),
  pic_url: Type.String(),
  state: StringEnum(LEDGER_STATES),
  removing: Type.Boolean(),
  code: Nullable(Type.Integer()),
  reason: Type.String(),
  attempts: Type.Integer(),
  last_attempt_at: Nullable(Type.String()),
});
export type LedgerItem = Static<typeof LedgerItem>;
export const LedgerQuery = Type.Object({
  ...PageQuery,
  id: Type.Optional(Id),
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  state: Type.Optional(Type.Enum([...LEDGER_STATES])),
});
export type LedgerQuery = Static<typeof LedgerQuery>;
export const LedgerPage = Page(LedgerItem);
/** How a user a terminal holds stands against the company's people (issue #30; devices/roster.service.ts). */
export const ROSTER_MATCHES = ['matched', 'conflict', 'byName', 'new'] as const;
export const ROSTER_KINDS = ['normal', 'visitor', 'blackList'] as const;
/** One user a terminal holds, as read from it, beside the person it matches. */
export const RosterItem = Type.Object({
  pin: Type.String(),
  name: Type.String(),
  card: Type.String(),
  /** device-local 'YYYY-MM-DD HH:mm:ss', '' = no bound */
  valid_from: Type.String(),
  valid_to: Type.String(),
  admin: Type.Boolean(),
  kind: StringEnum(ROSTER_KINDS),
  /** the enrolment face as the terminal holds it ('' when none was read) */
  face_url: Type.String(),
  /** why the face check refuses that face ('' it passes, or there is none) */
  face_refused: Type.String(),
  /** the face check has not looked at it yet (it runs after the read, one face at a time) */
  face_checking: Type.Boolean(),
  match: StringEnum(ROSTER_MATCHES),
  person_id: Nullable(Type.Integer()),
  person_number: Type.String(),
  person_name: Type.String(),
  read_at: Type.String(),
  /** the sync ledger holds a person under this number on the terminal: it is managed here */
  managed: Type.Boolean(),
  /** a removal from the terminal is on its way (roster/remove) */
  removing: Type.Boolean(),
});
export type RosterItem = Static<typeof RosterItem>;
/** `unmanaged`: only the users no person here stands for on this terminal ("on the terminal, not managed"). */
export const ROSTER_SHOWS = ['all', 'unmanaged'] as const;
export const RosterQuery = Type.Object({ ...PageQuery, id: Id, show: Type.Optional(StringEnum(ROSTER_SHOWS)) });
export type RosterQuery = Static<typeof RosterQuery>;
export const RosterPage = Type.Object({
  ...Page(RosterItem).properties,
  /** how many of the whole roster stand each way (the review's summary) */
  counts: Type.Object({
    matched: Type.Integer(),
    conflict: Type.Integer(),
    byName: Type.Integer(),
    new: Type.Integer(),
    unmanaged: Type.Integer(),
    /** users whose face the face check refuses */
    faceRefused: Type.Integer(),
    /** faces not checked yet */
    faceUnchecked: Type.Integer(),
  }),
});
/** Users to remove from a terminal: only users no person here is managed as (a person leaves a terminal through the ledger). */
export const RosterRemoveBody = Type.Object({
  id: Id,
  pins: Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { minItems: 1, maxItems: 5000 }),
});
export type RosterRemoveBody = Static<typeof RosterRemoveBody>;
export const RosterRemoved = Type.Object({
  /** removals sent to the terminal (the users leave the list once it confirms) */
  queued: Type.Integer(),
  refused: Type.Array(Type.Object({ pin: Type.String(), reason: Type.String() })),
});
export type RosterRemoved = Static<typeof RosterRemoved>;
/** `v` versions the address (the face's size), so a face read again is fetched again. */
export const RosterFaceQuery = Type.Object({ id: Id, pin: Type.String({ minLength: 1, maxLength: 32 }), v: Type.Optional(Type.Integer({ minimum: 0 })) });
export type RosterFaceQuery = Static<typeof RosterFaceQuery>;
/** What the administrator decides for one user a terminal holds: a new person, the person already here, or leave it. */
export const ROSTER_ACTIONS = ['create', 'link', 'skip'] as const;
export const RosterApplyBody = Type.Object({
  id: Id,
  /** where the people created go */
  department_id: Id,
  rows: Type.Array(
    Type.Object({
      pin: Type.String({ minLength: 1, maxLength: 32 }),
      action: StringEnum(ROSTER_ACTIONS),
      /** link: the person this user is (their number must be the user's) */
      person_id: Type.Optional(Id),
    }),
    { minItems: 1, maxItems: 5000 },
  ),
});
export type RosterApplyBody = Static<typeof RosterApplyBody>;
/** What applying did: counts, the rows not written with why, and the people created without the terminal's face (why). */
export const RosterApplied = Type.Object({
  created: Type.Integer(),
  linked: Type.Integer(),
  skipped: Type.Integer(),
  /** rows already applied before (a second run): nothing written for them */
  unchanged: Type.Integer(),
  refused: Type.Array(Type.Object({ pin: Type.String(), reason: Type.String() })),
  faceless: Type.Array(Type.Object({ pin: Type.String(), reason: Type.String() })),
  /** linked people whose photo is now the terminal's face (they had none, or it is the better), with why */
  photos: Type.Array(Type.Object({ pin: Type.String(), reason: Type.String() })),
});
export type RosterApplied = Static<typeof RosterApplied>;
/**
 * An apply of a review, running in the background (issue #30: a site of thousands of numbers takes minutes, longer
 * than a request may wait behind a proxy): its progress (terminal records done of all; a number held by three
 * terminals is three), then its result. `reason` when it failed: 'interrupted' (the server stopped; applying again
 * finishes it, nothing twice) or 'error'.
 */
export const ROSTER_APPLY_STATES = ['running', 'done', 'failed'] as const;
export type RosterApplyState = (typeof ROSTER_APPLY_STATES)[number];
export const RosterApplyJob = Type.Object({
  id: Type.Integer(),
  /** 'device' (one terminal's review) or 'site' (every terminal's) */
  scope: StringEnum(['device', 'site'] as const),
  /** the terminal of a 'device' apply (0 for the site) */
  device_id: Type.Integer(),
  state: StringEnum(ROSTER_APPLY_STATES),
  done: Type.Integer(),
  total: Type.Integer(),
  result: Nullable(RosterApplied),
  reason: Type.String(),
});
export type RosterApplyJob = Static<typeof RosterApplyJob>;
/**
 * The whole site's review (issue #30, "several terminals, one person"): every number any terminal holds, once, with the
 * terminals that hold it. `across`: held by two terminals or more; `split`: the terminals hold it under different
 * names; `twin`: another number holds the same name; `conflicts` lists those, numbers taken by another name and
 * numbers whose every face the face check refuses.
 */
export const ROSTER_SITE_SHOWS = ['all', 'across', 'conflicts'] as const;
export const RosterSiteQuery = Type.Object({ ...PageQuery, show: Type.Optional(StringEnum(ROSTER_SITE_SHOWS)) });
export type RosterSiteQuery = Static<typeof RosterSiteQuery>;
export const RosterSiteItem = Type.Object({
  pin: Type.String(),
  /** the name of the terminal whose face would be taken (the largest), else the first */
  name: Type.String(),
  card: Type.String(),
  admin: Type.Boolean(),
  kind: StringEnum(ROSTER_KINDS),
  terminals: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      /** the name this terminal holds the user under */
      user_name: Type.String(),
      face_url: Type.String(),
      face_bytes: Type.Integer(),
      face_refused: Type.String(),
      face_checking: Type.Boolean(),
      managed: Type.Boolean(),
    }),
  ),
  /** the terminal whose face a new person takes (the largest; linking later keeps the better) */
  face_from: Nullable(Type.Integer()),
  match: StringEnum(ROSTER_MATCHES),
  split: Type.Boolean(),
  /** other numbers on the site under the same name */
  twins: Type.Array(Type.String()),
  person_id: Nullable(Type.Integer()),
  person_number: Type.String(),
  person_name: Type.String(),
  /** every terminal holding it is managed for a person here */
  managed: Type.Boolean(),
});
export type RosterSiteItem = Static<typeof RosterSiteItem>;
export const RosterSitePage = Type.Object({
  ...Page(RosterSiteItem).properties,
  counts: Type.Object({
    /** numbers on the site (people) */
    people: Type.Integer(),
    /** terminals read (holding anyone) */
    terminals: Type.Integer(),
    across: Type.Integer(),
    matched: Type.Integer(),
    conflict: Type.Integer(),
    byName: Type.Integer(),
    new: Type.Integer(),
    split: Type.Integer(),
    twin: Type.Integer(),
    unmanaged: Type.Integer(),
    /** numbers whose every face the face check refuses (conflicts too: no face to take) */
    faceRefused: Type.Integer(),
    /** numbers with a face not checked yet */
    faceUnchecked: Type.Integer(),
    /** numbers the `conflicts` filter shows (the kinds overlap) */
    conflicts: Type.Integer(),
  }),
});
export const RosterSiteApplyBody = Type.Object({
  department_id: Id,
  rows: RosterApplyBody.properties.rows,
});
export type RosterSiteApplyBody = Static<typeof RosterSiteApplyBody>;
export const DeviceAddPersonsBody = Type.Object({
  id: Id,
  person_ids: Type.Optional(Type.Array(Id, { maxItems: 50_000 })),
  department_ids: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
});
export type DeviceAddPersonsBody = Static<typeof DeviceAddPersonsBody>;
export const DeviceAdded = Type.Object({ added: Type.Integer(), skippedLeft: Type.Integer() });
export const DevicePersonsBody = Type.Object({ id: Id, person_ids: Type.Optional(Type.Array(Id, { maxItems: 50_000 })) });
export type DevicePersonsBody = Static<typeof DevicePersonsBody>;
/** One device's failures, or every device's. */
export const FailuresExportBody = Type.Object({ id: Type.Optional(Id) });
export const UnknownTerminal = Type.Object({
  serial: Type.String(),
  ip: Type.String(),
  first_seen_at: Type.String(),
  last_seen_at: Type.String(),
  requests: Type.Integer(),
});
export type UnknownTerminal = Static<typeof UnknownTerminal>;

/**
 * Scanning the network for ISAPI terminals (issue #20 LAN mode): an address range the administrator enters
 * ("192.168.1.10-192.168.1.60", "192.168.1.10-60", "192.168.1.0/24" or one address), private addresses only,
 * at most 256 of them, each asked GET /ISAPI/System/deviceInfo on `port`.
 */
export const DeviceScanBody = Type.Object({
  range: Type.String({ minLength: 1, maxLength: 64 }),
  /** the terminals' HTTP port (80 when omitted) */
  port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  /** with both, the model and serial of each terminal are read; without, a digest challenge still proves a Hikvision device */
  account: Type.Optional(Type.String({ maxLength: 40 })),
  password: Type.Optional(Type.String({ maxLength: 40 })),
});
export type DeviceScanBody = Static<typeof DeviceScanBody>;
export const SCAN_AUTH = ['ok', 'wrongPassword', 'noPassword'] as const;
export const DeviceScanHit = Type.Object({
  ip: Type.String(),
  port: Type.Integer(),
  protocol: Type.Literal('isapi'),
  /** ok: the account read the device info; wrongPassword: refused; noPassword: none given (a digest challenge answered) */
  auth: Type.Enum([...SCAN_AUTH]),
  model: Type.String(),
  /** as the device list stores it: letters and digits, at most 32 (the end of a longer Hikvision serial) */
  serial: Type.String(),
  firmware: Type.String(),
  device_name: Type.String(),
  /** the company's device already at this address or with this serial (0: none) */
  device_id: Type.Integer(),
});
export type DeviceScanHit = Static<typeof DeviceScanHit>;
export const DeviceScanAnswer = Type.Object({ scanned: Type.Integer(), ms: Type.Integer(), found: Type.Array(DeviceScanHit) });
export type DeviceScanAnswer = Static<typeof DeviceScanAnswer>;
export const PersonDevice = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  online: Type.Boolean(),
  state: StringEnum(LEDGER_STATES),
  removing: Type.Boolean(),
  code: Nullable(Type.Integer()),
  reason: Type.String(),
});
export type PersonDevice = Static<typeof PersonDevice>;
export const PersonSyncBody = Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: 50_000 }), skip_offline: Type.Optional(Flag) });
export const SyncAnswer = Type.Object({ people: Type.Integer(), devices: Type.Integer(), offline: Type.Array(Ref) });
export type SyncAnswer = Static<typeof SyncAnswer>;

export const devicesApi = {
  list: endpoint({ method: 'GET', path: '/device/list', query: DeviceListQuery, response: DevicePage }),
  /** Every device's id and name (a list's device filter): readable with face-device view or the attendance right. */
  names: endpoint({ method: 'GET', path: '/device/names', response: Type.Array(Ref) }),
  info: endpoint({ method: 'GET', path: '/device/info', query: IdBody, response: Device }),
  create: endpoint({ method: 'POST', path: '/device/create', body: DeviceCreate, response: Device }),
  update: endpoint({ method: 'POST', path: '/device/update', body: DeviceUpdate, response: Device }),
  delete: endpoint({ method: 'POST', path: '/device/delete', body: IdBody, response: Type.Null() }),
  options: endpoint({ method: 'POST', path: '/device/options', body: DeviceOptionsBody, response: Queued }),
  open: endpoint({ method: 'POST', path: '/device/open', body: DeviceOpenBody, response: CommandResult }),
  commandResult: endpoint({ method: 'GET', path: '/device/command/result', query: CommandResultQuery, response: CommandResult }),
  command: endpoint({ method: 'POST', path: '/device/command', body: DeviceCommandBody, response: CommandResult }),
  ledger: endpoint({ method: 'GET', path: '/device/persons', query: LedgerQuery, response: LedgerPage }),
  /** what the terminal holds, as its last roster read brought it (issue #30) */
  roster: endpoint({ method: 'GET', path: '/device/roster', query: RosterQuery, response: RosterPage }),
  /** starts applying a terminal's review; its progress and result are read with rosterApplyInfo */
  rosterApply: endpoint({ method: 'POST', path: '/device/roster/apply', body: RosterApplyBody, response: RosterApplyJob }),
  rosterApplyInfo: endpoint({ method: 'GET', path: '/device/roster/apply/info', query: Type.Object({ id: Id }), response: RosterApplyJob }),
  /** the company's apply going on, else its last one (null: none): a review page opened again picks it up */
  rosterApplyCurrent: endpoint({ method: 'GET', path: '/device/roster/apply/current', response: Nullable(RosterApplyJob) }),
  rosterRemove: endpoint({ method: 'POST', path: '/device/roster/remove', body: RosterRemoveBody, response: RosterRemoved }),
  rosterFace: endpoint({ method: 'GET', path: '/device/roster/face', query: RosterFaceQuery, response: binary('image/jpeg') }),
  /** every terminal's roster at once: one row a number, the terminals that hold it (issue #30) */
  rosterSite: endpoint({ method: 'GET', path: '/device/roster/site', query: RosterSiteQuery, response: RosterSitePage }),
  /** starts applying the site's review (read with rosterApplyInfo) */
  rosterSiteApply: endpoint({ method: 'POST', path: '/device/roster/site/apply', body: RosterSiteApplyBody, response: RosterApplyJob }),
  addPersons: endpoint({ method: 'POST', path: '/device/persons/add', body: DeviceAddPersonsBody, response: DeviceAdded }),
  removePersons: endpoint({ method: 'POST', path: '/device/persons/remove', body: DevicePersonsBody, response: Count }),
  retryPersons: endpoint({ method: 'POST', path: '/device/persons/retry', body: DevicePersonsBody, response: Count }),
  failuresExport: endpoint({ method: 'POST', path: '/device/failures/export', body: FailuresExportBody, response: binary(XLSX_TYPE) }),
  /** Terminals that called in during the last week with a serial no company registered. */
  unknown: endpoint({ method: 'GET', path: '/device/unknown', response: Type.Array(UnknownTerminal) }),
  scan: endpoint({ method: 'POST', path: '/device/scan', body: DeviceScanBody, response: DeviceScanAnswer }),
  personDevices: endpoint({ method: 'GET', path: '/person/personSelectedDevice', query: IdBody, response: Type.Array(PersonDevice) }),
  syncPersons: endpoint({ method: 'POST', path: '/person/sync', body: PersonSyncBody, response: SyncAnswer }),
};
