import type { Executor } from '../../db/database.ts';

/** Sessions are keyed by the SHA-256 of the token; the token itself is never stored. */
export const sessionsRepository = {
  async create(
    db: Executor,
    row: { token_hash: string; admin_id: number; created_at: string; expires_at: string; ip: string; user_agent: string },
  ): Promise<number> {
    const r = await db
      .insertInto('sessions')
      .values({ ...row, last_seen_at: row.created_at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },
  findByHash(db: Executor, tokenHash: string) {
    return db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  },
  async touch(db: Executor, id: number, at: string) {
    await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
  },
  async expireAt(db: Executor, id: number, at: string) {
    await db.updateTable('sessions').set({ expires_at: at }).where('id', '=', id).execute();
  },
  async deleteById(db: Executor, id: number) {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
  },
  /** Ends every session of an administrator, optionally keeping one. */
  async deleteForAdmin(db: Executor, adminId: number, exceptId?: number) {
    let q = db.deleteFrom('sessions').where('admin_id', '=', adminId);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    await q.execute();
  },
  async deleteExpired(db: Executor, now: string) {
    await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
  },
};
