import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ParkingBindingTable } from '../../db/schema.ts';
import { chunks } from '../../lib/chunks.ts';

export type ParkingBindingRow = Selectable<ParkingBindingTable> & { bound_by_name: string | null };

/** Parking bindings, used code nonces, and the people outbox; every method takes the company id first. */
export const parkingRepository = {
  bindings: (db: Executor, companyId: number): Promise<ParkingBindingRow[]> =>
    db
      .selectFrom('parking_bindings as b')
      .leftJoin('admins as a', 'a.id', 'b.bound_by')
      .selectAll('b')
      .select('a.name as bound_by_name')
      .where('b.company_id', '=', companyId)
      .orderBy('b.id')
      .execute(),
  findBinding: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('parking_bindings').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
  findByDzg: (db: Executor, companyId: number, dzgId: string) =>
    db.selectFrom('parking_bindings').selectAll().where('company_id', '=', companyId).where('dzg_id', '=', dzgId).executeTakeFirst(),
  async insertBinding(db: Executor, companyId: number, row: { dzg_id: string; lot_name: string; bound_by: number; created_at: string }) {
    const r = await db
      .insertInto('parking_bindings')
      .values({ ...row, company_id: companyId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },
  deleteBinding: (db: Executor, companyId: number, id: number) =>
    db.deleteFrom('parking_bindings').where('company_id', '=', companyId).where('id', '=', id).execute(),
  async countBindings(db: Executor, companyId: number): Promise<number> {
    const r = await db
      .selectFrom('parking_bindings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },

  nonceUsed: async (db: Executor, companyId: number, nonce: string) =>
    Boolean(await db.selectFrom('parking_nonces').select('nonce').where('company_id', '=', companyId).where('nonce', '=', nonce).executeTakeFirst()),
  /** Marks a nonce used; false when it already was (two binds racing: the key decides). */
  async useNonce(db: Executor, companyId: number, nonce: string, expiresAt: string, now: string): Promise<boolean> {
    const r = await db
      .insertInto('parking_nonces')
      .values({ company_id: companyId, nonce, expires_at: expiresAt, used_at: now })
      .onConflict((oc) => oc.columns(['company_id', 'nonce']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  },
  /** Nonces of codes expired before `before`: a replay of one is refused by its expiry alone. */
  purgeNonces: (db: Executor, before: string) => db.deleteFrom('parking_nonces').where('expires_at', '<', before).execute(),

  async enqueue(db: Executor, companyId: number, rows: { person_id: number | null; number: string; kind: 'saved' | 'deleted' | 'all' }[], now: string) {
    for (const part of chunks(rows, 500))
      await db
        .insertInto('parking_outbox')
        .values(part.map((r) => ({ ...r, company_id: companyId, created_at: now })))
        .execute();
  },
  outbox: (db: Executor, companyId: number, limit: number) =>
    db.selectFrom('parking_outbox').selectAll().where('company_id', '=', companyId).orderBy('id').limit(limit).execute(),
  /** Removes what a push delivered (rows up to `lastId`), leaving changes that came in meanwhile. */
  clearOutbox: (db: Executor, companyId: number, lastId: number) =>
    db.deleteFrom('parking_outbox').where('company_id', '=', companyId).where('id', '<=', lastId).execute(),
  dropOutbox: (db: Executor, companyId: number) => db.deleteFrom('parking_outbox').where('company_id', '=', companyId).execute(),
  async pendingCount(db: Executor, companyId: number): Promise<number> {
    const r = await db
      .selectFrom('parking_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
  /** Companies with changes waiting whose next attempt is due. */
  async dueCompanies(db: Executor, now: string): Promise<number[]> {
    const rows = await db
      .selectFrom('parking_outbox as o')
      .leftJoin('parking_push_state as s', 's.company_id', 'o.company_id')
      .select('o.company_id')
      .where((eb) => eb.or([eb('s.next_attempt_at', 'is', null), eb('s.next_attempt_at', '<=', now)]))
      .groupBy('o.company_id')
      .execute();
    return rows.map((r) => r.company_id);
  },
  pushState: (db: Executor, companyId: number) => db.selectFrom('parking_push_state').selectAll().where('company_id', '=', companyId).executeTakeFirst(),
  async savePushState(db: Executor, companyId: number, s: { attempts: number; next_attempt_at: string | null; last_error: string; last_pushed_at?: string }) {
    await db
      .insertInto('parking_push_state')
      .values({ company_id: companyId, ...s })
      .onConflict((oc) => oc.column('company_id').doUpdateSet(s))
      .execute();
  },
};
