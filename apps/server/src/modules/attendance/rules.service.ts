import { AUTO_SHIFT_KEY, DEFAULT_TIME_ZONE, DEVICE_OPTION_DEFAULTS, type Rule, type RuleInput, type RuleUpdate } from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { chunks } from '../../lib/chunks.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { audit } from '../logs/logs.service.ts';
import { markDirty, markDirtyRanges, type DirtyRange } from './dirty.ts';
import { assertOpen } from './periods.service.ts';
import { loadRule } from './recompute.service.ts';
import { AUTO_SHIFT_ID } from './plans.ts';

type ShiftRow = Awaited<ReturnType<typeof shiftsOf>>[number];
const shiftsOf = (db: Executor, ruleIds: number[]) =>
  ruleIds.length ? db.selectFrom('attendance_shifts').selectAll().where('rule_id', 'in', ruleIds).orderBy('sort').orderBy('id').execute() : Promise.resolve([]);

/** The departments below these (their whole subtrees), so a rule on a department covers its sub-departments. */
export async function withDescendants(db: Executor, companyId: number, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const all = await db.selectFrom('departments').select(['id', 'parent_id']).where('company_id', '=', companyId).execute();
  const children = new Map<number, number[]>();
  for (const d of all) children.set(d.parent_id, [...(children.get(d.parent_id) ?? []), d.id]);
  const out = new Set<number>();
  const stack = [...ids];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return [...out];
}

/** The working people a rule's members cover: directly, or through a department (and its sub-departments). */
export async function coveredPeople(db: Executor, companyId: number, personIds: number[], departmentIds: number[]) {
  const direct = new Set(personIds);
  const viaDept = new Set<number>();
  for (const part of chunks(await withDescendants(db, companyId, departmentIds))) {
    const rows = await db
      .selectFrom('person_departments as pd')
      .innerJoin('persons as p', 'p.id', 'pd.person_id')
      .select('pd.person_id')
      .where('pd.company_id', '=', companyId)
      .where('pd.department_id', 'in', part)
      .where('p.work_status', '=', 1)
      .execute();
    for (const r of rows) viaDept.add(r.person_id);
  }
  return { direct, viaDept };
}

/**
 * spec §4: deleting a cycle template clears its references from the schedule data: the grid cells the template
 * wrote are removed (those days follow the rule's running cycle again, or rest), and those person-days are queued.
 */
async function clearCycleCells(trx: Executor, companyId: number, cycleIds: number[]) {
  if (!cycleIds.length) return;
  const rows = await trx
    .selectFrom('attendance_schedule')
    .select(['person_id', 'date'])
    .where('company_id', '=', companyId)
    .where('cycle_id', 'in', cycleIds)
    .execute();
  if (!rows.length) return;
  await trx.deleteFrom('attendance_schedule').where('company_id', '=', companyId).where('cycle_id', 'in', cycleIds).execute();
  const span = new Map<number, DirtyRange>();
  for (const r of rows) {
    const s = span.get(r.person_id);
    span.set(r.person_id, s ? { from: r.date < s.from ? r.date : s.from, to: r.date > s.to ? r.date : s.to } : { from: r.date, to: r.date });
  }
  await markDirtyRanges(trx, companyId, span);
}

/** Today and the days of this month before it, in the company's zone: what a rule change recomputes. */
function monthToDate(zone = DEFAULT_TIME_ZONE): DirtyRange {
  const today = todayIn(zone);
  return { from: `${today.slice(0, 8)}01`, to: today };
}
const todayIn = (zone = DEFAULT_TIME_ZONE) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());

/** A version's date for "since always": the rule as it was before its first dated edit. */
const SINCE_ALWAYS = '0000-01-01';

/**
 * Keeps the rule as it is now (as the recompute loads it, whatever its columns, with its members) as its version
 * from `from` on; versions from that date on are replaced (#17).
 */
async function keepVersion(trx: Executor, companyId: number, ruleId: number, from: string) {
  const rule = await loadRule(trx, ruleId);
  const members = await trx.selectFrom('attendance_rule_members').select(['kind', 'ref_id']).where('rule_id', '=', ruleId).execute();
  await trx.deleteFrom('attendance_rule_versions').where('rule_id', '=', ruleId).where('effective_from', '>=', from).execute();
  await trx
    .insertInto('attendance_rule_versions')
    .values({
      company_id: companyId,
      rule_id: ruleId,
      effective_from: from,
      rule: JSON.stringify(rule),
      members: JSON.stringify(members),
      created_at: nowIso(),
    })
    .execute();
}

export function rulesService(database: Database) {
  const { db } = database;

  async function present(rows: Awaited<ReturnType<typeof loadRules>>, companyId: number): Promise<Rule[]> {
    const ids = rows.map((r) => r.id);
    const shifts = await shiftsOf(db, ids);
    const cycles = ids.length ? await db.selectFrom('attendance_cycles').selectAll().where('rule_id', 'in', ids).orderBy('id').execute() : [];
    const members = ids.length ? await db.selectFrom('attendance_rule_members').selectAll().where('rule_id', 'in', ids).execute() : [];
    const versions = ids.length
      ? await db
          .selectFrom('attendance_rule_versions')
          .select(['id', 'rule_id', 'effective_from', 'created_at'])
          .where('rule_id', 'in', ids)
          .orderBy('effective_from', 'desc')
          .execute()
      : [];
    const personIds = [...new Set(members.filter((m) => m.kind === 'person').map((m) => m.ref_id))];
    const deptIds = [...new Set(members.filter((m) => m.kind === 'department').map((m) => m.ref_id))];
    const names = new Map<string, string>();
    for (const part of chunks(personIds))
      for (const p of await db.selectFrom('persons').select(['id', 'name']).where('company_id', '=', companyId).where('id', 'in', part).execute())
        names.set(`person:${p.id}`, p.name);
    for (const part of chunks(deptIds))
      for (const d of await db.selectFrom('departments').select(['id', 'name']).where('company_id', '=', companyId).where('id', 'in', part).execute())
        names.set(`department:${d.id}`, d.name);
    const out: Rule[] = [];
    for (const r of rows) {
      const mine = members.filter((m) => m.rule_id === r.id && names.has(`${m.kind}:${m.ref_id}`));
      const refs = (kind: string) => mine.filter((m) => m.kind === kind).map((m) => ({ id: m.ref_id, name: names.get(`${kind}:${m.ref_id}`)! }));
      const covered = await coveredPeople(
        db,
        companyId,
        refs('person').map((x) => x.id),
        refs('department').map((x) => x.id),
      );
      const key = (id: number) => (id === AUTO_SHIFT_ID ? AUTO_SHIFT_KEY : id ? String(id) : '');
      const weekdays = parseJson<Record<string, number[]>>(r.weekdays, {});
      out.push({
        id: r.id,
        name: r.name,
        mode: r.mode as Rule['mode'],
        model: r.model as Rule['model'],
        use_direction: r.use_direction === 1,
        overtime_min_min: r.overtime_min_min,
        late_absent_after_min: r.late_absent_after_min,
        half_day_below_min: r.half_day_below_min,
        absent_below_min: r.absent_below_min,
        alarm_temp: r.alarm_temp,
        worked_by: r.worked_by === 'pairs' ? 'pairs' : 'firstLast',
        count_off_day_punches: r.count_off_day_punches !== 0,
        overtime_needs_approval: r.overtime_needs_approval === 1,
        shifts: shifts.filter((s) => s.rule_id === r.id).map((s) => presentShift(s)),
        weekdays: Object.fromEntries(Object.entries(weekdays).map(([d, list]) => [d, list.map(key)])),
        auto_shifts: parseJson<number[]>(r.auto_shift_ids, []).map(key),
        day_boundary: r.day_boundary,
        required_min: r.required_min,
        cycles: cycles
          .filter((c) => c.rule_id === r.id)
          .map((c) => ({ id: c.id, key: key(c.id), name: c.name, days: parseJson<number[]>(c.days, []).map(key) })),
        cycle_key: r.cycle_id ? key(r.cycle_id) : null,
        start_date: r.start_date,
        start_index: r.start_index,
        persons: refs('person'),
        departments: refs('department'),
        member_count: new Set([...covered.direct, ...covered.viaDept]).size,
        updated_at: r.updated_at,
        versions: versions
          .filter((v) => v.rule_id === r.id)
          .map((v) => ({ id: v.id, effective_from: v.effective_from === SINCE_ALWAYS ? null : v.effective_from, created_at: v.created_at })),
      });
    }
    return out;
  }

  const loadRules = (ex: Executor, companyId: number, id?: number) => {
    let q = ex.selectFrom('attendance_rules').selectAll().where('company_id', '=', companyId);
    if (id !== undefined) q = q.where('id', '=', id);
    return q.orderBy('name').orderBy('id').execute();
  };

  /** Checks what the shape cannot say: keys that point at shifts and cycles of this rule, and what each mode needs. */
  function check(input: RuleInput) {
    const keys = new Set(input.shifts.map((s) => s.key));
    if (keys.size !== input.shifts.length) throw invalid('shifts', 'reasons.duplicate');
    for (const s of input.shifts) {
      if (s.start === s.end) throw invalid('shifts', 'reasons.shiftEmpty');
      for (const b of s.breaks ?? []) if (b.start === b.end) throw invalid('shifts', 'reasons.shiftEmpty');
    }
    if (input.mode !== 'free' && !input.shifts.length) throw invalid('shifts', 'reasons.required');
    if (input.mode === 'fixed') {
      const days = Object.values(input.weekdays ?? {});
      if (!days.some((d) => d.length)) throw invalid('weekdays', 'reasons.noWorkday');
      if (days.flat().some((k) => k !== AUTO_SHIFT_KEY && !keys.has(k))) throw invalid('weekdays', 'reasons.unknownShift');
    }
    if (input.mode === 'shift') {
      const cycleKeys = new Set((input.cycles ?? []).map((c) => c.key));
      if (cycleKeys.size !== (input.cycles ?? []).length) throw invalid('cycles', 'reasons.duplicate');
      for (const c of input.cycles ?? [])
        if (c.days.some((k) => k !== '' && k !== AUTO_SHIFT_KEY && !keys.has(k))) throw invalid('cycles', 'reasons.unknownShift');
      if (input.cycle_key && !cycleKeys.has(input.cycle_key)) throw invalid('cycle_key', 'reasons.invalid');
      if (input.cycle_key && !input.start_date) throw invalid('start_date', 'reasons.required');
      const cycle = (input.cycles ?? []).find((c) => c.key === input.cycle_key);
      if (cycle && (input.start_index ?? 0) >= cycle.days.length) throw invalid('start_index', 'reasons.invalid');
    }
    checkAuto(input, keys);
    if (input.half_day_below_min != null && input.absent_below_min != null && input.absent_below_min > input.half_day_below_min)
      throw invalid('absent_below_min', 'reasons.invalid');
  }

  /**
   * Automatic shift matching (#17): the candidates are shifts of the rule; a weekday marked automatic has no other
   * shift; a rule that marks a weekday or cycle day automatic lists at least two candidates.
   */
  function checkAuto(input: RuleInput, keys: Set<string>) {
    const auto = input.mode === 'free' ? [] : (input.auto_shifts ?? []);
    if (auto.some((k) => !keys.has(k))) throw invalid('auto_shifts', 'reasons.unknownShift');
    const days = input.mode === 'fixed' ? Object.values(input.weekdays ?? {}) : [];
    if (days.some((d) => d.includes(AUTO_SHIFT_KEY) && d.length > 1)) throw invalid('weekdays', 'reasons.autoAlone');
    const used =
      (input.mode === 'fixed' && days.some((d) => d.includes(AUTO_SHIFT_KEY))) ||
      (input.mode === 'shift' && (input.cycles ?? []).some((c) => c.days.includes(AUTO_SHIFT_KEY)));
    if (used && auto.length < 2) throw invalid('auto_shifts', 'reasons.autoFew');
  }

  /** A person is under one rule at a time: another rule naming them the same way (directly, or by department) is refused. */
  async function checkConflicts(trx: Executor, tenant: Tenant, input: RuleInput, selfId: number) {
    const covered = await coveredPeople(trx, tenant.companyId, input.person_ids, input.department_ids);
    const others = (await loadRules(trx, tenant.companyId)).filter((r) => r.id !== selfId);
    for (const other of others) {
      const m = await trx.selectFrom('attendance_rule_members').selectAll().where('rule_id', '=', other.id).execute();
      const theirs = await coveredPeople(
        trx,
        tenant.companyId,
        m.filter((x) => x.kind === 'person').map((x) => x.ref_id),
        m.filter((x) => x.kind === 'department').map((x) => x.ref_id),
      );
      // Named directly here and there, or through departments here and there (a direct naming wins over a department).
      const clash = [...covered.direct]
        .filter((p) => theirs.direct.has(p))
        .concat([...covered.viaDept].filter((p) => theirs.viaDept.has(p) && !covered.direct.has(p) && !theirs.direct.has(p)));
      if (clash.length) {
        const people = await trx.selectFrom('persons').select('name').where('company_id', '=', tenant.companyId).where('id', 'in', clash.slice(0, 3)).execute();
        throw conflict('errors.ruleConflict', { rule: other.name, names: people.map((p) => p.name).join(', '), count: clash.length });
      }
    }
    return covered;
  }

  async function save(tenant: Tenant, input: RuleInput, id: number | null): Promise<Rule> {
    check(input);
    const ruleId = await transaction(db, async (trx) => {
      for (const part of chunks(input.person_ids)) {
        const n = await trx
          .selectFrom('persons')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', tenant.companyId)
          .where('kind', '=', 'employee')
          .where('id', 'in', part)
          .executeTakeFirstOrThrow();
        if (Number(n.n) !== part.length) throw invalid('person_ids');
      }
      for (const part of chunks(input.department_ids)) {
        const n = await trx
          .selectFrom('departments')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', tenant.companyId)
          .where('id', 'in', part)
          .executeTakeFirstOrThrow();
        if (Number(n.n) !== part.length) throw invalid('department_ids');
      }
      let before: number[] = [];
      if (id !== null) {
        if (!(await loadRules(trx, tenant.companyId, id)).length) throw notFound();
        before = await membersOf(trx, tenant.companyId, id);
      }
      // #17: an edit applies from its date (default today); a new rule without one covers earlier days too.
      const today = todayIn(tenant.timeZone);
      const effective = input.effective_from ?? (id === null ? null : today);
      if (effective) await assertOpen(trx, tenant.companyId, effective, effective > today ? effective : today);
      // The rule as it was is kept as history before its first dated edit (it applied "since always").
      if (id !== null && !(await trx.selectFrom('attendance_rule_versions').select('id').where('rule_id', '=', id).executeTakeFirst()))
        await keepVersion(trx, tenant.companyId, id, SINCE_ALWAYS);
      const covered = await checkConflicts(trx, tenant, input, id ?? 0);
      const now = nowIso();
      const row = {
        name: input.name.trim(),
        mode: input.mode,
        model: input.model ?? 'default',
        use_direction: input.use_direction ? 1 : 0,
        overtime_min_min: input.overtime_min_min ?? 30,
        late_absent_after_min: input.late_absent_after_min ?? null,
        half_day_below_min: input.half_day_below_min ?? null,
        absent_below_min: input.absent_below_min ?? null,
        alarm_temp: input.alarm_temp ?? DEVICE_OPTION_DEFAULTS.alarmTemp,
        worked_by: input.worked_by ?? 'firstLast',
        count_off_day_punches: input.count_off_day_punches === false ? 0 : 1,
        overtime_needs_approval: input.overtime_needs_approval ? 1 : 0,
        day_boundary: input.day_boundary ?? '05:00',
        required_min: input.required_min ?? 480,
        start_date: input.start_date ?? null,
        start_index: input.start_index ?? 0,
        updated_at: now,
      };
      let rid = id;
      if (rid === null) {
        rid = (
          await trx
            .insertInto('attendance_rules')
            .values({ ...row, company_id: tenant.companyId, created_at: now })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      } else await trx.updateTable('attendance_rules').set(row).where('company_id', '=', tenant.companyId).where('id', '=', rid).execute();

      // Shifts: a key that is an existing shift's id edits it; others are new; the rest are removed.
      const existing = await shiftsOf(trx, [rid]);
      const idByKey = new Map<string, number>();
      for (const [sort, s] of input.shifts.entries()) {
        const values = {
          name: s.name.trim(),
          start: s.start,
          end: s.end,
          breaks: JSON.stringify(s.breaks ?? []),
          late_grace_min: s.late_grace_min ?? 0,
          early_grace_min: s.early_grace_min ?? 0,
          check_in_before_min: s.check_in_before_min ?? 120,
          check_in_after_min: s.check_in_after_min ?? 240,
          check_out_before_min: s.check_out_before_min ?? 240,
          check_out_after_min: s.check_out_after_min ?? 240,
          sort,
        };
        const old = existing.find((e) => String(e.id) === s.key);
        if (old) {
          await trx.updateTable('attendance_shifts').set(values).where('id', '=', old.id).execute();
          idByKey.set(s.key, old.id);
        } else {
          const made = await trx
            .insertInto('attendance_shifts')
            .values({ ...values, company_id: tenant.companyId, rule_id: rid })
            .returning('id')
            .executeTakeFirstOrThrow();
          idByKey.set(s.key, made.id);
        }
      }
      const gone = existing.filter((e) => ![...idByKey.values()].includes(e.id)).map((e) => e.id);
      if (gone.length) {
        await trx.deleteFrom('attendance_shifts').where('id', 'in', gone).execute();
        await trx.deleteFrom('attendance_schedule').where('company_id', '=', tenant.companyId).where('shift_id', 'in', gone).execute();
      }
      const idOf = (k: string) => (k === AUTO_SHIFT_KEY ? AUTO_SHIFT_ID : idByKey.get(k)!);
      const weekdays = Object.fromEntries(Object.entries(input.weekdays ?? {}).map(([d, list]) => [d, list.map(idOf)]));
      // Cycles likewise; a removed cycle template is cleared from the grid (spec §4).
      const oldCycles = await trx.selectFrom('attendance_cycles').select('id').where('rule_id', '=', rid).execute();
      const cycleIdByKey = new Map<string, number>();
      for (const c of input.cycles ?? []) {
        const days = JSON.stringify(c.days.map((k) => (k ? idOf(k) : 0)));
        const old = oldCycles.find((o) => String(o.id) === c.key);
        if (old) {
          await trx.updateTable('attendance_cycles').set({ name: c.name.trim(), days }).where('id', '=', old.id).execute();
          cycleIdByKey.set(c.key, old.id);
        } else {
          const made = await trx
            .insertInto('attendance_cycles')
            .values({ company_id: tenant.companyId, rule_id: rid, name: c.name.trim(), days })
            .returning('id')
            .executeTakeFirstOrThrow();
          cycleIdByKey.set(c.key, made.id);
        }
      }
      const goneCycles = oldCycles.filter((o) => ![...cycleIdByKey.values()].includes(o.id)).map((o) => o.id);
      if (goneCycles.length) {
        await trx.deleteFrom('attendance_cycles').where('id', 'in', goneCycles).execute();
        await clearCycleCells(trx, tenant.companyId, goneCycles);
      }
      await trx
        .updateTable('attendance_rules')
        .set({
          weekdays: JSON.stringify(weekdays),
          auto_shift_ids: JSON.stringify(input.mode === 'free' ? [] : (input.auto_shifts ?? []).map(idOf)),
          cycle_id: input.cycle_key ? (cycleIdByKey.get(input.cycle_key) ?? null) : null,
        })
        .where('id', '=', rid)
        .execute();

      await trx.deleteFrom('attendance_rule_members').where('rule_id', '=', rid).execute();
      const members = [
        ...input.person_ids.map((ref_id) => ({ company_id: tenant.companyId, rule_id: rid, kind: 'person', ref_id })),
        ...input.department_ids.map((ref_id) => ({ company_id: tenant.companyId, rule_id: rid, kind: 'department', ref_id })),
      ];
      for (const part of chunks(members, 500)) if (part.length) await trx.insertInto('attendance_rule_members').values(part).execute();

      if (effective) await keepVersion(trx, tenant.companyId, rid, effective);
      // Everyone the rule covered or covers now is recomputed from the effective date (else this month so far).
      const affected = [...new Set([...before, ...covered.direct, ...covered.viaDept])];
      if (!effective) await markDirty(trx, tenant.companyId, affected, monthToDate(tenant.timeZone));
      else if (effective <= today) await markDirty(trx, tenant.companyId, affected, { from: effective, to: today });
      const from = effective ? { effective_from: effective } : {};
      if (id === null) await audit(trx, tenant, 'attendance', 'attendance.rule.create', { id: rid, name: row.name, ...from });
      else await audit(trx, tenant, 'attendance', 'attendance.rule.update', { id: rid, name: row.name, ...from });
      return rid;
    });
    return (await present(await loadRules(db, tenant.companyId, ruleId), tenant.companyId))[0]!;
  }

  async function membersOf(ex: Executor, companyId: number, ruleId: number): Promise<number[]> {
    const m = await ex.selectFrom('attendance_rule_members').selectAll().where('rule_id', '=', ruleId).execute();
    const c = await coveredPeople(
      ex,
      companyId,
      m.filter((x) => x.kind === 'person').map((x) => x.ref_id),
      m.filter((x) => x.kind === 'department').map((x) => x.ref_id),
    );
    return [...new Set([...c.direct, ...c.viaDept])];
  }

  return {
    async list(tenant: Tenant) {
      const items = await present(await loadRules(db, tenant.companyId), tenant.companyId);
      return { items, total: items.length };
    },
    async info(tenant: Tenant, id: number) {
      const rows = await loadRules(db, tenant.companyId, id);
      if (!rows.length) throw notFound();
      return (await present(rows, tenant.companyId))[0]!;
    },
    create: (tenant: Tenant, input: RuleInput) => save(tenant, input, null),
    update: (tenant: Tenant, input: RuleUpdate) => save(tenant, input, input.id),
    async remove(tenant: Tenant, id: number) {
      await transaction(db, async (trx) => {
        const rows = await loadRules(trx, tenant.companyId, id);
        if (!rows.length) throw notFound();
        const affected = await membersOf(trx, tenant.companyId, id);
        const shiftIds = (await shiftsOf(trx, [id])).map((s) => s.id);
        if (shiftIds.length) await trx.deleteFrom('attendance_schedule').where('company_id', '=', tenant.companyId).where('shift_id', 'in', shiftIds).execute();
        // Rest days a template of this rule wrote (shift 0) go with it too.
        const cycleIds = (await trx.selectFrom('attendance_cycles').select('id').where('rule_id', '=', id).execute()).map((c) => c.id);
        await clearCycleCells(trx, tenant.companyId, cycleIds);
        await trx.deleteFrom('attendance_rules').where('company_id', '=', tenant.companyId).where('id', '=', id).execute();
        await markDirty(trx, tenant.companyId, affected, monthToDate(tenant.timeZone));
        await audit(trx, tenant, 'attendance', 'attendance.rule.delete', { id, name: rows[0]!.name });
      });
    },
  };
}
export type RulesService = ReturnType<typeof rulesService>;

export function presentShift(s: ShiftRow) {
  return {
    id: s.id,
    key: String(s.id),
    name: s.name,
    start: s.start,
    end: s.end,
    breaks: parseJson<{ start: string; end: string; deducted: boolean }[]>(s.breaks, []),
    late_grace_min: s.late_grace_min,
    early_grace_min: s.early_grace_min,
    check_in_before_min: s.check_in_before_min,
    check_in_after_min: s.check_in_after_min,
    check_out_before_min: s.check_out_before_min,
    check_out_after_min: s.check_out_after_min,
  };
}
