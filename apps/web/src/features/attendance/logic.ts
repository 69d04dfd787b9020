import type { TFunction } from 'i18next';
import { AUTO_SHIFT_KEY, DEVICE_OPTION_DEFAULTS, type DayStatus, type Rule, type RuleInput, type WhyLine, type WorkedBy } from '@faceadmin/shared';

/** Pure helpers of the attendance screens (legend, explanations, the rule form), unit-tested under node --test. */

/** spec §4: the result legend. Every detailed status falls into one of these; `pending` (not decided yet) into none. */
export const LEGEND = ['normal', 'abnormal', 'out', 'leave', 'holiday'] as const;
export type Legend = (typeof LEGEND)[number];

/** Each legend's colour: as text on white and on its own light tint (StatusTag) at least 4.5:1 (WCAG AA). */
export const LEGEND_COLOR: Record<Legend | 'pending', string> = {
  normal: '#237804',
  abnormal: '#cf1322',
  out: '#0958d9',
  leave: '#ad4e00',
  holiday: '#531dab',
  pending: '#595959',
};

const LEGEND_OF: Record<DayStatus, Legend | 'pending'> = {
  normal: 'normal',
  late: 'abnormal',
  early: 'abnormal',
  lateEarly: 'abnormal',
  missingIn: 'abnormal',
  missingOut: 'abnormal',
  absent: 'abnormal',
  halfDay: 'abnormal',
  leave: 'leave',
  out: 'out',
  // a rest day is a day off like a holiday: the legend has no separate colour for it
  holiday: 'holiday',
  rest: 'holiday',
  pending: 'pending',
};

export const legendOf = (status: DayStatus): Legend | 'pending' => LEGEND_OF[status];

type Translate = TFunction;

/** The status cell's words: its name, and for late / early the minutes ("Late 7 min"). */
export function statusText(row: { status: DayStatus; late_min: number; early_min: number }, t: Translate): string {
  switch (row.status) {
    case 'late':
      return t('att.detail.late', { minutes: row.late_min });
    case 'early':
      return t('att.detail.early', { minutes: row.early_min });
    case 'lateEarly':
      return t('att.detail.lateEarly', { late: row.late_min, early: row.early_min });
    default:
      return t(`att.status.${row.status}`);
  }
}

/** Worked / overtime minutes as h:mm (480 → 8:00); empty for 0 when `blankZero`. */
export function hm(minutes: number, blankZero = false): string {
  if (!minutes && blankZero) return '';
  const sign = minutes < 0 ? '-' : '';
  const m = Math.abs(Math.round(minutes));
  return `${sign}${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
}

/** Parameters that carry codes (engine/why.ts CODED_PARAMS), translated through att.value.<param>.<code>. */
const CODED = new Set(['mode', 'kind', 'direction', 'color']);

/**
 * One explanation line in the console's language: the engine sends a key (att.why.*) and values; coded values
 * (mode, kind, direction, colour) are translated too, and an absence's own label is shown after the line.
 * A key this console does not know yet is shown as sent rather than hidden.
 */
export function whyText(line: WhyLine, t: Translate, has: (key: string) => boolean): string {
  const params: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(line.params ?? {})) {
    const coded = `att.value.${k}.${v}`;
    params[k] = CODED.has(k) && typeof v === 'string' && has(coded) ? t(coded) : v;
  }
  const text = has(line.key) ? t(line.key, params) : `${line.key} ${JSON.stringify(line.params ?? {})}`;
  const label = line.params?.['label'];
  return label ? `${text} · ${label}` : text;
}

/** A shift ending at or before its start ends the next day (22:00–06:00); the day belongs to the start. */
export const crossesMidnight = (start: string, end: string): boolean => Boolean(start && end) && end <= start;

// ---------- the rule form ----------

export interface BreakForm {
  start: string;
  end: string;
  deducted: boolean;
}
export interface ShiftForm {
  key: string;
  name: string;
  start: string;
  end: string;
  breaks: BreakForm[];
  late_grace_min: number;
  early_grace_min: number;
  check_in_before_min: number;
  check_in_after_min: number;
  check_out_before_min: number;
  check_out_after_min: number;
}
export interface CycleForm {
  key: string;
  name: string;
  days: string[];
}
/** Weekdays in the grid's order, Monday first; the API numbers them 0 = Sunday … 6 = Saturday. */
export const WEEKDAYS = ['1', '2', '3', '4', '5', '6', '0'] as const;

export interface RuleForm {
  name: string;
  mode: Rule['mode'];
  model: Rule['model'];
  use_direction: boolean;
  overtime_min_min: number;
  late_absent_after_min: number | null;
  half_day_below_min: number | null;
  absent_below_min: number | null;
  /** the temperature model's alarm (℃) */
  alarm_temp: number;
  /** #17: how worked time is counted, punches on days off, overtime only when approved */
  worked_by: WorkedBy;
  count_off_day_punches: boolean;
  overtime_needs_approval: boolean;
  shifts: ShiftForm[];
  weekdays: Record<string, string[]>;
  /** automatic shift matching (#17): the candidates of the weekdays / cycle days marked AUTO_SHIFT_KEY */
  auto_shifts: string[];
  day_boundary: string;
  required_min: number;
  cycles: CycleForm[];
  cycle_key: string | null;
  start_date: string | null;
  start_index: number;
  person_ids: number[];
  department_ids: number[];
  /** #17: the date the edit applies from (sent beside the rule, not part of it) */
  effective_from?: string | null;
}

let keySeq = 0;
/** A client key for a shift or cycle that has no id yet (the contract's key pattern). */
export const newKey = (prefix: 's' | 'c'): string => `${prefix}new${Date.now().toString(36)}${(keySeq++).toString(36)}`.slice(0, 20);

/** The server's defaults for a shift (rules.service.ts) so the form shows what will be saved. */
export function newShift(name: string, start = '09:00', end = '18:00'): ShiftForm {
  return {
    key: newKey('s'),
    name,
    start,
    end,
    breaks: [],
    late_grace_min: 0,
    early_grace_min: 0,
    check_in_before_min: 120,
    check_in_after_min: 240,
    check_out_before_min: 240,
    check_out_after_min: 240,
  };
}

export function emptyRule(firstShiftName: string): RuleForm {
  const shift = newShift(firstShiftName);
  return {
    name: '',
    mode: 'fixed',
    model: 'default',
    use_direction: false,
    overtime_min_min: 30,
    late_absent_after_min: null,
    half_day_below_min: null,
    absent_below_min: null,
    alarm_temp: DEVICE_OPTION_DEFAULTS.alarmTemp,
    worked_by: 'firstLast',
    count_off_day_punches: true,
    overtime_needs_approval: false,
    shifts: [shift],
    // Monday to Friday on the first shift
    weekdays: { 0: [], 1: [shift.key], 2: [shift.key], 3: [shift.key], 4: [shift.key], 5: [shift.key], 6: [] },
    auto_shifts: [],
    day_boundary: '05:00',
    required_min: 480,
    cycles: [],
    cycle_key: null,
    start_date: null,
    start_index: 0,
    person_ids: [],
    department_ids: [],
  };
}

export function ruleToForm(r: Rule): RuleForm {
  return {
    name: r.name,
    mode: r.mode,
    model: r.model,
    use_direction: r.use_direction,
    overtime_min_min: r.overtime_min_min,
    late_absent_after_min: r.late_absent_after_min,
    half_day_below_min: r.half_day_below_min,
    absent_below_min: r.absent_below_min,
    alarm_temp: r.alarm_temp,
    worked_by: r.worked_by,
    count_off_day_punches: r.count_off_day_punches,
    overtime_needs_approval: r.overtime_needs_approval,
    shifts: r.shifts.map((s) => ({
      key: s.key,
      name: s.name,
      start: s.start,
      end: s.end,
      breaks: s.breaks.map((b) => ({ ...b })),
      late_grace_min: s.late_grace_min,
      early_grace_min: s.early_grace_min,
      check_in_before_min: s.check_in_before_min,
      check_in_after_min: s.check_in_after_min,
      check_out_before_min: s.check_out_before_min,
      check_out_after_min: s.check_out_after_min,
    })),
    weekdays: Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((d) => [d, [...(r.weekdays[d] ?? [])]])),
    auto_shifts: [...(r.auto_shifts ?? [])],
    day_boundary: r.day_boundary,
    required_min: r.required_min,
    cycles: r.cycles.map((c) => ({ key: c.key, name: c.name, days: [...c.days] })),
    cycle_key: r.cycle_key,
    start_date: r.start_date,
    start_index: r.start_index,
    person_ids: r.persons.map((p) => p.id),
    department_ids: r.departments.map((d) => d.id),
  };
}

/** Whether the form marks a weekday (fixed) or a cycle day (shift) Auto: then at least two candidates are needed. */
export function usesAutoShift(f: Pick<RuleForm, 'mode' | 'weekdays' | 'cycles'>): boolean {
  if (f.mode === 'fixed') return Object.values(f.weekdays ?? {}).some((d) => d?.includes(AUTO_SHIFT_KEY));
  if (f.mode === 'shift') return (f.cycles ?? []).some((c) => c?.days?.includes(AUTO_SHIFT_KEY));
  return false;
}

const orNull = (v: number | null | undefined): number | null => (v === undefined || v === null || Number.isNaN(v) ? null : v);

/**
 * The create/update body: only what the chosen mode uses (weekdays for fixed, cycles for shift, the day
 * boundary and required time for free), references to removed shifts dropped, names trimmed.
 */
export function formToInput(f: RuleForm): RuleInput {
  const shifts = f.mode === 'free' ? [] : f.shifts;
  const keys = new Set(shifts.map((s) => s.key));
  const input: RuleInput = {
    name: f.name.trim(),
    mode: f.mode,
    model: f.model,
    use_direction: f.use_direction,
    overtime_min_min: f.overtime_min_min,
    late_absent_after_min: orNull(f.late_absent_after_min),
    half_day_below_min: orNull(f.half_day_below_min),
    absent_below_min: orNull(f.absent_below_min),
    alarm_temp: f.alarm_temp ?? DEVICE_OPTION_DEFAULTS.alarmTemp,
    worked_by: f.worked_by ?? 'firstLast',
    count_off_day_punches: f.count_off_day_punches ?? true,
    overtime_needs_approval: f.overtime_needs_approval ?? false,
    shifts: shifts.map((s) => ({
      key: s.key,
      name: s.name.trim(),
      start: s.start,
      end: s.end,
      breaks: s.breaks.map((b) => ({ start: b.start, end: b.end, deducted: Boolean(b.deducted) })),
      late_grace_min: s.late_grace_min,
      early_grace_min: s.early_grace_min,
      check_in_before_min: s.check_in_before_min,
      check_in_after_min: s.check_in_after_min,
      check_out_before_min: s.check_out_before_min,
      check_out_after_min: s.check_out_after_min,
    })),
    person_ids: f.person_ids,
    department_ids: f.department_ids,
  };
  // Automatic shift matching (#17): a day marked Auto has no other shift; candidates are shifts of the rule.
  if (f.mode !== 'free') input.auto_shifts = (f.auto_shifts ?? []).filter((k) => keys.has(k));
  if (f.mode === 'fixed') {
    const day = (d: string) => ((f.weekdays[d] ?? []).includes(AUTO_SHIFT_KEY) ? [AUTO_SHIFT_KEY] : (f.weekdays[d] ?? []).filter((k) => keys.has(k)));
    input.weekdays = { 0: day('0'), 1: day('1'), 2: day('2'), 3: day('3'), 4: day('4'), 5: day('5'), 6: day('6') };
  }
  if (f.mode === 'shift') {
    input.cycles = f.cycles.map((c) => ({ key: c.key, name: c.name.trim(), days: c.days.map((k) => (keys.has(k) || k === AUTO_SHIFT_KEY ? k : '')) }));
    const running = f.cycles.some((c) => c.key === f.cycle_key) ? f.cycle_key : null;
    input.cycle_key = running;
    input.start_date = running ? f.start_date : null;
    input.start_index = running ? f.start_index : 0;
  }
  if (f.mode === 'free') {
    input.day_boundary = f.day_boundary;
    input.required_min = f.required_min;
  }
  return input;
}

// ---------- times in the company's zone ----------

/** Minutes east of UTC of `zone` at the instant `ms`. */
function offsetAt(ms: number, zone: string): number {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/**
 * The instant of a wall-clock time (`YYYY-MM-DD`, `HH:mm`) in `zone`, as ISO: what an administrator means
 * when recording a leave "from 09:00" whatever their browser's zone. `addDays` moves the date first (a shift
 * ending the next day).
 */
export function zonedIso(date: string, time: string, zone: string, addDays = 0): string {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, mo - 1, d + addDays, h, mi);
  // two passes settle the offset across a DST change
  let ms = wall - offsetAt(wall, zone) * 60_000;
  ms = wall - offsetAt(ms, zone) * 60_000;
  return new Date(ms).toISOString();
}

/** Today (plus `addDays`) as `YYYY-MM-DD` in `zone`: the day view opens on the company's today. */
export function zonedToday(zone: string, addDays = 0, now = Date.now()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(now + addDays * 86_400_000));
}

/**
 * The day the day view opens on when no link names one: the latest day up to today that has results (the server's
 * answer), or today when there are none; undefined while the answer is still coming.
 */
export function openingDay(latest: { date: string | null } | undefined, today: string, failed = false): string | undefined {
  if (failed) return today;
  if (!latest) return undefined;
  return latest.date && latest.date <= today ? latest.date : today;
}

/** "Attendance update" progress: how much of what was queued is done (0–100); nothing queued is done. */
export function progressOf(queued: number, pending: number): number {
  if (queued <= 0) return 100;
  return Math.max(0, Math.min(100, Math.round(((queued - pending) / queued) * 100)));
}

/** The weeks of a 'YYYY-MM' month, Monday first: 7 dates a week, null outside the month. */
export function calendarWeeks(month: string): (string | null)[][] {
  const [y, m] = month.split('-').map(Number);
  const days = new Date(Date.UTC(y!, m, 0)).getUTCDate();
  const lead = (new Date(Date.UTC(y!, m! - 1, 1)).getUTCDay() + 6) % 7; // Monday = 0
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let d = 1; d <= days; d++) cells.push(`${month}-${String(d).padStart(2, '0')}`);
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
}

/**
 * A counted punch as the calendar shows it: 'HH:mm' in the company's zone ('--' without one), with ' (+1)' when it
 * falls on the next date (a night shift's check-out). `format` gives 'YYYY-MM-DD HH:mm:ss' in that zone.
 */
export function clockOf(iso: string | null, date: string, format: (iso: string) => string): string {
  if (!iso) return '--';
  const local = format(iso);
  const shift = Math.round((Date.parse(`${local.slice(0, 10)}T00:00:00Z`) - Date.parse(`${date}T00:00:00Z`)) / 86_400_000);
  const hmText = local.slice(11, 16);
  return shift ? `${hmText} (${shift > 0 ? '+' : ''}${shift})` : hmText;
}
