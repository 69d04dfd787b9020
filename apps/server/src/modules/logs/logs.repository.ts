import type { Executor } from '../../db/database.ts';
import { likeKeyword } from '../../lib/schemas.ts';

export interface LogFilter {
  module?: string | undefined;
  keyword?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  offset: number;
  limit: number;
}

export const logsRepository = {
  async insert(
    db: Executor,
    companyId: number,
    row: { admin_id: number | null; admin_name: string; module: string; action: string; data: string; ip: string; created_at: string },
  ) {
    await db
      .insertInto('operation_logs')
      .values({ ...row, company_id: companyId })
      .execute();
  },
  /** A page of the log, newest first; `withTotal: false` skips counting the whole filter. */
  async list(db: Executor, companyId: number, f: LogFilter, withTotal = true) {
    let q = db.selectFrom('operation_logs').where('company_id', '=', companyId);
    if (f.module) q = q.where('module', '=', f.module);
    if (f.from) q = q.where('created_at', '>=', f.from);
    if (f.to) q = q.where('created_at', '<', f.to);
    if (f.keyword) {
      // lower() on both sides: PostgreSQL's LIKE is case-sensitive, SQLite's is not; both must answer the same.
      const p = likeKeyword(f.keyword);
      q = q.where((eb) =>
        eb.or([eb(eb.fn('lower', ['admin_name']), 'like', p), eb(eb.fn('lower', ['data']), 'like', p), eb(eb.fn('lower', ['action']), 'like', p)]),
      );
    }
    const [items, total] = await Promise.all([
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
      withTotal ? q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow() : { n: -1 },
    ]);
    return { items, total: Number(total.n) };
  },
  async modules(db: Executor, companyId: number): Promise<string[]> {
    const rows = await db.selectFrom('operation_logs').select('module').distinct().where('company_id', '=', companyId).orderBy('module').execute();
    return rows.map((r) => r.module);
  },
  async countSince(db: Executor, companyId: number, since: string): Promise<number> {
    const r = await db
      .selectFrom('operation_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
};
