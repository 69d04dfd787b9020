import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { WorkflowAppTable, WorkflowApplicationTable, WorkflowStepTable, WorkflowTaskTable } from '../../db/schema.ts';
import { likeKeyword } from '../../lib/schemas.ts';

export type AppRow = Selectable<WorkflowAppTable>;
export type ApplicationRowDb = Selectable<WorkflowApplicationTable>;
export type StepRow = Selectable<WorkflowStepTable>;
export type TaskRowDb = Selectable<WorkflowTaskTable>;

export interface ApplicationFilter {
  appId?: number | undefined;
  status?: number | undefined;
  keyword?: string | undefined;
  departmentIds?: number[] | undefined;
  fromIso?: string | undefined;
  toIso?: string | undefined;
  personId?: number | undefined;
}

/** The only SQL of approvals; every method takes the company id first. */
export const workflowRepository = {
  // apps ----------------------------------------------------------------------------------------------------------
  apps: (db: Executor, companyId: number) =>
    db.selectFrom('workflow_apps').selectAll().where('company_id', '=', companyId).orderBy('sort').orderBy('id').execute(),
  app: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('workflow_apps').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
  /** Locks the app's row (PostgreSQL) so two saves of its form or process take turns on the version number. */
  async lockApp(db: Executor, companyId: number, id: number, at: string) {
    const r = await db.updateTable('workflow_apps').set({ updated_at: at }).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
  builtinKinds: async (db: Executor, companyId: number) =>
    (await db.selectFrom('workflow_apps').select('kind').where('company_id', '=', companyId).where('builtin', '=', 1).execute()).map((r) => r.kind),
  async insertApp(db: Executor, row: Insertable<WorkflowAppTable>) {
    return (await db.insertInto('workflow_apps').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  async updateApp(db: Executor, companyId: number, id: number, set: Partial<Insertable<WorkflowAppTable>>) {
    await db.updateTable('workflow_apps').set(set).where('company_id', '=', companyId).where('id', '=', id).execute();
  },
  async deleteApp(db: Executor, companyId: number, id: number) {
    await db.deleteFrom('workflow_apps').where('company_id', '=', companyId).where('id', '=', id).execute();
  },
  pendingByApp: async (db: Executor, companyId: number) =>
    new Map(
      (
        await db
          .selectFrom('workflow_applications')
          .select(['app_id', (eb) => eb.fn.countAll<number>().as('n')])
          .where('company_id', '=', companyId)
          .where('status', '=', 0)
          .groupBy('app_id')
          .execute()
      ).map((r) => [r.app_id, Number(r.n)]),
    ),
  countApplications: async (db: Executor, companyId: number, appId: number) =>
    Number(
      (
        await db
          .selectFrom('workflow_applications')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', companyId)
          .where('app_id', '=', appId)
          .executeTakeFirstOrThrow()
      ).n,
    ),

  // versions ------------------------------------------------------------------------------------------------------
  version: (db: Executor, table: 'workflow_forms' | 'workflow_processes', companyId: number, appId: number, version: number) =>
    db
      .selectFrom(table)
      .select(['app_id', 'version', 'body', 'created_at'])
      .where('company_id', '=', companyId)
      .where('app_id', '=', appId)
      .where('version', '=', version)
      .executeTakeFirst(),
  async insertVersion(
    db: Executor,
    table: 'workflow_forms' | 'workflow_processes',
    companyId: number,
    row: { app_id: number; version: number; body: string; created_by: number | null; created_at: string },
  ) {
    await db
      .insertInto(table)
      .values({ ...row, company_id: companyId })
      .execute();
  },

  // reference data ------------------------------------------------------------------------------------------------
  persons: (db: Executor, companyId: number, ids: number[]) =>
    ids.length
      ? db.selectFrom('persons').select(['id', 'name', 'number', 'work_status']).where('company_id', '=', companyId).where('id', 'in', ids).execute()
      : Promise.resolve([]),
  byNumber: async (db: Executor, companyId: number) =>
    new Map(
      (await db.selectFrom('persons').select(['id', 'number', 'name']).where('company_id', '=', companyId).execute()).map((p) => [p.number.toLowerCase(), p]),
    ),
  person: (db: Executor, companyId: number, id: number) =>
    db
      .selectFrom('persons')
      .select(['id', 'name', 'number', 'phone', 'work_status'])
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst(),
  departments: (db: Executor, companyId: number) =>
    db.selectFrom('departments').select(['id', 'name', 'parent_id']).where('company_id', '=', companyId).execute(),
  personDepartments: async (db: Executor, companyId: number, personIds: number[]) =>
    personIds.length
      ? db
          .selectFrom('person_departments')
          .select(['person_id', 'department_id'])
          .where('company_id', '=', companyId)
          .where('person_id', 'in', personIds)
          .execute()
      : [],
  heads: (db: Executor, companyId: number, departmentIds: number[]) =>
    departmentIds.length
      ? db
          .selectFrom('department_heads as h')
          .innerJoin('persons as p', 'p.id', 'h.person_id')
          .select(['h.department_id', 'p.id', 'p.name'])
          .where('h.company_id', '=', companyId)
          .where('h.department_id', 'in', departmentIds)
          .where('p.work_status', '=', 1)
          .orderBy('p.id')
          .execute()
      : Promise.resolve([]),
  companyZone: async (db: Executor, companyId: number) =>
    (await db.selectFrom('companies').select(['time_zone', 'name']).where('id', '=', companyId).executeTakeFirst()) ?? { time_zone: 'UTC', name: '' },

  /** Working people to pick from, by keyword (name, number, phone) and departments. */
  async pick(
    db: Executor,
    companyId: number,
    f: { keyword?: string | undefined; departmentIds?: number[] | undefined; phones: boolean },
    offset: number,
    limit: number,
  ) {
    let q = db.selectFrom('persons as p').where('p.company_id', '=', companyId).where('p.work_status', '=', 1).where('p.kind', '=', 'employee');
    const k = f.keyword;
    // Persons search coworkers by name or number only: a phone number never tells them whose it is.
    if (k && f.phones) q = q.where('p.search', 'like', likeKeyword(k));
    else if (k) q = q.where((eb) => eb.or([eb(eb.fn('lower', ['p.name']), 'like', likeKeyword(k)), eb(eb.fn('lower', ['p.number']), 'like', likeKeyword(k))]));
    if (f.departmentIds) {
      const ids = f.departmentIds.length ? f.departmentIds : [0];
      // a set looked up by id, not a probe per person (persons.repository.ts filtered says why)
      q = q.where('p.id', 'in', (eb) => eb.selectFrom('person_departments as pd').select('pd.person_id').where('pd.department_id', 'in', ids));
    }
    const [items, total] = await Promise.all([
      q.select(['p.id', 'p.name', 'p.number']).orderBy('p.number').orderBy('p.id').limit(limit).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },

  // applications --------------------------------------------------------------------------------------------------
  async insertApplication(db: Executor, row: Insertable<WorkflowApplicationTable>) {
    return (await db.insertInto('workflow_applications').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  async setOrderNo(db: Executor, companyId: number, id: number, orderNo: string) {
    await db.updateTable('workflow_applications').set({ order_no: orderNo }).where('company_id', '=', companyId).where('id', '=', id).execute();
  },
  /**
   * The order number of a new application: its day and its id (unique as it is), unless an imported record already
   * took that text, then with a suffix.
   */
  async newOrderNo(db: Executor, companyId: number, id: number, localDay: string): Promise<string> {
    const base = `${localDay.replaceAll('-', '')}${String(id).padStart(6, '0')}`;
    let orderNo = base;
    for (let n = 2; await this.orderNoTaken(db, companyId, orderNo); n++) orderNo = `${base}-${n}`;
    await this.setOrderNo(db, companyId, id, orderNo);
    return orderNo;
  },
  orderNoTaken: async (db: Executor, companyId: number, orderNo: string) =>
    Boolean(await db.selectFrom('workflow_applications').select('id').where('company_id', '=', companyId).where('order_no', '=', orderNo).executeTakeFirst()),
  application: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('workflow_applications').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
  /**
   * Takes the application's row while it is still `status` (a conditional UPDATE: on PostgreSQL the row stays
   * locked to this transaction, so decisions on one application take turns); false when it is no longer so.
   */
  async claim(db: Executor, companyId: number, id: number, status: number, at: string): Promise<boolean> {
    const r = await db
      .updateTable('workflow_applications')
      .set({ updated_at: at })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .where('status', '=', status)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
  async setApplication(db: Executor, companyId: number, id: number, set: Partial<Insertable<WorkflowApplicationTable>>) {
    await db.updateTable('workflow_applications').set(set).where('company_id', '=', companyId).where('id', '=', id).execute();
  },
  /** Moves an application from one status to another only if it still has the first; true when it did. */
  async finish(db: Executor, companyId: number, id: number, from: number, to: number, at: string): Promise<boolean> {
    const r = await db
      .updateTable('workflow_applications')
      .set({ status: to, finished_at: at, updated_at: at })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
  list(db: Executor, companyId: number, f: ApplicationFilter) {
    let q = db
      .selectFrom('workflow_applications as a')
      .innerJoin('persons as p', 'p.id', 'a.person_id')
      .innerJoin('workflow_apps as w', 'w.id', 'a.app_id')
      .where('a.company_id', '=', companyId);
    if (f.appId) q = q.where('a.app_id', '=', f.appId);
    if (f.status !== undefined) q = q.where('a.status', '=', f.status);
    if (f.personId) q = q.where('a.person_id', '=', f.personId);
    if (f.fromIso) q = q.where('a.created_at', '>=', f.fromIso);
    if (f.toIso) q = q.where('a.created_at', '<', f.toIso);
    if (f.keyword) {
      const k = f.keyword;
      q = q.where((eb) => eb.or([eb('p.search', 'like', likeKeyword(k)), eb('a.order_no', 'like', likeKeyword(k))]));
    }
    if (f.departmentIds) {
      const ids = f.departmentIds;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('person_departments as pd')
            .select('pd.person_id')
            .whereRef('pd.person_id', '=', 'a.person_id')
            .where('pd.department_id', 'in', ids.length ? ids : [0]),
        ),
      );
    }
    return q;
  },
  async page(db: Executor, companyId: number, f: ApplicationFilter, offset: number, limit: number) {
    const base = this.list(db, companyId, f);
    const [items, total] = await Promise.all([
      base
        .selectAll('a')
        .select(['p.name as person_name', 'p.number as person_number', 'w.name as app_name', 'w.kind as app_kind'])
        .orderBy('a.created_at', 'desc')
        .orderBy('a.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },
  byIds: (db: Executor, companyId: number, ids: number[]) =>
    ids.length
      ? db
          .selectFrom('workflow_applications as a')
          .innerJoin('persons as p', 'p.id', 'a.person_id')
          .innerJoin('workflow_apps as w', 'w.id', 'a.app_id')
          .selectAll('a')
          .select(['p.name as person_name', 'p.number as person_number', 'w.name as app_name', 'w.kind as app_kind'])
          .where('a.company_id', '=', companyId)
          .where('a.id', 'in', ids)
          .execute()
      : Promise.resolve([]),

  // steps and tasks -----------------------------------------------------------------------------------------------
  async insertStep(db: Executor, row: Insertable<WorkflowStepTable>) {
    return (await db.insertInto('workflow_steps').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  nextSeq: async (db: Executor, applicationId: number) =>
    Number(
      (
        await db
          .selectFrom('workflow_steps')
          .select((eb) => eb.fn.max<number>('seq').as('m'))
          .where('application_id', '=', applicationId)
          .executeTakeFirst()
      )?.m ?? -1,
    ) + 1,
  steps: (db: Executor, companyId: number, applicationIds: number[]) =>
    applicationIds.length
      ? db
          .selectFrom('workflow_steps')
          .selectAll()
          .where('company_id', '=', companyId)
          .where('application_id', 'in', applicationIds)
          .orderBy('application_id')
          .orderBy('seq')
          .execute()
      : Promise.resolve([]),
  step: (db: Executor, companyId: number, applicationId: number, stepId: number) =>
    db
      .selectFrom('workflow_steps')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('application_id', '=', applicationId)
      .where('id', '=', stepId)
      .executeTakeFirst(),
  /** A step's decision, only while it is pending: true when this call made it. */
  async decideStep(db: Executor, companyId: number, stepId: number, set: Partial<Insertable<WorkflowStepTable>>): Promise<boolean> {
    const r = await db
      .updateTable('workflow_steps')
      .set(set)
      .where('company_id', '=', companyId)
      .where('id', '=', stepId)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
  async pendingSteps(db: Executor, companyId: number, applicationId: number) {
    return db
      .selectFrom('workflow_steps')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('application_id', '=', applicationId)
      .where('state', '=', 'pending')
      .execute();
  },
  async insertTasks(db: Executor, rows: Insertable<WorkflowTaskTable>[]) {
    if (rows.length) await db.insertInto('workflow_tasks').values(rows).execute();
  },
  tasks: (db: Executor, companyId: number, applicationIds: number[]) =>
    applicationIds.length
      ? db
          .selectFrom('workflow_tasks')
          .selectAll()
          .where('company_id', '=', companyId)
          .where('application_id', 'in', applicationIds)
          .orderBy('step_id')
          .orderBy('seq')
          .execute()
      : Promise.resolve([]),
  stepTasks: (db: Executor, companyId: number, stepId: number) =>
    db.selectFrom('workflow_tasks').selectAll().where('company_id', '=', companyId).where('step_id', '=', stepId).orderBy('seq').execute(),
  /** A task's decision, only while it is pending: true when this call made it. */
  async decideTask(db: Executor, companyId: number, taskId: number, set: Partial<Insertable<WorkflowTaskTable>>): Promise<boolean> {
    const r = await db
      .updateTable('workflow_tasks')
      .set(set)
      .where('company_id', '=', companyId)
      .where('id', '=', taskId)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
  /** The step's tasks still pending become `state` (the step was decided another way, or the application ended). */
  async closeTasks(db: Executor, companyId: number, where: { stepId?: number; applicationId?: number }, state: string, at: string) {
    let q = db.updateTable('workflow_tasks').set({ state, decided_at: at }).where('company_id', '=', companyId).where('state', '=', 'pending');
    if (where.stepId) q = q.where('step_id', '=', where.stepId);
    if (where.applicationId) q = q.where('application_id', '=', where.applicationId);
    await q.execute();
  },
  async closeSteps(db: Executor, companyId: number, applicationId: number, state: string, at: string) {
    await db
      .updateTable('workflow_steps')
      .set({ state, decided_at: at })
      .where('company_id', '=', companyId)
      .where('application_id', '=', applicationId)
      .where('state', '=', 'pending')
      .execute();
  },
  /** A person's tasks: open ones (pending, and their turn) or decided ones. */
  personTasks(db: Executor, companyId: number, personId: number, done: boolean) {
    let q = db
      .selectFrom('workflow_tasks as t')
      .innerJoin('workflow_steps as s', 's.id', 't.step_id')
      .where('t.company_id', '=', companyId)
      .where('t.person_id', '=', personId)
      .where('t.approver_kind', '=', 'person');
    q = done ? q.where('t.state', 'in', ['approved', 'rejected']) : q.where('t.state', '=', 'pending').where('s.state', '=', 'pending');
    return q;
  },
  async personTaskPage(db: Executor, companyId: number, personId: number, done: boolean, offset: number, limit: number) {
    const base = this.personTasks(db, companyId, personId, done);
    const rows = await base.select(['t.id', 't.application_id', 't.step_id', 't.seq', 't.state', 't.decided_at', 's.mode']).orderBy('t.id', 'desc').execute();
    return { rows, offset, limit };
  },
  stepPendingSeqs: async (db: Executor, companyId: number, stepIds: number[]) =>
    stepIds.length
      ? db
          .selectFrom('workflow_tasks')
          .select(['step_id', (eb) => eb.fn.min<number>('seq').as('first')])
          .where('company_id', '=', companyId)
          .where('step_id', 'in', stepIds)
          .where('state', '=', 'pending')
          .groupBy('step_id')
          .execute()
      : [],
};
