import { Type, type Static } from 'typebox';
import { LIMITS, TIME_PATTERN } from '../limits.ts';
import { DEVICE_OPTION_RANGES } from '../devices.ts';
import { Id, IdBody, Nullable, Page, PageQuery, Ref, StringEnum, XLSX_TYPE } from './common.ts';
import { binary, endpoint } from './endpoint.ts';

/** spec §3 "Attendance rule": the modes and the attendance models. */
export const RULE_MODES = ['fixed', 'shift', 'free'] as const;
export type RuleMode = (typeof RULE_MODES)[number];
export const ATTENDANCE_MODELS = ['default', 'temperature', 'health', 'alcohol'] as const;
export type AttendanceModel = (typeof ATTENDANCE_MODELS)[number];
export const HOLIDAY_KINDS = ['holiday', 'workday'] as const;
/** spec §5: a cycle's name has at most 8 characters; a day has 1 to 3 shifts. */
export const ATTENDANCE_LIMITS = {
  cycleNameMax: LIMITS.cycleNameMax,
  shiftsPerDayMax: 3,
  shiftsPerRuleMax: 12,
  cycleDaysMax: 62,
  cyclesPerRuleMax: 20,
  windowMax: 720,
} as const;

const Hm = Type.String({ pattern: TIME_PATTERN });
const Minutes = (max: number) => Type.Integer({ minimum: 0, maximum: max });

export const BreakDef = Type.Object({ start: Hm, end: Hm, deducted: Type.Boolean() });
export const ShiftInput = Type.Object({
  /** A client key tying weekdays and cycles to this shift before it has an id (or its id when editing). */
  key: Type.String({ minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9_-]+$' }),
  name: Type.String({ minLength: 1, maxLength: 20 }),
  start: Hm,
  end: Hm,
  breaks: Type.Optional(Type.Array(BreakDef, { maxItems: 3 })),
  late_grace_min: Type.Optional(Minutes(240)),
  early_grace_min: Type.Optional(Minutes(240)),
  check_in_before_min: Type.Optional(Minutes(ATTENDANCE_LIMITS.windowMax)),
  check_in_after_min: Type.Optional(Minutes(ATTENDANCE_LIMITS.windowMax)),
  check_out_before_min: Type.Optional(Minutes(ATTENDANCE_LIMITS.windowMax)),
  check_out_after_min: Type.Optional(Minutes(ATTENDANCE_LIMITS.windowMax)),
});
export type ShiftInput = Static<typeof ShiftInput>;
export const CycleInput = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9_-]+$' }),
  name: Type.String({ minLength: 1, maxLength: ATTENDANCE_LIMITS.cycleNameMax }),
  /** one entry per day of the cycle: a shift's key, or '' for a rest day */
  days: Type.Array(Type.String({ maxLength: 20, pattern: '^([A-Za-z0-9_-]*|\\*)$' }), { minItems: 1, maxItems: ATTENDANCE_LIMITS.cycleDaysMax }),
});
export type CycleInput = Static<typeof CycleInput>;

/**
 * Automatic shift matching (#17): a weekday's or cycle day's entry AUTO_SHIFT_KEY (alone on its day) means "the
 * rule's `auto_shifts` candidate nearest to the person's first valid punch" (docs/attendance.md).
 */
export const AUTO_SHIFT_KEY = '*';
const WeekdayShifts = Type.Array(Type.String({ maxLength: 20, pattern: '^([A-Za-z0-9_-]+|\\*)$' }), {
  maxItems: ATTENDANCE_LIMITS.shiftsPerDayMax,
  uniqueItems: true,
});

/** How a rule counts worked time (#17): first → last punch, or the sum of in/out pairs. */
export const WORKED_BY = ['firstLast', 'pairs'] as const;
export type WorkedBy = (typeof WORKED_BY)[number];

export const RuleInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 40 }),
  mode: Type.Enum([...RULE_MODES]),
  model: Type.Optional(Type.Enum([...ATTENDANCE_MODELS])),
  use_direction: Type.Optional(Type.Boolean()),
  overtime_min_min: Type.Optional(Minutes(600)),
  late_absent_after_min: Type.Optional(Nullable(Minutes(720))),
  half_day_below_min: Type.Optional(Nullable(Minutes(1440))),
  absent_below_min: Type.Optional(Nullable(Minutes(1440))),
  /** the temperature model's alarm (℃): a punch at or above it is not valid; the device's default 37.3 (#17) */
  alarm_temp: Type.Optional(Type.Number({ minimum: DEVICE_OPTION_RANGES.alarmTemp[0], maximum: DEVICE_OPTION_RANGES.alarmTemp[1] })),
  /** how worked time is counted: first punch → last punch (default), or the sum of in/out pairs (#17) */
  worked_by: Type.Optional(Type.Enum([...WORKED_BY])),
  /** punches on holidays and rest days count as rest-day overtime (default); off: ignored, the day stays off (#17) */
  count_off_day_punches: Type.Optional(Type.Boolean()),
  /** overtime counts only within approved overtime applications (#17) */
  overtime_needs_approval: Type.Optional(Type.Boolean()),
  shifts: Type.Array(ShiftInput, { maxItems: ATTENDANCE_LIMITS.shiftsPerRuleMax }),
  /** fixed mode: weekday (0 = Sunday … 6 = Saturday) → the keys of that day's shifts (1 to 3; none: rest) */
  weekdays: Type.Optional(
    Type.Object({ 0: WeekdayShifts, 1: WeekdayShifts, 2: WeekdayShifts, 3: WeekdayShifts, 4: WeekdayShifts, 5: WeekdayShifts, 6: WeekdayShifts }),
  ),
  /** automatic shift matching (#17): the candidate shifts' keys (at least 2) of the weekdays / cycle days marked AUTO_SHIFT_KEY */
  auto_shifts: Type.Optional(
    Type.Array(Type.String({ maxLength: 20, pattern: '^[A-Za-z0-9_-]+$' }), { maxItems: ATTENDANCE_LIMITS.shiftsPerRuleMax, uniqueItems: true }),
  ),
  /** free mode */
  day_boundary: Type.Optional(Hm),
  required_min: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
  /** shift mode: cycle templates, and the one that runs by default from start_date starting on day start_index */
  cycles: Type.Optional(Type.Array(CycleInput, { maxItems: ATTENDANCE_LIMITS.cyclesPerRuleMax })),
  cycle_key: Type.Optional(Nullable(Type.String({ maxLength: 20, pattern: '^[A-Za-z0-9_-]*$' }))),
  start_date: Type.Optional(Nullable(Type.String({ format: 'date' }))),
  start_index: Type.Optional(Type.Integer({ minimum: 0, maximum: ATTENDANCE_LIMITS.cycleDaysMax - 1 })),
  person_ids: Type.Array(Id, { maxItems: 20_000, uniqueItems: true }),
  department_ids: Type.Array(Id, { maxItems: 2_000, uniqueItems: true }),
  /**
   * The first date (company zone) the definition and members apply on (#17); earlier days keep the rule they had.
   * Edits default to today; a new rule without it covers earlier days too. Refused inside a closed period.
   */
  effective_from: Type.Optional(Type.String({ format: 'date' })),
});
export type RuleInput = Static<typeof RuleInput>;
export const RuleUpdate = Type.Object({ id: Id, ...RuleInput.properties });
export type RuleUpdate = Static<typeof RuleUpdate>;

export const Shift = Type.Object({
  id: Type.Integer(),
  key: Type.String(),
  name: Type.String(),
  start: Type.String(),
  end: Type.String(),
  breaks: Type.Array(BreakDef),
  late_grace_min: Type.Integer(),
  early_grace_min: Type.Integer(),
  check_in_before_min: Type.Integer(),
  check_in_after_min: Type.Integer(),
  check_out_before_min: Type.Integer(),
  check_out_after_min: Type.Integer(),
});
export type Shift = Static<typeof Shift>;
export const Cycle = Type.Object({ id: Type.Integer(), key: Type.String(), name: Type.String(), days: Type.Array(Type.String()) });
export type Cycle = Static<typeof Cycle>;

/** One of a rule's versions: its definition and members from `effective_from` on (null: since always). */
export const RuleVersion = Type.Object({ id: Type.Integer(), effective_from: Nullable(Type.String()), created_at: Type.String() });
export type RuleVersion = Static<typeof RuleVersion>;

export const Rule = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  mode: StringEnum(RULE_MODES),
  model: StringEnum(ATTENDANCE_MODELS),
  use_direction: Type.Boolean(),
  overtime_min_min: Type.Integer(),
  late_absent_after_min: Nullable(Type.Integer()),
  half_day_below_min: Nullable(Type.Integer()),
  absent_below_min: Nullable(Type.Integer()),
  alarm_temp: Type.Number(),
  worked_by: StringEnum(WORKED_BY),
  count_off_day_punches: Type.Boolean(),
  overtime_needs_approval: Type.Boolean(),
  shifts: Type.Array(Shift),
  weekdays: Type.Record(Type.String(), Type.Array(Type.String())),
  /** automatic shift matching's candidates (shift keys; empty: none) */
  auto_shifts: Type.Array(Type.String()),
  day_boundary: Type.String(),
  required_min: Type.Integer(),
  cycles: Type.Array(Cycle),
  cycle_key: Nullable(Type.String()),
  start_date: Nullable(Type.String()),
  start_index: Type.Integer(),
  persons: Type.Array(Ref),
  departments: Type.Array(Ref),
  /** people the rule covers (directly or through a department), working ones */
  member_count: Type.Integer(),
  updated_at: Type.String(),
  /** the rule's history, newest first; empty when it never changed with a date (it applies on every date) */
  versions: Type.Array(RuleVersion),
});
export type Rule = Static<typeof Rule>;
export const RuleList = Type.Object({ items: Type.Array(Rule), total: Type.Integer() });

export const HolidayInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 40 }),
  kind: Type.Enum([...HOLIDAY_KINDS]),
  from_date: Type.String({ format: 'date' }),
  to_date: Type.String({ format: 'date' }),
  /** a moved working day follows this weekday's schedule (1 = Monday … 0 = Sunday); default: Monday */
  as_weekday: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 6 }))),
  /** the rules it applies to; empty: every rule */
  rule_ids: Type.Array(Id, { maxItems: 200, uniqueItems: true }),
});
export type HolidayInput = Static<typeof HolidayInput>;
export const HolidayUpdate = Type.Object({ id: Id, ...HolidayInput.properties });
export type HolidayUpdate = Static<typeof HolidayUpdate>;
export const Holiday = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  kind: StringEnum(HOLIDAY_KINDS),
  from_date: Type.String(),
  to_date: Type.String(),
  as_weekday: Nullable(Type.Integer()),
  rules: Type.Array(Ref),
});
export type Holiday = Static<typeof Holiday>;
export const HolidayQuery = Type.Object({ year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2100 })) });
export const HolidayList = Type.Object({ items: Type.Array(Holiday), total: Type.Integer() });

/** A day result's status (the console's legend groups them: normal, abnormal, out-of-office, leave, holiday — spec §4). */
export const DAY_STATUSES = [
  'normal',
  'late',
  'early',
  'lateEarly',
  'missingIn',
  'missingOut',
  'absent',
  'halfDay',
  'leave',
  'out',
  'holiday',
  'rest',
  'pending',
] as const;
export type DayStatus = (typeof DAY_STATUSES)[number];
/** overtime: an approved overtime period, read by rules whose overtime needs approval (#17) */
export const ABSENCE_KINDS = ['leave', 'out', 'supplement', 'overtime'] as const;

/** One line of a result's explanation: a translation key (att.why.*) and its values. */
export const WhyLine = Type.Object({ key: Type.String(), params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))) });
export type WhyLine = Static<typeof WhyLine>;

/**
 * Leave in the figures (#17): approved leave, out-of-office and absent minutes of a day, and its leave minutes by
 * leave type (the leave app's option value, e.g. 'annual'; LEAVE_OTHER for leave recorded without a type).
 */
export const LEAVE_OTHER = 'other';
export const LeaveKinds = Type.Record(Type.String(), Type.Integer());
export type LeaveKinds = Static<typeof LeaveKinds>;
const LeaveFigures = {
  /** the day's leave in days, to the half day (#18): 1 on a day on leave, else its leave minutes over its scheduled ones */
  leave_days: Type.Number({ minimum: 0, maximum: 1, multipleOf: 0.5 }),
  leave_min: Type.Integer(),
  out_min: Type.Integer(),
  absent_min: Type.Integer(),
  leave_kinds: LeaveKinds,
};
/** A company's leave type with its label in the reader's language (the report's columns, #17). */
export const LeaveType = Type.Object({ value: Type.String(), label: Type.String() });
export type LeaveType = Static<typeof LeaveType>;
export const LeaveTypeList = Type.Object({ items: Type.Array(LeaveType) });
export type LeaveTypeList = Static<typeof LeaveTypeList>;

/**
 * The minutes a day's cell of the month grid shows beside its status symbol (#17): late/early minutes for late,
 * early, both; absent minutes for absent and half day; leave or out minutes for leave and out; nothing while
 * pending; else the worked minutes (overtime on a rest day or holiday).
 */
export function gridMinutes(d: {
  status: DayStatus;
  late_min: number;
  early_min: number;
  worked_min: number;
  leave_min: number;
  out_min: number;
  absent_min: number;
}): number {
  switch (d.status) {
    case 'late':
      return d.late_min;
    case 'early':
      return d.early_min;
    case 'lateEarly':
      return d.late_min + d.early_min;
    case 'absent':
    case 'halfDay':
      return d.absent_min;
    case 'leave':
      return d.leave_min;
    case 'out':
      return d.out_min;
    case 'pending':
      return 0;
    default:
      return d.worked_min;
  }
}

export const DayRow = Type.Object({
  person_id: Type.Integer(),
  number: Type.String(),
  name: Type.String(),
  date: Type.String(),
  status: StringEnum(DAY_STATUSES),
  late_min: Type.Integer(),
  early_min: Type.Integer(),
  worked_min: Type.Integer(),
  overtime_min: Type.Integer(),
  ...LeaveFigures,
  /** set by an administrator: it stands until removed (the computed status is in `computed_status`) */
  manual: Type.Boolean(),
  computed_status: StringEnum(DAY_STATUSES),
  rule: Nullable(Type.String()),
});
export type DayRow = Static<typeof DayRow>;
export const DayQuery = Type.Object({
  ...PageQuery,
  date: Type.String({ format: 'date' }),
  department_id: Type.Optional(Id),
  status: Type.Optional(Type.Enum([...DAY_STATUSES])),
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
});
export type DayQuery = Static<typeof DayQuery>;
export const DayPage = Page(DayRow);
/** The latest date up to today (the company's zone) that has results, or null: where the day view opens (#17). */
export const LatestDay = Type.Object({ date: Nullable(Type.String()) });
export type LatestDay = Static<typeof LatestDay>;
export const DayKey = Type.Object({ person_id: Id, date: Type.String({ format: 'date' }) });
export const DayShift = Type.Object({
  shift_id: Type.Integer(),
  name: Type.String(),
  start: Type.String(),
  end: Type.String(),
  status: StringEnum(DAY_STATUSES),
  check_in: Nullable(Type.String()),
  check_out: Nullable(Type.String()),
  late_min: Type.Integer(),
  early_min: Type.Integer(),
  worked_min: Type.Integer(),
  overtime_min: Type.Integer(),
});
export const DayPunch = Type.Object({
  id: Type.Integer(),
  time: Type.String(),
  device: Type.String(),
  used: Type.Boolean(),
  ignored: Nullable(Type.String()),
  detail: Nullable(WhyLine),
});
export const DayDetail = Type.Object({
  ...DayRow.properties,
  manual_reason: Nullable(Type.String()),
  computed_at: Type.String(),
  why: Type.Array(WhyLine),
  shifts: Type.Array(DayShift),
  punches: Type.Array(DayPunch),
  /** under the temperature model: a punch of the day was at or above the rule's alarm and refused (#17) */
  temperature_alarm: Type.Boolean(),
  /** the closed period the day lies in: its figures and explanation are the stored ones, as paid (#28); null: open */
  closed: Nullable(Type.Object({ from: Type.String(), to: Type.String() })),
});
export type DayDetail = Static<typeof DayDetail>;

/** An administrator's result for a person-day: it stands until removed (status null removes it). */
export const ManualDayBody = Type.Object({
  person_id: Id,
  date: Type.String({ format: 'date' }),
  status: Nullable(Type.Enum(['normal', 'late', 'early', 'absent', 'halfDay', 'leave', 'out', 'holiday', 'rest'])),
  reason: Type.String({ maxLength: 200 }),
});
export type ManualDayBody = Static<typeof ManualDayBody>;

/** "Attendance update" (spec §8): a date range recalculated on demand; no dates gives the spec's message. */
export const RecalculateBody = Type.Object({ from: Type.Optional(Type.String({ format: 'date' })), to: Type.Optional(Type.String({ format: 'date' })) });
export const RecalculateStatus = Type.Object({ pending: Type.Integer() });

export const AbsenceInput = Type.Object({
  person_id: Id,
  kind: Type.Enum([...ABSENCE_KINDS]),
  /** instants with their zone; a supplement punch uses `from` */
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  reason: Type.String({ minLength: 1, maxLength: 200 }),
  /** a leave's type (the leave app's option value, #17); only with kind 'leave' */
  leave_type: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
});
export type AbsenceInput = Static<typeof AbsenceInput>;
export const Absence = Type.Object({
  id: Type.Integer(),
  person_id: Type.Integer(),
  name: Type.String(),
  kind: StringEnum(ABSENCE_KINDS),
  from: Type.String(),
  to: Type.String(),
  reason: Type.String(),
  source: Type.String(),
  created_at: Type.String(),
  leave_type: Nullable(Type.String()),
});
export const AbsenceQuery = Type.Object({ person_id: Type.Optional(Id), from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }) });
export const AbsenceList = Type.Object({ items: Type.Array(Absence), total: Type.Integer() });

/** The month report (per person): what payroll needs, computed from the stored day results. */
export const MonthRow = Type.Object({
  person_id: Type.Integer(),
  number: Type.String(),
  name: Type.String(),
  /** scheduled working days (not rest or holiday) */
  work_days: Type.Integer(),
  /** working days with a check-in (not absent, not on leave all day) */
  present_days: Type.Integer(),
  late_count: Type.Integer(),
  late_min: Type.Integer(),
  early_count: Type.Integer(),
  early_min: Type.Integer(),
  missing_count: Type.Integer(),
  absent_days: Type.Integer(),
  /** leave in days, to the half day (#18): the sum of each day's leave days (a half-day leave counts 0.5) */
  leave_days: Type.Number({ minimum: 0, multipleOf: 0.5 }),
  out_days: Type.Integer(),
  worked_min: Type.Integer(),
  overtime_min: Type.Integer(),
  /** the month's leave / out-of-office / absent minutes and leave minutes by type (#17) */
  leave_min: Type.Integer(),
  out_min: Type.Integer(),
  absent_min: Type.Integer(),
  leave_kinds: LeaveKinds,
  /** the person's departments, by name (#17) */
  department: Type.String(),
  /** the per-day grid (the report page and its export; not in a person's calendar totals) */
  days: Type.Optional(Type.Array(Type.Object({ date: Type.String(), status: StringEnum(DAY_STATUSES), minutes: Type.Integer() }))),
});
export type MonthRow = Static<typeof MonthRow>;
export const MonthQuery = Type.Object({
  ...PageQuery,
  month: Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' }),
  department_id: Type.Optional(Id),
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
});
export type MonthQuery = Static<typeof MonthQuery>;
/** The month report's page, with the company's leave types (its leave columns, in the reader's language). */
export const MonthPage = Type.Object({ ...Page(MonthRow).properties, leave_types: Type.Array(LeaveType) });
export type MonthPage = Static<typeof MonthPage>;

/**
 * The free scheduling grid (spec §2 /attendance/freeSchedule, §3 "Schedule state", §4 hashes): a shift-mode rule's
 * people × the days of a month. A cell is what the grid stores (a shift, or rest), else what the running cycle gives.
 */
export const SCHEDULE_LIMITS = {
  /** cells one save may change */
  cellsMax: 5_000,
  /** cycle applications one save may carry, and people in each */
  applyMax: 50,
  applyPeopleMax: 1_000,
} as const;
const MonthText = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' });
/** a shift's key, or '' for a rest day */
const ShiftKey = Type.String({ maxLength: 20, pattern: '^([A-Za-z0-9_-]*|\\*)$' }); // AUTO_SHIFT_KEY: picked by the first punch
export const SCHEDULE_SOURCES = ['grid', 'cycle', 'none'] as const;
export type ScheduleSource = (typeof SCHEDULE_SOURCES)[number];
export const ScheduleCell = Type.Object({
  /** a shift's key; '' a rest day */
  shift_key: Type.String(),
  /** grid: stored in the grid; cycle: given by the rule's running cycle; none: neither (a rest day) */
  source: StringEnum(SCHEDULE_SOURCES),
  /** a grid cell written by applying a cycle template: that template's key */
  cycle_key: Nullable(Type.String()),
});
export type ScheduleCell = Static<typeof ScheduleCell>;
export const SchedulePerson = Type.Object({
  person_id: Type.Integer(),
  number: Type.String(),
  name: Type.String(),
  /** one per day of the month, in order */
  cells: Type.Array(ScheduleCell),
});
export type SchedulePerson = Static<typeof SchedulePerson>;
export const ScheduleQuery = Type.Object({ ...PageQuery, rule_id: Id, month: MonthText, department_id: Type.Optional(Id) });
export type ScheduleQuery = Static<typeof ScheduleQuery>;
export const ScheduleGrid = Type.Object({
  ...Page(SchedulePerson).properties,
  rule: Ref,
  month: Type.String(),
  days: Type.Array(Type.String()),
  shifts: Type.Array(Shift),
  cycles: Type.Array(Cycle),
  /** automatic shift matching (#17): the rule's candidate shift keys; with 2 or more a cell may be AUTO_SHIFT_KEY */
  auto_shifts: Type.Optional(Type.Array(Type.String())),
  /** the cycle that runs when the grid says nothing: its key, from which date, on which of its days */
  running: Nullable(Type.Object({ cycle_key: Type.String(), start_date: Type.String(), start_index: Type.Integer() })),
  /** the server hash: of the month's stored grid for all the rule's people; send it back when saving */
  hash: Type.String(),
});
export type ScheduleGrid = Static<typeof ScheduleGrid>;
export const ScheduleCellInput = Type.Object({
  person_id: Id,
  date: Type.String({ format: 'date' }),
  /** a shift's key, '' for rest, null to clear the cell (the running cycle applies again) */
  shift_key: Nullable(ShiftKey),
});
export type ScheduleCellInput = Static<typeof ScheduleCellInput>;
export const ScheduleApply = Type.Object({
  person_ids: Type.Array(Id, { minItems: 1, maxItems: SCHEDULE_LIMITS.applyPeopleMax, uniqueItems: true }),
  cycle_key: Type.String({ minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9_-]+$' }),
  /** within the month */
  from_date: Type.String({ format: 'date' }),
  to_date: Type.String({ format: 'date' }),
  /** the cycle day `from_date` is (0 = its first) */
  start_index: Type.Integer({ minimum: 0, maximum: ATTENDANCE_LIMITS.cycleDaysMax - 1 }),
});
export type ScheduleApply = Static<typeof ScheduleApply>;
export const ScheduleSave = Type.Object({
  rule_id: Id,
  month: MonthText,
  /** the client hash: the `hash` the editor loaded; a different server hash means someone else saved since */
  hash: Type.String({ minLength: 1, maxLength: 128, pattern: '^[0-9a-f]+$' }),
  cells: Type.Array(ScheduleCellInput, { maxItems: SCHEDULE_LIMITS.cellsMax }),
  /** cycle templates applied to people over dates; cells are written after them, so a cell wins */
  apply: Type.Optional(Type.Array(ScheduleApply, { maxItems: SCHEDULE_LIMITS.applyMax })),
});
export type ScheduleSave = Static<typeof ScheduleSave>;
export const ScheduleSaved = Type.Object({ hash: Type.String(), changed: Type.Integer() });
export type ScheduleSaved = Static<typeof ScheduleSaved>;

/** One person's month as a calendar: each day with results, its figures and first/last counted punch. */
export const CalendarDay = Type.Object({
  date: Type.String(),
  status: StringEnum(DAY_STATUSES),
  computed_status: StringEnum(DAY_STATUSES),
  manual: Type.Boolean(),
  late_min: Type.Integer(),
  early_min: Type.Integer(),
  worked_min: Type.Integer(),
  overtime_min: Type.Integer(),
  ...LeaveFigures,
  rule: Nullable(Type.String()),
  /** the first and the last punch the day counted (instants; a night shift's check-out is on the next date) */
  check_in: Nullable(Type.String()),
  check_out: Nullable(Type.String()),
});
export type CalendarDay = Static<typeof CalendarDay>;
export const PersonMonthQuery = Type.Object({ person_id: Id, month: MonthText });
export type PersonMonthQuery = Static<typeof PersonMonthQuery>;
export const PersonMonth = Type.Object({
  person_id: Type.Integer(),
  number: Type.String(),
  name: Type.String(),
  month: Type.String(),
  days: Type.Array(CalendarDay),
  /** the month report's row for this person (zeros when the month has no results) */
  totals: MonthRow,
});
export type PersonMonth = Static<typeof PersonMonth>;
/** Exports: day results over any range (one row per person-day), and the month report. */
export const ATTENDANCE_EXPORT_LIMITS = {
  /** days one day-results export covers */
  daysMax: 366,
  /** rows one export holds: about five sheets of Excel's 1,048,576 (a month of 100,000 people is 3.1 M) */
  rowsMax: 5_000_000,
} as const;
export const DayExportBody = Type.Object({
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  department_id: Type.Optional(Id),
  status: Type.Optional(Type.Enum([...DAY_STATUSES])),
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
});
export type DayExportBody = Static<typeof DayExportBody>;
export const MonthExportBody = Type.Object({
  month: MonthText,
  department_id: Type.Optional(Id),
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
});
export type MonthExportBody = Static<typeof MonthExportBody>;

/** A closed period (#17): its days are neither recalculated nor edited until it is reopened. */
export const ClosedPeriod = Type.Object({
  id: Type.Integer(),
  from: Type.String(),
  to: Type.String(),
  closed_by: Type.String(),
  closed_at: Type.String(),
});
export type ClosedPeriod = Static<typeof ClosedPeriod>;
export const ClosedPeriodList = Type.Object({ items: Type.Array(ClosedPeriod), total: Type.Integer() });
export const ClosePeriodBody = Type.Object({ from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }) });
export type ClosePeriodBody = Static<typeof ClosePeriodBody>;

export const attendanceApi = {
  rules: endpoint({ method: 'GET', path: '/attendance/rule/list', response: RuleList }),
  rule: endpoint({ method: 'GET', path: '/attendance/rule/info', query: IdBody, response: Rule }),
  createRule: endpoint({ method: 'POST', path: '/attendance/rule/create', body: RuleInput, response: Rule }),
  updateRule: endpoint({ method: 'POST', path: '/attendance/rule/update', body: RuleUpdate, response: Rule }),
  deleteRule: endpoint({ method: 'POST', path: '/attendance/rule/delete', body: IdBody, response: Type.Null() }),
  holidays: endpoint({ method: 'GET', path: '/attendance/holiday/list', query: HolidayQuery, response: HolidayList }),
  createHoliday: endpoint({ method: 'POST', path: '/attendance/holiday/create', body: HolidayInput, response: Holiday }),
  updateHoliday: endpoint({ method: 'POST', path: '/attendance/holiday/update', body: HolidayUpdate, response: Holiday }),
  deleteHoliday: endpoint({ method: 'POST', path: '/attendance/holiday/delete', body: IdBody, response: Type.Null() }),
  days: endpoint({ method: 'GET', path: '/attendance/day/list', query: DayQuery, response: DayPage }),
  latestDay: endpoint({ method: 'GET', path: '/attendance/day/latest', response: LatestDay }),
  leaveTypes: endpoint({ method: 'GET', path: '/attendance/leave/types', response: LeaveTypeList }),
  month: endpoint({ method: 'GET', path: '/attendance/report/month', query: MonthQuery, response: MonthPage }),
  day: endpoint({ method: 'GET', path: '/attendance/day/info', query: DayKey, response: DayDetail }),
  personMonth: endpoint({ method: 'GET', path: '/attendance/report/person', query: PersonMonthQuery, response: PersonMonth }),
  exportDays: endpoint({ method: 'POST', path: '/attendance/day/export', body: DayExportBody, response: binary(XLSX_TYPE) }),
  exportMonth: endpoint({ method: 'POST', path: '/attendance/report/export', body: MonthExportBody, response: binary(XLSX_TYPE) }),
  setManual: endpoint({ method: 'POST', path: '/attendance/day/manual', body: ManualDayBody, response: DayRow }),
  recalculate: endpoint({ method: 'POST', path: '/attendance/recalculate', body: RecalculateBody, response: RecalculateStatus }),
  recalculateStatus: endpoint({ method: 'GET', path: '/attendance/recalculate/status', response: RecalculateStatus }),
  absences: endpoint({ method: 'GET', path: '/attendance/absence/list', query: AbsenceQuery, response: AbsenceList }),
  createAbsence: endpoint({ method: 'POST', path: '/attendance/absence/create', body: AbsenceInput, response: Absence }),
  deleteAbsence: endpoint({ method: 'POST', path: '/attendance/absence/delete', body: IdBody, response: Type.Null() }),
  schedule: endpoint({ method: 'GET', path: '/attendance/schedule', query: ScheduleQuery, response: ScheduleGrid }),
  saveSchedule: endpoint({ method: 'POST', path: '/attendance/schedule/save', body: ScheduleSave, response: ScheduleSaved }),
  periods: endpoint({ method: 'GET', path: '/attendance/period/list', response: ClosedPeriodList }),
  closePeriod: endpoint({ method: 'POST', path: '/attendance/period/close', body: ClosePeriodBody, response: ClosedPeriod }),
  /** reopening queues the period's recalculation (#18): the answer is the queue's progress, as recalculate's */
  reopenPeriod: endpoint({ method: 'POST', path: '/attendance/period/reopen', body: IdBody, response: RecalculateStatus }),
};
