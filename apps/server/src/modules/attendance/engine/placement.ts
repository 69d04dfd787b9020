import type { AbsenceIn, DayPlan, PersonRange, PunchIn, RuleDef, ShiftDef, Why } from './types.ts';
import type { WhyKey } from './why.ts';
import { hmMin, wallToMs } from './zone.ts';

/**
 * Placing a range's punches (the engine's first half, see engine.ts): punches are checked against the attendance
 * model and de-duplicated; every shift of every plan becomes a pair of punch windows on absolute instants (partial-day
 * absences move them; automatic shift matching picks one candidate); overlapping windows of consecutive shifts are cut
 * at the earlier shift's off-work time; each punch then goes to the first shift whose windows' span holds it, else to
 * the day whose bounds hold it. What becomes of them is judge.ts's.
 */

export const MIN = 60_000;

export interface P {
  id: number;
  at: number;
  direction?: 'in' | 'out';
  supplement?: AbsenceIn;
  invalid?: Why; // why the model refuses it
  dupOf?: P; // the kept punch it repeats
}

export interface Inst {
  plan: number; // index into the plans
  def: ShiftDef;
  start: number;
  end: number; // the shift as planned
  expStart: number;
  expEnd: number; // moved by partial-day absences
  inFrom: number;
  inTo: number;
  outFrom: number;
  outTo: number;
  from: number;
  to: number; // the span of instants this shift claims
  breaks: [number, number][]; // deducted breaks, clipped to the shift
  cover?: AbsenceIn; // an approved absence covering the whole shift
  moves: { kind: 'start' | 'end'; by: AbsenceIn }[];
  punches: P[];
  /** chosen by automatic shift matching among `count` candidates (by the punch at `punch`, or none) */
  auto?: { count: number; until?: number; punch?: number; distMin?: number };
}

export interface Plan {
  plan: DayPlan;
  context: boolean; // before/after: claims punches, gives no result
  from: number;
  to: number; // day bounds, [from, to)
  insts: Inst[];
  loose: P[];
}

export type Span = [number, number];

/** Automatic shift matching: one candidate's planned instants and check-in window (reused across days). */
interface CandWindow {
  start: number;
  end: number;
  startWall: number;
  expStart: number;
  inTo: number;
  outTo: number;
  open: number; // the check-in window's opening, after the previous shift's off-work time where they overlap
  inst?: Inst | undefined; // built when absences may move it
}
const scratch: CandWindow[] = [];

export const why = (key: WhyKey, params?: Why['params']): Why => (params ? { key, params } : { key });

/** Why a punch is not valid under the rule's model (its time is added where the day is known), or undefined. */
function invalidity(model: RuleDef['model'], p: PunchIn): Why | undefined {
  if (model === 'temperature' && p.temperature != null && p.temperatureAlarm != null && p.temperature >= p.temperatureAlarm)
    return why('att.why.ignored.temperature', { temperature: p.temperature, alarm: p.temperatureAlarm });
  if (model === 'alcohol' && p.alcohol != null && p.alcoholThreshold != null && p.alcohol >= p.alcoholThreshold)
    return why('att.why.ignored.alcohol', { alcohol: p.alcohol, threshold: p.alcoholThreshold });
  if (model === 'health' && p.health != null && p.health !== 'green') return why('att.why.ignored.health', { color: p.health });
  return undefined;
}

/** The first index of a sorted punch list at or after `at`. */
function lowerBound(ps: P[], at: number): number {
  let lo = 0;
  let hi = ps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ps[mid]!.at < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The range's plans (the day before and after as context), each with its shift instances and the punches they claim
 * (`insts[].punches`), and the punches of no shift (`loose`); `leaves` are the approved leave/out absences that moved them.
 */
export function place(input: PersonRange, days: DayPlan[], cut: boolean): { plans: Plan[]; leaves: AbsenceIn[] } {
  const { zone, rule } = input;
  const { joinedOn } = input;
  const free = rule.mode === 'free';
  const boundary = free && rule.free ? hmMin(rule.free.dayBoundary) : 0;

  // Punches (and supplementary punches), checked against the model, then de-duplicated.
  const ps: P[] = input.punches.map((raw) => {
    const p: P = { id: raw.id, at: raw.at };
    if (raw.direction) p.direction = raw.direction;
    if (rule.model !== 'default') {
      const bad = invalidity(rule.model, raw);
      if (bad) p.invalid = bad;
    }
    return p;
  });
  for (const a of input.absences) if (a.kind === 'supplement') ps.push({ id: -a.id, at: a.from, supplement: a });
  ps.sort((x, y) => x.at - y.at || (x.supplement ? 1 : 0) - (y.supplement ? 1 : 0) || x.id - y.id);
  const filterMs = input.filterSeconds * 1000;
  let kept: P | undefined;
  for (const p of ps) {
    if (p.invalid) continue;
    if (kept && p.at - kept.at < filterMs) p.dupOf = kept;
    else kept = p;
  }

  // Plans with their bounds and shift instances.
  const planned: { plan: DayPlan; context: boolean }[] = [
    ...(input.before && !(joinedOn && input.before.date < joinedOn) ? [{ plan: input.before, context: true }] : []),
    ...days.map((plan) => ({ plan, context: false })),
    ...(input.after && !cut ? [{ plan: input.after, context: true }] : []),
  ];
  const leaves = input.absences.filter((a) => (a.kind === 'leave' || a.kind === 'out') && a.to > a.from);
  let prevInst: Inst | undefined; // the last shift of the plans built so far (automatic matching looks past it)
  const plans: Plan[] = planned.map(({ plan, context }, index) => {
    const insts: Inst[] = [];
    if (plan.kind === 'work' && !free && plan.candidates && plan.candidates.length > 1) {
      insts.push(autoInstance(index, plan, plan.candidates, prevInst));
    } else if (plan.kind === 'work' && !free) {
      let dayOff = 0;
      let prevStart = -1;
      for (const def of plan.shifts) {
        const s = hmMin(def.start);
        if (s < prevStart) dayOff++;
        prevStart = s;
        const e = hmMin(def.end);
        const base = dayOff * 1440;
        const start = wallToMs(zone, plan.date, base + s);
        const end = wallToMs(zone, plan.date, base + (e > s ? e : e + 1440));
        insts.push(instance(index, def, start, end, base + s));
      }
    }
    if (insts.length) prevInst = insts[insts.length - 1];
    return {
      plan,
      context,
      from: wallToMs(zone, plan.date, boundary),
      to: wallToMs(zone, plan.date, 1440 + boundary),
      insts,
      loose: [],
    };
  });

  function instance(plan: number, def: ShiftDef, start: number, end: number, startWall: number): Inst {
    const date = planned[plan]!.plan.date;
    const breaks: Span[] = [];
    for (const b of def.breaks) {
      if (!b.deducted) continue;
      const bs = hmMin(b.start);
      const be = hmMin(b.end);
      const s0 = startWall % 1440;
      const from = startWall + ((bs - s0 + 1440) % 1440);
      const to = from + ((be - bs + 1440) % 1440);
      const span: Span = [Math.max(start, wallToMs(zone, date, from)), Math.min(end, wallToMs(zone, date, to))];
      if (span[1] > span[0]) breaks.push(span);
    }
    // Partial-day absences move the expected start (leave 09:00–11:00 → expected from 11:00) and end.
    let expStart = start;
    let expEnd = end;
    const moves: Inst['moves'] = [];
    for (let moved = true; moved;) {
      moved = false;
      for (const a of leaves)
        if (a.from <= expStart && a.to > expStart && expStart < expEnd) {
          expStart = a.to;
          moves.push({ kind: 'start', by: a });
          moved = true;
        }
    }
    for (let moved = true; moved;) {
      moved = false;
      for (const a of leaves)
        if (a.from < expEnd && a.to >= expEnd && expStart < expEnd) {
          expEnd = a.from;
          moves.push({ kind: 'end', by: a });
          moved = true;
        }
    }
    let cover: AbsenceIn | undefined;
    if (expStart >= expEnd) {
      // Covered: the absence with the largest share names it (leave or out).
      let best = -1;
      for (const a of leaves) {
        const share = Math.min(a.to, end) - Math.max(a.from, start);
        if (share > best) [best, cover] = [share, a];
      }
      [expStart, expEnd] = [start, end];
      moves.length = 0;
    }
    const inFrom = expStart - def.checkInBeforeMin * MIN;
    const inTo = expStart + def.checkInAfterMin * MIN;
    const outFrom = expEnd - def.checkOutBeforeMin * MIN;
    const outTo = expEnd + def.checkOutAfterMin * MIN;
    const inst: Inst = { plan, def, start, end, expStart, expEnd, inFrom, inTo, outFrom, outTo, from: 0, to: 0, breaks, moves, punches: [] };
    if (cover) inst.cover = cover;
    return span(inst);
  }
  /**
   * Automatic shift matching (#17): the first valid punch that could check in to any candidate (not invalid, not a
   * duplicate, not an exit under the direction option, after the previous shift's off-work time where their windows
   * overlap, as the cut below will have it) picks, among the candidates whose check-in window holds it, the one whose
   * expected start is nearest; ties go to the earlier start, then to the order listed. No such punch: the first
   * candidate listed. Only the chosen candidate becomes an instance (without absences, the others' windows are mere
   * arithmetic; with them, each is built to get its moved start).
   */
  function autoInstance(index: number, plan: DayPlan, cands: ShiftDef[], prev: Inst | undefined): Inst {
    const n = cands.length;
    let first = Infinity;
    for (let c = 0; c < n; c++) {
      const w = candWindow(index, plan, cands[c]!, prev, c);
      let k = lowerBound(ps, w.open);
      while (k < ps.length && ps[k]!.at <= w.inTo && (ps[k]!.invalid || ps[k]!.dupOf || (rule.useDirection && ps[k]!.direction === 'out'))) k++;
      if (k < ps.length && ps[k]!.at <= w.inTo && ps[k]!.at < first) first = ps[k]!.at;
    }
    let best = -1;
    let bestD = Infinity;
    let until = -Infinity;
    for (let c = 0; c < n; c++) {
      const w = scratch[c]!;
      until = Math.max(until, w.outTo);
      if (first === Infinity || first < w.open || first > w.inTo) continue;
      const dist = Math.abs(first - w.expStart);
      if (dist < bestD || (dist === bestD && w.expStart < scratch[best]!.expStart)) [best, bestD] = [c, dist];
    }
    const pick = best >= 0 ? best : 0;
    const w = scratch[pick]!;
    const inst = w.inst ?? instance(index, cands[pick]!, w.start, w.end, w.startWall);
    for (let c = 0; c < n; c++) scratch[c]!.inst = undefined;
    // Nothing matched (yet): the first candidate, pending until every candidate's windows have closed.
    inst.auto = best >= 0 ? { count: n, punch: first, distMin: Math.floor(bestD / MIN) } : { count: n, until };
    return inst;
  }
  /** A candidate's check-in window (into the reused `scratch[c]`): arithmetic, or a built instance under absences. */
  function candWindow(index: number, plan: DayPlan, def: ShiftDef, prev: Inst | undefined, c: number): CandWindow {
    const s = hmMin(def.start);
    const e = hmMin(def.end);
    const start = wallToMs(zone, plan.date, s);
    const end = wallToMs(zone, plan.date, e > s ? e : e + 1440);
    const w = (scratch[c] ??= { start: 0, end: 0, startWall: 0, expStart: 0, inTo: 0, outTo: 0, open: 0 });
    w.start = start;
    w.end = end;
    w.startWall = s;
    w.inst = leaves.length ? instance(index, def, start, end, s) : undefined;
    const inFrom = w.inst ? w.inst.inFrom : start - def.checkInBeforeMin * MIN;
    const outFrom = w.inst ? w.inst.outFrom : end - def.checkOutBeforeMin * MIN;
    w.expStart = w.inst ? w.inst.expStart : start;
    w.inTo = w.inst ? w.inst.inTo : start + def.checkInAfterMin * MIN;
    w.outTo = w.inst ? w.inst.outTo : end + def.checkOutAfterMin * MIN;
    w.open = prev && prev.to > Math.min(inFrom, outFrom) ? Math.max(inFrom, prev.expEnd + 1) : inFrom;
    return w;
  }
  function span(i: Inst): Inst {
    i.from = Math.min(i.inFrom, i.outFrom);
    i.to = Math.max(i.inTo, i.outTo);
    return i;
  }

  // When two consecutive shifts' windows overlap (across days too), the earlier one's window ends at its
  // off-work time and the later one's begins after it: a punch exactly then is the earlier shift's.
  const insts = plans.flatMap((p) => p.insts).sort((a, b) => a.start - b.start);
  for (let k = 1; k < insts.length; k++) {
    const a = insts[k - 1]!;
    const b = insts[k]!;
    if (a.to <= b.from) continue;
    const off = a.expEnd;
    a.inTo = Math.min(a.inTo, off);
    a.outTo = Math.min(a.outTo, off);
    b.inFrom = Math.max(b.inFrom, off + 1);
    b.outFrom = Math.max(b.outFrom, off + 1);
    span(a);
    span(b);
  }

  // Each punch to the first shift whose span holds it, else to the day whose bounds hold it.
  const taken = new Uint8Array(ps.length);
  for (const inst of insts) {
    for (let k = lowerBound(ps, inst.from); k < ps.length && ps[k]!.at <= inst.to; k++)
      if (!taken[k]) {
        taken[k] = 1;
        inst.punches.push(ps[k]!);
      }
  }
  for (const plan of plans) {
    for (let k = lowerBound(ps, plan.from); k < ps.length && ps[k]!.at < plan.to; k++)
      if (!taken[k]) {
        taken[k] = 1;
        plan.loose.push(ps[k]!);
      }
  }

  return { plans, leaves };
}
