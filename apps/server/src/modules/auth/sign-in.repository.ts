import type { Executor } from '../../db/database.ts';
import type { Attempt } from '../../lib/throttle.ts';

const attempt = (r: { id: number; account: string; ok: number; device_id: number | null; at: string }): Attempt => ({
  id: r.id,
  account: r.account,
  ok: r.ok === 1,
  known: r.device_id !== null,
  at: Date.parse(r.at),
});

/** Counted sign-in attempts (global, not per company: accounts are global). Only the auth module reads them. */
export const signInAttempts = {
  /** Records an attempt as failed before its password is checked; `succeeded` turns it into a sign-in. */
  async record(db: Executor, row: { account: string; address: string; device_id: number | null; at: string }): Promise<number> {
    const r = await db
      .insertInto('sign_in_attempts')
      .values({ ...row, ok: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },
  async succeeded(db: Executor, id: number) {
    await db.updateTable('sign_in_attempts').set({ ok: 1 }).where('id', '=', id).execute();
  },
  /** An attempt a rule refused was never checked: it counts for nothing. */
  async drop(db: Executor, id: number) {
    await db.deleteFrom('sign_in_attempts').where('id', '=', id).execute();
  },
  async byAccount(db: Executor, account: string, since: string, except: number): Promise<Attempt[]> {
    const rows = await db
      .selectFrom('sign_in_attempts')
      .select(['id', 'account', 'ok', 'device_id', 'at'])
      .where('account', '=', account)
      .where('at', '>', since)
      .where('id', '<>', except)
      .orderBy('id')
      .execute();
    return rows.map(attempt);
  },
  async byAddress(db: Executor, address: string, since: string, except: number): Promise<Attempt[]> {
    const rows = await db
      .selectFrom('sign_in_attempts')
      .select(['id', 'account', 'ok', 'device_id', 'at'])
      .where('address', '=', address)
      .where('at', '>', since)
      .where('id', '<>', except)
      .orderBy('id')
      .execute();
    return rows.map(attempt);
  },
  async deviceFailures(db: Executor, deviceId: number, since: string): Promise<number> {
    const r = await db
      .selectFrom('sign_in_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('device_id', '=', deviceId)
      .where('ok', '=', 0)
      .where('at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
  async deleteForAccount(db: Executor, account: string) {
    await db.deleteFrom('sign_in_attempts').where('account', '=', account).execute();
  },
  deleteBefore: (db: Executor, iso: string) => db.deleteFrom('sign_in_attempts').where('at', '<', iso).execute(),
};

/** Browsers administrators signed in from, by the SHA-256 of their device cookie. */
export const knownDevices = {
  find: (db: Executor, tokenHash: string, adminId: number, usedSince: string) =>
    db
      .selectFrom('known_devices')
      .select(['id', 'admin_id'])
      .where('token_hash', '=', tokenHash)
      .where('admin_id', '=', adminId)
      .where('last_used_at', '>', usedSince)
      .executeTakeFirst(),
  /** The administrators this browser is known for, most recently used first. */
  admins: (db: Executor, tokenHash: string) =>
    db.selectFrom('known_devices').select(['id', 'admin_id']).where('token_hash', '=', tokenHash).orderBy('last_used_at', 'desc').execute(),
  async rename(db: Executor, fromHash: string, toHash: string) {
    await db.updateTable('known_devices').set({ token_hash: toHash }).where('token_hash', '=', fromHash).execute();
  },
  async insert(db: Executor, row: { token_hash: string; admin_id: number; created_at: string; last_used_at: string }) {
    await db.insertInto('known_devices').values(row).execute();
  },
  async touch(db: Executor, id: number, at: string) {
    await db.updateTable('known_devices').set({ last_used_at: at }).where('id', '=', id).execute();
  },
  async delete(db: Executor, ids: number[]) {
    if (ids.length) await db.deleteFrom('known_devices').where('id', 'in', ids).execute();
  },
  async deleteForAdmin(db: Executor, adminId: number) {
    await db.deleteFrom('known_devices').where('admin_id', '=', adminId).execute();
  },
  deleteUnusedBefore: (db: Executor, iso: string) => db.deleteFrom('known_devices').where('last_used_at', '<', iso).execute(),
};
