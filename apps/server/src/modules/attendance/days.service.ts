import {
  DEFAULT_TIME_ZONE,
  type AbsenceInput,
  type DayDetail,
  type DayQuery,
  type DayRow,
  type DayStatus,
  type Language,
  type ManualDayBody,
  type MonthPage,
  type MonthQuery,
} from '@faceadmin/shared';
import { countUpTo } from '../../db/count.ts';
import type { Database } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { badInput, invalid, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { pageOf } from '../../lib/schemas.ts';
import { nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { audit } from '../logs/logs.service.ts';
import type { DayResult } from './engine/index.ts';
import { markCompanyDirty, markDirty, pendingOf } from './dirty.ts';
import { assertOpen, closedPeriods, type KeptDetail } from './periods.service.ts';
import { leaveTypes } from './leave-types.ts';
import { departmentFilter } from '../departments/departments.service.ts';
import { DAY_FIGURES, dayResults, leaveFigures, monthBounds, monthGrid, monthSums, peopleWithResults } from './results.repository.ts';
import { addDays } from './plans.ts';
import { localDate, type RecomputeService } from './recompute.service.ts';

/** "Attendance update" covers at most this many days at once. */
const RECALC_MAX_DAYS = 93;

type Detail = Pick<DayResult, 'shifts' | 'used' | 'ignored' | 'why'>;

/** Day results (the day view, a cell's explanation), "attendance update", and absences recorded by hand. */
export function daysService(database: Database, recompute: Pick<RecomputeService, 'explain'>) {
  const { db } = database;
  const zoneOf = (tenant: Tenant) => tenant.timeZone ?? DEFAULT_TIME_ZONE;

  const dayRow = (r: {
    person_id: number;
    number: string;
    name: string;
    date: string;
    status: string;
    manual_status: string | null;
    late_min: number;
    early_min: number;
    worked_min: number;
    overtime_min: number;
    leave_min: number;
    out_min: number;
    absent_min: number;
    leave_kinds: string;
    leave_half_days: number;
    rule: string | null;
  }): DayRow => ({
    person_id: r.person_id,
    number: r.number,
    name: r.name,
    date: r.date,
    status: (r.manual_status ?? r.status) as DayStatus,
    computed_status: r.status as DayStatus,
    manual: r.manual_status !== null,
    late_min: r.late_min,
    early_min: r.early_min,
    worked_min: r.worked_min,
    overtime_min: r.overtime_min,
    ...leaveFigures(r),
    rule: r.rule,
  });

  return {
    async list(tenant: Tenant, q: DayQuery) {
      const { page, pageSize, offset } = pageOf(q);
      const query = dayResults(db, tenant.companyId, q.date, q.date, { ...q, departments: await departmentFilter(db, tenant.companyId, q.department_id) });
      const [rows, counted] = await Promise.all([
        query.select(DAY_FIGURES).orderBy('p.number').limit(pageSize).offset(offset).execute(),
        countUpTo(db, query.select('a.person_id')),
      ]);
      return { items: rows.map(dayRow), ...counted, page, pageSize };
    },

    /** The company's leave types in the reader's language (the leave columns' labels, #17). */
    async leaveTypes(tenant: Tenant, lang: Language) {
      return { items: await leaveTypes(db, tenant.companyId, lang) };
    },

    /** The latest date up to today (the company's zone) with a stored result, or null: where the day view opens. */
    async latest(tenant: Tenant): Promise<{ date: string | null }> {
      const today = localDate(Date.now(), zoneOf(tenant));
      const r = await db
        .selectFrom('attendance_days')
        .select((eb) => eb.fn.max('date').as('date'))
        .where('company_id', '=', tenant.companyId)
        .where('date', '<=', today)
        .executeTakeFirst();
      return { date: r?.date ?? null };
    },

    /** Per person over a month, from the stored results (manual ones as set): one grouped query a page. */
    async month(tenant: Tenant, q: MonthQuery, lang: Language): Promise<MonthPage> {
      const { page, pageSize, offset } = pageOf(q);
      const { first, last } = monthBounds(q.month);
      // The page of people first (by number, those with results this month: one index probe each), then the
      // sums for just those 20. The count probes people only up to COUNT_LIMIT: counting all of a big company
      // exactly probed all 100,000, most of the page's time on PostgreSQL (#32).
      const people = peopleWithResults(db, tenant.companyId, first, last, { ...q, departments: await departmentFilter(db, tenant.companyId, q.department_id) });
      const [found, counted] = await Promise.all([
        people.select('p.id').orderBy('p.number').limit(pageSize).offset(offset).execute(),
        countUpTo(db, people.select('p.id')),
      ]);
      const pageIds = found.map((r) => r.id);
      const grid = await monthGrid(db, pageIds, first, last);
      const items = (await monthSums(db, pageIds, first, last)).map((r) => ({ ...r, days: grid.get(r.person_id) ?? [] }));
      return { items, ...counted, page, pageSize, leave_types: await leaveTypes(db, tenant.companyId, lang) };
    },

    /** One person-day with everything that explains it: the shifts, the punches used and ignored (and why), the arithmetic. */
    async info(tenant: Tenant, personId: number, date: string): Promise<DayDetail> {
      const r = await dayResults(db, tenant.companyId, date, date)
        .where('a.person_id', '=', personId)
        .select([
          'a.person_id',
          'p.number',
          'p.name',
          'a.date',
          'a.status',
          'a.manual_status',
          'a.manual_reason',
          'a.late_min',
          'a.early_min',
          'a.worked_min',
          'a.overtime_min',
          'a.leave_min',
          'a.out_min',
          'a.absent_min',
          'a.leave_kinds',
          'a.leave_half_days',
          'a.detail',
          'a.computed_at',
          'r.name as rule',
        ])
        .executeTakeFirst();
      if (!r) throw notFound();
      const stored = parseJson<KeptDetail>(r.detail, { used: [] });
      // A closed day explains its stored, paid result (#28): the explanation kept when its period was closed, never a
      // recalculation from today's inputs (a rule, punches or holidays may have changed since). Kept none (its
      // recalculation was still queued at the close, or it was closed before #28): the stored figures, and a line
      // saying why there is no more.
      const closed = (await closedPeriods(db, tenant.companyId, date, date))[0];
      // An open day's explanation is computed now from the same inputs (the stored row keeps only the figures and
      // the punches it used): what the next recalculation would store, and exactly how.
      const live = closed ? stored.kept : await recompute.explain(tenant.companyId, personId, date);
      const detail: Detail = live ?? {
        shifts: [],
        used: stored.used ?? [],
        ignored: [],
        why: closed ? [{ key: 'att.why.closedNotKept', params: { from: closed.from_date, to: closed.to_date } }] : [],
      };
      const punchIds = [...new Set([...detail.used, ...detail.ignored.map((i) => i.punchId)].filter((id) => id > 0))];
      const punches = punchIds.length
        ? await db
            .selectFrom('punches as x')
            .innerJoin('devices as d', 'd.id', 'x.device_id')
            .select(['x.id', 'x.time', 'd.name as device'])
            .where('x.company_id', '=', tenant.companyId)
            .where('x.id', 'in', punchIds)
            .orderBy('x.time')
            .execute()
        : [];
      const absences = await db
        .selectFrom('attendance_absences')
        .select(['id', 'from_at'])
        .where('company_id', '=', tenant.companyId)
        .where('person_id', '=', personId)
        .execute();
      const timeOf = (id: number | null) =>
        id === null ? null : id < 0 ? (absences.find((a) => a.id === -id)?.from_at ?? null) : (punches.find((p) => p.id === id)?.time ?? null);
      const shiftIds = detail.shifts.map((s) => s.shiftId).filter((id) => id > 0);
      const shifts = shiftIds.length
        ? await db.selectFrom('attendance_shifts').select(['id', 'name', 'start', 'end']).where('id', 'in', shiftIds).execute()
        : [];
      return {
        // The figures of the same computation as the explanation (the stored row may be a second behind a new
        // punch): what the drawer says and what it explains never disagree. A hand-set result still stands.
        ...dayRow(
          live
            ? {
                ...r,
                status: live.status,
                late_min: live.lateMin,
                early_min: live.earlyMin,
                worked_min: live.workedMin,
                overtime_min: live.overtimeMin,
                leave_min: live.leaveMin ?? 0,
                out_min: live.outMin ?? 0,
                absent_min: live.absentMin ?? 0,
                leave_kinds: JSON.stringify(live.leaveKinds ?? {}),
                leave_half_days: Math.round((live.leaveDays ?? 0) * 2),
              }
            : r,
        ),
        manual_reason: r.manual_reason,
        computed_at: r.computed_at,
        temperature_alarm: live?.temperatureAlarm === true,
        closed: closed ? { from: closed.from_date, to: closed.to_date } : null,
        why: detail.why,
        shifts: detail.shifts.map((s) => {
          const def = shifts.find((x) => x.id === s.shiftId);
          return {
            shift_id: s.shiftId,
            name: def?.name ?? '',
            start: def?.start ?? '',
            end: def?.end ?? '',
            status: s.status,
            check_in: timeOf(s.checkIn),
            check_out: timeOf(s.checkOut),
            late_min: s.lateMin,
            early_min: s.earlyMin,
            worked_min: s.workedMin,
            overtime_min: s.overtimeMin,
          };
        }),
        punches: punches.map((p) => {
          const ignored = detail.ignored.find((i) => i.punchId === p.id);
          return {
            id: p.id,
            time: p.time,
            device: p.device,
            used: detail.used.includes(p.id),
            ignored: ignored?.reason ?? null,
            detail: ignored?.detail ?? null,
          };
        }),
      };
    },

    /**
     * Sets (or with a null status removes) an administrator's result for a person-day; the computed one stays beside it.
     * A day with no stored result yet is created with the manual status (computed status `pending`) and queued, so the
     * recompute fills the computed fields; a person no rule covers keeps it as set (as when a person leaves a rule).
     */
    async setManual(tenant: Tenant, input: ManualDayBody): Promise<DayRow> {
      if (input.status !== null && !input.reason.trim()) throw invalid('reason', 'reasons.required');
      await transaction(db, async (trx) => {
        const who = await trx
          .selectFrom('persons')
          .select('name')
          .where('company_id', '=', tenant.companyId)
          .where('id', '=', input.person_id)
          .executeTakeFirst();
        if (!who) throw notFound();
        await assertOpen(trx, tenant.companyId, input.date, input.date);
        // The queue row first, as every writer takes it (docs/attendance.md "Locks"): the recompute holds it while it
        // writes the person's days, so taking the day row first could deadlock with it on PostgreSQL.
        await markDirty(trx, tenant.companyId, [input.person_id], { from: input.date, to: input.date });
        const row = await trx
          .selectFrom('attendance_days')
          .select('manual_status')
          .where('company_id', '=', tenant.companyId)
          .where('person_id', '=', input.person_id)
          .where('date', '=', input.date)
          .executeTakeFirst();
        if (!row) {
          if (input.status === null) throw notFound(); // nothing to remove
          await trx
            .insertInto('attendance_days')
            .values({
              company_id: tenant.companyId,
              person_id: input.person_id,
              date: input.date,
              rule_id: null,
              status: 'pending',
              manual_status: null,
              manual_reason: null,
              computed_at: nowIso(),
            })
            .execute();
        }
        await trx
          .updateTable('attendance_days')
          .set({ manual_status: input.status, manual_reason: input.status === null ? null : input.reason.trim() })
          .where('person_id', '=', input.person_id)
          .where('date', '=', input.date)
          .execute();
        if (input.status === null) await audit(trx, tenant, 'attendance', 'attendance.manual.remove', { name: who.name, date: input.date });
        else
          await audit(trx, tenant, 'attendance', 'attendance.manual.set', {
            name: who.name,
            date: input.date,
            status: input.status,
            reason: input.reason.trim(),
          });
      });
      const r = await dayResults(db, tenant.companyId, input.date, input.date)
        .where('a.person_id', '=', input.person_id)
        .select(DAY_FIGURES)
        .executeTakeFirstOrThrow();
      return dayRow(r);
    },

    /** Queues every working person's days in the range; the recompute job works them off (progress: `pending`). */
    async recalculate(tenant: Tenant, from?: string, to?: string) {
      if (!from || !to) throw badInput('errors.noDateChosen', 'from');
      if (from > to) throw invalid('to', 'reasons.dateOrder');
      if ((Date.parse(to) - Date.parse(from)) / 86_400_000 >= RECALC_MAX_DAYS) throw invalid('to', 'reasons.rangeTooLong', { limit: RECALC_MAX_DAYS });
      await transaction(db, async (trx) => {
        // closed days are not recalculated (#17): a range touching them is refused, naming the period
        await assertOpen(trx, tenant.companyId, from, to);
        const count = await markCompanyDirty(trx, tenant.companyId, zoneOf(tenant), { from, to });
        await audit(trx, tenant, 'attendance', 'attendance.recalculate', { from, to, count });
      });
      return this.status(tenant);
    },
    async status(tenant: Tenant) {
      return pendingOf(db, tenant.companyId);
    },

    async absences(tenant: Tenant, q: { person_id?: number | undefined; from: string; to: string }) {
      const zone = zoneOf(tenant);
      let query = db
        .selectFrom('attendance_absences as a')
        .innerJoin('persons as p', 'p.id', 'a.person_id')
        .select(['a.id', 'a.person_id', 'p.name', 'a.kind', 'a.from_at', 'a.to_at', 'a.reason', 'a.source', 'a.created_at', 'a.leave_type'])
        .where('a.company_id', '=', tenant.companyId)
        .where('a.to_at', '>=', new Date(Date.parse(`${q.from}T00:00:00Z`) - 86_400_000).toISOString())
        .where('a.from_at', '<', new Date(Date.parse(`${addDays(q.to, 1)}T00:00:00Z`) + 86_400_000).toISOString());
      if (q.person_id) query = query.where('a.person_id', '=', q.person_id);
      const rows = (await query.orderBy('a.from_at').execute()).filter(
        (a) => localDate(Date.parse(a.to_at), zone) >= q.from && localDate(Date.parse(a.from_at), zone) <= q.to,
      );
      const items = rows.map((a) => ({
        id: a.id,
        person_id: a.person_id,
        name: a.name,
        kind: a.kind as 'leave',
        from: a.from_at,
        to: a.to_at,
        reason: a.reason,
        source: a.source,
        created_at: a.created_at,
        leave_type: a.leave_type,
      }));
      return { items, total: items.length };
    },
    /** An absence recorded by an administrator (until approvals write them): the days it touches are recomputed. */
    async createAbsence(tenant: Tenant, input: AbsenceInput) {
      const from = Date.parse(input.from);
      const to = input.kind === 'supplement' ? from : Date.parse(input.to);
      if (to <= from && input.kind !== 'supplement') throw invalid('to', 'reasons.dateOrder');
      if (to - from > 62 * 86_400_000) throw invalid('to', 'reasons.rangeTooLong', { limit: 62 });
      const leaveType = input.leave_type?.trim();
      if (leaveType && input.kind !== 'leave') throw invalid('leave_type', 'reasons.leaveTypeOnlyLeave');
      const zone = zoneOf(tenant);
      const id = await transaction(db, async (trx) => {
        const p = await trx
          .selectFrom('persons')
          .select(['id', 'name'])
          .where('company_id', '=', tenant.companyId)
          .where('id', '=', input.person_id)
          .executeTakeFirst();
        if (!p) throw notFound();
        await assertOpen(trx, tenant.companyId, localDate(from, zone), localDate(to, zone));
        const made = await trx
          .insertInto('attendance_absences')
          .values({
            company_id: tenant.companyId,
            person_id: p.id,
            kind: input.kind,
            from_at: new Date(from).toISOString(),
            to_at: new Date(to).toISOString(),
            reason: input.reason.trim(),
            source: 'manual',
            created_by: tenant.adminId,
            created_at: nowIso(),
            ...(leaveType ? { leave_type: leaveType } : {}),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await markDirty(trx, tenant.companyId, [p.id], { from: addDays(localDate(from, zone), -1), to: localDate(to, zone) });
        const data = { id: made.id, name: p.name, reason: input.reason.trim() };
        if (input.kind === 'leave') await audit(trx, tenant, 'attendance', 'attendance.leave.create', data);
        else if (input.kind === 'out') await audit(trx, tenant, 'attendance', 'attendance.out.create', data);
        else await audit(trx, tenant, 'attendance', 'attendance.supplement.create', data);
        return made.id;
      });
      const created = (await this.absences(tenant, { person_id: input.person_id, from: localDate(from, zone), to: localDate(to, zone) })).items.find(
        (a) => a.id === id,
      );
      return created!;
    },
    async deleteAbsence(tenant: Tenant, id: number) {
      const zone = zoneOf(tenant);
      await transaction(db, async (trx) => {
        const a = await trx
          .selectFrom('attendance_absences as a')
          .innerJoin('persons as p', 'p.id', 'a.person_id')
          .select(['a.id', 'a.person_id', 'a.from_at', 'a.to_at', 'a.kind', 'a.application_id', 'p.name'])
          .where('a.company_id', '=', tenant.companyId)
          .where('a.id', '=', id)
          .executeTakeFirst();
        if (!a) throw notFound();
        // An approved application's absence goes with the application (withdrawn or cancelled there), never alone.
        if (a.application_id !== null) throw badInput('errors.absenceFromApproval');
        await assertOpen(trx, tenant.companyId, localDate(Date.parse(a.from_at), zone), localDate(Date.parse(a.to_at), zone));
        await trx.deleteFrom('attendance_absences').where('id', '=', id).execute();
        await markDirty(trx, tenant.companyId, [a.person_id], {
          from: addDays(localDate(Date.parse(a.from_at), zone), -1),
          to: localDate(Date.parse(a.to_at), zone),
        });
        if (a.kind === 'leave') await audit(trx, tenant, 'attendance', 'attendance.leave.delete', { id, name: a.name });
        else if (a.kind === 'out') await audit(trx, tenant, 'attendance', 'attendance.out.delete', { id, name: a.name });
        else await audit(trx, tenant, 'attendance', 'attendance.supplement.delete', { id, name: a.name });
      });
    },
  };
}
export type DaysService = ReturnType<typeof daysService>;
