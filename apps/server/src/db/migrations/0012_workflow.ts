import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

/**
 * Approval workflows (issue #11): apps with versioned forms and processes, applications with their steps and
 * each approver's task, the person (employee) sessions and one-time sign-in links of the self-service page, the
 * persons' inbox, and the link from an approved absence back to its application. Built-in apps are created per
 * company on first use (and with every new company), so nothing is seeded here.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('workflow_apps'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('icon', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    /** leave | trip | overtime | supplement | custom */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    /** everyone | departments | people, with the ids (JSON arrays) */
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo('everyone'))
    .addColumn('department_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('person_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('form_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('process_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workflow_apps_company').on('workflow_apps').columns(['company_id', 'sort']).execute();
  // One built-in app of each kind per company, however many first reads race to create them.
  await db.schema.createIndex('workflow_apps_builtin').on('workflow_apps').columns(['company_id', 'kind']).unique().where(sql.ref('builtin'), '=', 1).execute();

  for (const table of ['workflow_forms', 'workflow_processes'] as const) {
    await withId(db.schema.createTable(table), dialect)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      .addColumn('app_id', 'integer', (c) => c.notNull().references('workflow_apps.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      /** the form schema / process tree as JSON */
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_by', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex(`${table}_version`).on(table).columns(['app_id', 'version']).unique().execute();
  }

  await withId(db.schema.createTable('workflow_applications'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('app_id', 'integer', (c) => c.notNull().references('workflow_apps.id').onDelete('cascade'))
    .addColumn('order_no', 'text', (c) => c.notNull())
    .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
    .addColumn('form_version', 'integer', (c) => c.notNull())
    .addColumn('process_version', 'integer', (c) => c.notNull())
    .addColumn('form_values', 'text', (c) => c.notNull())
    /** spec §4: 0 pending, 1 approved, -1 rejected; -2 withdrawn or cancelled */
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    /** self | admin | import */
    .addColumn('source', 'text', (c) => c.notNull())
    /** the route chosen at submission: the approver and cc nodes in order (JSON) */
    .addColumn('plan', 'text', (c) => c.notNull().defaultTo('[]'))
    /** the plan's next node to start */
    .addColumn('plan_index', 'integer', (c) => c.notNull().defaultTo(0))
    /** what attendance reads: the leave type and period, and the period's working-time duration */
    .addColumn('leave_type', 'text')
    .addColumn('period_from', 'text')
    .addColumn('period_to', 'text')
    .addColumn('duration_days', 'real')
    .addColumn('duration_hours', 'real')
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('workflow_applications_order').on('workflow_applications').columns(['company_id', 'order_no']).unique().execute();
  await db.schema.createIndex('workflow_applications_company').on('workflow_applications').columns(['company_id', 'created_at']).execute();
  await db.schema.createIndex('workflow_applications_person').on('workflow_applications').columns(['person_id', 'created_at']).execute();

  /** The timeline: submission, each started node (approver or cc), and the end (withdrawn, cancelled). */
  await withId(db.schema.createTable('workflow_steps'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('application_id', 'integer', (c) => c.notNull().references('workflow_applications.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('node_id', 'text')
    .addColumn('node_name', 'text', (c) => c.notNull().defaultTo(emptyText))
    /** submit | approver | cc | end */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('mode', 'text')
    /** submitted | pending | approved | rejected | skipped | cc | withdrawn | cancelled | imported */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text')
    .addColumn('actor_id', 'integer')
    .addColumn('actor_name', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .execute();
  await db.schema.createIndex('workflow_steps_application').on('workflow_steps').columns(['application_id', 'seq']).execute();

  /** One approver (or cc) of a step: a person, or the administrators as one task. */
  await withId(db.schema.createTable('workflow_tasks'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('application_id', 'integer', (c) => c.notNull().references('workflow_applications.id').onDelete('cascade'))
    .addColumn('step_id', 'integer', (c) => c.notNull().references('workflow_steps.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    /** person | admins */
    .addColumn('approver_kind', 'text', (c) => c.notNull())
    .addColumn('person_id', 'integer')
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(emptyText))
    /** pending | approved | rejected | skipped | cc */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(emptyText))
    /** an administrator who decided for the administrators (or over the step) */
    .addColumn('decided_by_admin', 'integer')
    .addColumn('decided_at', 'text')
    .execute();
  await db.schema.createIndex('workflow_tasks_step').on('workflow_tasks').columns(['step_id', 'seq']).execute();
  await db.schema.createIndex('workflow_tasks_person').on('workflow_tasks').columns(['person_id', 'state']).execute();

  await withId(db.schema.createTable('person_sessions'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .execute();
  await withId(db.schema.createTable('person_links'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await withId(db.schema.createTable('person_messages'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('application_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .execute();
  await db.schema.createIndex('person_messages_person').on('person_messages').columns(['person_id', 'created_at']).execute();

  /** An absence approval wrote: taken back out when the application is withdrawn or cancelled. */
  await db.schema.alterTable('attendance_absences').addColumn('application_id', 'integer').execute();
  await db.schema.createIndex('attendance_absences_application').on('attendance_absences').columns(['application_id']).execute();
}
