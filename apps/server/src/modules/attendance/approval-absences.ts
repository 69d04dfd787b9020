import type { Executor } from '../../db/database.ts';
import { nowIso, zonedToUtcMs } from '../../lib/time.ts';
import type { ShiftDef } from './engine/index.ts';
import { markDirty } from './dirty.ts';
import { assertOpen } from './periods.service.ts';
import { addDays, datesBetween, plansFor, type StoredRule } from './plans.ts';
import { companyContext, localDate } from './recompute.service.ts';

/**
 * What an approved application puts into attendance (issue #11): leave, out of office, a supplementary punch, or
 * approved overtime (#17: read only by rules whose overtime needs approval).
 */
export interface ApprovalAbsence {
  kind: 'leave' | 'out' | 'supplement' | 'overtime';
  /** epoch ms; a supplementary punch has to = from */
  from: number;
  to: number;
  reason: string;
  /** a leave's type (the leave form's leave_type value): the day's leave minutes are keyed by it (#17) */
  leaveType?: string | null;
}

/**
 * Writes an approved application's absences in the approver's transaction (source 'approval', linked to the
 * application), and queues the days they touch for recomputation in the same transaction.
 */
export async function writeApprovalAbsences(
  trx: Executor,
  companyId: number,
  zone: string,
  applicationId: number,
  personId: number,
  items: ApprovalAbsence[],
): Promise<number[]> {
  const ids: number[] = [];
  for (const a of items) {
    // a closed period's days are not edited (#17): the approval that would touch them is refused
    await assertOpen(trx, companyId, localDate(a.from, zone), localDate(a.to, zone));
    const made = await trx
      .insertInto('attendance_absences')
      .values({
        company_id: companyId,
        person_id: personId,
        kind: a.kind,
        from_at: new Date(a.from).toISOString(),
        to_at: new Date(a.to).toISOString(),
        reason: a.reason.slice(0, 200),
        source: 'approval',
        created_by: null,
        created_at: nowIso(),
        application_id: applicationId,
        ...(a.kind === 'leave' && a.leaveType ? { leave_type: a.leaveType } : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(made.id);
    await markDirty(trx, companyId, [personId], { from: addDays(localDate(a.from, zone), -1), to: localDate(a.to, zone) });
  }
  return ids;
}

/** Takes an application's absences back out (withdrawn or cancelled), queuing the days they covered. */
export async function removeApprovalAbsences(trx: Executor, companyId: number, zone: string, applicationId: number): Promise<number> {
  const rows = await trx
    .selectFrom('attendance_absences')
    .select(['id', 'person_id', 'from_at', 'to_at'])
    .where('company_id', '=', companyId)
    .where('application_id', '=', applicationId)
    .execute();
  if (!rows.length) return 0;
  for (const a of rows) await assertOpen(trx, companyId, localDate(Date.parse(a.from_at), zone), localDate(Date.parse(a.to_at), zone));
  await trx.deleteFrom('attendance_absences').where('company_id', '=', companyId).where('application_id', '=', applicationId).execute();
  for (const a of rows) {
    await markDirty(trx, companyId, [a.person_id], {
      from: addDays(localDate(Date.parse(a.from_at), zone), -1),
      to: localDate(Date.parse(a.to_at), zone),
    });
  }
  return rows.length;
}

/** The absences approval wrote for these applications (ids by application). */
export async function approvalAbsencesOf(ex: Executor, companyId: number, applicationId: number) {
  return ex
    .selectFrom('attendance_absences')
    .select(['id', 'kind', 'from_at', 'to_at'])
    .where('company_id', '=', companyId)
    .where('application_id', '=', applicationId)
    .orderBy('from_at')
    .execute();
}

/** Without a rule (or under a free rule) a working day is Monday to Friday, 09:00–18:00 with an hour's lunch. */
const DEFAULT_SHIFT: ShiftDef = {
  id: 0,
  name: '',
  start: '09:00',
  end: '18:00',
  breaks: [{ start: '12:00', end: '13:00', deducted: true }],
  lateGraceMin: 0,
  earlyGraceMin: 0,
  checkInBeforeMin: 0,
  checkInAfterMin: 0,
  checkOutBeforeMin: 0,
  checkOutAfterMin: 0,
};
const hm = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));
const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/**
 * A period's duration in a person's working time (the date range field, issue #11): the hours of their shifts
 * (breaks that are deducted left out) the period covers, on working days of their rule with holidays off; days
 * count each working day's covered share of its shifts, to the half day. Read-only.
 */
export async function workingDuration(
  ex: Executor,
  companyId: number,
  personId: number | null,
  from: number,
  to: number,
): Promise<{ days: number; hours: number }> {
  if (!(to > from)) return { days: 0, hours: 0 };
  const company = await ex.selectFrom('companies').select('time_zone').where('id', '=', companyId).executeTakeFirst();
  const zone = company?.time_zone ?? 'UTC';
  const first = addDays(localDate(from, zone), -1);
  const last = localDate(to, zone);
  const dates = datesBetween(first, last);
  if (dates.length > 400) return { days: 0, hours: 0 };
  const ctx = await companyContext(ex, companyId, first, last);
  let runs: { from: string; to: string; rule: StoredRule | undefined }[] = [{ from: first, to: last, rule: undefined }];
  let grid = new Map<string, number>();
  if (personId) {
    const depts = (await ex.selectFrom('person_departments').select('department_id').where('person_id', '=', personId).execute()).map((d) => d.department_id);
    // the rule in force on each day (#17: rule history)
    runs = ctx.runsOf(personId, depts, first, last);
    if (runs.some((r) => r.rule?.mode === 'shift')) {
      const rows = await ex
        .selectFrom('attendance_schedule')
        .select(['date', 'shift_id'])
        .where('person_id', '=', personId)
        .where('date', '>=', first)
        .where('date', '<=', last)
        .execute();
      grid = new Map(rows.map((r) => [r.date, r.shift_id]));
    }
  }
  const plans = runs.flatMap(({ from: a, to: b, rule }) =>
    rule
      ? plansFor(rule, datesBetween(a, b), grid, ctx.holidays)
      : datesBetween(a, b).map((date) => {
          const wd = new Date(`${date}T00:00:00Z`).getUTCDay();
          const holiday = ctx.holidays.find((h) => !h.rule_ids.length && h.from_date <= date && date <= h.to_date);
          if (holiday?.kind === 'holiday') return { date, kind: 'holiday' as const, shifts: [] as ShiftDef[] };
          const work = holiday?.kind === 'workday' || (wd !== 0 && wd !== 6);
          return { date, kind: work ? ('work' as const) : ('rest' as const), shifts: [] as ShiftDef[] };
        }),
  );
  let minutes = 0;
  let days = 0;
  for (const plan of plans) {
    if (plan.kind !== 'work') continue;
    const shifts = plan.shifts.length ? plan.shifts : [DEFAULT_SHIFT];
    const dayStart = zonedToUtcMs(plan.date, zone);
    let covered = 0;
    let total = 0;
    for (const s of shifts) {
      const start = dayStart + hm(s.start) * 60_000;
      const end = dayStart + (hm(s.end) <= hm(s.start) ? hm(s.end) + 1440 : hm(s.end)) * 60_000;
      let length = end - start;
      let mine = overlap(from, to, start, end);
      // A break's times are on the shift's clock: before the start means the next day (a night shift).
      const rel = (x: string) => (hm(x) < hm(s.start) ? hm(x) + 1440 : hm(x));
      for (const b of s.breaks.filter((x) => x.deducted)) {
        const b0 = dayStart + rel(b.start) * 60_000;
        const b1 = Math.max(b0, dayStart + rel(b.end) * 60_000);
        length -= overlap(start, end, b0, b1);
        mine -= overlap(Math.max(from, start), Math.min(to, end), b0, b1);
      }
      covered += Math.max(0, mine);
      total += Math.max(0, length);
    }
    minutes += covered / 60_000;
    if (total > 0) days += covered / total;
  }
  return { days: Math.round(days * 2) / 2, hours: Math.round(minutes / 6) / 10 };
}
