import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * How a rule counts (#17): `worked_by` ('firstLast', today's first → last punch, or 'pairs', the sum of in/out
 * pairs), `count_off_day_punches` (1: punches on holidays and rest days are rest-day overtime, today's behaviour;
 * 0: ignored) and `overtime_needs_approval` (1: overtime counts only within approved overtime periods). Existing
 * rules keep today's results.
 *
 * Approved overtime applications now reach attendance as absences of kind 'overtime' (what rules counting only
 * approved overtime read): the ones approved before this migration get theirs here, as approval writes them. No
 * rule reads them yet, so no day needs recomputing.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('attendance_rules')
    .addColumn('worked_by', 'text', (c) => c.notNull().defaultTo('firstLast'))
    .execute();
  await db.schema
    .alterTable('attendance_rules')
    .addColumn('count_off_day_punches', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('attendance_rules')
    .addColumn('overtime_needs_approval', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  const approved = await db
    .selectFrom('workflow_applications as a')
    .innerJoin('workflow_apps as w', 'w.id', 'a.app_id')
    .select(['a.id', 'a.company_id', 'a.person_id', 'a.period_from', 'a.period_to', 'a.form_values', 'a.order_no', 'w.name'])
    .where('w.kind', '=', 'overtime')
    .where('a.status', '=', 1)
    .where('a.period_from', 'is not', null)
    .where('a.period_to', 'is not', null)
    .orderBy('a.id')
    .execute();
  const now = new Date().toISOString();
  const rows = [];
  for (const a of approved) {
    const from = Date.parse(a.period_from);
    const to = Date.parse(a.period_to);
    if (!(to > from)) continue;
    let reason = '';
    try {
      const values = JSON.parse(a.form_values) as { reason?: unknown };
      if (typeof values.reason === 'string') reason = values.reason;
    } catch {
      // a form without readable values: the app's name or the order number instead
    }
    rows.push({
      company_id: a.company_id,
      person_id: a.person_id,
      kind: 'overtime',
      from_at: new Date(from).toISOString(),
      to_at: new Date(to).toISOString(),
      reason: (reason || a.name || a.order_no).slice(0, 200),
      source: 'approval',
      created_by: null,
      created_at: now,
      application_id: a.id,
    });
  }
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('attendance_absences')
      .values(rows.slice(i, i + 200))
      .execute();
}
