import type { AbsenceIn, DayResult, IgnoreReason, PersonRange, ShiftResult, Status, Why } from './types.ts';
import { MIN, why, type Inst, type P, type Plan, type Span } from './placement.ts';
import { clockText } from './zone.ts';

/**
 * Judging one day (the engine's second half, see engine.ts): the punches placement.ts gave its shifts, or the day itself
 * on a day off or under the free mode, become the day's result: check-in and check-out, late and early, worked time
 * (first to last, or #17's pairs), overtime (approved or not), leave and absence figures, the status and its why.
 */

/** What judging a range's days shares: the input, its approved leave/out absences, and its approved overtime periods. */
export interface Judging {
  input: PersonRange;
  leaves: AbsenceIn[];
  approvedOvertime: Span[];
}

/** The `why` of a lean result (batch recalculation stores none): pushes go nowhere, and it always reads empty. */
const LEAN_WHY: Why[] = [];
LEAN_WHY.push = () => 0;
Object.freeze(LEAN_WHY);

/**
 * A day's leave in days (#18): the approved leave minutes over the day's scheduled working minutes, to the nearest
 * half day (a quarter of the day or more is a half day, three quarters or more a whole one), at most 1. A day
 * without scheduled time counts none.
 */
export function leaveDaysOf(leaveMs: number, scheduledMs: number): number {
  if (!(scheduledMs > 0) || !(leaveMs > 0)) return 0;
  return Math.min(2, Math.round((leaveMs * 2) / scheduledMs)) / 2;
}

/** Total length of the union of spans, clipped to [a, b]. */
function coverage(spans: Span[], a: number, b: number): number {
  const c = spans
    .map(([x, y]): Span => [Math.max(x, a), Math.min(y, b)])
    .filter(([x, y]) => y > x)
    .sort((p, q) => p[0] - q[0]);
  let total = 0;
  let cur: Span | null = null;
  for (const s of c) {
    if (cur && s[0] <= cur[1]) cur[1] = Math.max(cur[1], s[1]);
    else {
      if (cur) total += cur[1] - cur[0];
      cur = [s[0], s[1]];
    }
  }
  return cur ? total + cur[1] - cur[0] : total;
}

/** The check-in / check-out pair among candidate punches (sorted), by first/last or by direction. */
function pair(ins: P[], outs: P[], nearerEnd: (p: P) => boolean): { ci?: P; co?: P } {
  let ci: P | undefined = ins[0];
  let co: P | undefined = outs[outs.length - 1];
  if (co && ci && co.at <= ci.at) co = undefined; // also when it is the check-in itself
  // One punch that could be either: it is the one it is nearer to.
  if (ci && !co && outs.includes(ci) && nearerEnd(ci)) {
    co = ci;
    ci = undefined;
  }
  return { ci, co };
}

export function judgeDay(judging: Judging, plan: Plan): DayResult {
  const { input, leaves, approvedOvertime } = judging;
  const { zone, rule } = input;
  const free = rule.mode === 'free';
  const pairsMode = rule.workedBy === 'pairs';
  const date = plan.plan.date;
  const t = input.lean ? () => '' : (ms: number) => clockText(zone, ms, date);
  // A lean batch stores no explanation: its lines go to a sink instead of growing an array per day.
  const r: DayResult = {
    date,
    status: 'normal',
    lateMin: 0,
    earlyMin: 0,
    workedMin: 0,
    overtimeMin: 0,
    shifts: [],
    used: [],
    ignored: [],
    why: input.lean ? LEAN_WHY : [],
  };
  r.why.push(why('att.why.rule', { rule: rule.name, mode: rule.mode }));
  const used: P[] = [];
  const ignored: { p: P; reason: IgnoreReason; detail: Why }[] = [];
  const ignore = (p: P, reason: IgnoreReason, detail: Why) => ignored.push({ p, reason, detail });
  /** Drops invalid and duplicate punches (listing them), returns the ones that count. */
  const valid = (list: P[]): P[] =>
    list.filter((p) => {
      if (p.invalid) ignore(p, 'invalidModel', { key: p.invalid.key, params: { time: t(p.at), ...p.invalid.params } });
      else if (p.dupOf) ignore(p, 'duplicate', why('att.why.ignored.duplicate', { time: t(p.at), seconds: input.filterSeconds, kept: t(p.dupOf.at) }));
      else return true;
      return false;
    });
  const use = (p: P | undefined, key: 'att.why.checkIn' | 'att.why.checkOut') => {
    if (!p) return;
    used.push(p);
    r.why.push(why(key, { time: t(p.at) }));
    if (p.supplement) r.why.push(why('att.why.supplement', { time: t(p.at), ...(p.supplement.label ? { label: p.supplement.label } : {}) }));
  };
  let leaveMs = 0;
  let outMs = 0;
  let absentMs = 0;
  /** The day's scheduled working time (deducted breaks excluded; a free day's required time): leave days' unit. */
  let scheduledMs = 0;
  const kindsMs = new Map<string, number>();
  /** Leave time by leave type within [a, b], not counting `minus` spans (each kind's own coverage). */
  const addKinds = (a: number, b: number, minus: Span[]) => {
    const byKind = new Map<string, Span[]>();
    for (const x of leaves) {
      if (x.kind !== 'leave') continue;
      const k = x.leaveType || 'other';
      byKind.set(k, [...(byKind.get(k) ?? []), [x.from, x.to]]);
    }
    for (const [k, spans] of byKind) {
      const ms = coverage([...spans, ...minus], a, b) - coverage(minus, a, b);
      if (ms > 0) kindsMs.set(k, (kindsMs.get(k) ?? 0) + ms);
    }
  };

  const offDay = plan.plan.kind !== 'work' || (!free && plan.insts.length === 0);
  if (offDay) {
    const status: Status = plan.plan.kind === 'holiday' ? 'holiday' : 'rest';
    r.status = status;
    if (status === 'holiday') r.why.push(why('att.why.holiday', { name: plan.plan.holidayName ?? '' }));
    else r.why.push(why(plan.plan.kind === 'work' ? 'att.why.noShift' : 'att.why.rest'));
    const ok = valid(plan.loose);
    if (ok.length && rule.countOffDayPunches === false) {
      // #17: the rule does not count punches on days off: the day stays as it is
      r.why.push(why('att.why.offDayIgnored'));
      for (const p of ok) ignore(p, 'notNeeded', why('att.why.ignored.offDay', { time: t(p.at) }));
    } else if (ok.length) {
      const { ci, co } = firstLast(ok);
      const s: ShiftResult = { shiftId: 0, checkIn: ci?.id ?? null, checkOut: co?.id ?? null, lateMin: 0, earlyMin: 0, workedMin: 0, overtimeMin: 0, status };
      use(ci, 'att.why.checkIn');
      use(co, 'att.why.checkOut');
      const paired = ci && co && pairsMode ? pairsOf(ok, ci, co) : undefined;
      if (paired) {
        const spans = pairedSpans(paired, -Infinity, Infinity);
        s.workedMin = s.overtimeMin = Math.floor(sumSpans(spans) / MIN);
        r.why.push(why('att.why.restOvertime', { worked: s.workedMin }));
        capOvertime(s, spans);
      } else if (ci && co) {
        s.workedMin = s.overtimeMin = Math.floor((co.at - ci.at) / MIN);
        r.why.push(why('att.why.restWork', { first: t(ci.at), last: t(co.at), worked: s.workedMin }));
        capOvertime(s, [[ci.at, co.at]]);
      } else {
        const only = (ci ?? co)!;
        r.why.push(why('att.why.onePunchOff', { time: t(only.at) }));
      }
      notNeeded(ok, ci, co, paired);
      r.shifts.push(s);
    }
  } else if (free) {
    judgeFree();
  } else {
    judgeShifts();
  }
  for (const s of r.shifts) {
    r.lateMin += s.lateMin;
    r.earlyMin += s.earlyMin;
    r.workedMin += s.workedMin;
    r.overtimeMin += s.overtimeMin;
  }
  r.leaveKinds = {};
  if (r.status !== 'rest' && r.status !== 'holiday') {
    r.leaveMin = Math.floor(leaveMs / MIN);
    r.outMin = Math.floor(outMs / MIN);
    r.absentMin = r.status === 'pending' ? 0 : Math.floor(absentMs / MIN);
    for (const [k, ms] of [...kindsMs].sort((x, y) => (x[0] < y[0] ? -1 : 1))) if (ms >= MIN) r.leaveKinds[k] = Math.floor(ms / MIN);
    r.leaveDays = r.status === 'leave' ? 1 : leaveDaysOf(leaveMs, scheduledMs);
  } else {
    r.leaveMin = r.outMin = r.absentMin = r.leaveDays = 0;
  }
  r.used = used.sort((a, b) => a.at - b.at).map((p) => p.id);
  r.ignored = ignored.sort((a, b) => a.p.at - b.p.at).map(({ p, reason, detail }) => ({ punchId: p.id, reason, detail }));
  // the day's temperature alarm: a punch of the day refused for its temperature (#17)
  if (ignored.some((i) => i.detail.key === 'att.why.ignored.temperature')) r.temperatureAlarm = true;
  return r;

  function notNeeded(list: P[], ci: P | undefined, co: P | undefined, paired?: Paired) {
    for (const p of list)
      if (p !== ci && p !== co && !paired?.used.includes(p))
        ignore(p, 'notNeeded', why(paired?.unpaired.includes(p) ? 'att.why.ignored.unpaired' : 'att.why.ignored.notNeeded', { time: t(p.at) }));
  }

  /**
   * #17 pairs mode: the in/out pairs among the sorted valid punches from the check-in to the check-out (see the
   * conventions at the top). Uses the punches between them (and lists the pairs); linear in the punches.
   */
  function pairsOf(list: P[], ci: P, co: P): Paired {
    const pairs: [P, P][] = [];
    const unpaired: P[] = [];
    const byDirection = rule.useDirection;
    let open: P | undefined;
    for (let k = list.indexOf(ci), end = list.indexOf(co); k >= 0 && k <= end; k++) {
      const p = list[k]!;
      const opens = byDirection && p.direction ? p.direction === 'in' : !open;
      if (opens) {
        if (open) unpaired.push(p);
        else open = p;
      } else if (open) {
        pairs.push([open, p]);
        open = undefined;
      } else unpaired.push(p);
    }
    if (open) unpaired.push(open);
    const used: P[] = [];
    r.why.push(why(byDirection ? 'att.why.pairsDirection' : 'att.why.pairsAlternating'));
    for (const [a, b] of pairs) {
      // the pairs are listed in the explanation (a lean batch stores none of it)
      if (!input.lean) r.why.push(why('att.why.pair', { from: t(a.at), to: t(b.at), minutes: Math.floor((b.at - a.at) / MIN) }));
      for (const p of [a, b])
        if (p !== ci && p !== co) {
          used.push(p);
          usePaired(p);
        }
    }
    if (unpaired.includes(co)) r.why.push(why('att.why.unpairedCheckOut', { time: t(co.at) }));
    return { pairs, used, unpaired };
  }
  function usePaired(p: P) {
    used.push(p);
    if (p.supplement) r.why.push(why('att.why.supplement', { time: t(p.at), ...(p.supplement.label ? { label: p.supplement.label } : {}) }));
  }

  /** The pairs as spans clipped to [a, b] (empty ones dropped). */
  function pairedSpans(paired: Paired, a: number, b: number): Span[] {
    const out: Span[] = [];
    for (const [x, y] of paired.pairs) {
      const from = Math.max(x.at, a);
      const to = Math.min(y.at, b);
      if (to > from) out.push([from, to]);
    }
    return out;
  }

  /**
   * #17 overtime only when approved: caps a result's overtime at the part of its overtime time (`spans`) that
   * approved overtime periods cover, and says so.
   */
  function capOvertime(s: ShiftResult, spans: Span[]) {
    if (!rule.overtimeNeedsApproval || s.overtimeMin <= 0) return;
    let approvedMs = 0;
    if (approvedOvertime.length && spans.length) {
      const lo = Math.min(...spans.map((x) => x[0]));
      const hi = Math.max(...spans.map((x) => x[1]));
      // |spans ∩ approved| = |spans| + |approved| − |spans ∪ approved|
      approvedMs = coverage(spans, lo, hi) + coverage(approvedOvertime, lo, hi) - coverage([...spans, ...approvedOvertime], lo, hi);
    }
    const approved = Math.floor(approvedMs / MIN);
    const minutes = s.overtimeMin;
    s.overtimeMin = Math.min(minutes, approved);
    r.why.push(
      approved > 0 ? why('att.why.overtimeApproved', { minutes, approved, overtime: s.overtimeMin }) : why('att.why.overtimeNotApproved', { minutes }),
    );
  }

  /** First/last (or by direction) among a day's valid punches. */
  function firstLast(ok: P[]): { ci?: P; co?: P } {
    const ins = rule.useDirection ? ok.filter((p) => p.direction !== 'out') : ok;
    const outs = rule.useDirection ? ok.filter((p) => p.direction !== 'in') : ok;
    return pair(ins, outs, (p) => rule.useDirection && p.direction === 'out');
  }

  /** Time of approved absences of a kind within [a, b], not counting `minus` spans. */
  function absenceMs(kind: 'leave' | 'out', a: number, b: number, minus: Span[]): number {
    if (!leaves.length) return 0;
    const spans = leaves.filter((x) => x.kind === kind).map((x): Span => [x.from, x.to]);
    return coverage([...spans, ...minus], a, b) - coverage(minus, a, b);
  }

  function judgeFree() {
    const required = rule.free?.requiredMin ?? 0;
    scheduledMs = required * MIN;
    r.why.push(why('att.why.freeDay', { from: t(plan.from), to: t(plan.to), required }));
    const ok = valid(plan.loose);
    const { ci, co } = firstLast(ok);
    use(ci, 'att.why.checkIn');
    use(co, 'att.why.checkOut');
    const paired = ci && co && pairsMode ? pairsOf(ok, ci, co) : undefined;
    notNeeded(ok, ci, co, paired);
    const s: ShiftResult = {
      shiftId: 0,
      checkIn: ci?.id ?? null,
      checkOut: co?.id ?? null,
      lateMin: 0,
      earlyMin: 0,
      workedMin: 0,
      overtimeMin: 0,
      status: 'normal',
    };
    const workedSpan: Span[] = paired ? pairedSpans(paired, -Infinity, Infinity) : ci && co ? [[ci.at, co.at]] : [];
    leaveMs = absenceMs('leave', plan.from, plan.to, workedSpan);
    outMs = absenceMs('out', plan.from, plan.to, workedSpan);
    addKinds(plan.from, plan.to, workedSpan);
    const absent = leaveMs + outMs;
    if (paired) {
      s.workedMin = Math.floor(sumSpans(workedSpan) / MIN);
      r.why.push(why('att.why.pairsWorked', { pairs: paired.pairs.length, worked: s.workedMin }));
    } else if (ci && co) {
      s.workedMin = Math.floor((co.at - ci.at) / MIN);
      r.why.push(why('att.why.freeWorked', { first: t(ci.at), last: t(co.at), worked: s.workedMin }));
    }
    for (const [kind, ms] of [
      ['leave', leaveMs],
      ['out', outMs],
    ] as const)
      if (ms > 0) r.why.push(why('att.why.freeLeave', { kind, minutes: Math.floor(ms / MIN) }));
    const credited = Math.floor((s.workedMin * MIN + absent) / MIN);
    if (input.now < plan.to) {
      s.status = 'pending';
      r.why.push(why('att.why.pending', { until: t(plan.to) }));
    } else if (!ci && !co) {
      s.status = absent > 0 && absent >= required * MIN ? (leaveMs >= outMs ? 'leave' : 'out') : 'absent';
      if (s.status === 'absent') {
        r.why.push(why('att.why.noPunchDay', { from: t(plan.from), to: t(plan.to) }));
        absentMs = Math.max(0, required * MIN - absent);
      }
    } else if (!ci) {
      s.status = 'missingIn';
      r.why.push(why('att.why.missingIn', { from: t(plan.from), to: t(plan.to) }));
    } else if (!co) {
      s.status = 'missingOut';
      r.why.push(why('att.why.missingOut', { from: t(plan.from), to: t(plan.to) }));
    } else if (!threshold(credited, (st) => (s.status = st))) {
      if (credited < required) {
        s.status = 'early';
        s.earlyMin = required - credited;
        r.why.push(why('att.why.short', { worked: credited, required, short: s.earlyMin }));
      } else r.why.push(why('att.why.enough', { worked: credited, required }));
    }
    r.status = s.status;
    // A free day with nothing at all (no punch, nothing due yet) still lists its pair, so the console shows it.
    r.shifts.push(s);
  }

  /** Which candidate automatic shift matching chose, and why (#17). */
  function autoWhy(inst: Inst): Why {
    const a = inst.auto!;
    if (a.punch === undefined) return why('att.why.autoShiftNone', { shift: inst.def.name, count: a.count });
    return why('att.why.autoShift', { shift: inst.def.name, time: t(a.punch), start: t(inst.expStart), minutes: a.distMin ?? 0, count: a.count });
  }

  /** The worked-time thresholds: absent first, then half day. True when one applied. */
  function threshold(credited: number, set: (s: Status) => void): boolean {
    if (rule.absentBelowMin != null && credited < rule.absentBelowMin) {
      set('absent');
      r.why.push(why('att.why.absentBelow', { worked: credited, limit: rule.absentBelowMin }));
      return true;
    }
    if (rule.halfDayBelowMin != null && credited < rule.halfDayBelowMin) {
      set('halfDay');
      r.why.push(why('att.why.halfDayBelow', { worked: credited, limit: rule.halfDayBelowMin }));
      return true;
    }
    return false;
  }

  function judgeShifts() {
    // Valid punches of this date that no shift's windows claim.
    for (const p of valid(plan.loose)) ignore(p, 'outsideWindows', why('att.why.ignored.outsideWindows', { time: t(p.at) }));
    let creditMs = 0;
    let plannedMs = 0;
    let punched = false;
    let lastClose = -Infinity;
    for (const inst of plan.insts) {
      const res = judgeShift(inst);
      r.shifts.push(res.result);
      creditMs += res.creditMs;
      plannedMs += res.plannedMs;
      scheduledMs += res.plannedMs;
      if (res.result.checkIn !== null || res.result.checkOut !== null) punched = true;
      if (!inst.cover) lastClose = Math.max(lastClose, inst.outTo, inst.auto?.until ?? -Infinity);
    }
    const st = r.shifts.map((s) => s.status);
    const covered = st.filter((s) => s === 'leave' || s === 'out');
    const judged = st.filter((s) => s !== 'leave' && s !== 'out');
    if (judged.includes('pending')) {
      r.status = 'pending';
      r.why.push(why('att.why.pending', { until: t(lastClose) }));
      return;
    }
    if (!judged.length) {
      r.status = covered.every((s) => s === 'out') ? 'out' : 'leave';
      return;
    }
    // Partial-day leave and no punch at all: covered part leave, the rest absent; half day or absent (#17).
    const coveredMs = leaveMs + outMs;
    if (!punched && coveredMs > 0) {
      const coveredMin = Math.floor(coveredMs / MIN);
      const limit = rule.absentBelowMin ?? Math.ceil(plannedMs / MIN / 2);
      r.status = coveredMin < limit ? 'absent' : 'halfDay';
      const params = { covered: coveredMin, absent: Math.floor(absentMs / MIN), limit };
      r.why.push(why(r.status === 'absent' ? 'att.why.partialAbsent' : 'att.why.partialHalfDay', params));
      return;
    }
    const worst = (['absent', 'missingIn', 'missingOut'] as const).find((s) => judged.includes(s));
    if (worst) {
      r.status = worst;
      return;
    }
    const late = judged.some((s) => s === 'late' || s === 'lateEarly');
    const early = judged.some((s) => s === 'early' || s === 'lateEarly');
    r.status = late && early ? 'lateEarly' : late ? 'late' : early ? 'early' : covered.length ? covered[0]! : 'normal';
    threshold(Math.floor(creditMs / MIN), (s) => (r.status = s));
  }

  function judgeShift(inst: Inst): { result: ShiftResult; creditMs: number; plannedMs: number } {
    const { def } = inst;
    const s: ShiftResult = { shiftId: def.id, checkIn: null, checkOut: null, lateMin: 0, earlyMin: 0, workedMin: 0, overtimeMin: 0, status: 'normal' };
    r.why.push(why('att.why.shift', { shift: def.name, start: t(inst.start), end: t(inst.end) }));
    if (inst.auto) r.why.push(autoWhy(inst));
    const ok = valid(inst.punches);
    const breaksMs = coverage(inst.breaks, inst.start, inst.end);
    if (inst.cover) {
      const a = inst.cover;
      s.status = a.kind === 'out' ? 'out' : 'leave';
      const share = inst.end - inst.start - breaksMs;
      if (s.status === 'out') outMs += share;
      else {
        leaveMs += share;
        addKinds(inst.start, inst.end, inst.breaks);
      }
      r.why.push(why(a.kind === 'out' ? 'att.why.outShift' : 'att.why.leaveShift', { from: t(a.from), to: t(a.to), ...(a.label ? { label: a.label } : {}) }));
      for (const p of ok) ignore(p, 'notNeeded', why('att.why.ignored.onLeave', { time: t(p.at) }));
      return { result: s, creditMs: share, plannedMs: share };
    }
    for (const m of inst.moves) {
      const a = m.by;
      const params = { kind: a.kind, from: t(a.from), to: t(a.to), ...(a.label ? { label: a.label } : {}) };
      r.why.push(
        m.kind === 'start' ? why('att.why.startMoved', { ...params, start: t(inst.expStart) }) : why('att.why.endMoved', { ...params, end: t(inst.expEnd) }),
      );
    }

    // Candidates: in a window (and, under the direction option, of the right direction).
    const inWin = (p: P) => p.at >= inst.inFrom && p.at <= inst.inTo;
    const outWin = (p: P) => p.at >= inst.outFrom && p.at <= inst.outTo;
    const ins = ok.filter((p) => inWin(p) && !(rule.useDirection && p.direction === 'out'));
    const outs = ok.filter((p) => outWin(p) && !(rule.useDirection && p.direction === 'in'));
    const { ci, co } = pair(ins, outs, (p) => p.at - inst.expStart > inst.expEnd - p.at);
    const paired = ci && co && pairsMode ? pairsOf(ok, ci, co) : undefined;
    for (const p of ok) {
      if (p === ci || p === co || paired?.used.includes(p)) continue;
      if (paired?.unpaired.includes(p)) {
        ignore(p, 'notNeeded', why('att.why.ignored.unpaired', { time: t(p.at) }));
        continue;
      }
      const time = t(p.at);
      if (!inWin(p) && !outWin(p)) ignore(p, 'outsideWindows', why('att.why.ignored.betweenWindows', { time, inTo: t(inst.inTo), outFrom: t(inst.outFrom) }));
      else if (!ins.includes(p) && !outs.includes(p)) ignore(p, 'notNeeded', why('att.why.ignored.wrongDirection', { time, direction: p.direction! }));
      else ignore(p, 'notNeeded', why('att.why.ignored.notNeeded', { time }));
    }
    s.checkIn = ci?.id ?? null;
    s.checkOut = co?.id ?? null;
    use(ci, 'att.why.checkIn');
    use(co, 'att.why.checkOut');

    let lateMs = 0;
    if (ci) {
      const d = ci.at - inst.expStart;
      const grace = def.lateGraceMin;
      if (d > grace * MIN) {
        lateMs = d;
        s.lateMin = Math.max(1, Math.floor(d / MIN));
        r.why.push(why('att.why.late', { checkIn: t(ci.at), start: t(inst.expStart), grace, late: s.lateMin }));
      } else r.why.push(why('att.why.onTime', { checkIn: t(ci.at), start: t(inst.expStart), grace }));
    }
    if (co) {
      const d = inst.expEnd - co.at;
      const grace = def.earlyGraceMin;
      if (d > grace * MIN) {
        s.earlyMin = Math.max(1, Math.floor(d / MIN));
        r.why.push(why('att.why.early', { checkOut: t(co.at), end: t(inst.expEnd), grace, early: s.earlyMin }));
      } else r.why.push(why('att.why.onTimeOut', { checkOut: t(co.at), end: t(inst.expEnd), grace }));
    }

    // Worked: the punched interval within the expected shift, minus deducted breaks and approved absences.
    const absences: Span[] = leaves.map((a) => [a.from, a.to]);
    let workedMs = 0;
    if (paired && ci && co) {
      workedMs = pairsWorked(inst, paired, absences, s);
    } else if (ci && co) {
      const from = Math.max(ci.at, inst.expStart);
      const to = Math.min(co.at, inst.expEnd);
      if (to > from) {
        workedMs = to - from - (absences.length ? coverage([...inst.breaks, ...absences], from, to) : coverage(inst.breaks, from, to));
        s.workedMin = Math.floor(workedMs / MIN);
        r.why.push(why('att.why.worked', { from: t(from), to: t(to), worked: s.workedMin }));
        for (const [bf, bt] of inst.breaks) {
          const ms = coverage([[bf, bt]], from, to);
          if (ms > 0) r.why.push(why('att.why.breakDeducted', { start: t(bf), end: t(bt), minutes: Math.floor(ms / MIN) }));
        }
        for (const a of leaves) {
          const ms = coverage([[a.from, a.to]], from, to) - coverage(inst.breaks, Math.max(from, a.from), Math.min(to, a.to));
          if (ms > 0) r.why.push(why('att.why.absenceDuring', { kind: a.kind, start: t(a.from), end: t(a.to), minutes: Math.floor(ms / MIN) }));
        }
      } else r.why.push(why('att.why.worked', { from: t(from), to: t(Math.max(from, to)), worked: 0 }));
      const past = co.at - inst.end;
      const min = rule.overtimeMinMin;
      if (past > 0) {
        const minutes = Math.floor(past / MIN);
        if (past >= min * MIN) {
          s.overtimeMin = minutes;
          r.why.push(why('att.why.overtime', { checkOut: t(co.at), end: t(inst.end), minutes, min }));
        } else r.why.push(why('att.why.overtimeBelowMin', { checkOut: t(co.at), end: t(inst.end), minutes, min }));
      }
      capOvertime(s, co.at > inst.end ? [[inst.end, co.at]] : []);
    }
    // Approved absence time inside the shift counts towards the thresholds (and the leave/out totals).
    const shiftLeave = absenceMs('leave', inst.start, inst.end, inst.breaks);
    const shiftOut = absenceMs('out', inst.start, inst.end, inst.breaks);
    leaveMs += shiftLeave;
    outMs += shiftOut;
    addKinds(inst.start, inst.end, inst.breaks);
    const creditMs = workedMs + shiftLeave + shiftOut;
    const plannedMs = inst.end - inst.start - breaksMs;

    if (input.now <= Math.max(inst.outTo, inst.auto?.until ?? -Infinity)) s.status = 'pending';
    else if (!ci && !co) {
      s.status = 'absent';
      r.why.push(why('att.why.noPunch', { inFrom: t(inst.inFrom), inTo: t(inst.inTo), outFrom: t(inst.outFrom), outTo: t(inst.outTo) }));
    } else if (!ci) {
      s.status = 'missingIn';
      r.why.push(why('att.why.missingIn', { from: t(inst.inFrom), to: t(inst.inTo) }));
    } else if (!co) {
      s.status = 'missingOut';
      r.why.push(why('att.why.missingOut', { from: t(inst.outFrom), to: t(inst.outTo) }));
    } else if (rule.lateAbsentAfterMin != null && lateMs > rule.lateAbsentAfterMin * MIN) {
      s.status = 'absent';
      r.why.push(why('att.why.lateAbsent', { late: s.lateMin, limit: rule.lateAbsentAfterMin }));
    } else s.status = s.lateMin && s.earlyMin ? 'lateEarly' : s.lateMin ? 'late' : s.earlyMin ? 'early' : 'normal';
    if (s.status === 'absent') absentMs += Math.max(0, plannedMs - shiftLeave - shiftOut);
    return { result: s, creditMs, plannedMs };
  }

  /**
   * #17 pairs mode on a shift: worked = the pairs within the expected shift minus deducted breaks and approved
   * absences; overtime = the paired time past the shift's end (at least the rule's minimum). Returns worked ms.
   */
  function pairsWorked(inst: Inst, paired: Paired, absences: Span[], s: ShiftResult): number {
    const from = inst.expStart;
    const to = inst.expEnd;
    const spans = pairedSpans(paired, from, to);
    const minus: Span[] = absences.length ? [...inst.breaks, ...absences] : inst.breaks;
    // the pairs' time less what breaks and absences take of it: |spans ∪ minus| − |minus|
    const workedMs = !spans.length ? 0 : minus.length ? coverage([...spans, ...minus], from, to) - coverage(minus, from, to) : sumSpans(spans);
    s.workedMin = Math.floor(workedMs / MIN);
    r.why.push(why('att.why.pairsWorked', { pairs: paired.pairs.length, worked: s.workedMin }));
    const within = (x: Span[]) => (spans.length ? sumSpans(spans) + coverage(x, from, to) - coverage([...spans, ...x], from, to) : 0);
    for (const b of inst.breaks) {
      const ms = within([b]);
      if (ms > 0) r.why.push(why('att.why.breakDeducted', { start: t(b[0]), end: t(b[1]), minutes: Math.floor(ms / MIN) }));
    }
    for (const a of leaves) {
      const ms = within([[a.from, a.to], ...inst.breaks]) - within(inst.breaks); // its part not already a break
      if (ms > 0) r.why.push(why('att.why.absenceDuring', { kind: a.kind, start: t(a.from), end: t(a.to), minutes: Math.floor(ms / MIN) }));
    }
    const past = pairedSpans(paired, inst.end, Infinity);
    const pastMs = sumSpans(past);
    const min = rule.overtimeMinMin;
    if (pastMs > 0) {
      const minutes = Math.floor(pastMs / MIN);
      const co = paired.pairs[paired.pairs.length - 1]![1];
      if (pastMs >= min * MIN) {
        s.overtimeMin = minutes;
        r.why.push(why('att.why.overtime', { checkOut: t(co.at), end: t(inst.end), minutes, min }));
      } else r.why.push(why('att.why.overtimeBelowMin', { checkOut: t(co.at), end: t(inst.end), minutes, min }));
    }
    capOvertime(s, past);
    return workedMs;
  }
}

/** #17 pairs mode: the pairs, the punches between check-in and check-out they use, and those pairing with none. */
interface Paired {
  pairs: [P, P][];
  used: P[];
  unpaired: P[];
}

/** Total length of disjoint spans. */
function sumSpans(spans: Span[]): number {
  let total = 0;
  for (const [a, b] of spans) total += b - a;
  return total;
}
