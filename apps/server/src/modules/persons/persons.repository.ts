import { sql, type Selectable } from 'kysely';
import { WORK_STATUS } from '@faceadmin/shared';
import type { Executor } from '../../db/database.ts';
import { chunks, inChunks } from '../../lib/chunks.ts';
import type { PersonTable } from '../../db/schema.ts';
import { likeKeyword } from '../../lib/schemas.ts';
import { nowIso } from '../../lib/time.ts';

export type PersonRow = Selectable<PersonTable>;
/** A person's columns as writers set them (`search` and `left_at` are kept by the repository). */
export type PersonInsert = Omit<PersonRow, 'id' | 'company_id' | 'search' | 'left_at' | 'kind' | 'valid_from' | 'valid_until' | 'admin_id' | 'plates'> &
  Partial<Pick<PersonRow, 'kind' | 'valid_from' | 'valid_until' | 'admin_id' | 'plates'>>;
/** A visitor is a hidden person (#19): every list of people, picker, count and attendance reads employees only. */
export const EMPLOYEE = 'employee';
export const VISITOR = 'visitor';
const SEARCHED = ['name', 'number', 'phone', 'rfid'] as const;

/** A new person's row: the given fields over the defaults (working, no passwords, nothing synced yet). */
export function newPersonRow(f: Pick<PersonInsert, 'number' | 'name' | 'phone' | 'created_at'> & Partial<PersonInsert>): PersonInsert {
  return {
    description: '',
    photo: '',
    rfid: '',
    idcard: '',
    address: '',
    work_status: 1,
    notify: 0,
    joined_on: null,
    gender: null,
    access_from: null,
    access_to: null,
    access_periods: '[]',
    door_password: '',
    remote_open: 0,
    is_admin: 0,
    admin_password: '',
    feature_rights: '[]',
    user_pri: 0,
    sync_status: 0,
    revision: 1,
    updated_at: f.created_at,
    ...f,
  };
}
const searchText = (r: Pick<PersonInsert, (typeof SEARCHED)[number]>) => `${r.name} ${r.number} ${r.phone} ${r.rfid}`.toLowerCase();

export interface PersonFilter {
  keyword?: string | undefined;
  /** department ids (a subtree, already expanded) */
  departments?: number[] | undefined;
  workStatus?: number | undefined;
  syncStatus?: number | undefined;
  ids?: number[] | undefined;
  sort?: 'number' | 'name' | 'created_at' | 'updated_at';
  order?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

function filtered(db: Executor, companyId: number, f: Omit<PersonFilter, 'offset' | 'limit' | 'sort' | 'order'>) {
  let q = db.selectFrom('persons as p').where('p.company_id', '=', companyId).where('p.kind', '=', EMPLOYEE);
  if (f.workStatus !== undefined) q = q.where('p.work_status', '=', f.workStatus);
  if (f.syncStatus !== undefined) q = q.where('p.sync_status', '=', f.syncStatus);
  if (f.ids) q = q.where('p.id', 'in', f.ids.length ? f.ids : [0]);
  if (f.departments) {
    const depts = f.departments.length ? f.departments : [0];
    // The department's people as a set, looked up by id. As a probe per person (EXISTS), SQLite tested each of a big
    // company's 100,000 people against each of a top department's 111 departments: 2.6 s for the page (#32).
    q = q.where('p.id', 'in', (eb) => eb.selectFrom('person_departments as pd').select('pd.person_id').where('pd.department_id', 'in', depts));
  }
  if (f.keyword) q = q.where('p.search', 'like', likeKeyword(f.keyword));
  return q;
}

/** People of one company; every method takes the company id first (habit 4). */
export const personsRepository = {
  async list(db: Executor, companyId: number, f: PersonFilter) {
    const q = filtered(db, companyId, f);
    const sort = f.sort ?? 'number';
    const [items, total] = await Promise.all([
      q
        .selectAll('p')
        .orderBy(`p.${sort}`, f.order ?? 'asc')
        .orderBy('p.id', f.order ?? 'asc')
        .limit(f.limit)
        .offset(f.offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },
  /** Streams every matching person in id order, a page at a time (export of 50k without holding them all). */
  async *iterate(db: Executor, companyId: number, f: Omit<PersonFilter, 'offset' | 'limit'>, pageSize = 1000): AsyncGenerator<PersonRow[]> {
    let after = 0;
    for (;;) {
      const rows = await filtered(db, companyId, f).selectAll('p').where('p.id', '>', after).orderBy('p.id').limit(pageSize).execute();
      if (!rows.length) return;
      yield rows;
      after = rows[rows.length - 1]!.id;
    }
  },
  /** The face file names the company's people hold (one range scan: cheaper than asking name by name). */
  async photoNames(db: Executor, companyId: number): Promise<Set<string>> {
    const rows = await db.selectFrom('persons').select('photo').where('company_id', '=', companyId).where('photo', '!=', '').execute();
    return new Set(rows.map((r) => r.photo));
  },
  /** Which of these face names a row (a person or a visitor) holds. */
  async photosInUse(db: Executor, companyId: number, names: string[]): Promise<Set<string>> {
    const rows = await inChunks(names, (part) =>
      db.selectFrom('persons').select('photo').distinct().where('company_id', '=', companyId).where('photo', 'in', part).execute(),
    );
    return new Set(rows.map((r) => r.photo));
  },
  find: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('persons').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
  findMany: (db: Executor, companyId: number, ids: number[]) =>
    inChunks(ids, (part) => db.selectFrom('persons').selectAll().where('company_id', '=', companyId).where('id', 'in', part).execute()),
  async byNumbers(db: Executor, companyId: number, numbers: string[]): Promise<Map<string, PersonRow>> {
    const out = new Map<string, PersonRow>();
    for (const part of chunks(numbers)) {
      const rows = await db.selectFrom('persons').selectAll().where('company_id', '=', companyId).where('number', 'in', part).execute();
      for (const r of rows) out.set(r.number, r);
    }
    return out;
  },
  /** Highest purely numeric person number, to propose the next one. */
  async maxNumeric(db: Executor, companyId: number): Promise<number> {
    const rows = await db
      .selectFrom('persons')
      .select('number')
      .where('company_id', '=', companyId)
      // a visitor's PIN (9 digits) is no number an employee follows
      .where('kind', '=', EMPLOYEE)
      .orderBy(sql`length(number)`, 'desc')
      .orderBy('number', 'desc')
      .limit(50)
      .execute();
    return rows
      .map((r) => r.number)
      .filter((n) => /^\d{1,15}$/.test(n))
      .reduce((m, n) => Math.max(m, Number(n)), 0);
  },
  async insert(db: Executor, companyId: number, row: PersonInsert): Promise<number> {
    const r = await db
      .insertInto('persons')
      .values({ ...row, company_id: companyId, search: searchText(row), left_at: row.work_status === WORK_STATUS.left ? row.created_at : null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },
  /** `before` (the row as read) lets the search text be rebuilt in the same statement. */
  async update(db: Executor, companyId: number, id: number, patch: Partial<PersonInsert>, before?: Pick<PersonRow, (typeof SEARCHED)[number]>) {
    const searched = SEARCHED.some((k) => k in patch);
    // (Kysely leaves a column with an undefined value untouched, so such a key keeps the stored value here too.)
    const after = before && { ...before, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
    const set: Record<string, unknown> = searched && after ? { ...patch, search: searchText(after) } : { ...patch };
    // The moment someone leaves is kept (attendance stops after that day); coming back clears it.
    if (patch.work_status !== undefined)
      set.left_at = sql`case when work_status = ${patch.work_status} then left_at else ${patch.work_status === WORK_STATUS.left ? nowIso() : null} end`;
    await db.updateTable('persons').set(set).where('company_id', '=', companyId).where('id', '=', id).execute();
    if (searched && !before) {
      // Rebuilt from the stored row in JS (SQL lower() folds ASCII only, JS folds all of Unicode like the query does).
      const row = await db.selectFrom('persons').select(SEARCHED).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      if (row)
        await db
          .updateTable('persons')
          .set({ search: searchText(row) })
          .where('company_id', '=', companyId)
          .where('id', '=', id)
          .execute();
    }
  },
  /**
   * Of these people, those with history the reports need: punches, absences, applications, and day results that
   * are more than the engine's own arithmetic — set by hand, or inside a closed (paid) period. A day computed from
   * nothing (the absent days of someone entered by mistake) is not history: it goes with the person.
   */
  async withHistory(db: Executor, companyId: number, ids: number[]): Promise<Set<number>> {
    const out = new Set<number>();
    for (const part of chunks(ids)) {
      for (const table of ['punches', 'attendance_absences', 'workflow_applications'] as const) {
        const rows = await db.selectFrom(table).select('person_id').distinct().where('company_id', '=', companyId).where('person_id', 'in', part).execute();
        for (const r of rows) if (r.person_id !== null) out.add(r.person_id);
      }
      const days = await db
        .selectFrom('attendance_days as d')
        .select('d.person_id')
        .distinct()
        .where('d.company_id', '=', companyId)
        .where('d.person_id', 'in', part)
        .where((eb) =>
          eb.or([
            eb('d.manual_status', 'is not', null),
            eb.exists(
              eb
                .selectFrom('attendance_closed_periods as c')
                .select('c.id')
                .where('c.company_id', '=', companyId)
                .whereRef('c.from_date', '<=', 'd.date')
                .whereRef('c.to_date', '>=', 'd.date'),
            ),
          ]),
        )
        .execute();
      for (const r of days) out.add(r.person_id);
    }
    return out;
  },
  /**
   * Makes a person an anonymous placeholder (see the service's `erase`); their history stays linked to the row.
   * Answers the face picture and the punch photos to delete once committed.
   */
  async erase(db: Executor, companyId: number, row: PersonRow, name: string) {
    const punchPhotos = await db
      .selectFrom('punches')
      .select(['device_id', 'photo'])
      .where('company_id', '=', companyId)
      .where('person_id', '=', row.id)
      .where('photo', '!=', '')
      .execute();
    await db.updateTable('punches').set({ photo: '' }).where('company_id', '=', companyId).where('person_id', '=', row.id).where('photo', '!=', '').execute();
    // The number stays unique in the company and tells nothing: "X" and the id (a PIN terminals never saw).
    let number = `X${row.id}`;
    while ((await personsRepository.byNumbers(db, companyId, [number])).size) number += 'X';
    const patch: Partial<PersonInsert> = {
      number,
      name,
      phone: '',
      description: '',
      photo: '',
      rfid: '',
      idcard: '',
      plates: '',
      gender: null,
      address: '',
      work_status: WORK_STATUS.left,
      notify: 0,
      access_from: null,
      access_to: null,
      access_periods: '[]',
      door_password: '',
      remote_open: 0,
      is_admin: 0,
      admin_password: '',
      admin_id: null,
      feature_rights: '[]',
      revision: row.revision + 1,
      updated_at: nowIso(),
    };
    await personsRepository.update(db, companyId, row.id, patch, row);
    await db.deleteFrom('department_heads').where('company_id', '=', companyId).where('person_id', '=', row.id).execute();
    for (const table of ['person_sessions', 'person_links', 'person_messages'] as const)
      await db.deleteFrom(table).where('company_id', '=', companyId).where('person_id', '=', row.id).execute();
    return { face: row.photo, punchPhotos };
  },
  /** People holding a card number get a new revision (the rfid option changed what terminals must hold); their ids. */
  async bumpCardHolders(db: Executor, companyId: number): Promise<number[]> {
    const rows = await db.selectFrom('persons').select('id').where('company_id', '=', companyId).where('rfid', '!=', '').execute();
    const ids = rows.map((r) => r.id);
    for (const part of chunks(ids))
      await db
        .updateTable('persons')
        .set((eb) => ({ revision: eb('revision', '+', 1), sync_status: 0 }))
        .where('company_id', '=', companyId)
        .where('id', 'in', part)
        .execute();
    return ids;
  },
  async delete(db: Executor, companyId: number, ids: number[]) {
    for (const part of chunks(ids)) await db.deleteFrom('persons').where('company_id', '=', companyId).where('id', 'in', part).execute();
  },
  async departmentsOf(db: Executor, companyId: number, personIds: number[]): Promise<Map<number, { id: number; name: string }[]>> {
    const out = new Map<number, { id: number; name: string }[]>();
    for (const part of chunks(personIds)) {
      const rows = await db
        .selectFrom('person_departments as pd')
        .innerJoin('departments as d', 'd.id', 'pd.department_id')
        .select(['pd.person_id', 'd.id', 'd.name'])
        .where('pd.company_id', '=', companyId)
        .where('pd.person_id', 'in', part)
        .orderBy('d.sort')
        .orderBy('d.id')
        .execute();
      for (const r of rows) out.set(r.person_id, [...(out.get(r.person_id) ?? []), { id: r.id, name: r.name }]);
    }
    return out;
  },
  async headsOf(db: Executor, companyId: number, personIds: number[]): Promise<Map<number, { id: number; name: string }[]>> {
    const out = new Map<number, { id: number; name: string }[]>();
    for (const part of chunks(personIds)) {
      const rows = await db
        .selectFrom('department_heads as h')
        .innerJoin('departments as d', 'd.id', 'h.department_id')
        .select(['h.person_id', 'd.id', 'd.name'])
        .where('h.company_id', '=', companyId)
        .where('h.person_id', 'in', part)
        .execute();
      for (const r of rows) out.set(r.person_id, [...(out.get(r.person_id) ?? []), { id: r.id, name: r.name }]);
    }
    return out;
  },
  async setDepartments(db: Executor, companyId: number, personId: number, departmentIds: number[]) {
    await db.deleteFrom('person_departments').where('company_id', '=', companyId).where('person_id', '=', personId).execute();
    if (departmentIds.length) {
      await db
        .insertInto('person_departments')
        .values(departmentIds.map((department_id) => ({ company_id: companyId, person_id: personId, department_id })))
        .execute();
    }
  },
  async setHeadOf(db: Executor, companyId: number, personId: number, departmentIds: number[]) {
    await db.deleteFrom('department_heads').where('company_id', '=', companyId).where('person_id', '=', personId).execute();
    if (departmentIds.length) {
      await db
        .insertInto('department_heads')
        .values(departmentIds.map((department_id) => ({ company_id: companyId, person_id: personId, department_id })))
        .execute();
    }
  },
};
