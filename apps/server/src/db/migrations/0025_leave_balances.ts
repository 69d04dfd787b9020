import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

/**
 * Leave balances (#17 item 15): the balance rule of a leave type, quotas set by hand or import per (person, leave
 * type, year), and the ledger of approved leave, one row per application (its unique key makes a retried approval
 * deduct once); a withdrawal or cancellation marks the row returned. Days to the half day, 8-byte reals.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const real = dialect === 'postgres' ? 'double precision' : 'real';
  await db.schema
    .createTable('leave_policies')
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('leave_type', 'text', (c) => c.notNull())
    .addColumn('tracked', 'integer', (c) => c.notNull())
    .addColumn('allow_negative', 'integer', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('days', real, (c) => c.notNull())
    /** JSON [{years, days}] */
    .addColumn('tiers', 'text', (c) => c.notNull())
    .addColumn('accrual', 'text', (c) => c.notNull())
    .addColumn('carry_max', real, (c) => c.notNull())
    .addColumn('carry_months', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('leave_policies_pk', ['company_id', 'leave_type'])
    .execute();
  await withId(db.schema.createTable('leave_quotas'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
    .addColumn('leave_type', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('quota', real, (c) => c.notNull())
    /** null: computed from the year before under the rule */
    .addColumn('carried', real)
    /** 'manual' | 'import' */
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('leave_quotas_key', ['company_id', 'person_id', 'leave_type', 'year'])
    .execute();
  await withId(db.schema.createTable('leave_ledger'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
    .addColumn('application_id', 'integer', (c) => c.notNull().unique().references('workflow_applications.id').onDelete('cascade'))
    .addColumn('leave_type', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    /** the leave's first day, 'YYYY-MM-DD' in the company's zone */
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('days', real, (c) => c.notNull())
    .addColumn('minutes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('returned_at', 'text')
    .execute();
  await db.schema.createIndex('leave_ledger_person').on('leave_ledger').columns(['company_id', 'person_id', 'year']).execute();
}
