import type { DayPlan, RuleDef, ShiftDef } from './engine/index.ts';

/** A rule as stored, with its shifts and cycles (what `plansFor` needs; no database here). */
export interface StoredRule {
  id: number;
  name: string;
  mode: string;
  model: string;
  use_direction: number;
  overtime_min_min: number;
  late_absent_after_min: number | null;
  half_day_below_min: number | null;
  absent_below_min: number | null;
  alarm_temp: number;
  worked_by: string;
  count_off_day_punches: number;
  overtime_needs_approval: number;
  /** JSON {"0".."6": shift ids} */
  weekdays: string;
  /** automatic shift matching (#17): JSON shift ids, the candidates of weekdays / cycle days / grid cells AUTO_SHIFT_ID */
  auto_shift_ids?: string;
  day_boundary: string;
  required_min: number;
  cycle_id: number | null;
  start_date: string | null;
  start_index: number;
  shifts: ShiftDef[];
  cycles: { id: number; days: number[] }[];
}
export interface StoredHoliday {
  name: string;
  kind: string;
  from_date: string;
  to_date: string;
  as_weekday: number | null;
  rule_ids: number[];
}

/** Automatic shift matching (#17): the stored shift id of a weekday, cycle day or grid cell that picks its shift. */
export const AUTO_SHIFT_ID = -1;

const DAY = 86_400_000;
const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY);
const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
export const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/** The dates from `from` to `to`, inclusive. */
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

export function ruleDef(r: StoredRule): RuleDef {
  return {
    id: r.id,
    name: r.name,
    mode: r.mode as RuleDef['mode'],
    model: r.model as RuleDef['model'],
    useDirection: r.use_direction === 1,
    overtimeMinMin: r.overtime_min_min,
    ...(r.late_absent_after_min !== null ? { lateAbsentAfterMin: r.late_absent_after_min } : {}),
    ...(r.half_day_below_min !== null ? { halfDayBelowMin: r.half_day_below_min } : {}),
    ...(r.absent_below_min !== null ? { absentBelowMin: r.absent_below_min } : {}),
    // #17: how worked time is counted, punches on days off, overtime only when approved (absent: today's behaviour)
    ...(r.worked_by === 'pairs' ? { workedBy: 'pairs' as const } : {}),
    ...(r.count_off_day_punches === 0 ? { countOffDayPunches: false } : {}),
    ...(r.overtime_needs_approval === 1 ? { overtimeNeedsApproval: true } : {}),
    ...(r.mode === 'free' ? { free: { dayBoundary: r.day_boundary, requiredMin: r.required_min } } : {}),
  };
}

/**
 * What one person is expected to do on each date: the rule's weekdays (fixed), the grid or else the running
 * cycle (shift), every weekday from Monday to Friday (free); then holidays, which make a date a holiday, and
 * moved working days (调休), which make it a working day following another weekday's schedule.
 * `grid` is the person's schedule rows by date (shift id, 0 for rest).
 */
export function plansFor(rule: StoredRule, dates: string[], grid: Map<string, number>, holidays: StoredHoliday[]): DayPlan[] {
  const byId = new Map(rule.shifts.map((s) => [s.id, s]));
  const weekdays = JSON.parse(rule.weekdays || '{}') as Record<string, number[]>;
  const shiftsOn = (weekday: number) => (weekdays[String(weekday)] ?? []).map((id) => byId.get(id)).filter((s): s is ShiftDef => Boolean(s));
  const cycle = rule.cycles.find((c) => c.id === rule.cycle_id);
  const candidates = (JSON.parse(rule.auto_shift_ids || '[]') as number[]).map((id) => byId.get(id)).filter((s): s is ShiftDef => Boolean(s));
  /** A day that picks its shift: the candidates (the first one planned when nothing matches); none left: rest. */
  const autoPlan = (date: string): DayPlan =>
    candidates.length > 1
      ? { date, kind: 'work', shifts: [candidates[0]!], candidates }
      : candidates.length
        ? { date, kind: 'work', shifts: [candidates[0]!] }
        : { date, kind: 'rest', shifts: [] };
  const mine = holidays.filter((h) => !h.rule_ids.length || h.rule_ids.includes(rule.id));
  return dates.map((date): DayPlan => {
    const holiday = mine.find((h) => h.from_date <= date && date <= h.to_date);
    if (holiday?.kind === 'holiday') return { date, kind: 'holiday', shifts: [], holidayName: holiday.name };
    const weekday = holiday?.kind === 'workday' ? (holiday.as_weekday ?? 1) : weekdayOf(date);
    if (rule.mode === 'fixed') {
      if (weekdays[String(weekday)]?.[0] === AUTO_SHIFT_ID) return autoPlan(date);
      const shifts = shiftsOn(weekday);
      return { date, kind: shifts.length ? 'work' : 'rest', shifts };
    }
    if (rule.mode === 'free') return { date, kind: weekday === 0 || weekday === 6 ? 'rest' : 'work', shifts: [] };
    // shift mode: the grid wins; else the running cycle from its start date; else a rest day.
    let shiftId = grid.get(date);
    if (shiftId === undefined && cycle && rule.start_date && date >= rule.start_date && cycle.days.length) {
      shiftId = cycle.days[(rule.start_index + dayNumber(date) - dayNumber(rule.start_date)) % cycle.days.length];
    }
    if (shiftId === AUTO_SHIFT_ID) return autoPlan(date);
    const shift = shiftId ? byId.get(shiftId) : undefined;
    return shift ? { date, kind: 'work', shifts: [shift] } : { date, kind: 'rest', shifts: [] };
  });
}
