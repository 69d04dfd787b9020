import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { MembershipTable } from '../../db/schema.ts';

export type MembershipRow = Selectable<MembershipTable>;

/** Memberships are tenant-owned: every method but listForAdmin takes the company id first. */
export const membershipsRepository = {
  find: (db: Executor, companyId: number, adminId: number) =>
    db.selectFrom('memberships').selectAll().where('company_id', '=', companyId).where('admin_id', '=', adminId).executeTakeFirst(),
  /** The membership with its company's time zone (the session's view: one query). */
  findWithZone: (db: Executor, companyId: number, adminId: number) =>
    db
      .selectFrom('memberships as m')
      .innerJoin('companies as c', 'c.id', 'm.company_id')
      .selectAll('m')
      .select('c.time_zone')
      .where('m.company_id', '=', companyId)
      .where('m.admin_id', '=', adminId)
      .executeTakeFirst(),
  /** The companies an administrator belongs to (their own view, so not scoped to one company). */
  listForAdmin: (db: Executor, adminId: number) =>
    db
      .selectFrom('memberships as m')
      .innerJoin('companies as c', 'c.id', 'm.company_id')
      .select(['c.id', 'c.name', 'c.address', 'c.phone', 'm.role', 'm.is_init', 'm.status'])
      .where('m.admin_id', '=', adminId)
      .orderBy('c.id')
      .execute(),
  async insert(db: Executor, companyId: number, row: { admin_id: number; role: string; is_init: number; rights: string; status: string; created_at: string }) {
    await db
      .insertInto('memberships')
      .values({ ...row, company_id: companyId })
      .execute();
  },
  async update(db: Executor, companyId: number, adminId: number, patch: Partial<Pick<MembershipRow, 'role' | 'is_init' | 'rights' | 'status'>>) {
    await db.updateTable('memberships').set(patch).where('company_id', '=', companyId).where('admin_id', '=', adminId).execute();
  },
  async delete(db: Executor, companyId: number, adminId: number) {
    await db.deleteFrom('memberships').where('company_id', '=', companyId).where('admin_id', '=', adminId).execute();
  },
  async countForAdmin(db: Executor, adminId: number): Promise<number> {
    const r = await db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('admin_id', '=', adminId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
};
