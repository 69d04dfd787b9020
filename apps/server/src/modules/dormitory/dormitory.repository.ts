import type { Executor } from '../../db/database.ts';

/** The dormitory's reads and its one setting row; every method takes the company id first. */
export const dormitoryRepository = {
  settings: (db: Executor, companyId: number) =>
    db.selectFrom('dormitory_settings').select(['return_by', 'department_ids']).where('company_id', '=', companyId).executeTakeFirst(),

  async saveSettings(db: Executor, companyId: number, row: { return_by: string; department_ids: string; updated_at: string }) {
    await db
      .insertInto('dormitory_settings')
      .values({ company_id: companyId, ...row })
      .onConflict((oc) => oc.column('company_id').doUpdateSet(row))
      .execute();
  },

  /** Residents: people on the job with the departments they belong to (one row per membership). */
  residents: (db: Executor, companyId: number) =>
    db
      .selectFrom('person_departments as pd')
      .innerJoin('persons as p', 'p.id', 'pd.person_id')
      .select(['p.id as person_id', 'p.number', 'p.name', 'pd.department_id'])
      .where('pd.company_id', '=', companyId)
      .where('p.company_id', '=', companyId)
      .where('p.work_status', '=', 1)
      .execute(),

  /** Known people's punches in [since, until], oldest first, with the direction of the device that took them. */
  punches: (db: Executor, companyId: number, since: string, until: string) =>
    db
      .selectFrom('punches as p')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .select(['p.person_id', 'p.time', 'd.direction', 'd.name as device'])
      .where('p.company_id', '=', companyId)
      .where('d.company_id', '=', companyId)
      .where('p.person_id', 'is not', null)
      .where('p.time', '>=', since)
      .where('p.time', '<=', until)
      .orderBy('p.time')
      .orderBy('p.id')
      .execute(),
};
