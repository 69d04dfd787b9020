/**
 * The attendance engine's inputs and outputs (issue #10). The engine is pure: punches + rule + the day plans the
 * caller resolved (weekdays, cycles, the schedule grid, holidays) + approved absences → one result per day.
 * All instants are epoch ms; dates and 'HH:mm' are wall times in the company's IANA zone.
 */
export type Hm = string; // 'HH:mm', 00:00..23:59
export interface BreakDef {
  start: Hm;
  end: Hm;
  deducted: boolean;
}
export interface ShiftDef {
  id: number;
  name: string;
  start: Hm;
  end: Hm; // end <= start: the shift ends the next day (crosses midnight)
  breaks: BreakDef[];
  lateGraceMin: number; // late only when check-in > start + grace (strictly); minutes counted from start
  earlyGraceMin: number; // early only when check-out < end - grace (strictly); minutes counted to end
  /** punch windows, minutes relative to the shift's start / end (earliest/latest punch that counts) */
  checkInBeforeMin: number;
  checkInAfterMin: number; // window [start - before, start + after]
  checkOutBeforeMin: number;
  checkOutAfterMin: number; // window [end - before, end + after]
}
export type Model = 'default' | 'temperature' | 'health' | 'alcohol';
export interface RuleDef {
  id: number;
  name: string;
  mode: 'fixed' | 'shift' | 'free';
  model: Model;
  useDirection: boolean; // entrance/exit decide check-in/out instead of first/last
  overtimeMinMin: number; // default 30: overtime counts only when ≥ this past the shift end
  lateAbsentAfterMin?: number; // late by more than N → absent
  halfDayBelowMin?: number; // worked below → half day (absent threshold checked first)
  absentBelowMin?: number; // worked below → absent
  free?: { dayBoundary: Hm; requiredMin: number }; // free mode
  /** #17: how worked time is counted — 'firstLast' (absent: first → last punch) or 'pairs' (sum of in/out pairs) */
  workedBy?: 'firstLast' | 'pairs';
  /** #17: false → punches on rest days and holidays are ignored (absent/true: counted as rest-day overtime) */
  countOffDayPunches?: boolean;
  /** #17: true → overtime counts only within approved overtime periods (absences of kind 'overtime') */
  overtimeNeedsApproval?: boolean;
}
/** What one person is expected to do on one date (the caller resolved rule, weekdays, cycles, grid, holidays). */
export interface DayPlan {
  date: string; // 'YYYY-MM-DD', the company's local date the shifts START on
  kind: 'work' | 'rest' | 'holiday';
  shifts: ShiftDef[]; // 1..3 for work (fixed/shift modes); [] for free mode/rest/holiday
  holidayName?: string;
  /**
   * Automatic shift matching (#17): the day works ONE of these timetables, the one nearest to the person's first
   * valid punch (see engine.ts). `shifts` then holds the first candidate, the one planned when nothing matches.
   */
  candidates?: ShiftDef[];
}
export interface PunchIn {
  id: number;
  at: number; // epoch ms (absolute instant)
  deviceId: number;
  direction?: 'in' | 'out';
  temperature?: number | null;
  temperatureAlarm?: number | null; // at or over the alarm → invalid under 'temperature'
  alcohol?: number | null;
  alcoholThreshold?: number | null; // at or over → invalid under 'alcohol'
  health?: 'green' | 'yellow' | 'red' | null; // not green → invalid under 'health'
}
export interface AbsenceIn {
  id: number;
  // supplement: a forgotten punch, counts as a valid punch at `from`; overtime: an approved overtime period (#17),
  // read only under `overtimeNeedsApproval` (never an absence from work)
  kind: 'leave' | 'out' | 'supplement' | 'overtime';
  from: number;
  to: number; // epoch ms; partial-day absences move the expected start/end
  label?: string;
  /** a leave's type ('annual', 'sick', … the leave app's options); leaveKinds keys it ('other' when unset) (#17) */
  leaveType?: string;
}
export interface PersonRange {
  zone: string; // company IANA zone: dates and HH:mm are wall times in it (DST-correct)
  rule: RuleDef;
  days: DayPlan[]; // consecutive dates, ascending
  punches: PunchIn[]; // all the person's punches from the day before the first date to the day after the last
  absences: AbsenceIn[];
  filterSeconds: number; // punches closer than this to the previous kept one count once (the first)
  now: number; // a day is 'pending' until its last punch window has closed
  leftOn?: string | null; // 'YYYY-MM-DD': no results after it
  joinedOn?: string | null; // 'YYYY-MM-DD' (hire date): no results before it
  /**
   * The plans of the dates just before the first and just after the last day (added to the brief's shape).
   * They produce no result; their shifts only claim their own punches, so that recalculating one day does not
   * take the previous night shift's check-out for this morning's check-in (or the next morning's check-in for
   * tonight's check-out). Leave them out and the range edges see only the range's own shifts.
   */
  before?: DayPlan;
  after?: DayPlan;
  /**
   * Batch recalculation stores figures and the punches used, never the explanation (it is recomputed on
   * demand): times in the explanation's lines are then left empty instead of formatted. Figures are the same.
   */
  lean?: boolean;
}
export type Status =
  'normal' | 'late' | 'early' | 'lateEarly' | 'missingIn' | 'missingOut' | 'absent' | 'halfDay' | 'leave' | 'out' | 'holiday' | 'rest' | 'pending';
/** One line of the explanation: a translation key plus its parameters (the console renders it). */
export interface Why {
  key: string;
  params?: Record<string, string | number>;
}
export interface ShiftResult {
  shiftId: number; // 0: the day's free-time pair (free mode, or work on a rest day / holiday)
  checkIn: number | null;
  checkOut: number | null; // punch ids (supplements: negative absence ids)
  lateMin: number;
  earlyMin: number;
  workedMin: number;
  overtimeMin: number;
  status: Status;
}
export interface DayResult {
  date: string;
  status: Status; // the day's overall status (worst shift, or leave/holiday/rest/pending)
  lateMin: number;
  earlyMin: number;
  workedMin: number;
  overtimeMin: number;
  shifts: ShiftResult[];
  used: number[]; // punch ids used
  ignored: { punchId: number; reason: IgnoreReason; detail?: Why }[];
  /** Approved leave / out-of-office minutes within the day's shifts (deducted breaks excluded; added to the brief's shape). */
  leaveMin?: number;
  outMin?: number;
  /** Planned minutes of the shifts judged absent, less approved leave/out in them (#17). */
  absentMin?: number;
  /** The day's leave in days, to the half day (#18): 1 on a day on leave, else leaveMin over the scheduled minutes. */
  leaveDays?: number;
  /** leaveMin by leave type, minutes (#17). */
  leaveKinds?: Record<string, number>;
  /** Under the temperature model: a punch of the day was at or over the alarm (and refused). */
  temperatureAlarm?: boolean;
  why: Why[]; // the arithmetic, e.g. { key: 'att.why.late', params: { checkIn: '09:07', start: '09:00', grace: 5, late: 7 } }
}
export type IgnoreReason = 'duplicate' | 'outsideWindows' | 'invalidModel' | 'notNeeded';
