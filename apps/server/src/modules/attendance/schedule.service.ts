import { createHash } from 'node:crypto';
import { AUTO_SHIFT_KEY, type ScheduleCell, type ScheduleGrid, type ScheduleQuery, type ScheduleSave, type ScheduleSaved } from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { chunks } from '../../lib/chunks.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { pageOf } from '../../lib/schemas.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { audit } from '../logs/logs.service.ts';
import { markDirtyRanges, type DirtyRange } from './dirty.ts';
import { closedPeriods, isClosed } from './periods.service.ts';
import { AUTO_SHIFT_ID, addDays, datesBetween } from './plans.ts';
import { coveredPeople, presentShift, withDescendants } from './rules.service.ts';

const DAY = 86_400_000;
const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY);
const key = (id: number) => (id === AUTO_SHIFT_ID ? AUTO_SHIFT_KEY : id ? String(id) : '');

/** The dates of a month ('YYYY-MM'). */
export function monthDays(month: string): string[] {
  const first = `${month}-01`;
  const next = new Date(Date.parse(`${first}T00:00:00Z`));
  next.setUTCMonth(next.getUTCMonth() + 1);
  return datesBetween(first, addDays(next.toISOString().slice(0, 10), -1));
}

interface GridRow {
  person_id: number;
  date: string;
  shift_id: number;
  cycle_id: number | null;
}

/**
 * The schedule hash of spec §4: sha256 (hex) of a month's stored grid rows for a set of people, sorted. The editor
 * loads it with the grid and sends it back when saving; a different server hash means someone else saved since.
 */
export function gridHash(rows: GridRow[]): string {
  const lines = rows
    .map((r) => `${r.person_id}|${r.date}|${r.shift_id}|${r.cycle_id ?? ''}`)
    .sort()
    .join('\n');
  return createHash('sha256').update(lines).digest('hex');
}

/** A shift-mode rule of this company with its shifts and cycles, or the refusal. */
async function loadShiftRule(ex: Executor, companyId: number, ruleId: number) {
  const rule = await ex.selectFrom('attendance_rules').selectAll().where('company_id', '=', companyId).where('id', '=', ruleId).executeTakeFirst();
  if (!rule) throw notFound();
  if (rule.mode !== 'shift') throw invalid('rule_id', 'reasons.notShiftRule');
  const shifts = await ex.selectFrom('attendance_shifts').selectAll().where('rule_id', '=', ruleId).orderBy('sort').orderBy('id').execute();
  const cycles = (await ex.selectFrom('attendance_cycles').selectAll().where('rule_id', '=', ruleId).orderBy('id').execute()).map((c) => ({
    id: c.id,
    name: c.name,
    days: parseJson<number[]>(c.days, []),
  }));
  return { rule, shifts, cycles };
}

/**
 * The working people under a rule (spec §3: one rule at a time): named by it, or in one of its departments and not
 * named directly by another rule (a direct naming is more specific; rules never share a department's people).
 */
async function ruleMembers(ex: Executor, companyId: number, ruleId: number): Promise<Set<number>> {
  const members = await ex.selectFrom('attendance_rule_members').selectAll().where('company_id', '=', companyId).execute();
  const mine = members.filter((m) => m.rule_id === ruleId);
  const namedElsewhere = new Set(members.filter((m) => m.rule_id !== ruleId && m.kind === 'person').map((m) => m.ref_id));
  const covered = await coveredPeople(
    ex,
    companyId,
    mine.filter((m) => m.kind === 'person').map((m) => m.ref_id),
    mine.filter((m) => m.kind === 'department').map((m) => m.ref_id),
  );
  const ids = [...covered.direct, ...[...covered.viaDept].filter((p) => !namedElsewhere.has(p))];
  const out = new Set<number>();
  for (const part of chunks([...new Set(ids)]))
    for (const p of await ex
      .selectFrom('persons')
      .select('id')
      .where('company_id', '=', companyId)
      .where('work_status', '=', 1)
      .where('kind', '=', 'employee')
      .where('id', 'in', part)
      .execute())
      out.add(p.id);
  return out;
}

async function gridRows(ex: Executor, companyId: number, people: Iterable<number>, from: string, to: string): Promise<GridRow[]> {
  const out: GridRow[] = [];
  for (const part of chunks([...people]))
    out.push(
      ...(await ex
        .selectFrom('attendance_schedule')
        .select(['person_id', 'date', 'shift_id', 'cycle_id'])
        .where('company_id', '=', companyId)
        .where('person_id', 'in', part)
        .where('date', '>=', from)
        .where('date', '<=', to)
        .execute()),
    );
  return out;
}

/** The free scheduling grid (spec §2 /attendance/freeSchedule): a shift-mode rule's people × a month's days. */
export function scheduleService(database: Database) {
  const { db } = database;

  return {
    async grid(tenant: Tenant, q: ScheduleQuery): Promise<ScheduleGrid> {
      const { companyId } = tenant;
      const { rule, shifts, cycles } = await loadShiftRule(db, companyId, q.rule_id);
      const days = monthDays(q.month);
      const from = days[0]!;
      const to = days.at(-1)!;
      const members = await ruleMembers(db, companyId, rule.id);
      // The hash covers the whole rule's month (what a save compares), whatever page or department is shown.
      const all = await gridRows(db, companyId, members, from, to);
      let shown = [...members];
      if (q.department_id) {
        const dept = await db.selectFrom('departments').select('id').where('company_id', '=', companyId).where('id', '=', q.department_id).executeTakeFirst();
        if (!dept) throw notFound();
        const depts = await withDescendants(db, companyId, [dept.id]);
        const inDept = new Set<number>();
        for (const part of chunks(depts))
          for (const r of await db
            .selectFrom('person_departments')
            .select('person_id')
            .where('company_id', '=', companyId)
            .where('department_id', 'in', part)
            .execute())
            inDept.add(r.person_id);
        shown = shown.filter((p) => inDept.has(p));
      }
      const { page, pageSize, offset } = pageOf(q);
      const people: { id: number; number: string; name: string }[] = [];
      for (const part of chunks(shown))
        people.push(...(await db.selectFrom('persons').select(['id', 'number', 'name']).where('company_id', '=', companyId).where('id', 'in', part).execute()));
      people.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
      const pageRows = people.slice(offset, offset + pageSize);

      const stored = new Map(all.map((r) => [`${r.person_id}|${r.date}`, r]));
      const running = cycles.find((c) => c.id === rule.cycle_id);
      const ruleShifts = new Set([...shifts.map((s) => s.id), AUTO_SHIFT_ID]);
      const fromCycle = (date: string): number | undefined =>
        running && rule.start_date && date >= rule.start_date && running.days.length
          ? running.days[(rule.start_index + dayNumber(date) - dayNumber(rule.start_date)) % running.days.length]
          : undefined;
      const cellOf = (personId: number, date: string): ScheduleCell => {
        const row = stored.get(`${personId}|${date}`);
        // A stored shift of another rule (the person moved rules) is a rest day to the engine (plans.ts): shown as such.
        if (row)
          return { shift_key: ruleShifts.has(row.shift_id) ? key(row.shift_id) : '', source: 'grid', cycle_key: row.cycle_id ? key(row.cycle_id) : null };
        const c = fromCycle(date);
        return c === undefined ? { shift_key: '', source: 'none', cycle_key: null } : { shift_key: key(c), source: 'cycle', cycle_key: null };
      };
      return {
        items: pageRows.map((p) => ({ person_id: p.id, number: p.number, name: p.name, cells: days.map((d) => cellOf(p.id, d)) })),
        total: people.length,
        page,
        pageSize,
        rule: { id: rule.id, name: rule.name },
        month: q.month,
        days,
        shifts: shifts.map(presentShift),
        cycles: cycles.map((c) => ({ id: c.id, key: key(c.id), name: c.name, days: c.days.map(key) })),
        auto_shifts: parseJson<number[]>(rule.auto_shift_ids, []).map(key),
        running: running && rule.start_date ? { cycle_key: key(running.id), start_date: rule.start_date, start_index: rule.start_index } : null,
        hash: gridHash(all),
      };
    },

    /**
     * Saves cells and cycle applications in one transaction when the client hash is still the server's (spec §4);
     * otherwise nothing changes and the editor is told to reload. Only cells that differ are written and queued.
     */
    async save(tenant: Tenant, body: ScheduleSave): Promise<ScheduleSaved> {
      const { companyId } = tenant;
      const days = monthDays(body.month);
      const from = days[0]!;
      const to = days.at(-1)!;
      const inMonth = (d: string) => d >= from && d <= to;
      return transaction(db, async (trx) => {
        // A no-op write on the rule row first: two saves of one rule take turns (a row lock on PostgreSQL).
        await trx
          .updateTable('attendance_rules')
          .set((eb) => ({ updated_at: eb.ref('updated_at') }))
          .where('company_id', '=', companyId)
          .where('id', '=', body.rule_id)
          .execute();
        const { rule, shifts, cycles } = await loadShiftRule(trx, companyId, body.rule_id);
        const members = await ruleMembers(trx, companyId, rule.id);
        const shiftByKey = new Map(shifts.map((s) => [key(s.id), s.id]));
        // a cell may pick its shift automatically when the rule lists candidates (#17)
        if (parseJson<number[]>(rule.auto_shift_ids, []).length > 1) shiftByKey.set(AUTO_SHIFT_KEY, AUTO_SHIFT_ID);

        const people = new Set([...body.cells.map((c) => c.person_id), ...(body.apply ?? []).flatMap((a) => a.person_ids)]);
        const strangers = [...people].filter((p) => !members.has(p));
        if (strangers.length) {
          // Another company's person is not found; one of this company under another rule is a refused value.
          for (const part of chunks(strangers)) {
            const n = await trx
              .selectFrom('persons')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('company_id', '=', companyId)
              .where('id', 'in', part)
              .executeTakeFirstOrThrow();
            if (Number(n.n) !== part.length) throw notFound();
          }
          throw invalid(body.cells.some((c) => !members.has(c.person_id)) ? 'cells' : 'apply', 'reasons.notInRule');
        }

        /** person|date → the row to store, or null to clear it */
        const next = new Map<string, { shift_id: number; cycle_id: number | null } | null>();
        for (const a of body.apply ?? []) {
          const cycle = cycles.find((c) => key(c.id) === a.cycle_key);
          if (!cycle || !cycle.days.length) throw invalid('apply', 'reasons.invalid');
          if (a.from_date > a.to_date) throw invalid('apply', 'reasons.dateOrder');
          if (!inMonth(a.from_date) || !inMonth(a.to_date)) throw invalid('apply', 'reasons.outsideMonth', { month: body.month });
          if (a.start_index >= cycle.days.length) throw invalid('apply', 'reasons.invalid');
          for (const [i, date] of datesBetween(a.from_date, a.to_date).entries()) {
            const shiftId = cycle.days[(a.start_index + i) % cycle.days.length]!;
            for (const p of a.person_ids) next.set(`${p}|${date}`, { shift_id: shiftId, cycle_id: cycle.id });
          }
        }
        const seen = new Set<string>();
        for (const c of body.cells) {
          const k = `${c.person_id}|${c.date}`;
          if (seen.has(k)) throw invalid('cells', 'reasons.duplicate');
          seen.add(k);
          if (!inMonth(c.date)) throw invalid('cells', 'reasons.outsideMonth', { month: body.month });
          if (c.shift_key === null) next.set(k, null);
          else if (c.shift_key === '') next.set(k, { shift_id: 0, cycle_id: null });
          else {
            const id = shiftByKey.get(c.shift_key);
            if (id === undefined) throw invalid('cells', 'reasons.unknownShift');
            next.set(k, { shift_id: id, cycle_id: null });
          }
        }

        const current = await gridRows(trx, companyId, members, from, to);
        if (gridHash(current) !== body.hash) throw conflict('errors.scheduleStale');

        const before = new Map(current.map((r) => [`${r.person_id}|${r.date}`, r]));
        const upserts: GridRow[] = [];
        const clears = new Map<number, string[]>();
        /** person → the dates that change */
        const changed = new Map<number, string[]>();
        for (const [k, want] of next) {
          const [p, date] = [Number(k.slice(0, k.indexOf('|'))), k.slice(k.indexOf('|') + 1)];
          const had = before.get(k);
          if (want === null) {
            if (!had) continue;
            (clears.get(p) ?? clears.set(p, []).get(p)!).push(date);
          } else {
            if (had && had.shift_id === want.shift_id && had.cycle_id === want.cycle_id) continue;
            upserts.push({ person_id: p, date, ...want });
          }
          (changed.get(p) ?? changed.set(p, []).get(p)!).push(date);
        }
        // A closed period's cells are not edited (#17): refused, naming the period.
        const dates = [...changed.values()].flat().sort();
        if (dates.length) {
          const closed = await closedPeriods(trx, companyId, dates[0], dates.at(-1));
          const hit = closed.find((c) => dates.some((d) => isClosed([c], d)));
          if (hit) throw conflict('errors.periodClosed', { from: hit.from_date, to: hit.to_date });
        }
        for (const [p, dates] of clears)
          for (const part of chunks(dates))
            await trx.deleteFrom('attendance_schedule').where('company_id', '=', companyId).where('person_id', '=', p).where('date', 'in', part).execute();
        for (const part of chunks(upserts, 500))
          await trx
            .insertInto('attendance_schedule')
            .values(part.map((r) => ({ company_id: companyId, ...r })))
            .onConflict((oc) =>
              oc.columns(['person_id', 'date']).doUpdateSet((eb) => ({ shift_id: eb.ref('excluded.shift_id'), cycle_id: eb.ref('excluded.cycle_id') })),
            )
            .execute();

        // Queue exactly the changed days, person by person in the lock order (dirty.ts).
        const ranges = new Map<number, DirtyRange>();
        for (const [p, dates] of changed) {
          dates.sort();
          ranges.set(p, { from: dates[0]!, to: dates.at(-1)! });
        }
        await markDirtyRanges(trx, companyId, ranges);
        const count = [...changed.values()].reduce((n, d) => n + d.length, 0);
        if (count) await audit(trx, tenant, 'attendance', 'attendance.schedule.save', { id: rule.id, name: rule.name, month: body.month, count });
        return { hash: gridHash(await gridRows(trx, companyId, members, from, to)), changed: count };
      });
    },
  };
}
export type ScheduleService = ReturnType<typeof scheduleService>;
