import type { Executor } from '../../db/database.ts';
import { likeKeyword } from '../../lib/schemas.ts';

const columns = ['a.id', 'a.name', 'a.username', 'a.mobile', 'a.created_at', 'a.last_login_at', 'm.role', 'm.is_init', 'm.rights', 'm.status'] as const;

/** Administrators as members of one company: every query joins through that company's memberships. */
export const managersRepository = {
  async list(db: Executor, companyId: number, f: { keyword?: string | undefined; status?: string | undefined; offset: number; limit: number }) {
    let q = db.selectFrom('memberships as m').innerJoin('admins as a', 'a.id', 'm.admin_id').where('m.company_id', '=', companyId);
    if (f.status) q = q.where('m.status', '=', f.status);
    if (f.keyword) {
      // lower() on both sides: PostgreSQL's LIKE is case-sensitive, SQLite's is not; both must answer the same.
      const p = likeKeyword(f.keyword);
      q = q.where((eb) => eb.or([eb(eb.fn('lower', ['a.name']), 'like', p), eb(eb.fn('lower', ['a.username']), 'like', p), eb('a.mobile', 'like', p)]));
    }
    const [items, total] = await Promise.all([
      q.select(columns).orderBy('m.is_init', 'desc').orderBy('a.id').limit(f.limit).offset(f.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },
  find: (db: Executor, companyId: number, adminId: number) =>
    db
      .selectFrom('memberships as m')
      .innerJoin('admins as a', 'a.id', 'm.admin_id')
      .select(columns)
      .where('m.company_id', '=', companyId)
      .where('a.id', '=', adminId)
      .executeTakeFirst(),
  async counts(db: Executor, companyId: number): Promise<{ total: number; sub: number }> {
    const rows = await db
      .selectFrom('memberships')
      .select(['role', (eb) => eb.fn.countAll<number>().as('n')])
      .where('company_id', '=', companyId)
      .groupBy('role')
      .execute();
    const total = rows.reduce((s, r) => s + Number(r.n), 0);
    return { total, sub: Number(rows.find((r) => r.role === 'sub')?.n ?? 0) };
  },
};
