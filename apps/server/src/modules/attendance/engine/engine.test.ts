import assert from 'node:assert/strict';
import { test } from 'node:test';
import { zonedToUtcMs } from '../../../lib/time.ts';
import { computeRange } from './engine.ts';
import { leaveDaysOf } from './judge.ts';
import { describe, whyText } from './explain.ts';
import type { AbsenceIn, DayPlan, DayResult, IgnoreReason, PersonRange, PunchIn, RuleDef, ShiftDef, Status } from './types.ts';
import { WHY_EN } from './why.ts';

// ——— builders: a case reads as a few wall times in the company's zone ———

const SH = 'Asia/Shanghai'; // UTC+8, no DST
const BERLIN = 'Europe/Berlin';

/** A shift; windows by default: check-in [start − 2 h, start + 4 h], check-out [end − 4 h, end + 4 h]. */
const shift = (start: string, end: string, o: Partial<ShiftDef> = {}): ShiftDef => ({
  id: 1,
  name: 'Day',
  start,
  end,
  breaks: [],
  lateGraceMin: 5,
  earlyGraceMin: 5,
  checkInBeforeMin: 120,
  checkInAfterMin: 240,
  checkOutBeforeMin: 240,
  checkOutAfterMin: 240,
  ...o,
});
const LUNCH = { start: '12:00', end: '13:00', deducted: true };
/** 09:00–18:00 with a deducted lunch hour: 480 min when punched in full. */
const OFFICE = shift('09:00', '18:00', { breaks: [LUNCH] });
const NIGHT = shift('22:00', '06:00', { id: 2, name: 'Night' });
const rule = (o: Partial<RuleDef> = {}): RuleDef => ({ id: 1, name: 'Office', mode: 'fixed', model: 'default', useDirection: false, overtimeMinMin: 30, ...o });
const FREE = rule({ name: 'Flex', mode: 'free', free: { dayBoundary: '05:00', requiredMin: 480 } });
const work = (date: string, ...shifts: ShiftDef[]): DayPlan => ({ date, kind: 'work', shifts: shifts.length ? shifts : [OFFICE] });
const rest = (date: string): DayPlan => ({ date, kind: 'rest', shifts: [] });
const holiday = (date: string, name: string): DayPlan => ({ date, kind: 'holiday', shifts: [], holidayName: name });
const freeDay = (date: string): DayPlan => ({ date, kind: 'work', shifts: [] });

/** A punch: 'YYYY-MM-DD HH:mm[:ss]' in the case's zone, or that plus readings/direction. */
type PunchSpec = string | (Omit<Partial<PunchIn>, 'at'> & { t: string });
interface Case {
  zone?: string;
  rule?: RuleDef;
  days?: DayPlan[];
  punches?: PunchSpec[];
  absences?: (Omit<AbsenceIn, 'from' | 'to'> & { from: string; to?: string })[];
  filterSeconds?: number;
  now?: string;
  leftOn?: string;
  joinedOn?: string;
  before?: DayPlan;
  after?: DayPlan;
}
const D = '2026-01-05'; // a Monday
const at = (local: string, zone = SH) => zonedToUtcMs(local, zone);

function input(c: Case): PersonRange {
  const zone = c.zone ?? SH;
  const input: PersonRange = {
    zone,
    rule: c.rule ?? rule(),
    days: c.days ?? [work(D)],
    punches: (c.punches ?? []).map((p, i) => {
      const spec = typeof p === 'string' ? { t: p } : p;
      const { t, ...rest } = spec;
      return { id: i + 1, deviceId: 1, ...rest, at: at(t, zone) };
    }),
    absences: (c.absences ?? []).map((a) => ({ ...a, from: at(a.from, zone), to: at(a.to ?? a.from, zone) })),
    filterSeconds: c.filterSeconds ?? 30,
    now: at(c.now ?? '2030-01-01 00:00', zone),
  };
  if (c.leftOn) input.leftOn = c.leftOn;
  if (c.joinedOn) input.joinedOn = c.joinedOn;
  if (c.before) input.before = c.before;
  if (c.after) input.after = c.after;
  return input;
}
const run = (c: Case) => computeRange(input(c));

/** What a day must show: status, the four minute totals [late, early, worked, overtime], why lines (params: a subset). */
interface Expect {
  status: Status;
  min: [late: number, early: number, worked: number, overtime: number];
  why: [key: keyof typeof WHY_EN, params?: Record<string, string | number>][];
  shifts?: Status[];
  used?: number[]; // punch numbers (1-based in the case's list; negative: supplement absence ids)
  ignored?: [punch: number, reason: IgnoreReason, detailKey?: keyof typeof WHY_EN][];
  checkIn?: number | null; // of the first shift
  checkOut?: number | null;
  leaveMin?: number;
  absentMin?: number;
  leaveKinds?: Record<string, number>;
  shiftIds?: number[]; // the shifts judged (automatic matching names the one it chose)
}

function verify(r: DayResult | undefined, e: Expect, label: string, shifts: ShiftDef[]) {
  assert.ok(r, `${label}: a result`);
  const text = describe(r, shifts);
  const ctx = `${label}\n${text}`;
  assert.equal(r.status, e.status, ctx);
  assert.deepEqual([r.lateMin, r.earlyMin, r.workedMin, r.overtimeMin], e.min, ctx);
  assert.ok(e.why.length > 0, `${label}: a case asserts at least one why line`);
  for (const [key, params] of e.why) {
    const hit = r.why.some((w) => w.key === key && Object.entries(params ?? {}).every(([k, v]) => w.params?.[k] === v));
    assert.ok(hit, `${ctx}\nexpected why ${key} ${JSON.stringify(params ?? {})}`);
  }
  if (e.shifts)
    assert.deepEqual(
      r.shifts.map((s) => s.status),
      e.shifts,
      ctx,
    );
  if (e.used) assert.deepEqual(r.used, e.used, ctx);
  if (e.ignored)
    assert.deepEqual(
      r.ignored.map((i) => [i.punchId, i.reason, ...(e.ignored!.some((x) => x[2]) ? [i.detail?.key] : [])]),
      e.ignored.map(([p, reason, key]) => [p, reason, ...(e.ignored!.some((x) => x[2]) ? [key] : [])]),
      ctx,
    );
  if (e.checkIn !== undefined) assert.equal(r.shifts[0]?.checkIn ?? null, e.checkIn, ctx);
  if (e.checkOut !== undefined) assert.equal(r.shifts[0]?.checkOut ?? null, e.checkOut, ctx);
  if (e.leaveMin !== undefined) assert.equal(r.leaveMin, e.leaveMin, ctx);
  if (e.absentMin !== undefined) assert.equal(r.absentMin, e.absentMin, ctx);
  if (e.leaveKinds !== undefined) assert.deepEqual(r.leaveKinds, e.leaveKinds, ctx);
  if (e.shiftIds)
    assert.deepEqual(
      r.shifts.map((s) => s.shiftId),
      e.shiftIds,
      ctx,
    );
}

// ——— the table: one line of intent, the input, what the day (or each day) must show ———

const d = (hm: string, date = D) => `${date} ${hm}`;
const D1 = '2026-01-06';
const NO_WINDOW_GAP = { checkInBeforeMin: 60, checkInAfterMin: 60, checkOutBeforeMin: 60, checkOutAfterMin: 60 };
const TWO = [shift('08:00', '12:00', { id: 1, name: 'AM', ...NO_WINDOW_GAP }), shift('13:00', '17:00', { id: 2, name: 'PM', ...NO_WINDOW_GAP })];
const BACK_TO_BACK = [shift('08:00', '12:00', { id: 1, name: 'A', ...NO_WINDOW_GAP }), shift('12:00', '16:00', { id: 2, name: 'B', ...NO_WINDOW_GAP })];
const THREE = [
  shift('06:00', '10:00', { id: 1, name: 'S1', ...NO_WINDOW_GAP }),
  shift('11:00', '15:00', { id: 2, name: 'S2', ...NO_WINDOW_GAP }),
  shift('16:00', '20:00', { id: 3, name: 'S3', ...NO_WINDOW_GAP }),
];
const EARLY = shift('06:00', '14:00', { id: 3, name: 'Early' });
/** Automatic shift matching (#17): the day works the candidate nearest to the first valid punch. */
const auto = (date: string, ...candidates: ShiftDef[]): DayPlan => ({ date, kind: 'work', shifts: [candidates[0]!], candidates });
const MORNING = shift('06:00', '14:00', { id: 11, name: 'Morning' });
const DAY = shift('09:00', '17:00', { id: 12, name: 'Day' });
const NIGHT_C = shift('22:00', '06:00', { id: 13, name: 'Night' });
const EARLY_C = shift('08:00', '16:00', { id: 21, name: 'A' });
const MID_C = shift('12:00', '20:00', { id: 14, name: 'Mid' });
const LATE_C = shift('10:00', '18:00', { id: 22, name: 'B' });

const cases: [intent: string, c: Case, e: Expect | Expect[]][] = [
  // — fixed mode, one shift, grace boundaries —
  [
    'on time: in before start, out after end; lunch deducted',
    { punches: [d('08:55'), d('18:02')] },
    {
      status: 'normal',
      min: [0, 0, 480, 0],
      why: [
        ['att.why.onTime', { checkIn: '08:55', start: '09:00', grace: 5 }],
        ['att.why.worked', { worked: 480 }],
        ['att.why.breakDeducted', { minutes: 60 }],
      ],
      used: [1, 2],
    },
  ],
  [
    'exactly at the grace minute (09:05:00) is on time',
    { punches: [d('09:05'), d('18:00')] },
    { status: 'normal', min: [0, 0, 475, 0], why: [['att.why.onTime', { checkIn: '09:05', grace: 5 }]] },
  ],
  [
    'one second after the grace (09:05:01) is late, counted from the start: 5 min',
    { punches: [d('09:05:01'), d('18:00')] },
    { status: 'late', min: [5, 0, 474, 0], why: [['att.why.late', { checkIn: '09:05:01', start: '09:00', grace: 5, late: 5 }]] },
  ],
  [
    '09:07 with grace 5 is late 7 (minutes from the start, not from the grace)',
    { punches: [d('09:07'), d('18:00')] },
    { status: 'late', min: [7, 0, 473, 0], why: [['att.why.late', { checkIn: '09:07', late: 7 }]] },
  ],
  [
    'grace 0: thirty seconds late is late 1 min, never late 0',
    { days: [work(D, shift('09:00', '18:00', { lateGraceMin: 0 }))], punches: [d('09:00:30'), d('18:00')] },
    { status: 'late', min: [1, 0, 539, 0], why: [['att.why.late', { grace: 0, late: 1 }]] },
  ],
  [
    'leaving exactly at end − grace (17:55:00) is not early',
    { punches: [d('09:00'), d('17:55')] },
    { status: 'normal', min: [0, 0, 475, 0], why: [['att.why.onTimeOut', { checkOut: '17:55', end: '18:00', grace: 5 }]] },
  ],
  [
    'one second before end − grace (17:54:59) is early 5, counted to the end',
    { punches: [d('09:00'), d('17:54:59')] },
    { status: 'early', min: [0, 5, 474, 0], why: [['att.why.early', { checkOut: '17:54:59', early: 5 }]] },
  ],
  [
    'late and early on one shift',
    { punches: [d('09:20'), d('17:30')] },
    {
      status: 'lateEarly',
      min: [20, 30, 430, 0],
      why: [
        ['att.why.late', { late: 20 }],
        ['att.why.early', { early: 30 }],
      ],
    },
  ],
  [
    'arriving early adds nothing to worked time',
    { punches: [d('07:05'), d('18:00')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.worked', { from: '09:00', to: '18:00', worked: 480 }]] },
  ],
  [
    'a break that is not deducted counts as work',
    { days: [work(D, shift('09:00', '18:00', { breaks: [{ ...LUNCH, deducted: false }] }))], punches: [d('09:00'), d('18:00')] },
    { status: 'normal', min: [0, 0, 540, 0], why: [['att.why.worked', { worked: 540 }]] },
  ],
  [
    'first valid punch is the check-in, last the check-out; the rest are not needed',
    { punches: [d('08:50'), d('08:52'), d('17:59'), d('18:03')] },
    {
      status: 'normal',
      min: [0, 0, 480, 0],
      why: [
        ['att.why.checkIn', { time: '08:50' }],
        ['att.why.checkOut', { time: '18:03' }],
      ],
      used: [1, 4],
      ignored: [
        [2, 'notNeeded'],
        [3, 'notNeeded'],
      ],
    },
  ],

  // — missing punches, windows —
  [
    'no check-out: missing check-out, no worked time',
    { punches: [d('08:58')] },
    { status: 'missingOut', min: [0, 0, 0, 0], why: [['att.why.missingOut', { from: '14:00', to: '22:00' }]], checkIn: 1, checkOut: null },
  ],
  [
    'no check-in: missing check-in',
    { punches: [d('18:05')] },
    { status: 'missingIn', min: [0, 0, 0, 0], why: [['att.why.missingIn', { from: '07:00', to: '13:00' }]], checkIn: null, checkOut: 1 },
  ],
  ['no punch at all on a working day: absent', {}, { status: 'absent', min: [0, 0, 0, 0], why: [['att.why.noPunch', { inFrom: '07:00', outTo: '22:00' }]] }],
  [
    'a late-evening punch after the check-out window is outside every window',
    { punches: [d('09:00'), d('18:00'), d('23:30')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.worked', { worked: 480 }]], ignored: [[3, 'outsideWindows', 'att.why.ignored.outsideWindows']] },
  ],
  [
    'a punch before the check-in window opens does not count: missing check-in',
    { punches: [d('06:30'), d('18:00')] },
    { status: 'missingIn', min: [0, 0, 0, 0], why: [['att.why.missingIn']], ignored: [[1, 'outsideWindows', 'att.why.ignored.outsideWindows']] },
  ],
  [
    'a mid-shift punch between the two windows is ignored',
    { punches: [d('09:00'), d('13:30'), d('18:00')] },
    {
      status: 'normal',
      min: [0, 0, 480, 0],
      why: [['att.why.checkIn', { time: '09:00' }]],
      ignored: [[2, 'outsideWindows', 'att.why.ignored.betweenWindows']],
    },
  ],
  [
    'only a mid-shift punch: absent',
    { punches: [d('13:30')] },
    { status: 'absent', min: [0, 0, 0, 0], why: [['att.why.noPunch']], ignored: [[1, 'outsideWindows']] },
  ],
  [
    'a single punch in both windows of a short shift is the one it is nearer to (here the check-out)',
    { days: [work(D, shift('09:00', '11:00'))], punches: [d('10:50')] },
    { status: 'missingIn', min: [0, 10, 0, 0], why: [['att.why.checkOut', { time: '10:50' }], ['att.why.missingIn']], checkOut: 1 },
  ],

  // — overtime —
  [
    'an hour past the end is overtime 60',
    { punches: [d('09:00'), d('19:00')] },
    { status: 'normal', min: [0, 0, 480, 60], why: [['att.why.overtime', { minutes: 60, min: 30, end: '18:00' }]] },
  ],
  [
    '29 min past the end is below the 30 min minimum: no overtime',
    { punches: [d('09:00'), d('18:29')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.overtimeBelowMin', { minutes: 29, min: 30 }]] },
  ],
  [
    'exactly the minimum past the end counts',
    { punches: [d('09:00'), d('18:30')] },
    { status: 'normal', min: [0, 0, 480, 30], why: [['att.why.overtime', { minutes: 30 }]] },
  ],

  // — thresholds —
  [
    'late by more than the limit (30) is absent',
    { rule: rule({ lateAbsentAfterMin: 30 }), punches: [d('09:31'), d('18:00')] },
    { status: 'absent', min: [31, 0, 449, 0], why: [['att.why.lateAbsent', { late: 31, limit: 30 }]], shifts: ['absent'] },
  ],
  [
    'late by exactly the limit is only late',
    { rule: rule({ lateAbsentAfterMin: 30 }), punches: [d('09:30'), d('18:00')] },
    { status: 'late', min: [30, 0, 450, 0], why: [['att.why.late', { late: 30 }]] },
  ],
  [
    'worked below the half-day threshold: half day',
    { rule: rule({ halfDayBelowMin: 360, absentBelowMin: 120 }), punches: [d('09:00'), d('14:30')] },
    { status: 'halfDay', min: [0, 210, 270, 0], why: [['att.why.halfDayBelow', { worked: 270, limit: 360 }]], shifts: ['early'] },
  ],
  [
    'below both thresholds: the absent threshold is checked first',
    { rule: rule({ halfDayBelowMin: 360, absentBelowMin: 300 }), punches: [d('09:00'), d('14:30')] },
    { status: 'absent', min: [0, 210, 270, 0], why: [['att.why.absentBelow', { worked: 270, limit: 300 }]] },
  ],
  [
    'thresholds do not judge a day with a missing punch',
    { rule: rule({ halfDayBelowMin: 360, absentBelowMin: 120 }), punches: [d('09:00')] },
    { status: 'missingOut', min: [0, 0, 0, 0], why: [['att.why.missingOut']] },
  ],
  [
    'approved leave counts towards the thresholds (half-day leave + half a day worked is not a half day)',
    { rule: rule({ halfDayBelowMin: 360 }), absences: [{ id: 7, kind: 'leave', from: d('09:00'), to: d('13:00') }], punches: [d('12:58'), d('18:00')] },
    { status: 'normal', min: [0, 0, 300, 0], why: [['att.why.startMoved', { kind: 'leave', start: '13:00' }]], leaveMin: 180 },
  ],

  // — two and three shifts a day, overlapping windows —
  [
    'two shifts: the lunch punch at 12:00 is the morning check-out (the earlier shift keeps its off-work instant)',
    { days: [work(D, ...TWO)], punches: [d('07:55'), d('12:00'), d('12:55'), d('17:00')] },
    {
      status: 'normal',
      min: [0, 0, 480, 0],
      why: [
        ['att.why.checkOut', { time: '12:00' }],
        ['att.why.checkIn', { time: '12:55' }],
      ],
      shifts: ['normal', 'normal'],
      used: [1, 2, 3, 4],
    },
  ],
  [
    'two shifts with overlapping windows: 12:30 belongs to the afternoon (after the morning off-work time)',
    { days: [work(D, ...TWO)], punches: [d('08:00'), d('12:30'), d('17:00')] },
    { status: 'missingOut', min: [0, 0, 240, 0], why: [['att.why.missingOut', { to: '12:00' }]], shifts: ['missingOut', 'normal'] },
  ],
  [
    'back-to-back shifts: a punch exactly at 12:00 belongs to the earlier shift',
    { days: [work(D, ...BACK_TO_BACK)], punches: [d('08:00'), d('12:00'), d('16:00')] },
    { status: 'missingIn', min: [0, 0, 240, 0], why: [['att.why.missingIn']], shifts: ['normal', 'missingIn'] },
  ],
  [
    'back-to-back shifts: one second after 12:00 belongs to the later shift',
    { days: [work(D, ...BACK_TO_BACK)], punches: [d('08:00'), d('12:00:01'), d('16:00')] },
    { status: 'missingOut', min: [0, 0, 239, 0], why: [['att.why.checkIn', { time: '12:00:01' }]], shifts: ['missingOut', 'normal'] },
  ],
  [
    'three shifts all punched',
    { days: [work(D, ...THREE)], punches: ['06:00', '10:00', '11:00', '15:00', '16:00', '20:00'].map((h) => d(h)) },
    { status: 'normal', min: [0, 0, 720, 0], why: [['att.why.shift', { shift: 'S3', start: '16:00', end: '20:00' }]], shifts: ['normal', 'normal', 'normal'] },
  ],
  [
    'three shifts, the middle one missed: the day is absent (worst shift)',
    { days: [work(D, ...THREE)], punches: [d('06:00'), d('10:00'), d('16:00'), d('20:00')] },
    { status: 'absent', min: [0, 0, 480, 0], why: [['att.why.noPunch', { inFrom: '10:00', inTo: '12:00' }]], shifts: ['normal', 'absent', 'normal'] },
  ],
  [
    'two shifts: late in one, early in the other → late and early',
    { days: [work(D, ...TWO)], punches: [d('08:00'), d('11:30'), d('13:10'), d('17:00')] },
    {
      status: 'lateEarly',
      min: [10, 30, 440, 0],
      why: [
        ['att.why.early', { early: 30 }],
        ['att.why.late', { late: 10 }],
      ],
      shifts: ['early', 'late'],
    },
  ],

  // — crossing midnight —
  [
    'night shift 22:00–06:00: check-out at 05:58 the next day, within grace',
    { days: [work(D, NIGHT)], punches: [d('21:55'), d('05:58', D1)] },
    {
      status: 'normal',
      min: [0, 0, 478, 0],
      why: [
        ['att.why.checkOut', { time: '05:58 (+1)' }],
        ['att.why.onTimeOut', { end: '06:00 (+1)' }],
      ],
    },
  ],
  [
    'night shift leaving at 05:50: early 10',
    { days: [work(D, NIGHT)], punches: [d('22:00'), d('05:50', D1)] },
    { status: 'early', min: [0, 10, 470, 0], why: [['att.why.early', { early: 10 }]] },
  ],
  [
    'night shift with a break after midnight deducted',
    { days: [work(D, shift('22:00', '06:00', { breaks: [{ start: '02:00', end: '02:30', deducted: true }] }))], punches: [d('22:00'), d('06:00', D1)] },
    { status: 'normal', min: [0, 0, 450, 0], why: [['att.why.breakDeducted', { start: '02:00 (+1)', end: '02:30 (+1)', minutes: 30 }]] },
  ],
  [
    'night then a morning shift: the 06:00 punch ends the night, 07:58 starts the morning',
    {
      days: [work(D, NIGHT), work(D1, shift('08:00', '16:00', { id: 3, name: 'Morning' }))],
      punches: [d('21:58'), d('06:00', D1), d('07:58', D1), d('16:00', D1)],
    },
    [
      { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.checkOut', { time: '06:00 (+1)' }]], used: [1, 2] },
      { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.checkIn', { time: '07:58' }]], used: [3, 4] },
    ],
  ],
  [
    'one day recalculated alone: the previous night (before) keeps its 06:00 check-out from this 06:00 morning',
    { days: [work(D1, EARLY)], before: work(D, NIGHT), punches: [d('21:55'), d('06:00', D1), d('06:03', D1), d('14:00', D1)] },
    { status: 'normal', min: [0, 0, 477, 0], why: [['att.why.onTime', { checkIn: '06:03' }]], used: [3, 4], ignored: [] },
  ],
  [
    'without the previous night as context the same 06:00 punch would be taken for the check-in',
    { days: [work(D1, EARLY)], punches: [d('21:55'), d('06:00', D1), d('06:03', D1), d('14:00', D1)] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.checkIn', { time: '06:00' }]], used: [2, 4] },
  ],
  [
    'tonight recalculated alone with tomorrow (after) as context: tomorrow’s 06:40 check-in is not overtime tonight',
    { days: [work(D, NIGHT)], after: work(D1, shift('07:00', '15:00', { id: 3, name: 'Morning' })), punches: [d('22:00'), d('05:59', D1), d('06:40', D1)] },
    { status: 'normal', min: [0, 0, 479, 0], why: [['att.why.checkOut', { time: '05:59 (+1)' }]], used: [1, 2], ignored: [] },
  ],
  [
    'without tomorrow as context the 06:40 punch is tonight’s check-out and 40 min overtime',
    { days: [work(D, NIGHT)], punches: [d('22:00'), d('05:59', D1), d('06:40', D1)] },
    { status: 'normal', min: [0, 0, 480, 40], why: [['att.why.overtime', { checkOut: '06:40 (+1)', minutes: 40 }]], used: [1, 3] },
  ],

  [
    'the shifts of one day continue past midnight: 20:00–02:00 then 03:00–07:00 (the second starts the next date)',
    {
      days: [work(D, shift('20:00', '02:00', { id: 1, name: 'Late', ...NO_WINDOW_GAP }), shift('03:00', '07:00', { id: 2, name: 'Dawn', ...NO_WINDOW_GAP }))],
      punches: [d('19:58'), d('02:00', D1), d('02:55', D1), d('07:01', D1)],
    },
    {
      status: 'normal',
      min: [0, 0, 600, 0],
      why: [['att.why.shift', { shift: 'Dawn', start: '03:00 (+1)', end: '07:00 (+1)' }]],
      shifts: ['normal', 'normal'],
    },
  ],
  [
    'a night shift before a holiday keeps its 06:00 check-out; the holiday shows no work',
    { days: [work(D, NIGHT), holiday(D1, 'Festival')], punches: [d('22:00'), d('06:00', D1)] },
    [
      { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.checkOut', { time: '06:00 (+1)' }]] },
      { status: 'holiday', min: [0, 0, 0, 0], why: [['att.why.holiday', { name: 'Festival' }]], used: [], shifts: [] },
    ],
  ],
  [
    'a week of leave spanning several days: every working day in it is leave',
    {
      days: [work(D), work(D1), work('2026-01-07')],
      absences: [{ id: 4, kind: 'leave', from: d('00:00'), to: '2026-01-06 23:59' }],
      punches: ['2026-01-07 09:00', '2026-01-07 18:00'],
    },
    [
      { status: 'leave', min: [0, 0, 0, 0], why: [['att.why.leaveShift', { from: '00:00', to: '23:59 (+1)' }]], leaveMin: 480 },
      { status: 'leave', min: [0, 0, 0, 0], why: [['att.why.leaveShift', { from: '00:00 (-1)' }]], leaveMin: 480 },
      { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.onTime']], leaveMin: 0 },
    ],
  ],
  [
    'a supplementary punch and a real one seconds apart count once (the earlier)',
    { absences: [{ id: 9, kind: 'supplement', from: d('09:00') }], punches: [d('09:00:05'), d('18:00')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.supplement']], used: [-9, 2], ignored: [[1, 'duplicate']] },
  ],

  // — cycles across month ends, holidays, moved working days —
  [
    'a cycle (day, night, rest, day) across Jan 31 → Feb 1',
    {
      rule: rule({ name: 'Cycle', mode: 'shift' }),
      days: [work('2026-01-30'), work('2026-01-31', NIGHT), rest('2026-02-01'), work('2026-02-02')],
      punches: ['2026-01-30 08:59', '2026-01-30 18:00', '2026-01-31 21:59', '2026-02-01 06:01', '2026-02-02 09:12', '2026-02-02 18:00'],
    },
    [
      { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.rule', { rule: 'Cycle', mode: 'shift' }]] },
      { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.checkOut', { time: '06:01 (+1)' }]], used: [3, 4] },
      { status: 'rest', min: [0, 0, 0, 0], why: [['att.why.rest']], used: [] },
      { status: 'late', min: [12, 0, 468, 0], why: [['att.why.late', { late: 12 }]] },
    ],
  ],
  [
    'a holiday without punches is a holiday, not an absence',
    { days: [holiday(D, 'New Year')] },
    { status: 'holiday', min: [0, 0, 0, 0], why: [['att.why.holiday', { name: 'New Year' }]], shifts: [] },
  ],
  [
    'work on a holiday is overtime, all of it',
    { days: [holiday(D, 'Spring Festival')], punches: [d('10:00'), d('14:30')] },
    { status: 'holiday', min: [0, 0, 270, 270], why: [['att.why.restWork', { first: '10:00', last: '14:30', worked: 270 }]], shifts: ['holiday'] },
  ],
  [
    'a working day moved onto a Saturday (调休) is judged like any working day',
    { days: [work('2026-02-14')], punches: ['2026-02-14 09:10', '2026-02-14 18:00'] },
    { status: 'late', min: [10, 0, 470, 0], why: [['att.why.late', { late: 10 }]] },
  ],
  ['a rest day without punches is rest', { days: [rest('2026-01-10')] }, { status: 'rest', min: [0, 0, 0, 0], why: [['att.why.rest']] }],
  [
    'work on a rest day is overtime, all of it (no minimum)',
    { days: [rest('2026-01-10')], punches: ['2026-01-10 09:00', '2026-01-10 09:20'] },
    { status: 'rest', min: [0, 0, 20, 20], why: [['att.why.restWork', { worked: 20 }]] },
  ],
  [
    'a single punch on a rest day counts no time',
    { days: [rest('2026-01-10')], punches: ['2026-01-10 11:00'] },
    { status: 'rest', min: [0, 0, 0, 0], why: [['att.why.onePunchOff', { time: '11:00' }]], used: [1] },
  ],
  [
    'a working day without a shift (misconfigured) is treated as rest',
    { days: [{ date: D, kind: 'work', shifts: [] }] },
    { status: 'rest', min: [0, 0, 0, 0], why: [['att.why.noShift']] },
  ],

  // — duplicates —
  [
    'two punches 20 s apart (filter 30 s) count once',
    { punches: [d('08:55'), d('08:55:20'), d('18:00')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.checkIn', { time: '08:55' }]], ignored: [[2, 'duplicate', 'att.why.ignored.duplicate']] },
  ],
  [
    'the same face on two terminals 3 s apart counts once',
    { punches: [{ t: d('08:59'), deviceId: 1 }, { t: d('08:59:03'), deviceId: 2 }, d('18:00')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.onTime']], used: [1, 3], ignored: [[2, 'duplicate']] },
  ],
  [
    'exactly the filter seconds apart: both kept (the second is simply not needed)',
    { punches: [d('08:59'), d('08:59:30'), d('18:00')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.onTime']], ignored: [[2, 'notNeeded']] },
  ],
  [
    'closer than the filter to the previous KEPT punch: 0 s kept, 20 s duplicate, 40 s kept',
    { punches: [d('17:59'), d('17:59:20'), d('17:59:40'), d('09:00')] },
    {
      status: 'normal',
      min: [0, 0, 479, 0],
      why: [['att.why.checkOut', { time: '17:59:40' }]],
      ignored: [
        [1, 'notNeeded'],
        [2, 'duplicate'],
      ],
      used: [4, 3],
    },
  ],
  [
    'a duplicate check-out shows which kept punch it repeats',
    { punches: [d('09:00'), d('18:00'), d('18:00:10')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.checkOut', { time: '18:00' }]], ignored: [[3, 'duplicate']] },
  ],

  // — attendance models —
  [
    'temperature over the alarm: not a valid check-in; the retry at 09:10 is',
    {
      rule: rule({ model: 'temperature' }),
      punches: [{ t: d('08:58'), temperature: 37.8, temperatureAlarm: 37.3 }, { t: d('09:10'), temperature: 36.6, temperatureAlarm: 37.3 }, d('18:00')],
    },
    {
      status: 'late',
      min: [10, 0, 470, 0],
      why: [['att.why.late', { checkIn: '09:10', late: 10 }]],
      ignored: [[1, 'invalidModel', 'att.why.ignored.temperature']],
    },
  ],
  [
    'temperature exactly at the alarm is refused too (at or above, as the live alarm says, #17)',
    { rule: rule({ model: 'temperature' }), punches: [{ t: d('08:58'), temperature: 37.3, temperatureAlarm: 37.3 }, d('18:00')] },
    { status: 'missingIn', min: [0, 0, 0, 0], why: [['att.why.missingIn']], ignored: [[1, 'invalidModel', 'att.why.ignored.temperature']] },
  ],
  [
    'just below the alarm is valid',
    { rule: rule({ model: 'temperature' }), punches: [{ t: d('08:58'), temperature: 37.2, temperatureAlarm: 37.3 }, d('18:00')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.onTime', { checkIn: '08:58' }]], ignored: [] },
  ],
  [
    'alcohol at the threshold is invalid: missing check-in',
    { rule: rule({ model: 'alcohol' }), punches: [{ t: d('08:50'), alcohol: 20, alcoholThreshold: 20 }, d('18:00')] },
    { status: 'missingIn', min: [0, 0, 0, 0], why: [['att.why.missingIn']], ignored: [[1, 'invalidModel', 'att.why.ignored.alcohol']] },
  ],
  [
    'alcohol just below the threshold is valid',
    { rule: rule({ model: 'alcohol' }), punches: [{ t: d('08:50'), alcohol: 19, alcoholThreshold: 20 }, d('18:00')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.onTime']] },
  ],
  [
    'health code yellow is invalid',
    { rule: rule({ model: 'health' }), punches: [{ t: d('08:50'), health: 'yellow' }, d('18:00')] },
    { status: 'missingIn', min: [0, 0, 0, 0], why: [['att.why.missingIn']], ignored: [[1, 'invalidModel', 'att.why.ignored.health']] },
  ],
  [
    'health code green is valid',
    {
      rule: rule({ model: 'health' }),
      punches: [
        { t: d('08:50'), health: 'green' },
        { t: d('18:00'), health: 'green' },
      ],
    },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.checkIn', { time: '08:50' }]] },
  ],
  [
    'the default model ignores readings (a fever does not invalidate)',
    { punches: [{ t: d('08:50'), temperature: 39, temperatureAlarm: 37.3, health: 'red' }, d('18:00')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.onTime']], ignored: [] },
  ],
  [
    'an invalid punch does not swallow a valid retry within the filter seconds',
    {
      rule: rule({ model: 'temperature' }),
      punches: [{ t: d('08:58'), temperature: 38, temperatureAlarm: 37.3 }, { t: d('08:58:10'), temperature: 36.5, temperatureAlarm: 37.3 }, d('18:00')],
    },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.checkIn', { time: '08:58:10' }]], ignored: [[1, 'invalidModel']] },
  ],

  // — approved absences —
  [
    'partial-day leave 09:00–11:00 moves the expected start to 11:00',
    { absences: [{ id: 3, kind: 'leave', from: d('09:00'), to: d('11:00') }], punches: [d('10:58'), d('18:00')] },
    {
      status: 'normal',
      min: [0, 0, 360, 0],
      why: [
        ['att.why.startMoved', { from: '09:00', to: '11:00', start: '11:00' }],
        ['att.why.onTime', { start: '11:00' }],
      ],
      leaveMin: 120,
    },
  ],
  [
    'after a morning leave, lateness counts from the moved start',
    { absences: [{ id: 3, kind: 'leave', from: d('09:00'), to: d('11:00') }], punches: [d('11:10'), d('18:00')] },
    { status: 'late', min: [10, 0, 350, 0], why: [['att.why.late', { start: '11:00', late: 10 }]] },
  ],
  [
    'an afternoon out-of-office moves the expected end',
    { absences: [{ id: 4, kind: 'out', from: d('16:00'), to: d('18:00') }], punches: [d('09:00'), d('16:00')] },
    {
      status: 'normal',
      min: [0, 0, 360, 0],
      why: [
        ['att.why.endMoved', { kind: 'out', end: '16:00' }],
        ['att.why.onTimeOut', { end: '16:00' }],
      ],
    },
  ],
  [
    'leave over the whole shift: leave, no punch needed',
    { absences: [{ id: 5, kind: 'leave', from: d('00:00'), to: d('23:59') }] },
    { status: 'leave', min: [0, 0, 0, 0], why: [['att.why.leaveShift']], shifts: ['leave'], leaveMin: 480 },
  ],
  [
    'out-of-office over the whole shift: out; a punch that day is not needed',
    { absences: [{ id: 6, kind: 'out', from: d('09:00'), to: d('18:00') }], punches: [d('10:00')] },
    { status: 'out', min: [0, 0, 0, 0], why: [['att.why.outShift', { from: '09:00', to: '18:00' }]], ignored: [[1, 'notNeeded', 'att.why.ignored.onLeave']] },
  ],
  // — partial-day leave on a day without punches (#17): covered part leave, the rest absent —
  [
    'half-day leave (09:00–14:00, 240 of 480 min) and no punch: a half day, 240 leave + 240 absent',
    { absences: [{ id: 3, kind: 'leave', from: d('09:00'), to: d('14:00'), leaveType: 'annual' }] },
    {
      status: 'halfDay',
      min: [0, 0, 0, 0],
      why: [['att.why.partialHalfDay', { covered: 240, absent: 240, limit: 240 }]],
      shifts: ['absent'],
      leaveMin: 240,
      absentMin: 240,
      leaveKinds: { annual: 240 },
    },
  ],
  [
    'a 4-hour shift with 2 hours of leave and no punch: a half day, not an absence',
    { days: [work(D, shift('08:00', '12:00'))], absences: [{ id: 3, kind: 'leave', from: d('08:00'), to: d('10:00'), leaveType: 'sick' }] },
    {
      status: 'halfDay',
      min: [0, 0, 0, 0],
      why: [['att.why.partialHalfDay', { covered: 120, absent: 120 }]],
      leaveMin: 120,
      absentMin: 120,
      leaveKinds: { sick: 120 },
    },
  ],
  [
    'a morning of leave (180 of 480 min) and no punch: below half the day → absent, only the rest absent',
    { absences: [{ id: 3, kind: 'leave', from: d('09:00'), to: d('13:00') }] },
    {
      status: 'absent',
      min: [0, 0, 0, 0],
      why: [['att.why.partialAbsent', { covered: 180, absent: 300, limit: 240 }]],
      leaveMin: 180,
      absentMin: 300,
      leaveKinds: { other: 180 },
    },
  ],
  [
    "the rule's absent threshold decides: 240 covered, absent below 300 → absent",
    { rule: rule({ absentBelowMin: 300, halfDayBelowMin: 420 }), absences: [{ id: 3, kind: 'leave', from: d('09:00'), to: d('14:00') }] },
    { status: 'absent', min: [0, 0, 0, 0], why: [['att.why.partialAbsent', { covered: 240, limit: 300 }]], leaveMin: 240, absentMin: 240 },
  ],
  [
    "the rule's absent threshold decides: 240 covered, absent below 120 → half day",
    { rule: rule({ absentBelowMin: 120 }), absences: [{ id: 3, kind: 'out', from: d('14:00'), to: d('18:00') }] },
    { status: 'halfDay', min: [0, 0, 0, 0], why: [['att.why.partialHalfDay', { covered: 240, limit: 120 }]], leaveMin: 0, absentMin: 240, leaveKinds: {} },
  ],
  [
    'two shifts, the morning on leave, no punch in the afternoon: a half day',
    { days: [work(D, ...TWO)], absences: [{ id: 3, kind: 'leave', from: d('08:00'), to: d('12:00'), leaveType: 'personal' }] },
    {
      status: 'halfDay',
      min: [0, 0, 0, 0],
      why: [['att.why.partialHalfDay']],
      shifts: ['leave', 'absent'],
      leaveMin: 240,
      absentMin: 240,
      leaveKinds: { personal: 240 },
    },
  ],
  [
    'half-day leave and the other half punched: leave minutes and no absent minutes',
    { absences: [{ id: 3, kind: 'leave', from: d('09:00'), to: d('14:00'), leaveType: 'annual' }], punches: [d('13:58'), d('18:00')] },
    { status: 'normal', min: [0, 0, 240, 0], why: [['att.why.onTime']], leaveMin: 240, absentMin: 0, leaveKinds: { annual: 240 } },
  ],
  [
    'no punch and no leave: the whole day is absent minutes',
    {},
    { status: 'absent', min: [0, 0, 0, 0], why: [['att.why.noPunch']], leaveMin: 0, absentMin: 480, leaveKinds: {} },
  ],
  [
    'two kinds of leave in one day are split by kind',
    {
      days: [work(D, ...TWO)],
      absences: [
        { id: 3, kind: 'leave', from: d('08:00'), to: d('12:00'), leaveType: 'annual' },
        { id: 4, kind: 'leave', from: d('13:00'), to: d('17:00'), leaveType: 'sick' },
      ],
    },
    { status: 'leave', min: [0, 0, 0, 0], why: [['att.why.leaveShift']], leaveMin: 480, absentMin: 0, leaveKinds: { annual: 240, sick: 240 } },
  ],
  [
    'an hour of leave mid-afternoon is not worked time',
    { absences: [{ id: 8, kind: 'leave', from: d('14:00'), to: d('15:00') }], punches: [d('09:00'), d('18:00')] },
    { status: 'normal', min: [0, 0, 420, 0], why: [['att.why.absenceDuring', { kind: 'leave', minutes: 60 }]] },
  ],
  [
    'a supplementary punch stands for the forgotten check-in',
    { absences: [{ id: 9, kind: 'supplement', from: d('09:00'), label: 'forgot' }], punches: [d('18:00')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.supplement', { time: '09:00', label: 'forgot' }]], checkIn: -9, used: [-9, 1] },
  ],
  [
    'a supplementary punch stands for the forgotten check-out',
    { absences: [{ id: 10, kind: 'supplement', from: d('18:00') }], punches: [d('08:59')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.checkOut', { time: '18:00' }], ['att.why.supplement']], checkOut: -10 },
  ],
  [
    'a leave day on a rest day is still rest',
    { days: [rest('2026-01-10')], absences: [{ id: 5, kind: 'leave', from: '2026-01-10 09:00', to: '2026-01-10 18:00' }] },
    { status: 'rest', min: [0, 0, 0, 0], why: [['att.why.rest']], leaveMin: 0 },
  ],

  // — pending —
  [
    'checked in, the check-out window still open: pending, the lateness already shown',
    { punches: [d('09:07')], now: d('17:00') },
    {
      status: 'pending',
      min: [7, 0, 0, 0],
      why: [
        ['att.why.pending', { until: '22:00' }],
        ['att.why.late', { late: 7 }],
      ],
      shifts: ['pending'],
    },
  ],
  [
    'still pending at the very end of the last window',
    { punches: [d('09:00')], now: d('22:00') },
    { status: 'pending', min: [0, 0, 0, 0], why: [['att.why.pending']] },
  ],
  [
    'a second after the last window closes: missing check-out',
    { punches: [d('09:00')], now: d('22:00:01') },
    { status: 'missingOut', min: [0, 0, 0, 0], why: [['att.why.missingOut']] },
  ],
  ['a day not begun is pending, never absent', { now: d('06:00') }, { status: 'pending', min: [0, 0, 0, 0], why: [['att.why.pending']] }],
  [
    'approved leave on a future day is leave at once',
    { now: d('06:00'), absences: [{ id: 5, kind: 'leave', from: d('09:00'), to: d('18:00') }] },
    { status: 'leave', min: [0, 0, 0, 0], why: [['att.why.leaveShift']] },
  ],
  [
    'a night shift stays pending the next morning until its window closes',
    { days: [work(D, NIGHT)], punches: [d('22:00')], now: d('08:00', D1) },
    { status: 'pending', min: [0, 0, 0, 0], why: [['att.why.pending', { until: '10:00 (+1)' }]] },
  ],

  // — automatic shift matching (#17): the first valid punch picks the nearest candidate —
  [
    'auto: 08:40 is in the windows of Morning (06:00) and Day (09:00): Day is nearer (20 min) and is judged',
    { days: [auto(D, MORNING, DAY, NIGHT_C)], punches: [d('08:40'), d('17:05')] },
    {
      status: 'normal',
      min: [0, 0, 480, 0],
      why: [
        ['att.why.autoShift', { shift: 'Day', time: '08:40', start: '09:00', minutes: 20, count: 3 }],
        ['att.why.shift', { shift: 'Day', start: '09:00', end: '17:00' }],
      ],
      used: [1, 2],
      shiftIds: [12],
    },
  ],
  [
    "auto: 06:10 is only in Morning's check-in window: Morning, late 10",
    { days: [auto(D, MORNING, DAY, NIGHT_C)], punches: [d('06:10'), d('14:00')] },
    { status: 'late', min: [10, 0, 470, 0], why: [['att.why.autoShift', { shift: 'Morning', minutes: 10 }]], shiftIds: [11] },
  ],
  [
    'auto: a tie (09:00 is 60 min from 08:00 and from 10:00) goes to the earlier start, whatever the order listed',
    { days: [auto(D, LATE_C, EARLY_C)], punches: [d('09:00'), d('16:00')] },
    { status: 'late', min: [60, 0, 420, 0], why: [['att.why.autoShift', { shift: 'A', minutes: 60, count: 2 }]], shiftIds: [21] },
  ],
  [
    'auto: the punch that picks is the first valid one: a refused temperature reading does not choose Morning',
    {
      rule: rule({ model: 'temperature' }),
      days: [auto(D, MORNING, DAY)],
      punches: [{ t: d('06:05'), temperature: 38, temperatureAlarm: 37.3 }, d('08:58'), d('17:00')],
    },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.autoShift', { shift: 'Day', time: '08:58' }]], shiftIds: [12] },
  ],
  [
    'auto: an evening punch picks the night candidate, and its check-out the next morning belongs to it',
    { days: [auto(D, DAY, NIGHT_C)], punches: [d('21:50'), `${D1} 06:02`] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.autoShift', { shift: 'Night', time: '21:50', minutes: 10 }]], shiftIds: [13] },
  ],
  [
    "auto: the previous night shift's check-out at 06:00 does not pick this morning's shift; 08:55 picks Day",
    { days: [work(D, NIGHT), auto(D1, MORNING, DAY)], punches: [d('21:58'), `${D1} 06:00`, `${D1} 08:55`, `${D1} 17:00`] },
    [
      { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.worked', { worked: 480 }]], used: [1, 2] },
      { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.autoShift', { shift: 'Day', time: '08:55' }]], used: [3, 4], shiftIds: [12] },
    ],
  ],
  [
    "auto: nearness is to the expected start: a morning leave moves Day's start to 11:00, so 10:58 picks Day, not Mid (12:00)",
    {
      days: [auto(D, DAY, MID_C)],
      absences: [{ id: 1, kind: 'leave', from: d('09:00'), to: d('11:00') }],
      punches: [d('10:58'), d('17:00')],
    },
    {
      status: 'normal',
      min: [0, 0, 360, 0],
      why: [['att.why.autoShift', { shift: 'Day', start: '11:00', minutes: 2 }], ['att.why.startMoved']],
      shiftIds: [12],
      leaveMin: 120,
    },
  ],
  [
    'auto, no punch: the first candidate listed is planned and judged (absent), and the day says so',
    { days: [auto(D, DAY, MORNING)] },
    {
      status: 'absent',
      min: [0, 0, 0, 0],
      why: [['att.why.autoShiftNone', { shift: 'Day', count: 2 }], ['att.why.noPunch']],
      shiftIds: [12],
    },
  ],
  [
    "auto, no punch yet: pending while any candidate's windows are open (Day's closed at 21:00, Night's not)",
    { days: [auto(D, DAY, NIGHT_C)], now: d('21:30') },
    { status: 'pending', min: [0, 0, 0, 0], why: [['att.why.autoShiftNone', { shift: 'Day' }], ['att.why.pending']] },
  ],
  // — DST (Europe/Berlin): absolute instants, not wall-clock differences —
  [
    '22:00–06:00 on 2026-03-28 (clocks go forward): 7 real hours',
    { zone: BERLIN, days: [work('2026-03-28', NIGHT)], punches: ['2026-03-28 22:00', '2026-03-29 06:00'] },
    { status: 'normal', min: [0, 0, 420, 0], why: [['att.why.worked', { worked: 420, from: '22:00', to: '06:00 (+1)' }]] },
  ],
  [
    '22:00–06:00 on 2026-10-24 (clocks go back): 9 real hours',
    { zone: BERLIN, days: [work('2026-10-24', NIGHT)], punches: ['2026-10-24 22:00', '2026-10-25 06:00'] },
    { status: 'normal', min: [0, 0, 540, 0], why: [['att.why.worked', { worked: 540 }]] },
  ],
  [
    'the same night a week earlier: 8 hours',
    { zone: BERLIN, days: [work('2026-03-21', NIGHT)], punches: ['2026-03-21 22:00', '2026-03-22 06:00'] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.worked', { worked: 480 }]] },
  ],
  [
    'DST night: leaving at 05:00 is early 60 (counted to the real end)',
    { zone: BERLIN, days: [work('2026-03-28', NIGHT)], punches: ['2026-03-28 22:00', '2026-03-29 05:00'] },
    { status: 'early', min: [0, 60, 360, 0], why: [['att.why.early', { early: 60 }]] },
  ],

  // — direction (entrance/exit) —
  [
    'direction option: the entrance decides the check-in and the exit the check-out',
    {
      rule: rule({ useDirection: true }),
      punches: [
        { t: d('08:50'), direction: 'out' },
        { t: d('08:58'), direction: 'in' },
        { t: d('18:02'), direction: 'out' },
        { t: d('18:10'), direction: 'in' },
      ],
    },
    {
      status: 'normal',
      min: [0, 0, 480, 0],
      why: [
        ['att.why.checkIn', { time: '08:58' }],
        ['att.why.checkOut', { time: '18:02' }],
      ],
      used: [2, 3],
      ignored: [
        [1, 'notNeeded', 'att.why.ignored.wrongDirection'],
        [4, 'notNeeded', 'att.why.ignored.wrongDirection'],
      ],
    },
  ],
  [
    'the same punches without the option: first and last',
    {
      punches: [
        { t: d('08:50'), direction: 'out' },
        { t: d('08:58'), direction: 'in' },
        { t: d('18:02'), direction: 'out' },
        { t: d('18:10'), direction: 'in' },
      ],
    },
    {
      status: 'normal',
      min: [0, 0, 480, 0],
      why: [
        ['att.why.checkIn', { time: '08:50' }],
        ['att.why.checkOut', { time: '18:10' }],
      ],
      used: [1, 4],
    },
  ],
  [
    'direction option: only exits → missing check-in',
    {
      rule: rule({ useDirection: true }),
      punches: [
        { t: d('08:50'), direction: 'out' },
        { t: d('18:00'), direction: 'out' },
      ],
    },
    { status: 'missingIn', min: [0, 0, 0, 0], why: [['att.why.missingIn']], checkIn: null, checkOut: 2 },
  ],
  [
    'direction option: a terminal without direction serves either way',
    { rule: rule({ useDirection: true }), punches: [d('08:55'), { t: d('18:00'), direction: 'out' }] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.checkIn', { time: '08:55' }]] },
  ],

  // — free mode —
  [
    'free: first to last punch, at least the required 8 h',
    { rule: FREE, days: [freeDay(D)], punches: [d('10:00'), d('13:00'), d('19:00')] },
    {
      status: 'normal',
      min: [0, 0, 540, 0],
      why: [
        ['att.why.freeWorked', { first: '10:00', last: '19:00', worked: 540 }],
        ['att.why.enough', { required: 480 }],
      ],
      ignored: [[2, 'notNeeded']],
    },
  ],
  [
    'free: short of the required time → early by the shortfall',
    { rule: FREE, days: [freeDay(D)], punches: [d('10:00'), d('17:00')] },
    { status: 'early', min: [0, 60, 420, 0], why: [['att.why.short', { worked: 420, required: 480, short: 60 }]] },
  ],
  [
    'free: the day runs to the next 05:00, a 04:30 punch ends the same day',
    { rule: FREE, days: [freeDay(D), freeDay(D1)], punches: [d('20:00'), d('04:30', D1)] },
    [
      {
        status: 'normal',
        min: [0, 0, 510, 0],
        why: [
          ['att.why.freeDay', { from: '05:00', to: '05:00 (+1)' }],
          ['att.why.checkOut', { time: '04:30 (+1)' }],
        ],
      },
      { status: 'absent', min: [0, 0, 0, 0], why: [['att.why.noPunchDay']] },
    ],
  ],
  [
    'free: 04:59 belongs to the previous day, 05:00 to this one',
    { rule: FREE, days: [freeDay(D)], punches: [d('04:59'), d('05:00'), d('13:00')] },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.freeWorked', { first: '05:00', worked: 480 }]], used: [2, 3] },
  ],
  ['free: no punch → absent', { rule: FREE, days: [freeDay(D)] }, { status: 'absent', min: [0, 0, 0, 0], why: [['att.why.noPunchDay', { from: '05:00' }]] }],
  [
    'free: a single punch → missing check-out',
    { rule: FREE, days: [freeDay(D)], punches: [d('09:00')] },
    { status: 'missingOut', min: [0, 0, 0, 0], why: [['att.why.missingOut']] },
  ],
  [
    'free: pending until the next day boundary',
    { rule: FREE, days: [freeDay(D)], punches: [d('09:00')], now: d('04:59', D1) },
    { status: 'pending', min: [0, 0, 0, 0], why: [['att.why.pending', { until: '05:00 (+1)' }]] },
  ],
  [
    'free: approved leave counts towards the required time',
    { rule: FREE, days: [freeDay(D)], absences: [{ id: 2, kind: 'leave', from: d('09:00'), to: d('13:00') }], punches: [d('13:00'), d('17:00')] },
    { status: 'normal', min: [0, 0, 240, 0], why: [['att.why.freeLeave', { kind: 'leave', minutes: 240 }]], leaveMin: 240 },
  ],
  [
    'free: a full day of leave and no punch is leave',
    { rule: FREE, days: [freeDay(D)], absences: [{ id: 2, kind: 'leave', from: d('09:00'), to: d('18:00') }] },
    { status: 'leave', min: [0, 0, 0, 0], why: [['att.why.freeLeave', { minutes: 540 }]] },
  ],
  [
    'free: no late or early, whatever the hours',
    { rule: FREE, days: [freeDay(D)], punches: [d('14:00'), d('23:00')] },
    { status: 'normal', min: [0, 0, 540, 0], why: [['att.why.enough', { worked: 540 }]] },
  ],
  [
    'free with the direction option: entrance first, exit last',
    {
      rule: { ...FREE, useDirection: true },
      days: [freeDay(D)],
      punches: [
        { t: d('08:00'), direction: 'out' },
        { t: d('09:00'), direction: 'in' },
        { t: d('17:00'), direction: 'out' },
      ],
    },
    { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.checkIn', { time: '09:00' }]] },
  ],
  [
    'free: a rest day under a free rule is rest, its work overtime',
    { rule: FREE, days: [rest('2026-01-10')], punches: ['2026-01-10 10:00', '2026-01-11 02:00'] },
    { status: 'rest', min: [0, 0, 960, 960], why: [['att.why.restWork', { last: '02:00 (+1)' }]] },
  ],

  // — leaving —
  [
    'no results after the leaving date',
    { days: [work(D), work(D1), work('2026-01-07')], leftOn: D1, punches: [d('09:00'), d('18:00')] },
    [
      { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.worked']] },
      { status: 'absent', min: [0, 0, 0, 0], why: [['att.why.noPunch']] },
    ],
  ],
  // — hire date (#17) —
  [
    'no results before the hire date; punches before it count for nothing',
    {
      days: [work(D), work(D1), work('2026-01-07')],
      joinedOn: D1,
      before: work('2026-01-04'),
      punches: [d('09:00'), d('18:00'), `${D1} 08:58`, `${D1} 18:03`],
    },
    [
      { status: 'normal', min: [0, 0, 480, 0], why: [['att.why.worked']] },
      { status: 'absent', min: [0, 0, 0, 0], why: [['att.why.noPunch']] },
    ],
  ],
];

// — #17: how worked time is counted (pairs), punches on days off, overtime only when approved —
const PAIRS = rule({ workedBy: 'pairs' });
cases.push(
  [
    'pairs: a break clocked out for is not worked (first/last would give 480)',
    { rule: PAIRS, punches: [d('08:55'), d('10:00'), d('10:30'), d('18:02')] },
    {
      status: 'normal',
      min: [0, 0, 450, 0],
      why: [
        ['att.why.pairsAlternating'],
        ['att.why.pair', { minutes: 65 }],
        ['att.why.pairsWorked', { pairs: 2, worked: 450 }],
        ['att.why.breakDeducted', { minutes: 60 }],
      ],
      used: [1, 2, 3, 4],
      checkIn: 1,
      checkOut: 4,
    },
  ],
  [
    'pairs: an odd last punch (the check-out) closes no pair; the thresholds follow the paired time',
    { rule: rule({ workedBy: 'pairs', halfDayBelowMin: 360 }), punches: [d('08:55'), d('15:00'), d('18:02')] },
    {
      status: 'halfDay',
      min: [0, 0, 300, 0],
      why: [['att.why.unpairedCheckOut'], ['att.why.pairsWorked', { pairs: 1, worked: 300 }], ['att.why.halfDayBelow']],
      checkOut: 3,
    },
  ],
  [
    'pairs by direction: a second exit pairs with nothing and is listed; the lunch break is deducted only where worked',
    {
      rule: rule({ workedBy: 'pairs', useDirection: true }),
      punches: [
        { t: d('08:55'), direction: 'in' },
        { t: d('11:30'), direction: 'out' },
        { t: d('11:31'), direction: 'out' },
        { t: d('12:30'), direction: 'in' },
        { t: d('18:02'), direction: 'out' },
      ],
    },
    {
      status: 'normal',
      min: [0, 0, 450, 0],
      why: [['att.why.pairsDirection'], ['att.why.pairsWorked', { pairs: 2, worked: 450 }], ['att.why.breakDeducted', { minutes: 30 }]],
      used: [1, 2, 4, 5],
      ignored: [[3, 'notNeeded', 'att.why.ignored.unpaired']],
    },
  ],
  [
    'pairs: overtime is the paired time past the end (first/last would give 120)',
    { rule: PAIRS, punches: [d('08:55'), d('18:00'), d('19:00'), d('20:00')] },
    { status: 'normal', min: [0, 0, 480, 60], why: [['att.why.overtime', { minutes: 60 }]], used: [1, 2, 3, 4] },
  ],
  [
    'pairs on a rest day: the pairs are the worked time, all overtime',
    { rule: PAIRS, days: [rest(D)], punches: [d('09:00'), d('12:00'), d('13:00'), d('15:00')] },
    { status: 'rest', min: [0, 0, 300, 300], why: [['att.why.restOvertime', { worked: 300 }]], used: [1, 2, 3, 4] },
  ],
  [
    'pairs in free mode: the pairs count towards the required time',
    { rule: { ...FREE, workedBy: 'pairs' }, days: [freeDay(D)], punches: [d('09:00'), d('12:00'), d('13:30'), d('18:00')] },
    {
      status: 'early',
      min: [0, 30, 450, 0],
      why: [
        ['att.why.pairsWorked', { pairs: 2, worked: 450 }],
        ['att.why.short', { short: 30 }],
      ],
    },
  ],
  [
    'punches on a holiday are ignored when the rule does not count them: the day stays a holiday',
    { rule: rule({ countOffDayPunches: false }), days: [holiday(D, 'New Year')], punches: [d('09:00'), d('15:00')] },
    {
      status: 'holiday',
      min: [0, 0, 0, 0],
      why: [['att.why.holiday'], ['att.why.offDayIgnored']],
      used: [],
      ignored: [
        [1, 'notNeeded', 'att.why.ignored.offDay'],
        [2, 'notNeeded', 'att.why.ignored.offDay'],
      ],
    },
  ],
  [
    'punches on a rest day are rest-day overtime by default',
    { rule: rule({ countOffDayPunches: true }), days: [rest(D)], punches: [d('09:00'), d('15:00')] },
    { status: 'rest', min: [0, 0, 360, 360], why: [['att.why.restWork', { worked: 360 }]] },
  ],
  [
    'overtime only when approved: none approved → no overtime, and the day says why',
    { rule: rule({ overtimeNeedsApproval: true }), punches: [d('08:55'), d('20:00')] },
    {
      status: 'normal',
      min: [0, 0, 480, 0],
      why: [
        ['att.why.overtime', { minutes: 120 }],
        ['att.why.overtimeNotApproved', { minutes: 120 }],
      ],
    },
  ],
  [
    'overtime only when approved: capped at the approved 18:00–19:00 (the approval is no leave)',
    {
      rule: rule({ overtimeNeedsApproval: true }),
      punches: [d('08:55'), d('20:00')],
      absences: [{ id: 9, kind: 'overtime', from: d('18:00'), to: d('19:00') }],
    },
    { status: 'normal', min: [0, 0, 480, 60], why: [['att.why.overtimeApproved', { minutes: 120, approved: 60, overtime: 60 }]], leaveMin: 0 },
  ],
  [
    'an approved overtime period is read only when the rule asks for approval',
    { punches: [d('08:55'), d('20:00')], absences: [{ id: 9, kind: 'overtime', from: d('18:00'), to: d('19:00') }] },
    { status: 'normal', min: [0, 0, 480, 120], why: [['att.why.overtime', { minutes: 120 }]], leaveMin: 0 },
  ],
  [
    'overtime only when approved on a holiday: the approved part of the worked time',
    {
      rule: rule({ overtimeNeedsApproval: true }),
      days: [holiday(D, 'New Year')],
      punches: [d('09:00'), d('15:00')],
      absences: [{ id: 9, kind: 'overtime', from: d('09:00'), to: d('12:00') }],
    },
    { status: 'holiday', min: [0, 0, 360, 180], why: [['att.why.overtimeApproved', { approved: 180, overtime: 180 }]] },
  ],
);

for (const [intent, c, e] of cases) {
  test(intent, () => {
    const results = run(c);
    const expects = Array.isArray(e) ? e : [e];
    assert.equal(results.length, expects.length, `${intent}: one result per expected day`);
    const shifts = [...(c.days ?? [work(D)]), ...(c.before ? [c.before] : [])].flatMap((p) => p.candidates ?? p.shifts);
    expects.forEach((x, i) => verify(results[i], x, `${intent} [day ${i + 1}]`, shifts));
  });
}

// ——— properties over a realistic month ———

test('a month of two-shift days: every punch appears at most once, in used or ignored, and dates are consecutive', () => {
  const dates = Array.from({ length: 31 }, (_, i) => `2026-01-${String(i + 1).padStart(2, '0')}`);
  const days = dates.map((date) => (new Date(`${date}T00:00Z`).getUTCDay() % 6 === 0 ? rest(date) : work(date, ...TWO)));
  const punches = dates.flatMap((date) => ['07:58', '07:58:10', '12:00', '12:59', '17:01', '21:00'].map((h) => `${date} ${h}`));
  const results = run({ days, punches });
  assert.deepEqual(
    results.map((r) => r.date),
    dates,
  );
  const seen = results.flatMap((r) => [...r.used, ...r.ignored.map((i) => i.punchId)]);
  assert.equal(new Set(seen).size, seen.length, 'no punch twice');
  assert.equal(seen.length, punches.length, 'every punch of the month is accounted for');
  const weekday = results.find((r) => r.date === '2026-01-05')!;
  assert.equal(weekday.status, 'normal', describe(weekday, TWO));
  assert.deepEqual(
    weekday.ignored.map((i) => i.reason),
    ['duplicate', 'outsideWindows'],
  );
});

test('the engine is pure: the same input gives the same output, the input is not changed', () => {
  const c: Case = {
    days: [work(D, ...TWO)],
    punches: [d('08:00'), d('12:00'), d('13:00'), d('17:00')],
    absences: [{ id: 1, kind: 'supplement', from: d('12:30') }],
  };
  const i = input(c);
  const copy = structuredClone(i);
  assert.deepEqual(computeRange(i), computeRange(copy));
  assert.deepEqual(i, copy);
});

test('every why key the engine emits has an English text, and describe() renders without placeholders', () => {
  const all = cases.flatMap(([, c]) => run(c));
  const keys = new Set(all.flatMap((r) => [...r.why.map((w) => w.key), ...r.ignored.flatMap((i) => (i.detail ? [i.detail.key] : []))]));
  for (const k of keys) assert.ok(k in WHY_EN, `${k} has an English text`);
  for (const r of all) assert.doesNotMatch(describe(r, [OFFICE, NIGHT]), /\{\{|undefined|NaN/, r.date);
  assert.equal(
    whyText({ key: 'att.why.late', params: { checkIn: '09:07', start: '09:00', grace: 5, late: 7 } }),
    'Checked in 09:07, shift 09:00, grace 5 min → late 7 min',
  );
  assert.match(
    describe(run({ punches: [d('09:07'), d('18:00')] })[0]!, [OFFICE]),
    /^2026-01-05: late \(late 7, early 0, worked 473, overtime 0 min\)\n {2}Day: late, in #1, out #2/,
  );
});

test('a day with a punch refused for its temperature is flagged with a temperature alarm; other days are not (#17)', () => {
  const hot = run({
    rule: rule({ model: 'temperature' }),
    punches: [{ t: d('08:58'), temperature: 37.8, temperatureAlarm: 37.3 }, { t: d('09:00'), temperature: 36.6, temperatureAlarm: 37.3 }, d('18:00')],
  })[0]!;
  assert.equal(hot.temperatureAlarm, true);
  assert.equal(hot.status, 'normal', 'the next normal punch is the check-in');
  const fine = run({ rule: rule({ model: 'temperature' }), punches: [{ t: d('09:00'), temperature: 36.6, temperatureAlarm: 37.3 }, d('18:00')] })[0]!;
  assert.equal(fine.temperatureAlarm, undefined);
});

test('leave days are the leave minutes over the scheduled ones, to the nearest half day, at most one (#18)', () => {
  const h = (min: number) => min * 60_000;
  const cases: [leave: number, scheduled: number, days: number][] = [
    [h(480), h(480), 1],
    [h(240), h(480), 0.5],
    [h(180), h(480), 0.5], // 09:00–13:00 of a 09:00–18:00 shift with lunch
    [h(119), h(480), 0],
    [h(120), h(480), 0.5], // a quarter of the day rounds up to a half
    [h(360), h(480), 1], // three quarters round up to a whole day
    [h(600), h(480), 1],
    [h(60), 0, 0], // nothing scheduled (free rule without a required time)
    [0, h(480), 0],
  ];
  for (const [leave, scheduled, days] of cases) assert.equal(leaveDaysOf(leave, scheduled), days, `${leave / 60_000} of ${scheduled / 60_000}`);
});
