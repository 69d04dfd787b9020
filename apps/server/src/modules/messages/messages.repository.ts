import type { ExpressionBuilder } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/** Messages addressed to this administrator, or to every administrator of the company (admin_id null). */
const visibleTo = (companyId: number, adminId: number) => (eb: ExpressionBuilder<DB, 'messages'>) =>
  eb.and([eb('messages.company_id', '=', companyId), eb.or([eb('messages.admin_id', 'is', null), eb('messages.admin_id', '=', adminId)])]);
const unread = (adminId: number) => (eb: ExpressionBuilder<DB, 'messages'>) =>
  eb.not(eb.exists(eb.selectFrom('message_reads as r').select('r.message_id').whereRef('r.message_id', '=', 'messages.id').where('r.admin_id', '=', adminId)));

export const messagesRepository = {
  async insert(db: Executor, companyId: number, row: { admin_id: number | null; type: string; params: string; created_at: string }) {
    await db
      .insertInto('messages')
      .values({ ...row, company_id: companyId })
      .execute();
  },
  async list(db: Executor, companyId: number, adminId: number, f: { unreadOnly: boolean; offset: number; limit: number }) {
    let q = db.selectFrom('messages').where(visibleTo(companyId, adminId));
    if (f.unreadOnly) q = q.where(unread(adminId));
    const [items, total] = await Promise.all([
      q
        .select(['messages.id', 'messages.type', 'messages.params', 'messages.created_at'])
        .select((eb) =>
          eb
            .exists(eb.selectFrom('message_reads as r').select('r.message_id').whereRef('r.message_id', '=', 'messages.id').where('r.admin_id', '=', adminId))
            .as('is_read'),
        )
        .orderBy('messages.created_at', 'desc')
        .orderBy('messages.id', 'desc')
        .limit(f.limit)
        .offset(f.offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },
  async countUnread(db: Executor, companyId: number, adminId: number): Promise<number> {
    const r = await db
      .selectFrom('messages')
      .where(visibleTo(companyId, adminId))
      .where(unread(adminId))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
  /** Marks the given (or all) visible unread messages read; ids of other companies are ignored. */
  async markRead(db: Executor, companyId: number, adminId: number, ids: number[] | 'all', at: string) {
    let q = db.selectFrom('messages').where(visibleTo(companyId, adminId)).where(unread(adminId));
    if (ids !== 'all') {
      if (ids.length === 0) return;
      q = q.where('messages.id', 'in', ids);
    }
    await db
      .insertInto('message_reads')
      .columns(['message_id', 'admin_id', 'read_at'])
      .expression(q.select((eb) => ['messages.id', eb.val(adminId).as('admin_id'), eb.val(at).as('read_at')]))
      .onConflict((oc) => oc.columns(['message_id', 'admin_id']).doNothing())
      .execute();
  },
};
