import {
  ATTENDANCE_EXPORT_LIMITS,
  DEFAULT_TIME_ZONE,
  DAY_STATUSES,
  type CalendarDay,
  type DayExportBody,
  type DayStatus,
  type Language,
  type LeaveKinds,
  type LeaveType,
  type MonthExportBody,
  type MonthRow,
  type PersonMonth,
  type PersonMonthQuery,
} from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import { t } from '../../i18n/i18n.ts';
import { inChunks } from '../../lib/chunks.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { isoToMs } from '../../lib/time.ts';
import { xlsxStream, type XlsxColumn } from '../../lib/xlsx.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { clockText } from './engine/zone.ts';
import { leaveTypes } from './leave-types.ts';
import { departmentFilter } from '../departments/departments.service.ts';
import {
  DAY_FIGURES,
  dayResults,
  leaveDays,
  leaveFigures,
  monthBounds,
  monthGrid,
  monthSums,
  peopleSelected,
  peopleWithResults,
} from './results.repository.ts';
import { datesBetween } from './plans.ts';

/** A day-results export sends its rows in batches of this many (one date may hold a whole company). */
const BATCH = 2000;

interface StoredDay {
  person_id: number;
  date: string;
  status: string;
  manual_status: string | null;
  manual_reason: string | null;
  late_min: number;
  early_min: number;
  worked_min: number;
  overtime_min: number;
  leave_min: number;
  out_min: number;
  absent_min: number;
  leave_kinds: string;
  leave_half_days: number;
  detail: string;
  rule: string | null;
}

/**
 * The first and last punch each day counted, as instants: from the ids the stored rows keep (supplementary
 * punches, negative ids, are the approved absence's time), one read per 500 of them.
 */
async function countedTimes(db: Executor, companyId: number, rows: StoredDay[]) {
  const used = new Map<StoredDay, number[]>(rows.map((r) => [r, parseJson<{ used?: number[] }>(r.detail, {}).used ?? []]));
  const all = [...used.values()].flat();
  const punchIds = [...new Set(all.filter((id) => id > 0))];
  const absenceIds = [...new Set(all.filter((id) => id < 0).map((id) => -id))];
  const times = new Map<number, string>();
  for (const p of await inChunks(punchIds, (part) =>
    db.selectFrom('punches').select(['id', 'time']).where('company_id', '=', companyId).where('id', 'in', part).execute(),
  ))
    times.set(p.id, p.time);
  for (const a of await inChunks(absenceIds, (part) =>
    db.selectFrom('attendance_absences').select(['id', 'from_at']).where('company_id', '=', companyId).where('id', 'in', part).execute(),
  ))
    times.set(-a.id, a.from_at);
  return (r: StoredDay): { check_in: string | null; check_out: string | null } => {
    const list = (used.get(r) ?? []).map((id) => times.get(id)).filter((x): x is string => Boolean(x));
    list.sort((a, b) => isoToMs(a) - isoToMs(b));
    return { check_in: list[0] ?? null, check_out: list.length > 1 ? list[list.length - 1]! : null };
  };
}

/** What the calendar and the day export read: the figures, the reason of a hand-set result, the punches used. */
const DAY_COLUMNS = [...DAY_FIGURES, 'a.manual_reason', 'a.detail'] as const;

const hours = (min: number) => Math.round((min / 60) * 100) / 100;

/**
 * The leave columns of an export (#17): the company's leave types, and any other type the range's results hold
 * (a type since removed from the form), each once; "other" only when some result has it.
 */
async function leaveColumns(db: Executor, companyId: number, first: string, last: string, lang: Language): Promise<LeaveType[]> {
  const all = await leaveTypes(db, companyId, lang);
  const found = new Set<string>();
  const rows = await db
    .selectFrom('attendance_days')
    .select('leave_kinds')
    .distinct()
    .where('company_id', '=', companyId)
    .where('date', '>=', first)
    .where('date', '<=', last)
    .where('leave_kinds', '<>', '{}')
    .execute();
  for (const r of rows) for (const k of Object.keys(parseJson<LeaveKinds>(r.leave_kinds, {}))) found.add(k);
  const other = all.pop()!;
  for (const k of found) if (k !== other.value && !all.some((x) => x.value === k)) all.push({ value: k, label: k });
  if (found.has(other.value)) all.push(other);
  return all;
}
const leaveKey = (value: string) => `leave:${value}`;

/** The per-person month calendar and the exports (day results over a range, the month report), from stored results. */
export function reportsService(database: Database) {
  const { db } = database;
  const zoneOf = (tenant: Tenant) => tenant.timeZone ?? DEFAULT_TIME_ZONE;

  return {
    /** One person's month, day by day, with the month report's figures: the calendar of the console. */
    async personMonth(tenant: Tenant, q: PersonMonthQuery): Promise<PersonMonth> {
      const person = await db
        .selectFrom('persons')
        .select(['id', 'number', 'name'])
        .where('company_id', '=', tenant.companyId)
        .where('id', '=', q.person_id)
        .executeTakeFirst();
      if (!person) throw notFound();
      const { first, last } = monthBounds(q.month);
      const rows: StoredDay[] = await dayResults(db, tenant.companyId, first, last)
        .select(DAY_COLUMNS)
        .where('a.person_id', '=', person.id)
        .orderBy('a.date')
        .execute();
      const timesOf = await countedTimes(db, tenant.companyId, rows);
      const days = rows.map((r): CalendarDay => ({
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
        ...timesOf(r),
      }));
      const zero: MonthRow = {
        person_id: person.id,
        number: person.number,
        name: person.name,
        work_days: 0,
        present_days: 0,
        late_count: 0,
        late_min: 0,
        early_count: 0,
        early_min: 0,
        missing_count: 0,
        absent_days: 0,
        leave_days: 0,
        out_days: 0,
        worked_min: 0,
        overtime_min: 0,
        leave_min: 0,
        out_min: 0,
        absent_min: 0,
        leave_kinds: {},
        department: '',
      };
      const [totals] = await monthSums(db, [person.id], first, last);
      return { person_id: person.id, number: person.number, name: person.name, month: q.month, days, totals: totals ?? zero };
    },

    /**
     * Day results over a range as a streamed workbook: one row per person-day, by date then number, with the
     * first and last counted punch in the company's zone, in as many sheets as the rows need (xlsxStream). Refused
     * before it starts when the range is too long or the rows too many for one export.
     */
    async exportDays(tenant: Tenant, body: DayExportBody, lang: Language) {
      if (body.from > body.to) throw invalid('to', 'reasons.dateOrder');
      // counted before the list is built: a range of centuries must not be walked day by day to be refused
      if ((Date.parse(body.to) - Date.parse(body.from)) / 86_400_000 >= ATTENDANCE_EXPORT_LIMITS.daysMax)
        throw invalid('to', 'reasons.rangeTooLong', { limit: ATTENDANCE_EXPORT_LIMITS.daysMax });
      const dates = datesBetween(body.from, body.to);
      const filter = { ...body, departments: await departmentFilter(db, tenant.companyId, body.department_id) };
      // The rows counted only when a bound (the people selected × the days) passes the limit: counting a big company's
      // month (3 M rows) held SQLite 10 s, every other request waiting.
      if ((await peopleSelected(db, tenant.companyId, filter)) * dates.length > ATTENDANCE_EXPORT_LIMITS.rowsMax) {
        const count = await dayResults(db, tenant.companyId, body.from, body.to, filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        const rowsTotal = Number(count.n);
        if (rowsTotal > ATTENDANCE_EXPORT_LIMITS.rowsMax)
          throw invalid('to', 'reasons.tooManyRows', { rows: rowsTotal, max: ATTENDANCE_EXPORT_LIMITS.rowsMax });
      }
      const zone = zoneOf(tenant);
      const header = (k: string) => t(lang, `att.fields.${k}`);
      const kinds = await leaveColumns(db, tenant.companyId, body.from, body.to, lang);
      const columns: XlsxColumn[] = [
        { key: 'date', header: header('date'), width: 12 },
        { key: 'number', header: header('number') },
        { key: 'name', header: header('name') },
        { key: 'rule', header: header('rule') },
        { key: 'status', header: header('status') },
        { key: 'check_in', header: header('checkIn'), width: 12 },
        { key: 'check_out', header: header('checkOut'), width: 12 },
        { key: 'late_min', header: header('lateMin'), width: 12 },
        { key: 'early_min', header: header('earlyMin'), width: 12 },
        { key: 'worked', header: header('workedH'), width: 12 },
        { key: 'overtime', header: header('overtimeH'), width: 12 },
        { key: 'leave_days', header: header('leaveDays'), width: 12 },
        { key: 'leave_min', header: header('leaveMin'), width: 12 },
        ...kinds.map((k) => ({ key: leaveKey(k.value), header: t(lang, 'att.fields.leaveKindMin', { kind: k.label }), width: 14 })),
        { key: 'out_min', header: header('outMin'), width: 12 },
        { key: 'absent_min', header: header('absentMin'), width: 12 },
        { key: 'manual', header: header('manual'), width: 10 },
        { key: 'reason', header: header('manualReason'), width: 24 },
      ];
      const companyId = tenant.companyId;
      const leaveCells = (json: string) => {
        const m = parseJson<LeaveKinds>(json, {});
        return Object.fromEntries(kinds.map((k) => [leaveKey(k.value), m[k.value] ?? 0]));
      };
      async function* batches() {
        for (const date of dates) {
          // a date a batch at a time, after the last number read (unique in the company): a big company's day read
          // whole held 100,000 rows at once
          for (let after: string | undefined; ;) {
            let q = dayResults(db, companyId, date, date, filter).select(DAY_COLUMNS);
            if (after !== undefined) q = q.where('p.number', '>', after);
            const part = await q.orderBy('p.number').limit(BATCH).execute();
            if (!part.length) break;
            after = part.at(-1)!.number;
            const timesOf = await countedTimes(db, companyId, part);
            yield part.map((r) => {
              const { check_in, check_out } = timesOf(r);
              return {
                date: r.date,
                number: r.number,
                name: r.name,
                rule: r.rule ?? '',
                status: t(lang, `att.status.${r.manual_status ?? r.status}`),
                check_in: check_in ? clockText(zone, isoToMs(check_in), r.date) : '',
                check_out: check_out ? clockText(zone, isoToMs(check_out), r.date) : '',
                late_min: r.late_min,
                early_min: r.early_min,
                worked: hours(r.worked_min),
                overtime: hours(r.overtime_min),
                leave_days: leaveDays(r),
                leave_min: r.leave_min,
                ...leaveCells(r.leave_kinds),
                out_min: r.out_min,
                absent_min: r.absent_min,
                manual: r.manual_status !== null ? t(lang, 'att.yes') : '',
                reason: r.manual_reason ?? '',
              };
            });
          }
        }
      }
      return xlsxStream(t(lang, 'att.daysSheet'), columns, batches());
    },

    /**
     * The month report of everyone the filters select, as payroll wants it (#17): a title (company and period) and
     * the legend above the header; number, name, department; one column per day of the month with the day's
     * status symbol and its minutes (gridMinutes); then the totals, leave by type included. Streamed.
     */
    async exportMonth(tenant: Tenant, body: MonthExportBody, lang: Language) {
      const { first, last } = monthBounds(body.month);
      const filter = { ...body, departments: await departmentFilter(db, tenant.companyId, body.department_id) };
      const header = (k: string) => t(lang, `att.fields.${k}`);
      const companyId = tenant.companyId;
      const kinds = await leaveColumns(db, companyId, first, last, lang);
      const dates = datesBetween(first, last);
      const company = await db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirst();
      const symbol = (s: DayStatus) => t(lang, `att.symbol.${s}`);
      const preface = [
        [t(lang, 'att.reportTitle', { company: company?.name ?? '', month: body.month, from: first, to: last })],
        [`${t(lang, 'att.legend')}: ${DAY_STATUSES.map((s) => `${symbol(s)} ${t(lang, `att.status.${s}`)}`).join(' · ')}`],
      ];
      const columns: XlsxColumn[] = [
        { key: 'number', header: header('number') },
        { key: 'name', header: header('name') },
        { key: 'department', header: header('department'), width: 20 },
        ...dates.map((d) => ({ key: `d${d}`, header: String(Number(d.slice(8))), width: 7 })),
        ...(
          ['workDays', 'presentDays', 'lateCount', 'lateMin', 'earlyCount', 'earlyMin', 'missing', 'absentDays', 'absentMin', 'leaveDays', 'leaveMin'] as const
        ).map((k) => ({ key: k, header: header(k), width: 12 })),
        ...kinds.map((k) => ({ key: leaveKey(k.value), header: t(lang, 'att.fields.leaveKindMin', { kind: k.label }), width: 14 })),
        ...(['outDays', 'outMin', 'workedH', 'overtimeH'] as const).map((k) => ({ key: k, header: header(k), width: 12 })),
      ];
      async function* batches() {
        // Keyset over numbers (then ids): the pages cost the same at the end of a 10,000-person company.
        let after: { number: string; id: number } | undefined;
        for (;;) {
          let people = peopleWithResults(db, companyId, first, last, filter).select(['p.id', 'p.number']);
          if (after) {
            const { number, id } = after;
            people = people.where((eb) => eb.or([eb('p.number', '>', number), eb.and([eb('p.number', '=', number), eb('p.id', '>', id)])]));
          }
          const page = await people.orderBy('p.number').orderBy('p.id').limit(BATCH).execute();
          if (!page.length) return;
          const ids = page.map((p) => p.id);
          const sums = await inChunks(ids, (part) => monthSums(db, part, first, last));
          const grid = new Map((await inChunks(ids, async (part) => [...(await monthGrid(db, part, first, last))])).map(([k, v]) => [k, v]));
          const byId = new Map(sums.map((s) => [s.person_id, s]));
          yield page.flatMap((p) => {
            const s = byId.get(p.id);
            if (!s) return [];
            const cells: Record<string, string> = {};
            for (const d of grid.get(p.id) ?? []) cells[`d${d.date}`] = d.minutes ? `${symbol(d.status)} ${d.minutes}` : symbol(d.status);
            return [
              {
                number: s.number,
                name: s.name,
                department: s.department,
                ...cells,
                workDays: s.work_days,
                presentDays: s.present_days,
                lateCount: s.late_count,
                lateMin: s.late_min,
                earlyCount: s.early_count,
                earlyMin: s.early_min,
                missing: s.missing_count,
                absentDays: s.absent_days,
                absentMin: s.absent_min,
                leaveDays: s.leave_days,
                leaveMin: s.leave_min,
                ...Object.fromEntries(kinds.map((k) => [leaveKey(k.value), s.leave_kinds[k.value] ?? 0])),
                outDays: s.out_days,
                outMin: s.out_min,
                workedH: hours(s.worked_min),
                overtimeH: hours(s.overtime_min),
              },
            ];
          });
          if (page.length < BATCH) return;
          after = { number: page[page.length - 1]!.number, id: page[page.length - 1]!.id };
        }
      }
      return xlsxStream(t(lang, 'att.monthSheet'), columns, batches(), { preface, freezeColumns: 3 });
    },
  };
}
export type ReportsService = ReturnType<typeof reportsService>;
