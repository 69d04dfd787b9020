import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ApiKeyTable, WebhookDeliveryTable, WebhookEndpointTable } from '../../db/schema.ts';

/** API keys, their use counters, webhook endpoints, the outbox and deliveries: every method takes the company first. */
export const keysRepository = {
  list: (db: Executor, companyId: number) => db.selectFrom('api_keys').selectAll().where('company_id', '=', companyId).orderBy('id', 'desc').execute(),
  find: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('api_keys').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
  count: async (db: Executor, companyId: number) =>
    Number(
      (
        await db
          .selectFrom('api_keys')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', companyId)
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  async insert(db: Executor, companyId: number, row: Omit<Insertable<ApiKeyTable>, 'company_id'>) {
    const r = await db
      .insertInto('api_keys')
      .values({ ...row, company_id: companyId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },
  revoke: (db: Executor, companyId: number, id: number, at: string) =>
    db.updateTable('api_keys').set({ revoked_at: at }).where('company_id', '=', companyId).where('id', '=', id).where('revoked_at', 'is', null).execute(),
  /** The key a presented prefix names, with what its use is checked against (any company: the key says which). */
  byPrefix: (db: Executor, prefix: string) =>
    db
      .selectFrom('api_keys as k')
      .innerJoin('companies as c', 'c.id', 'k.company_id')
      .selectAll('k')
      .select(['c.options as company_options', 'c.time_zone'])
      .where('k.prefix', '=', prefix)
      .executeTakeFirst(),
  /** Counts one use in this minute under `route` and answers the count so far (upsert: one statement, any instance). */
  async countUse(db: Executor, keyId: number, minute: string, route: string): Promise<number> {
    const r = await db
      .insertInto('api_key_uses')
      .values({ key_id: keyId, minute, route, count: 1 })
      .onConflict((oc) => oc.columns(['key_id', 'minute', 'route']).doUpdateSet((eb) => ({ count: eb('api_key_uses.count', '+', 1) })))
      .returning('count')
      .executeTakeFirstOrThrow();
    return Number(r.count);
  },
  touch: (db: Executor, keyId: number, at: string) => db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', keyId).execute(),
  pruneUses: (db: Executor, before: string) => db.deleteFrom('api_key_uses').where('minute', '<', before).execute(),
};

export type EndpointRow = Awaited<ReturnType<typeof webhooksRepository.find>> & {};

export const webhooksRepository = {
  list: (db: Executor, companyId: number) => db.selectFrom('webhook_endpoints').selectAll().where('company_id', '=', companyId).orderBy('id', 'desc').execute(),
  find: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('webhook_endpoints').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
  count: async (db: Executor, companyId: number) =>
    Number(
      (
        await db
          .selectFrom('webhook_endpoints')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', companyId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  async insert(db: Executor, companyId: number, row: Omit<Insertable<WebhookEndpointTable>, 'company_id'>) {
    const r = await db
      .insertInto('webhook_endpoints')
      .values({ ...row, company_id: companyId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },
  update: (db: Executor, companyId: number, id: number, patch: Updateable<WebhookEndpointTable>) =>
    db.updateTable('webhook_endpoints').set(patch).where('company_id', '=', companyId).where('id', '=', id).execute(),
  delete: (db: Executor, companyId: number, id: number) =>
    db.deleteFrom('webhook_endpoints').where('company_id', '=', companyId).where('id', '=', id).execute(),
  /** The company's active endpoints and its options (the outbox writes only for subscribed events of a thirdParty company). */
  active: (db: Executor, companyId: number) =>
    db.selectFrom('webhook_endpoints').select(['id', 'events']).where('company_id', '=', companyId).where('status', '=', 'active').execute(),
  companyOptions: async (db: Executor, companyId: number) =>
    (await db.selectFrom('companies').select(['options', 'time_zone']).where('id', '=', companyId).executeTakeFirst()) ?? null,
};

export const outboxRepository = {
  async insert(db: Executor, rows: { company_id: number; event_id: string; type: string; data: string; created_at: string; order_key?: string }[]) {
    // 6 values a row: well within SQLite's 32,766 bound parameters per statement
    for (let i = 0; i < rows.length; i += 1000)
      await db
        .insertInto('webhook_outbox')
        .values(rows.slice(i, i + 1000).map((r) => ({ ...r, order_key: r.order_key ?? '' })))
        .execute();
  },
  take: (db: Executor, limit: number) => db.selectFrom('webhook_outbox').selectAll().orderBy('id').limit(limit).execute(),
  remove: (db: Executor, ids: number[]) => db.deleteFrom('webhook_outbox').where('id', 'in', ids).execute(),
};

export type DeliveryRow = Awaited<ReturnType<typeof deliveriesRepository.find>> & {};

export const deliveriesRepository = {
  find: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('webhook_deliveries').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
  async insert(db: Executor, rows: Insertable<WebhookDeliveryTable>[]): Promise<number[]> {
    if (!rows.length) return [];
    const r = await db.insertInto('webhook_deliveries').values(rows).returning('id').execute();
    return r.map((x) => x.id);
  },
  async page(db: Executor, companyId: number, endpointId: number, status: string | undefined, offset: number, limit: number) {
    let q = db.selectFrom('webhook_deliveries').where('company_id', '=', companyId).where('endpoint_id', '=', endpointId);
    if (status) q = q.where('status', '=', status);
    const [items, total] = await Promise.all([
      q.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },
  /** Pending deliveries whose time has come, of active endpoints (a test event goes to a paused one too), oldest first. */
  due: (db: Executor, now: string, limit: number) =>
    db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .selectAll('d')
      .select(['e.url', 'e.secret', 'e.name as endpoint_name', 'e.status as endpoint_status', 'e.failing_since'])
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('e.status', '=', 'active'), eb('d.type', '=', 'test')]))
      // A terminal's punches reach a receiver in its order: one waits while an earlier one of its key is pending
      // (being posted, or waiting for its retry).
      .where((eb) =>
        eb.or([
          eb('d.order_key', '=', ''),
          eb.not(
            eb.exists(
              eb
                .selectFrom('webhook_deliveries as o')
                .select('o.id')
                .whereRef('o.endpoint_id', '=', 'd.endpoint_id')
                .whereRef('o.order_key', '=', 'd.order_key')
                .where('o.status', '=', 'pending')
                .whereRef('o.id', '<', 'd.id'),
            ),
          ),
        ]),
      )
      .orderBy('d.next_attempt_at')
      .orderBy('d.id')
      .limit(limit)
      .execute(),
  /** How many deliveries are due and waiting for a post (as `due` finds them), counted up to `cap`. */
  async dueCount(db: Executor, now: string, cap: number): Promise<number> {
    const r = await db
      .selectFrom((eb) =>
        eb
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
          .select('d.id')
          .where('d.status', '=', 'pending')
          .where('d.next_attempt_at', '<=', now)
          // a paused endpoint's waiting deliveries hold nobody back
          .where((w) => w.or([w('e.status', '=', 'active'), w('d.type', '=', 'test')]))
          .limit(cap)
          .as('x'),
      )
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
  /** Takes a due delivery for one attempt (false: another tick or instance took it first). */
  async claim(db: Executor, id: number, was: string | null, lease: string): Promise<boolean> {
    const r = await db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: lease })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', was)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
  update: (db: Executor, id: number, patch: Updateable<WebhookDeliveryTable>) => db.updateTable('webhook_deliveries').set(patch).where('id', '=', id).execute(),
  prune: (db: Executor, before: string) => db.deleteFrom('webhook_deliveries').where('created_at', '<', before).execute(),
};
