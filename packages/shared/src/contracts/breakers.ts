import { Type, type Static } from 'typebox';
import { LIMITS, TIME_PATTERN } from '../limits.ts';
import { Flag, Id, IdBody, Nullable, Page, PageQuery, StringEnum } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Smart circuit breakers (spec §2 /circuitBreaker, §3 Circuit breaker / Line / Timer, §5, §9; issue #12).
 * The wire protocol between breakers and the server is docs/breaker-protocol.md; the API notes docs/api-breakers.md.
 */
export const BREAKER_LIMITS = {
  /** A breaker's uuid is its MQTT user name and the middle of its topic prefix `fa/<uuid>/…`: no `/`, `+`, `#`. */
  uuidPattern: '^[A-Za-z0-9_-]{4,40}$',
  uuidMax: 40,
  aliasMax: 40,
  lineTitleMax: 30,
  linesMin: 1,
  linesMax: 16,
  sortMax: 9999,
  /** mxgg: maximum power in W. */
  mxggMax: 50_000,
  /** mxgl: maximum current in units of 10 mA (10000 = 100 A). */
  mxglMax: 10_000,
  /** Timers a breaker holds (its schedule table); more are refused by the breaker and by the server. */
  timersMax: 20,
  devicePasswordMin: 8,
  devicePasswordMax: 64,
  /** spec §9: a self-check cuts the line's power for 10 s (the default; the server's BREAKER_SELF_CHECK_SECONDS, answered as `selfcheck_seconds`). */
  selfCheckSeconds: 10,
} as const;

export const LINE_TYPES = ['lighting', 'socket', 'aircon', 'heater', 'power', 'other'] as const;
export type LineType = (typeof LINE_TYPES)[number];
export const TIMER_TYPES = ['cyclic', 'single'] as const;
export type TimerType = (typeof TIMER_TYPES)[number];
export const TIMER_ACTIONS = ['on', 'off'] as const;
export type TimerAction = (typeof TIMER_ACTIONS)[number];
/** Whether the breaker holds the timer as the server has it (reconciled after every reconnect). */
export const TIMER_SYNC_STATES = ['pending', 'synced', 'failed'] as const;
export type TimerSyncState = (typeof TIMER_SYNC_STATES)[number];
export const ALARM_TYPES = ['overcurrent', 'overpower', 'leakage', 'overtemp', 'offline'] as const;
export type AlarmType = (typeof ALARM_TYPES)[number];
export const SELF_CHECK_STATES = ['idle', 'running', 'passed', 'failed'] as const;
export type SelfCheckState = (typeof SELF_CHECK_STATES)[number];
/** A command's outcome as the breaker confirmed it, or `timeout` when it did not answer in time. */
export const SWITCH_OUTCOMES = ['success', 'failure', 'timeout'] as const;
export type SwitchOutcome = (typeof SWITCH_OUTCOMES)[number];
export const POWER_RANGES = ['day', 'month'] as const;
export type PowerRange = (typeof POWER_RANGES)[number];
export const ENERGY_PERIODS = ['day', 'month'] as const;
export type EnergyPeriod = (typeof ENERGY_PERIODS)[number];

/** One line (circuit) of a breaker, with its live figures as the breaker last reported them. */
export const BreakerLine = Type.Object({
  id: Type.Integer(),
  breaker_id: Type.Integer(),
  /** The line's number on the breaker, 1..linenum (the switch id on the wire is addr - 1). */
  addr: Type.Integer(),
  title: Type.String(),
  /** 1: the main (incoming) line. */
  main: Type.Integer(),
  line_type: StringEnum(LINE_TYPES),
  /** Max power, W. */
  mxgg: Type.Integer(),
  /** Max current, units of 10 mA. */
  mxgl: Type.Integer(),
  /** Whether the breaker confirmed the limits above (false: written when it next connects). */
  limits_synced: Type.Boolean(),
  /** Switch state: 1 on (closed, power flows), 0 off. */
  oc: Type.Integer(),
  online: Type.Boolean(),
  /** Live figures: W, A, V, kWh (meter total), °C, mA. */
  power: Type.Number(),
  current: Type.Number(),
  voltage: Type.Number(),
  energy: Type.Number(),
  temperature: Nullable(Type.Number()),
  leakage: Type.Number(),
  /** The active alarm on this line (null: none). */
  alarm: Nullable(StringEnum(ALARM_TYPES)),
  selfcheck: StringEnum(SELF_CHECK_STATES),
  selfcheck_at: Nullable(Type.String()),
  updated_at: Nullable(Type.String()),
});
export type BreakerLine = Static<typeof BreakerLine>;

export const Breaker = Type.Object({
  id: Type.Integer(),
  alias: Type.String(),
  uuid: Type.String(),
  sort: Type.Integer(),
  linenum: Type.Integer(),
  online: Type.Boolean(),
  last_seen_at: Nullable(Type.String()),
  /** Sum of the lines' power (W), main lines excluded when the breaker has any other line. */
  power: Type.Number(),
  /** Active (not cleared) alarms. */
  alarms: Type.Integer(),
  created_at: Type.String(),
});
export type Breaker = Static<typeof Breaker>;
/** How long a self-check cuts a line's power on this server (BREAKER_SELF_CHECK_SECONDS), for the confirmation. */
const selfcheck_seconds = Type.Integer({ minimum: 1 });
export const BreakerDetail = Type.Object({ ...Breaker.properties, lines: Type.Array(BreakerLine), selfcheck_seconds });
export type BreakerDetail = Static<typeof BreakerDetail>;

const uuid = Type.String({ minLength: 4, maxLength: BREAKER_LIMITS.uuidMax, pattern: BREAKER_LIMITS.uuidPattern });
const sort = Type.Integer({ minimum: 0, maximum: BREAKER_LIMITS.sortMax });
const devicePassword = Type.String({ minLength: BREAKER_LIMITS.devicePasswordMin, maxLength: BREAKER_LIMITS.devicePasswordMax, pattern: '^[\\x21-\\x7e]+$' });

/** spec §5: uuid (device number) and sort are required. Without `password` the server draws one (shown once). */
export const BreakerCreate = Type.Object({
  alias: Type.Optional(Type.String({ maxLength: BREAKER_LIMITS.aliasMax })),
  uuid,
  sort,
  linenum: Type.Optional(Type.Integer({ minimum: BREAKER_LIMITS.linesMin, maximum: BREAKER_LIMITS.linesMax })),
  password: Type.Optional(devicePassword),
});
export type BreakerCreate = Static<typeof BreakerCreate>;
/** A new breaker and its MQTT password: the only time the server ever answers it. */
/**
 * Where breakers connect (what a technician sets on the breaker beside its uuid and password). `host` null: the
 * console's own host (the embedded broker listens on the server's address).
 */
export const BrokerAddress = Type.Object({ host: Nullable(Type.String()), port: Type.Integer(), tls: Type.Boolean() });
export type BrokerAddress = Static<typeof BrokerAddress>;
export const BreakerCreated = Type.Object({ breaker: Breaker, password: Type.String(), broker: BrokerAddress });
export type BreakerCreated = Static<typeof BreakerCreated>;
export const BreakerUpdate = Type.Object({
  id: Id,
  alias: Type.Optional(Type.String({ maxLength: BREAKER_LIMITS.aliasMax })),
  uuid,
  sort,
  linenum: Type.Optional(Type.Integer({ minimum: BREAKER_LIMITS.linesMin, maximum: BREAKER_LIMITS.linesMax })),
});
export type BreakerUpdate = Static<typeof BreakerUpdate>;
/** Sets the breaker's MQTT password (or draws a new one without `password`); the answer shows it once. */
export const BreakerPasswordBody = Type.Object({ id: Id, password: Type.Optional(devicePassword) });
export type BreakerPasswordBody = Static<typeof BreakerPasswordBody>;
export const BreakerPassword = Type.Object({ password: Type.String(), broker: BrokerAddress });
export const BreakerListQuery = Type.Object({
  ...PageQuery,
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  online: Type.Optional(Flag),
});
export type BreakerListQuery = Static<typeof BreakerListQuery>;
export const BreakerPage = Page(Breaker);

export const LineInfo = Type.Object({
  ...BreakerLine.properties,
  breaker_alias: Type.String(),
  breaker_uuid: Type.String(),
  breaker_online: Type.Boolean(),
  selfcheck_seconds,
});
export type LineInfo = Static<typeof LineInfo>;
/** spec §5: name, overcurrent limit (mxgl) and max power (mxgg) are required. */
export const LineUpdate = Type.Object({
  id: Id,
  title: Type.String({ minLength: 1, maxLength: BREAKER_LIMITS.lineTitleMax }),
  main: Type.Optional(Flag),
  line_type: Type.Optional(Type.Enum([...LINE_TYPES])),
  mxgg: Type.Integer({ minimum: 1, maximum: BREAKER_LIMITS.mxggMax }),
  mxgl: Type.Integer({ minimum: 1, maximum: BREAKER_LIMITS.mxglMax }),
});
export type LineUpdate = Static<typeof LineUpdate>;
/** Switch a line on (1) or off (0). */
export const LineSwitchBody = Type.Object({ id: Id, oc: Flag });
export type LineSwitchBody = Static<typeof LineSwitchBody>;
/** The breaker's answer to a switch, self-check or limits command. */
export const CommandOutcome = Type.Object({
  outcome: StringEnum(SWITCH_OUTCOMES),
  /** The line's switch state after the command, as last known. */
  oc: Type.Integer(),
  message: Type.String(),
});
export type CommandOutcome = Static<typeof CommandOutcome>;
export const LineSaved = Type.Object({ line: LineInfo, result: CommandOutcome });
export type LineSaved = Static<typeof LineSaved>;

export const Timer = Type.Object({
  id: Type.Integer(),
  breaker_id: Type.Integer(),
  type: StringEnum(TIMER_TYPES),
  line_ids: Type.Array(Type.Integer()),
  /** The lines' titles, in the order of line_ids. */
  line_titles: Type.Array(Type.String()),
  /** single: the day (YYYY-MM-DD, the company's zone); cyclic: null. */
  day: Nullable(Type.String()),
  /** HH:mm in the company's zone. */
  time: Type.String(),
  /** cyclic: 0 Sunday … 6 Saturday; single: empty. */
  weekdays: Type.Array(Type.Integer()),
  action: StringEnum(TIMER_ACTIONS),
  enabled: Type.Boolean(),
  updated_at: Type.String(),
  sync: StringEnum(TIMER_SYNC_STATES),
  /** Why the breaker refused it (translated), when sync is failed. */
  sync_error: Type.String(),
});
export type Timer = Static<typeof Timer>;
const timerFields = {
  type: Type.Enum([...TIMER_TYPES]),
  line_ids: Type.Array(Id, { minItems: 1, maxItems: BREAKER_LIMITS.linesMax }),
  day: Type.Optional(Type.String({ format: 'date' })),
  time: Type.String({ pattern: TIME_PATTERN }),
  weekdays: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 6 }), { maxItems: 7 })),
  action: Type.Enum([...TIMER_ACTIONS]),
  enabled: Type.Optional(Flag),
};
/** spec §5: line selection and time are required; a cyclic timer needs weekdays, a single one its day. */
export const TimerCreate = Type.Object({ breaker_id: Id, ...timerFields });
export type TimerCreate = Static<typeof TimerCreate>;
export const TimerUpdate = Type.Object({ id: Id, ...timerFields });
export type TimerUpdate = Static<typeof TimerUpdate>;
export const TimerListQuery = Type.Object({ breaker_id: Id });

export const BreakerAlarm = Type.Object({
  id: Type.Integer(),
  breaker_id: Type.Integer(),
  breaker_alias: Type.String(),
  line_id: Nullable(Type.Integer()),
  line_title: Type.String(),
  type: StringEnum(ALARM_TYPES),
  /** The reading that raised it (A for overcurrent, W over-power, mA leakage, °C over-temperature); null for offline. */
  value: Nullable(Type.Number()),
  at: Type.String(),
  cleared_at: Nullable(Type.String()),
});
export type BreakerAlarm = Static<typeof BreakerAlarm>;
export const AlarmListQuery = Type.Object({
  ...PageQuery,
  breaker_id: Type.Optional(Id),
  line_id: Type.Optional(Id),
  type: Type.Optional(Type.Enum([...ALARM_TYPES])),
  active: Type.Optional(Flag),
});
export type AlarmListQuery = Static<typeof AlarmListQuery>;
export const AlarmPage = Page(BreakerAlarm);

/** Power series of a breaker (all its lines) or one line: `day` = last 24 h in 5-minute steps, `month` = last 30 days by day. */
export const PowerQuery = Type.Object({ id: Id, line_id: Type.Optional(Id), range: Type.Enum([...POWER_RANGES]) });
export type PowerQuery = Static<typeof PowerQuery>;
/**
 * One bucket (docs/api-breakers.md, "Power and energy"): `t` its start (day: UTC ISO; month: the company's date),
 * `avg` the mean and `max` the highest of its one-minute totals (W), so 0 ≤ avg ≤ max.
 */
export const PowerPoint = Type.Object({ t: Type.String(), avg: Type.Number(), max: Type.Number() });
export const PowerSeries = Type.Object({ range: StringEnum(POWER_RANGES), step_s: Type.Integer(), points: Type.Array(PowerPoint) });
export type PowerSeries = Static<typeof PowerSeries>;
/** A line's energy per day (last 30 days) or per month (last 12 months), kWh, in the company's zone. */
export const EnergyQuery = Type.Object({ id: Id, by: Type.Enum([...ENERGY_PERIODS]) });
export type EnergyQuery = Static<typeof EnergyQuery>;
export const EnergyItem = Type.Object({ period: Type.String(), kwh: Type.Number() });
export type EnergyItem = Static<typeof EnergyItem>;

export const breakersApi = {
  list: endpoint({ method: 'GET', path: '/breaker/list', query: BreakerListQuery, response: BreakerPage }),
  info: endpoint({ method: 'GET', path: '/breaker/info', query: IdBody, response: BreakerDetail }),
  create: endpoint({ method: 'POST', path: '/breaker/create', body: BreakerCreate, response: BreakerCreated }),
  update: endpoint({ method: 'POST', path: '/breaker/update', body: BreakerUpdate, response: Breaker }),
  delete: endpoint({ method: 'POST', path: '/breaker/delete', body: IdBody, response: Type.Null() }),
  password: endpoint({ method: 'POST', path: '/breaker/password', body: BreakerPasswordBody, response: BreakerPassword }),
  lineInfo: endpoint({ method: 'GET', path: '/breaker/line/info', query: IdBody, response: LineInfo }),
  lineUpdate: endpoint({ method: 'POST', path: '/breaker/line/update', body: LineUpdate, response: LineSaved }),
  lineSwitch: endpoint({ method: 'POST', path: '/breaker/line/switch', body: LineSwitchBody, response: CommandOutcome }),
  lineSelfCheck: endpoint({ method: 'POST', path: '/breaker/line/selfcheck', body: IdBody, response: CommandOutcome }),
  lineEnergy: endpoint({ method: 'GET', path: '/breaker/line/energy', query: EnergyQuery, response: Type.Array(EnergyItem) }),
  power: endpoint({ method: 'GET', path: '/breaker/power', query: PowerQuery, response: PowerSeries }),
  timers: endpoint({ method: 'GET', path: '/breaker/timer/list', query: TimerListQuery, response: Type.Array(Timer) }),
  timerCreate: endpoint({ method: 'POST', path: '/breaker/timer/create', body: TimerCreate, response: Timer }),
  timerUpdate: endpoint({ method: 'POST', path: '/breaker/timer/update', body: TimerUpdate, response: Timer }),
  timerDelete: endpoint({ method: 'POST', path: '/breaker/timer/delete', body: IdBody, response: Type.Null() }),
  alarms: endpoint({ method: 'GET', path: '/breaker/alarm/list', query: AlarmListQuery, response: AlarmPage }),
};
