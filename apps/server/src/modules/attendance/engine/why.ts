/**
 * The explanation lines of a day result: translation keys (prefix `att.why.`) and their English texts, with
 * i18next-style `{{param}}` placeholders. The console translates the keys itself; `explain.ts` renders the
 * English for tests and logs. Times are wall-clock texts in the company's zone ('09:07', '09:05:01', '05:58 (+1)').
 *
 * Every key the engine emits:
 *   att.why.rule               rule and mode applied
 *   att.why.shift              which shift, its times (a header before that shift's lines)
 *   att.why.autoShift          automatic shift matching: the first valid punch chose the nearest candidate (#17)
 *   att.why.autoShiftNone      … no valid punch in any candidate's check-in window: the first candidate is planned
 *   att.why.rest               rest day
 *   att.why.holiday            holiday (with its name)
 *   att.why.noShift            a working day of a fixed/shift rule without a shift
 *   att.why.restWork           punches on a rest day or holiday: all of it is overtime
 *   att.why.onePunchOff        a single punch on a rest day or holiday: no time counted
 *   att.why.pending            the last punch window has not closed yet
 *   att.why.checkIn            the punch taken as check-in
 *   att.why.checkOut           the punch taken as check-out
 *   att.why.supplement         a supplementary punch (approved forgotten punch) stands for a real one
 *   att.why.onTime             check-in within start + grace
 *   att.why.late               check-in after start + grace: late minutes from the start
 *   att.why.lateAbsent         late by more than the rule's limit → absent
 *   att.why.onTimeOut          check-out at or after end − grace
 *   att.why.early              check-out before end − grace: early minutes to the end
 *   att.why.missingIn          no valid punch in the check-in window
 *   att.why.missingOut         no valid punch in the check-out window
 *   att.why.noPunch            no valid punch in either window → absent
 *   att.why.noPunchDay         free mode: no valid punch in the day → absent
 *   att.why.worked             worked minutes: overlap of the punched interval with the shift
 *   att.why.breakDeducted      a deducted break inside the worked interval
 *   att.why.absenceDuring      an approved absence inside the worked interval (not worked)
 *   att.why.overtime           time past the shift end ≥ the rule's minimum → overtime
 *   att.why.overtimeBelowMin   time past the shift end below the minimum → no overtime
 *   att.why.absentBelow        the day's worked (+ approved absence) time below the absent threshold
 *   att.why.halfDayBelow       … below the half-day threshold
 *   att.why.partialHalfDay     partial-day leave, no punch: the covered part reaches the absent limit → half day
 *   att.why.partialAbsent      partial-day leave, no punch: the covered part is below the absent limit → absent
 *   att.why.leaveShift         an approved leave covers the whole shift
 *   att.why.outShift           an approved out-of-office covers the whole shift
 *   att.why.startMoved         a partial-day leave/out moves the expected start
 *   att.why.endMoved           … moves the expected end
 *   att.why.freeDay            free mode: the day's bounds from the day boundary
 *   att.why.freeWorked         free mode: worked = last − first
 *   att.why.short              free mode: worked below the required time (status 'early', the shortfall as early minutes)
 *   att.why.enough             free mode: worked at or above the required time
 *   att.why.freeLeave          free mode: approved absence counted towards the required time
 *   att.why.pairsAlternating   pairs mode (#17): worked time is the sum of in/out pairs, alternating in time order
 *   att.why.pairsDirection     … pairs by the devices' direction (entrance opens, exit closes)
 *   att.why.pair               one in/out pair and its minutes
 *   att.why.pairsWorked        the pairs' sum (within the shift, less deducted breaks and approved absences)
 *   att.why.unpairedCheckOut   the check-out closes no pair: the time since the last pair is not worked
 *   att.why.restOvertime       pairs mode on a day off: all the paired time is overtime
 *   att.why.offDayIgnored      the rule does not count punches on days off (#17)
 *   att.why.overtimeApproved   overtime only when approved: capped at the approved part
 *   att.why.overtimeNotApproved … no approved overtime covers it: no overtime
 * Details of ignored punches (DayResult.ignored[].detail):
 *   att.why.ignored.duplicate        within the filter seconds of a kept punch
 *   att.why.ignored.outsideWindows   in no shift's punch window
 *   att.why.ignored.betweenWindows   inside a shift, but between its check-in and check-out windows
 *   att.why.ignored.temperature      temperature at or over the rule's alarm
 *   att.why.ignored.alcohol          breath alcohol at or over the device's threshold
 *   att.why.ignored.health           health code not green
 *   att.why.ignored.notNeeded        a valid punch in a window, neither the check-in nor the check-out
 *   att.why.ignored.wrongDirection   direction rule: an exit in the check-in window or an entrance in the check-out window
 *   att.why.ignored.onLeave          the shift is covered by an approved absence
 *   att.why.ignored.unpaired         pairs mode: a punch that pairs with no other (its time is not counted)
 *   att.why.ignored.offDay           a punch on a day off under a rule that does not count them
 *   att.why.closedNotKept            a closed day whose explanation was not kept at the close (days.service, not the engine; #28)
 * Coded parameter values (see CODED_PARAMS): att.value.mode.{fixed,shift,free}, att.value.kind.{leave,out},
 * att.value.direction.{in,out}, att.value.color.{yellow,red}.
 * Optional parameters a console may show: `label` (the absence's label) on leaveShift, outShift, supplement,
 * startMoved, endMoved.
 */
export const WHY_EN = {
  'att.why.rule': 'Rule "{{rule}}" ({{mode}} mode)',
  'att.why.shift': 'Shift "{{shift}}" {{start}}–{{end}}',
  'att.why.autoShift': 'Automatic shift: the first punch {{time}} is nearest to "{{shift}}" (start {{start}}, {{minutes}} min away) of {{count}} candidates',
  'att.why.autoShiftNone': 'Automatic shift: no valid punch in any of the {{count}} candidates\' check-in windows → judged as "{{shift}}", the first candidate',
  'att.why.closedNotKept': 'In the closed period {{from}} – {{to}}: the stored result, whose explanation was not kept when the period was closed',
  'att.why.rest': 'Rest day',
  'att.why.holiday': 'Holiday: {{name}}',
  'att.why.noShift': 'Working day without a shift: treated as rest',
  'att.why.restWork': 'Worked {{first}}–{{last}} on a day off: {{worked}} min, all of it overtime',
  'att.why.onePunchOff': 'One punch at {{time}} on a day off: no time counted',
  'att.why.pending': 'Pending until the last punch window closes at {{until}}',
  'att.why.checkIn': 'Check-in {{time}}',
  'att.why.checkOut': 'Check-out {{time}}',
  'att.why.supplement': 'Supplementary punch at {{time}} stands for the forgotten one',
  'att.why.onTime': 'Checked in {{checkIn}}, shift {{start}}, grace {{grace}} min → on time',
  'att.why.late': 'Checked in {{checkIn}}, shift {{start}}, grace {{grace}} min → late {{late}} min',
  'att.why.lateAbsent': 'Late by more than {{limit}} min → absent',
  'att.why.onTimeOut': 'Checked out {{checkOut}}, shift ends {{end}}, grace {{grace}} min → not early',
  'att.why.early': 'Checked out {{checkOut}}, shift ends {{end}}, grace {{grace}} min → left early {{early}} min',
  'att.why.missingIn': 'No valid punch in the check-in window {{from}}–{{to}} → missing check-in',
  'att.why.missingOut': 'No valid punch in the check-out window {{from}}–{{to}} → missing check-out',
  'att.why.noPunch': 'No valid punch in the windows {{inFrom}}–{{inTo}} and {{outFrom}}–{{outTo}} → absent',
  'att.why.noPunchDay': 'No valid punch between {{from}} and {{to}} → absent',
  'att.why.worked': 'Worked {{from}}–{{to}}: {{worked}} min',
  'att.why.breakDeducted': 'Break {{start}}–{{end}} deducted: {{minutes}} min',
  'att.why.absenceDuring': 'Approved {{kind}} {{start}}–{{end}} not worked: {{minutes}} min',
  'att.why.overtime': 'Checked out {{checkOut}}, {{minutes}} min past the end {{end}} (minimum {{min}}) → overtime {{minutes}} min',
  'att.why.overtimeBelowMin': 'Checked out {{checkOut}}, {{minutes}} min past the end {{end}}, below the minimum {{min}} → no overtime',
  'att.why.absentBelow': 'Worked {{worked}} min, below {{limit}} → absent',
  'att.why.halfDayBelow': 'Worked {{worked}} min, below {{limit}} → half day',
  'att.why.partialHalfDay': 'No punch; leave covers {{covered}} min (at least {{limit}}), {{absent}} min absent → half day',
  'att.why.partialAbsent': 'No punch; leave covers {{covered}} min (below {{limit}}), {{absent}} min absent → absent',
  'att.why.leaveShift': 'Approved leave {{from}}–{{to}} covers the shift',
  'att.why.outShift': 'Approved out-of-office {{from}}–{{to}} covers the shift',
  'att.why.startMoved': 'Approved {{kind}} {{from}}–{{to}}: expected from {{start}}',
  'att.why.endMoved': 'Approved {{kind}} {{from}}–{{to}}: expected until {{end}}',
  'att.why.freeDay': 'Free working time, day {{from}}–{{to}}, required {{required}} min',
  'att.why.freeWorked': 'First punch {{first}}, last {{last}}: worked {{worked}} min',
  'att.why.short': 'Worked {{worked}} min, below the required {{required}} → short by {{short}} min',
  'att.why.enough': 'Worked {{worked}} min, required {{required}} → complete',
  'att.why.freeLeave': 'Approved {{kind}} counted: {{minutes}} min',
  'att.why.pairsAlternating': 'Worked time: the sum of in/out pairs, taken in turn',
  'att.why.pairsDirection': "Worked time: the sum of in/out pairs by the devices' direction",
  'att.why.pair': 'In {{from}}, out {{to}}: {{minutes}} min',
  'att.why.pairsWorked': 'Worked in {{pairs}} pairs: {{worked}} min',
  'att.why.unpairedCheckOut': 'Check-out {{time}} closes no pair: the time since the last pair is not counted',
  'att.why.restOvertime': 'Worked {{worked}} min on a day off, all of it overtime',
  'att.why.offDayIgnored': 'Punches on days off are not counted under this rule',
  'att.why.overtimeApproved': 'Overtime only when approved: {{approved}} of the {{minutes}} min approved → overtime {{overtime}} min',
  'att.why.overtimeNotApproved': 'Overtime only when approved: none of the {{minutes}} min approved → no overtime',
  'att.why.ignored.duplicate': 'Punch {{time}} within {{seconds}} s of the punch {{kept}}: counted once',
  'att.why.ignored.outsideWindows': 'Punch {{time}} is in no punch window',
  'att.why.ignored.betweenWindows': 'Punch {{time}} is between the check-in window (until {{inTo}}) and the check-out window (from {{outFrom}})',
  'att.why.ignored.temperature': 'Punch {{time}}: temperature {{temperature}} at or over the alarm {{alarm}} → not valid',
  'att.why.ignored.alcohol': 'Punch {{time}}: alcohol {{alcohol}} at or over the threshold {{threshold}} → not valid',
  'att.why.ignored.health': 'Punch {{time}}: health code {{color}} → not valid',
  'att.why.ignored.notNeeded': 'Punch {{time}} is neither the check-in nor the check-out',
  'att.why.ignored.wrongDirection': 'Punch {{time}} is an {{direction}} punch, not counted in this window',
  'att.why.ignored.onLeave': 'Punch {{time}} during an approved absence covering the shift',
  'att.why.ignored.unpaired': 'Punch {{time}} pairs with no other punch: its time is not counted',
  'att.why.ignored.offDay': 'Punch {{time}} on a day off: not counted under this rule',
} as const;
export type WhyKey = keyof typeof WHY_EN;

/**
 * Parameters named `mode`, `kind`, `direction` and `color` carry codes, not words: the console translates them
 * as `att.value.<param>.<code>` (these keys too are in every language); the English is here.
 */
export const WHY_VALUE_EN: Record<string, string> = {
  'att.value.mode.fixed': 'fixed',
  'att.value.mode.shift': 'shift',
  'att.value.mode.free': 'free',
  'att.value.kind.leave': 'leave',
  'att.value.kind.out': 'out-of-office',
  'att.value.direction.in': 'entrance',
  'att.value.direction.out': 'exit',
  'att.value.color.yellow': 'yellow',
  'att.value.color.red': 'red',
};
/** The parameters whose values are codes translated through `att.value.<param>.<code>`. */
export const CODED_PARAMS = ['mode', 'kind', 'direction', 'color'] as const;
