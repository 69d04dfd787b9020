import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

/**
 * Rule history and closed periods (#17 item 6). A rule version is the rule as it was from a date on (its row,
 * shifts and cycles as the recompute reads them, and its members), so an edit or a membership change applies from
 * its effective date and earlier days keep the rule they had. A rule without versions applies on every date. A
 * closed period (e.g. a month after payroll) is never recalculated nor edited until it is reopened.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('attendance_rule_versions'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('attendance_rules.id').onDelete('cascade'))
    /** YYYY-MM-DD in the company's zone; '0000-01-01' for "since always" (the state before the first dated edit) */
    .addColumn('effective_from', 'text', (c) => c.notNull())
    /** JSON: the rule as the recompute loads it (row, shifts, cycles) */
    .addColumn('rule', 'text', (c) => c.notNull())
    /** JSON [{kind, ref_id}] */
    .addColumn('members', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attendance_rule_versions_rule').on('attendance_rule_versions').columns(['rule_id', 'effective_from']).unique().execute();
  await db.schema.createIndex('attendance_rule_versions_company').on('attendance_rule_versions').columns(['company_id']).execute();

  await withId(db.schema.createTable('attendance_closed_periods'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('from_date', 'text', (c) => c.notNull())
    .addColumn('to_date', 'text', (c) => c.notNull())
    .addColumn('closed_by', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attendance_closed_periods_company').on('attendance_closed_periods').columns(['company_id', 'from_date']).execute();
}
