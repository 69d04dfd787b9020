import { gridMinutes, type DayStatus, type LeaveKinds, type MonthRow } from '@faceadmin/shared';
import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { parseJson } from '../../lib/json.ts';
import { likeKeyword } from '../../lib/schemas.ts';

/**
 * The stored day results as the day view, the calendar, the month report and the exports read them (the only SQL
 * over `attendance_days` besides the recompute's writes).
 */

/** A result's figures as every reader shows them (the status is `manual_status ?? status`). */
export const DAY_FIGURES = [
  'a.person_id',
  'p.number',
  'p.name',
  'a.date',
  'a.status',
  'a.manual_status',
  'a.late_min',
  'a.early_min',
  'a.worked_min',
  'a.overtime_min',
  'a.leave_min',
  'a.out_min',
  'a.absent_min',
  'a.leave_kinds',
  'a.leave_half_days',
  'r.name as rule',
] as const;

/**
 * A day's leave days (#18): a result hand-set to leave is one day; any other counts its computed leave to the half
 * day (a computed day on leave: 1; part of a working day: its leave minutes over its scheduled ones, engine/judge.ts leaveDaysOf).
 */
export const leaveDays = (r: { manual_status: string | null; leave_half_days: number }) => (r.manual_status === 'leave' ? 1 : r.leave_half_days / 2);

/** A stored row's leave figures as the API shows them (#17). */
export const leaveFigures = (r: {
  leave_min: number;
  out_min: number;
  absent_min: number;
  leave_kinds: string;
  manual_status: string | null;
  leave_half_days: number;
}) => ({
  leave_days: leaveDays(r),
  leave_min: r.leave_min,
  out_min: r.out_min,
  absent_min: r.absent_min,
  leave_kinds: parseJson<LeaveKinds>(r.leave_kinds, {}),
});

/** The company's results between two dates (inclusive) with the day view's filters, joined with people and rules. */
/** What the day and month reports filter by; `departments`: a department and those below it (departmentFilter). */
export interface ResultFilter {
  status?: string | undefined;
  keyword?: string | undefined;
  departments?: number[] | undefined;
}

export function dayResults(db: Executor, companyId: number, from: string, to: string, f: ResultFilter = {}) {
  let q = db
    .selectFrom('attendance_days as a')
    .innerJoin('persons as p', 'p.id', 'a.person_id')
    .leftJoin('attendance_rules as r', 'r.id', 'a.rule_id')
    .where('a.company_id', '=', companyId)
    // the same company's people (always so): said, PostgreSQL walks them by number through their own index and stops
    // at the page; unsaid, it read and sorted everyone's (#32)
    .where('p.company_id', '=', companyId)
    .where('a.date', '>=', from)
    .where('a.date', '<=', to);
  const { status, keyword, departments } = f;
  if (status) q = q.where((eb) => eb(eb.fn.coalesce('a.manual_status', 'a.status'), '=', status));
  if (keyword) q = q.where('p.search', 'like', likeKeyword(keyword));
  if (departments) q = q.where('a.person_id', 'in', (eb) => eb.selectFrom('person_departments').select('person_id').where('department_id', 'in', departments));
  return q;
}

/** The statuses each month figure counts (a hand-set result counts as set). */
const WORK = ['normal', 'late', 'early', 'lateEarly', 'missingIn', 'missingOut', 'absent', 'halfDay', 'leave', 'out', 'pending'];
const PRESENT = ['normal', 'late', 'early', 'lateEarly', 'missingOut', 'halfDay', 'out'];

/**
 * The month report's figures for these people (the caller checked they are the company's), from the stored day
 * results: one grouped query, ordered by number. People without results in the range are left out.
 */
export async function monthSums(db: Executor, personIds: number[], first: string, last: string): Promise<MonthRow[]> {
  if (!personIds.length) return [];
  const s = sql`coalesce(a.manual_status, a.status)`;
  const count = (statuses: readonly string[]) => sql<number>`sum(case when ${s} in (${sql.join(statuses.map((x) => sql.lit(x)))}) then 1 else 0 end)`;
  const rows = await db
    .selectFrom('attendance_days as a')
    .innerJoin('persons as p', 'p.id', 'a.person_id')
    .where('a.person_id', 'in', personIds)
    .where('a.date', '>=', first)
    .where('a.date', '<=', last)
    .select([
      'a.person_id',
      'p.number',
      'p.name',
      count(WORK).as('work_days'),
      count(PRESENT).as('present_days'),
      count(['late', 'lateEarly']).as('late_count'),
      sql<number>`sum(a.late_min)`.as('late_min'),
      count(['early', 'lateEarly']).as('early_count'),
      sql<number>`sum(a.early_min)`.as('early_min'),
      count(['missingIn', 'missingOut']).as('missing_count'),
      count(['absent']).as('absent_days'),
      // #18: in days to the half day (leaveDays above), summed as half days
      sql<number>`sum(case when a.manual_status = 'leave' then 2 else a.leave_half_days end)`.as('leave_half_days'),
      count(['out']).as('out_days'),
      sql<number>`sum(a.worked_min)`.as('worked_min'),
      sql<number>`sum(a.overtime_min)`.as('overtime_min'),
      sql<number>`sum(a.leave_min)`.as('leave_min'),
      sql<number>`sum(a.out_min)`.as('out_min'),
      sql<number>`sum(a.absent_min)`.as('absent_min'),
    ])
    .groupBy(['a.person_id', 'p.number', 'p.name'])
    .orderBy('p.number')
    .execute();
  const n = (v: unknown) => Number(v ?? 0);
  // Leave by type: summed here from the days that have any (few), not in SQL (JSON differs between databases).
  const kinds = new Map<number, LeaveKinds>();
  const withLeave = await db
    .selectFrom('attendance_days')
    .select(['person_id', 'leave_kinds'])
    .where('person_id', 'in', personIds)
    .where('date', '>=', first)
    .where('date', '<=', last)
    .where('leave_kinds', '<>', '{}')
    .execute();
  for (const d of withLeave) {
    const sum = kinds.get(d.person_id) ?? kinds.set(d.person_id, {}).get(d.person_id)!;
    for (const [k, v] of Object.entries(parseJson<LeaveKinds>(d.leave_kinds, {}))) sum[k] = (sum[k] ?? 0) + v;
  }
  const depts = await departmentsOf(db, personIds);
  return rows.map((r) => ({
    person_id: r.person_id,
    number: r.number,
    name: r.name,
    work_days: n(r.work_days),
    present_days: n(r.present_days),
    late_count: n(r.late_count),
    late_min: n(r.late_min),
    early_count: n(r.early_count),
    early_min: n(r.early_min),
    missing_count: n(r.missing_count),
    absent_days: n(r.absent_days),
    leave_days: n(r.leave_half_days) / 2,
    out_days: n(r.out_days),
    worked_min: n(r.worked_min),
    overtime_min: n(r.overtime_min),
    leave_min: n(r.leave_min),
    out_min: n(r.out_min),
    absent_min: n(r.absent_min),
    leave_kinds: kinds.get(r.person_id) ?? {},
    department: depts.get(r.person_id) ?? '',
  }));
}

/** The people's departments by name, joined with ', ' (the month report's department column). */
export async function departmentsOf(db: Executor, personIds: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string[]>();
  if (personIds.length) {
    const rows = await db
      .selectFrom('person_departments as pd')
      .innerJoin('departments as d', 'd.id', 'pd.department_id')
      .select(['pd.person_id', 'd.name'])
      .where('pd.person_id', 'in', personIds)
      .orderBy('d.name')
      .execute();
    for (const r of rows) (out.get(r.person_id) ?? out.set(r.person_id, []).get(r.person_id)!).push(r.name);
  }
  return new Map([...out].map(([id, names]) => [id, names.join(', ')]));
}

/** The month grid of these people (#17): each day with a result, its status (as set) and the minutes it shows. */
export async function monthGrid(db: Executor, personIds: number[], first: string, last: string) {
  const out = new Map<number, { date: string; status: DayStatus; minutes: number }[]>();
  if (!personIds.length) return out;
  const rows = await db
    .selectFrom('attendance_days')
    .select(['person_id', 'date', 'status', 'manual_status', 'late_min', 'early_min', 'worked_min', 'leave_min', 'out_min', 'absent_min'])
    .where('person_id', 'in', personIds)
    .where('date', '>=', first)
    .where('date', '<=', last)
    .orderBy('person_id')
    .orderBy('date')
    .execute();
  for (const r of rows) {
    const status = (r.manual_status ?? r.status) as DayStatus;
    (out.get(r.person_id) ?? out.set(r.person_id, []).get(r.person_id)!).push({ date: r.date, status, minutes: gridMinutes({ ...r, status }) });
  }
  return out;
}

/** The first and last date of a 'YYYY-MM' month. */
export function monthBounds(month: string): { first: string; last: string } {
  const [y, m] = month.split('-').map(Number);
  const days = new Date(Date.UTC(y!, m, 0)).getUTCDate();
  return { first: `${month}-01`, last: `${month}-${String(days).padStart(2, '0')}` };
}

/** The company's people the day view's keyword and department select (a query to narrow, count or page). */
function selectedPeople(db: Executor, companyId: number, f: Omit<ResultFilter, 'status'>) {
  let people = db.selectFrom('persons as p').where('p.company_id', '=', companyId);
  if (f.keyword) people = people.where('p.search', 'like', likeKeyword(f.keyword));
  const { departments } = f;
  if (departments)
    people = people.where('p.id', 'in', (eb) => eb.selectFrom('person_departments').select('person_id').where('department_id', 'in', departments));
  return people;
}

/**
 * How many people the filters select: times the days, at least the rows dayResults can give (a cheap bound, where
 * counting a big company's month of results took SQLite 10 s).
 */
export async function peopleSelected(db: Executor, companyId: number, f: ResultFilter): Promise<number> {
  return Number(
    (
      await selectedPeople(db, companyId, f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
}

/** The company's people with results between the dates, by keyword and department (a query to count or page). */
export function peopleWithResults(db: Executor, companyId: number, first: string, last: string, f: Omit<ResultFilter, 'status'>) {
  return selectedPeople(db, companyId, f).where((eb) =>
    eb.exists(
      eb.selectFrom('attendance_days as a').select('a.person_id').whereRef('a.person_id', '=', 'p.id').where('a.date', '>=', first).where('a.date', '<=', last),
    ),
  );
}
