import type { Holiday, HolidayInput, HolidayUpdate } from '@faceadmin/shared';
import type { Selectable } from 'kysely';
import type { Database, Executor } from '../../db/database.ts';
import type { AttendanceHolidayTable } from '../../db/schema.ts';
import { transaction } from '../../db/transaction.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { audit } from '../logs/logs.service.ts';
import { markDirty } from './dirty.ts';
import { coveredPeople } from './rules.service.ts';

type HolidayRow = Selectable<AttendanceHolidayTable>;
const rowsOf = (ex: Executor, companyId: number) => ex.selectFrom('attendance_holidays').selectAll().where('company_id', '=', companyId);

/** Holidays and working days moved onto a weekend (调休): a holiday day is not an absence; a moved day is a working day. */
export function holidaysService(database: Database) {
  const { db } = database;

  async function present(rows: HolidayRow[], companyId: number): Promise<Holiday[]> {
    const rules = new Map(
      (await db.selectFrom('attendance_rules').select(['id', 'name']).where('company_id', '=', companyId).execute()).map((r) => [r.id, r.name]),
    );
    return rows.map((h) => ({
      id: h.id,
      name: h.name,
      kind: h.kind as Holiday['kind'],
      from_date: h.from_date,
      to_date: h.to_date,
      as_weekday: h.as_weekday,
      rules: parseJson<number[]>(h.rule_ids, [])
        .filter((id) => rules.has(id))
        .map((id) => ({ id, name: rules.get(id)! })),
    }));
  }

  /** The people a holiday concerns: its rules' members, or everyone under any rule. */
  async function affected(ex: Executor, companyId: number, ruleIds: number[]): Promise<number[]> {
    let q = ex.selectFrom('attendance_rule_members').selectAll().where('company_id', '=', companyId);
    if (ruleIds.length) q = q.where('rule_id', 'in', ruleIds);
    const m = await q.execute();
    const c = await coveredPeople(
      ex,
      companyId,
      m.filter((x) => x.kind === 'person').map((x) => x.ref_id),
      m.filter((x) => x.kind === 'department').map((x) => x.ref_id),
    );
    return [...new Set([...c.direct, ...c.viaDept])];
  }

  async function save(tenant: Tenant, input: HolidayInput, id: number | null): Promise<Holiday> {
    if (input.from_date > input.to_date) throw invalid('to_date', 'reasons.dateOrder');
    const days = (Date.parse(input.to_date) - Date.parse(input.from_date)) / 86_400_000;
    if (days > 366) throw invalid('to_date', 'reasons.invalid');
    const holidayId = await transaction(db, async (trx) => {
      if (input.rule_ids.length) {
        const known = await trx
          .selectFrom('attendance_rules')
          .select('id')
          .where('company_id', '=', tenant.companyId)
          .where('id', 'in', input.rule_ids)
          .execute();
        if (known.length !== input.rule_ids.length) throw invalid('rule_ids');
      }
      const row = {
        name: input.name.trim(),
        kind: input.kind,
        from_date: input.from_date,
        to_date: input.to_date,
        as_weekday: input.kind === 'workday' ? (input.as_weekday ?? 1) : null,
        rule_ids: JSON.stringify(input.rule_ids),
      };
      let hid = id;
      let before: HolidayRow | undefined;
      if (hid === null) {
        hid = (
          await trx
            .insertInto('attendance_holidays')
            .values({ ...row, company_id: tenant.companyId, created_at: nowIso() })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      } else {
        before = await rowsOf(trx, tenant.companyId).where('id', '=', hid).executeTakeFirst();
        if (!before) throw notFound();
        await trx.updateTable('attendance_holidays').set(row).where('company_id', '=', tenant.companyId).where('id', '=', hid).execute();
      }
      const people = await affected(trx, tenant.companyId, [...input.rule_ids, ...parseJson<number[]>(before?.rule_ids ?? '[]', [])]);
      const from = before && before.from_date < input.from_date ? before.from_date : input.from_date;
      const to = before && before.to_date > input.to_date ? before.to_date : input.to_date;
      await markDirty(trx, tenant.companyId, people, { from, to });
      if (id === null) await audit(trx, tenant, 'attendance', 'attendance.holiday.create', { id: hid, name: row.name });
      else await audit(trx, tenant, 'attendance', 'attendance.holiday.update', { id: hid, name: row.name });
      return hid;
    });
    return (await present([(await rowsOf(db, tenant.companyId).where('id', '=', holidayId).executeTakeFirst())!], tenant.companyId))[0]!;
  }

  return {
    async list(tenant: Tenant, year?: number) {
      let q = rowsOf(db, tenant.companyId);
      if (year) q = q.where('to_date', '>=', `${year}-01-01`).where('from_date', '<=', `${year}-12-31`);
      const items = await present(await q.orderBy('from_date').orderBy('id').execute(), tenant.companyId);
      return { items, total: items.length };
    },
    create: (tenant: Tenant, input: HolidayInput) => save(tenant, input, null),
    update: (tenant: Tenant, input: HolidayUpdate) => save(tenant, input, input.id),
    async remove(tenant: Tenant, id: number) {
      await transaction(db, async (trx) => {
        const h = await rowsOf(trx, tenant.companyId).where('id', '=', id).executeTakeFirst();
        if (!h) throw notFound();
        await trx.deleteFrom('attendance_holidays').where('id', '=', id).execute();
        await markDirty(trx, tenant.companyId, await affected(trx, tenant.companyId, parseJson<number[]>(h.rule_ids, [])), {
          from: h.from_date,
          to: h.to_date,
        });
        await audit(trx, tenant, 'attendance', 'attendance.holiday.delete', { id, name: h.name });
      });
    },
  };
}
export type HolidaysService = ReturnType<typeof holidaysService>;
