import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { DepartmentTable } from '../../db/schema.ts';

export type DepartmentRow = Selectable<DepartmentTable>;

/** Departments of one company; the whole tree is small enough to load at once (hundreds of rows). */
export const departmentsRepository = {
  all: (db: Executor, companyId: number) =>
    db.selectFrom('departments').selectAll().where('company_id', '=', companyId).orderBy('sort').orderBy('id').execute(),
  find: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('departments').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
  async insert(db: Executor, companyId: number, row: { parent_id: number; name: string; sort: number; created_at: string }): Promise<number> {
    const r = await db
      .insertInto('departments')
      .values({ ...row, company_id: companyId, updated_at: row.created_at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },
  async update(db: Executor, companyId: number, id: number, patch: Partial<Pick<DepartmentRow, 'parent_id' | 'name' | 'sort' | 'updated_at'>>) {
    await db.updateTable('departments').set(patch).where('company_id', '=', companyId).where('id', '=', id).execute();
  },
  async delete(db: Executor, companyId: number, id: number) {
    await db.deleteFrom('departments').where('company_id', '=', companyId).where('id', '=', id).execute();
  },
  /** Direct member counts per department (people who left included: they still belong somewhere). */
  async memberCounts(db: Executor, companyId: number): Promise<Map<number, number>> {
    const rows = await db
      .selectFrom('person_departments')
      .select(['department_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('company_id', '=', companyId)
      .groupBy('department_id')
      .execute();
    return new Map(rows.map((r) => [r.department_id, Number(r.n)]));
  },
  heads: (db: Executor, companyId: number) =>
    db
      .selectFrom('department_heads as h')
      .innerJoin('persons as p', 'p.id', 'h.person_id')
      .select(['h.department_id', 'p.id', 'p.name'])
      .where('h.company_id', '=', companyId)
      .orderBy('p.name')
      .execute(),
  async setHeads(db: Executor, companyId: number, departmentId: number, personIds: number[]) {
    await db.deleteFrom('department_heads').where('company_id', '=', companyId).where('department_id', '=', departmentId).execute();
    if (personIds.length) {
      await db
        .insertInto('department_heads')
        .values(personIds.map((person_id) => ({ company_id: companyId, department_id: departmentId, person_id })))
        .execute();
    }
  },
};
