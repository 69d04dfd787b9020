import type { Executor } from '../../db/database.ts';

/** Person sessions, one-time sign-in links and the persons' inbox (the self-service page's own tables). */
export const selfRepository = {
  async openSession(db: Executor, row: { company_id: number; person_id: number; token_hash: string; created_at: string; expires_at: string }) {
    await db
      .insertInto('person_sessions')
      .values({ ...row, last_seen_at: row.created_at })
      .execute();
  },
  session: (db: Executor, tokenHash: string) =>
    db
      .selectFrom('person_sessions as s')
      .innerJoin('persons as p', 'p.id', 's.person_id')
      .innerJoin('companies as c', 'c.id', 's.company_id')
      .select(['s.id', 's.company_id', 's.person_id', 's.expires_at', 's.last_seen_at', 'p.name', 'p.work_status', 'c.time_zone'])
      .where('s.token_hash', '=', tokenHash)
      .whereRef('p.company_id', '=', 's.company_id')
      .executeTakeFirst(),
  async touch(db: Executor, id: number, at: string) {
    await db.updateTable('person_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
  },
  async endSession(db: Executor, id: number) {
    await db.deleteFrom('person_sessions').where('id', '=', id).execute();
  },
  async purge(db: Executor, before: string) {
    await db.deleteFrom('person_sessions').where('expires_at', '<', before).execute();
    await db.deleteFrom('person_links').where('expires_at', '<', before).execute();
  },
  /** The working person an administrator account is in a company (spec §7 bindAdmin), if any. */
  personOfAdmin: (db: Executor, companyId: number, adminId: number) =>
    db.selectFrom('persons').select('id').where('company_id', '=', companyId).where('admin_id', '=', adminId).where('work_status', '=', 1).executeTakeFirst(),
  /** Working people with this phone, in every company (the sign-in chooses one). */
  byPhone: (db: Executor, phone: string) =>
    db
      .selectFrom('persons as p')
      .innerJoin('companies as c', 'c.id', 'p.company_id')
      .select(['p.id', 'p.company_id', 'c.name as company_name'])
      .where('p.phone', '=', phone)
      .where('p.work_status', '=', 1)
      // a visitor's phone signs nobody in (#19)
      .where('p.kind', '=', 'employee')
      .orderBy('p.company_id')
      .orderBy('p.id')
      .execute(),
  async insertLink(
    db: Executor,
    row: { company_id: number; person_id: number; token_hash: string; created_by: number; created_at: string; expires_at: string },
  ) {
    await db.insertInto('person_links').values(row).execute();
  },
  /** Uses a link once: true when this call used it (a second use, or an expired link, gets false). */
  async useLink(db: Executor, tokenHash: string, at: string) {
    const row = await db
      .selectFrom('person_links')
      .select(['id', 'company_id', 'person_id', 'expires_at'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row || row.expires_at <= at) return undefined;
    const r = await db.updateTable('person_links').set({ used_at: at }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1 ? row : undefined;
  },

  async insertMessage(
    db: Executor,
    companyId: number,
    row: { person_id: number; type: string; params: string; application_id: number | null; created_at: string },
  ) {
    await db
      .insertInto('person_messages')
      .values({ ...row, company_id: companyId })
      .execute();
  },
  async messages(db: Executor, companyId: number, personId: number, f: { unreadOnly: boolean; offset: number; limit: number }) {
    let q = db.selectFrom('person_messages').where('company_id', '=', companyId).where('person_id', '=', personId);
    if (f.unreadOnly) q = q.where('read_at', 'is', null);
    const [items, total] = await Promise.all([
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },
  unread: async (db: Executor, companyId: number, personId: number) =>
    Number(
      (
        await db
          .selectFrom('person_messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', companyId)
          .where('person_id', '=', personId)
          .where('read_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  async markRead(db: Executor, companyId: number, personId: number, ids: number[] | 'all', at: string) {
    let q = db
      .updateTable('person_messages')
      .set({ read_at: at })
      .where('company_id', '=', companyId)
      .where('person_id', '=', personId)
      .where('read_at', 'is', null);
    if (ids !== 'all') {
      if (!ids.length) return;
      q = q.where('id', 'in', ids);
    }
    await q.execute();
  },
};
