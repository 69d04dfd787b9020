import { judgeDay, type Judging } from './judge.ts';
import { place, type Span } from './placement.ts';
import type { DayResult, PersonRange } from './types.ts';

/**
 * The attendance engine (issue #10, "Conventions" and "Day results"): one person's punches, rule, day plans and
 * approved absences → one explained result per day. Pure: no clock, no I/O; the same input gives the same output.
 *
 * The path: punches are checked against the attendance model and de-duplicated (filter seconds); every shift
 * of every plan becomes a pair of punch windows on absolute instants (DST-correct, partial-day absences move
 * them); overlapping windows of consecutive shifts (across days too) are cut at the earlier shift's off-work
 * time; each punch then belongs to the first shift whose windows' span holds it, else to the day whose bounds
 * hold it (midnight, or the free mode's day boundary); finally each day is judged.
 *
 * Decisions where the issue is silent (documented for the rule editor's help):
 * - A reading that is absent (no temperature, no alarm set, no health code) does not invalidate a punch;
 *   only a reading that is present and fails does. Supplementary punches are always valid.
 * - The model check comes before de-duplication: an invalid punch never hides a valid retry seconds later.
 * - Late/early minutes: whole minutes, rounded down, at least 1 once late/early ("09:05:01, start 09:00,
 *   grace 5 → late 5"; grace 0 and 09:00:30 → late 1). Worked and overtime minutes are rounded down.
 * - "Late by more than N → absent" compares the exact lateness (N minutes exactly is not absent).
 * - Worked-time thresholds (absent first, then half day) apply to the whole day and only when every shift has
 *   both punches (a missing punch is its own verdict); approved absence time counts towards them.
 * - A single punch in both windows of one shift is the check-in when nearer the start, else the check-out.
 * - Under the direction option a punch without a direction may serve as either; an exit never checks in and
 *   an entrance never checks out.
 * - Overlapping windows: windows that only touch are not cut; a punch at the shared instant is the earlier
 *   shift's. A punch inside a shift but between its two windows is 'outsideWindows' (detail betweenWindows).
 * - The shifts of one plan are in order; a shift whose start is earlier than the previous one's starts the
 *   next day.
 * - Rest days and holidays: the day runs midnight to midnight (the free mode's day boundary under a free rule);
 *   first to last valid punch is worked time, all of it overtime, no minimum, no breaks; result shiftId 0.
 * - Free mode: worked = last − first; below the required time the status is 'early' (short) and earlyMin is
 *   the shortfall; no overtime on working days; no punch and an approved absence ≥ the required time → leave.
 * - A day is pending while now ≤ the end of its last punch window (the free/off day's end): a punch exactly
 *   at the window's end still counts. Leave covering a future shift is 'leave' at once.
 * - Late/early minutes stay on a shift that the late-absent rule or a threshold turned absent (they explain it).
 * - Partial-day leave on a day without punches (#17): when no shift of a working day has a valid check-in or
 *   check-out (and none is pending) but approved leave/out covers part of the day's shifts, the covered part is
 *   leave (leaveMin/outMin) and only the rest is absent (absentMin). The day is 'halfDay' when the covered
 *   minutes reach the rule's absent threshold (absentBelowMin; without one, half the day's planned minutes),
 *   else 'absent'. It is never better than a half day (the uncovered part was missed) and the shifts keep their
 *   own 'absent'. Example: 09:00–18:00 with lunch (480 min), leave 09:00–13:00 (180 min) and no punch → covered
 *   180 < 240 → absent; leave 09:00–14:00 (240 min) → half day; a 4-hour shift with 2 hours of leave → half day.
 * - Figures (#17): absentMin is the planned minutes (deducted breaks excluded) of every shift judged absent (no
 *   punch, or late beyond the limit), less the approved leave/out inside it; a free day without a punch is absent
 *   for its required minutes less its leave/out. leaveKinds splits leaveMin by the absence's leave type
 *   (AbsenceIn.leaveType; 'other' when it has none): each kind's own coverage, so leave of two kinds over the
 *   same minutes would count in both (approval never writes that).
 * - Leave days (#18): a day on leave ('leave') is one leave day; any other working day counts its leave minutes
 *   over its scheduled minutes (deducted breaks excluded; a free day's required time) to the nearest half day
 *   (leaveDaysOf): 09:00–13:00 of a 09:00–18:00 shift with lunch is 180/480 → 0.5, 09:00–10:00 → 0.
 *
 * Rule options of #17 (absent from the rule: today's behaviour):
 * - `workedBy: 'pairs'`: worked time is the sum of in/out pairs among the valid punches from the check-in to the
 *   check-out (both chosen as before, so late/early/missing verdicts do not change). Pairs are formed in time
 *   order, 1st–2nd, 3rd–4th, … (alternating); under the direction option an entrance opens a pair and an exit
 *   closes it (a punch without a direction does whichever is due). A punch that pairs with none — an odd last
 *   punch, a second entrance while in (the first is kept), an exit with no entrance before it — counts for
 *   nothing: it is listed ('notNeeded', detail `unpaired`), or, when it is the check-out itself, the check-out
 *   still decides early/missing but the time since the last pair ended is not worked (`unpairedCheckOut`).
 *   Each pair is clipped to the expected shift, deducted breaks and approved absences are taken out; overtime
 *   is the paired time past the shift's end (the minimum applies as before); on days off and in free mode the
 *   pairs' sum is the worked time. Punches between the windows that a pair uses are used, not ignored.
 *   Repeated punches beyond the filter seconds pair up too: use the filter seconds (or the direction option).
 * - `countOffDayPunches: false`: valid punches on rest days, holidays and working days without a shift are
 *   ignored ('notNeeded', detail `offDay`): the day stays rest/holiday with no worked time or overtime.
 * - `overtimeNeedsApproval: true`: overtime counts only within approved overtime periods (absences of kind
 *   'overtime'): each shift's (or day off's) overtime is capped at the part of its overtime time — past the
 *   shift's end, or the whole worked time of a day off — that approved periods cover (the minimum is judged
 *   on the computed overtime first). Overtime absences never move a shift or count as leave.
 * - Automatic shift matching (#17; a plan with `candidates`): the day works one candidate. "Nearest": take the
 *   earliest valid punch (model-valid, not a duplicate, not an exit under the direction option) that lies in at
 *   least one candidate's check-in window — a window overlapping the previous shift's begins after that shift's
 *   off-work time, as the overlap cut has it — and choose, among the candidates whose check-in window holds it,
 *   the one whose expected start (moved by a partial-day absence) is closest to it, before or after; a tie goes
 *   to the earlier start, then to the candidate listed first. With no such punch the first candidate listed is
 *   planned and judged as usual (absent, leave…), and the day stays pending until every candidate's last punch
 *   window has closed. The day's why says which candidate and why (att.why.autoShift / autoShiftNone).
 *
 * The two halves live beside this file: placement.ts (punches checked and placed onto shifts and days) and judge.ts
 * (one day judged from what it was given).
 */

export function computeRange(input: PersonRange): DayResult[] {
  const { rule, leftOn, joinedOn } = input;
  // Before the hire date and after the leaving day there are no results, and no shift there claims punches.
  const days = input.days.filter((d) => (!leftOn || d.date <= leftOn) && (!joinedOn || d.date >= joinedOn));
  if (!days.length) return [];
  const cut = !!leftOn && input.days.some((d) => d.date > leftOn);

  const { plans, leaves } = place(input, days, cut);
  // #17: approved overtime periods, read only when the rule wants overtime approved
  const approvedOvertime: Span[] = rule.overtimeNeedsApproval
    ? input.absences.filter((a) => a.kind === 'overtime' && a.to > a.from).map((a): Span => [a.from, a.to])
    : [];
  const judging: Judging = { input, leaves, approvedOvertime };

  const results: DayResult[] = [];
  for (const plan of plans) if (!plan.context) results.push(judgeDay(judging, plan));
  return results;
}
