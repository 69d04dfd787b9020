import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { AdminTable } from '../../db/schema.ts';

export type AdminRow = Selectable<AdminTable>;
/** Administrator accounts are global (one account may serve several companies); memberships are per company. */
export const adminsRepository = {
  findById: (db: Executor, id: number) => db.selectFrom('admins').selectAll().where('id', '=', id).executeTakeFirst(),
  findByUsername: (db: Executor, username: string) => db.selectFrom('admins').selectAll().where('username', '=', username).executeTakeFirst(),
  findByMobile: (db: Executor, mobile: string) => db.selectFrom('admins').selectAll().where('mobile', '=', mobile).orderBy('id').execute(),
  async count(db: Executor): Promise<number> {
    const r = await db
      .selectFrom('admins')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
  async insert(db: Executor, row: { username: string; name: string; mobile: string; password_hash: string; created_at: string }): Promise<number> {
    const r = await db
      .insertInto('admins')
      .values({ ...row, avatar: '', introduction: '', updated_at: row.created_at, current_company_id: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },
  async update(
    db: Executor,
    id: number,
    patch: Partial<Pick<AdminRow, 'name' | 'mobile' | 'password_hash' | 'current_company_id' | 'last_login_at' | 'updated_at'>>,
  ) {
    await db.updateTable('admins').set(patch).where('id', '=', id).execute();
  },
  async delete(db: Executor, id: number) {
    await db.deleteFrom('admins').where('id', '=', id).execute();
  },
};
