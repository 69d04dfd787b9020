import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { CompanyTable } from '../../db/schema.ts';

export type CompanyRow = Selectable<CompanyTable>;
type CompanyFields = Pick<CompanyRow, 'name' | 'address' | 'phone' | 'location' | 'filter_seconds' | 'options' | 'time_zone'>;

/** The company row is the tenant itself: every method takes its id. */
export const companiesRepository = {
  find: (db: Executor, companyId: number) => db.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirst(),
  async insert(db: Executor, row: CompanyFields & { created_at: string }): Promise<number> {
    const r = await db
      .insertInto('companies')
      .values({ ...row, updated_at: row.created_at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },
  async update(db: Executor, companyId: number, patch: CompanyFields & { updated_at: string }) {
    await db.updateTable('companies').set(patch).where('id', '=', companyId).execute();
  },
};
