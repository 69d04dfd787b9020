import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

/**
 * Attendance (issue #10): rules with their shifts and schedule cycles, who each rule covers, the shift grid,
 * holidays (and working days moved onto a weekend), approved absences, and one stored result per person-day
 * with its explanation, plus the queue of person-days to recompute.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Attendance reads punches a person at a time (a day and its neighbours, a month): 0004 dropped this index
  // for ingestion speed when nothing read by person; the engine does (bench/attendance.bench.ts measures both).
  await db.schema.createIndex('punches_person_time').on('punches').columns(['person_id', 'time']).execute();
  await withId(db.schema.createTable('attendance_rules'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** fixed | shift | free */
    .addColumn('mode', 'text', (c) => c.notNull())
    /** default | temperature | health | alcohol */
    .addColumn('model', 'text', (c) => c.notNull().defaultTo('default'))
    .addColumn('use_direction', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('overtime_min_min', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('late_absent_after_min', 'integer')
    .addColumn('half_day_below_min', 'integer')
    .addColumn('absent_below_min', 'integer')
    /** fixed mode: JSON {"1": [shift ids], …, "0": []} by weekday (0 = Sunday) */
    .addColumn('weekdays', 'text', (c) => c.notNull().defaultTo('{}'))
    /** free mode */
    .addColumn('day_boundary', 'text', (c) => c.notNull().defaultTo('05:00'))
    .addColumn('required_min', 'integer', (c) => c.notNull().defaultTo(480))
    /** shift mode: the cycle that runs from start_date, starting on its day start_index (0-based) */
    .addColumn('cycle_id', 'integer')
    .addColumn('start_date', 'text')
    .addColumn('start_index', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attendance_rules_company').on('attendance_rules').column('company_id').execute();

  await withId(db.schema.createTable('attendance_shifts'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('attendance_rules.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('end', 'text', (c) => c.notNull())
    /** JSON [{start, end, deducted}] */
    .addColumn('breaks', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('late_grace_min', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('early_grace_min', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('check_in_before_min', 'integer', (c) => c.notNull().defaultTo(120))
    .addColumn('check_in_after_min', 'integer', (c) => c.notNull().defaultTo(240))
    .addColumn('check_out_before_min', 'integer', (c) => c.notNull().defaultTo(240))
    .addColumn('check_out_after_min', 'integer', (c) => c.notNull().defaultTo(240))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('attendance_shifts_rule').on('attendance_shifts').column('rule_id').execute();

  await withId(db.schema.createTable('attendance_cycles'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('attendance_rules.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** JSON [shift id | 0 for rest], one per day of the cycle */
    .addColumn('days', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attendance_cycles_rule').on('attendance_cycles').column('rule_id').execute();

  await db.schema
    .createTable('attendance_rule_members')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('attendance_rules.id').onDelete('cascade'))
    /** person | department */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('attendance_rule_members_pk', ['rule_id', 'kind', 'ref_id'])
    .execute();
  await db.schema.createIndex('attendance_rule_members_ref').on('attendance_rule_members').columns(['company_id', 'kind', 'ref_id']).execute();

  /** The shift grid (free scheduling): one row per person and date; shift_id 0 is a rest day. */
  await db.schema
    .createTable('attendance_schedule')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('shift_id', 'integer', (c) => c.notNull())
    .addColumn('cycle_id', 'integer')
    .addPrimaryKeyConstraint('attendance_schedule_pk', ['person_id', 'date'])
    .execute();
  await db.schema.createIndex('attendance_schedule_company_date').on('attendance_schedule').columns(['company_id', 'date']).execute();

  await withId(db.schema.createTable('attendance_holidays'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** holiday: days off; workday: a working day moved onto a weekend (调休) */
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('holiday'))
    .addColumn('from_date', 'text', (c) => c.notNull())
    .addColumn('to_date', 'text', (c) => c.notNull())
    /** workday: the weekday whose schedule the moved day follows (1 = Monday … 0 = Sunday) */
    .addColumn('as_weekday', 'integer')
    /** JSON [rule ids]; [] means every rule */
    .addColumn('rule_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attendance_holidays_company').on('attendance_holidays').columns(['company_id', 'from_date']).execute();

  await withId(db.schema.createTable('attendance_absences'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
    /** leave | out | supplement */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('from_at', 'text', (c) => c.notNull())
    .addColumn('to_at', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(emptyText))
    /** manual (an administrator) | approval (a workflow) */
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('manual'))
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attendance_absences_person').on('attendance_absences').columns(['person_id', 'from_at']).execute();

  /** One result per person-day, with its explanation (JSON); a manual result stands until removed. */
  await db.schema
    .createTable('attendance_days')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('rule_id', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('late_min', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('early_min', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('worked_min', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('overtime_min', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('manual_status', 'text')
    .addColumn('manual_reason', 'text')
    .addColumn('computed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('attendance_days_pk', ['person_id', 'date'])
    .execute();
  await db.schema.createIndex('attendance_days_company_date').on('attendance_days').columns(['company_id', 'date', 'status']).execute();

  /**
   * Person-days waiting to be recomputed (a punch, a rule or schedule change, a holiday, an absence): one row per
   * person holding the range of dates still to do, widened by each new change (a month for 10,000 people is
   * 10,000 rows, not 310,000).
   */
  await db.schema
    .createTable('attendance_dirty')
    .addColumn('person_id', 'integer', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('from_date', 'text', (c) => c.notNull())
    .addColumn('to_date', 'text', (c) => c.notNull())
    .addColumn('queued_at', 'text', (c) => c.notNull())
    .execute();
}
