import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

export interface ClientErrorInsert {
  fingerprint: string;
  kind: string;
  message: string;
  stack: string;
  component_stack: string;
  url: string;
  release: string;
  user_agent: string;
}

/**
 * Client errors are kept per company (0: reported without one). A main administrator reads their company's and
 * the company-less ones (the sign-in page's): another company's never, since a message or URL may carry its data.
 */
export const clientErrorsRepository = {
  /** One more sighting: a new row, or the fingerprint's count, last sighting and latest context. */
  async record(db: Executor, companyId: number, e: ClientErrorInsert, at: string): Promise<void> {
    await db
      .insertInto('client_errors')
      .values({ ...e, company_id: companyId, count: 1, first_seen: at, last_seen: at })
      .onConflict((oc) =>
        oc.columns(['company_id', 'fingerprint']).doUpdateSet({
          count: sql<number>`client_errors.count + 1`,
          last_seen: at,
          url: e.url,
          release: e.release,
          user_agent: e.user_agent,
        }),
      )
      .execute();
  },

  /** Counts one report against the key's quota in the current window; answers the count including it. */
  async spend(db: Executor, key: string, slot: number): Promise<number> {
    const row = await db
      .insertInto('client_error_quota')
      .values({ key, slot, count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when client_error_quota.slot = ${slot} then client_error_quota.count + 1 else 1 end`,
          slot,
        }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  async list(db: Executor, companyId: number, offset: number, limit: number) {
    const scope = db.selectFrom('client_errors').where('company_id', 'in', [companyId, 0]);
    const [items, total] = await Promise.all([
      scope.selectAll().orderBy('last_seen', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute(),
      scope.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },

  /** Removes the ones of these ids the company may see; answers how many went. */
  async remove(db: Executor, companyId: number, ids: number[]): Promise<number> {
    const r = await db.deleteFrom('client_errors').where('company_id', 'in', [companyId, 0]).where('id', 'in', ids).executeTakeFirst();
    return Number(r.numDeletedRows);
  },

  /** Server-wide housekeeping (the cleanup job): entries unseen since `before`, quotas of past windows. */
  async prune(db: Executor, before: string, slot: number): Promise<number> {
    const r = await db.deleteFrom('client_errors').where('last_seen', '<', before).executeTakeFirst();
    await db.deleteFrom('client_error_quota').where('slot', '<', slot).execute();
    return Number(r.numDeletedRows);
  },
};
