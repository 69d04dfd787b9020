import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { chunks, inChunks } from '../../lib/chunks.ts';

/** The sync ledger: one row per (device, person). Every method is scoped by company. */
export const ledgerRepository = {
  rowsForPersons: (db: Executor, companyId: number, personIds: number[]) =>
    inChunks(personIds, (part) => db.selectFrom('device_persons').selectAll().where('company_id', '=', companyId).where('person_id', 'in', part).execute()),
  rowsForDevice: (db: Executor, companyId: number, deviceId: number, personIds: number[]) =>
    inChunks(personIds, (part) =>
      db
        .selectFrom('device_persons')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('device_id', '=', deviceId)
        .where('person_id', 'in', part)
        .execute(),
    ),
  async insertMany(db: Executor, rows: { company_id: number; device_id: number; person_id: number; pin: string; desired_rev: number; updated_at: string }[]) {
    for (const part of chunks(rows)) if (part.length) await db.insertInto('device_persons').values(part).execute();
  },
  async setDesired(db: Executor, companyId: number, deviceId: number, personId: number, patch: { desired_rev: number; pin?: string; updated_at: string }) {
    await db
      .updateTable('device_persons')
      .set({ ...patch, state: 'pending', attempts: 0, next_attempt_at: null, last_code: null, last_error: '' })
      .where('company_id', '=', companyId)
      .where('device_id', '=', deviceId)
      .where('person_id', '=', personId)
      .execute();
  },
  /**
   * Takes a person off a device: the row goes if the device never got them and nothing is in flight
   * (checked in the statement, not before it, so a concurrent poll cannot strand a user on the device);
   * otherwise a delete is queued.
   */
  async retire(db: Executor, companyId: number, deviceId: number, personId: number, at: string) {
    const r = await db
      .deleteFrom('device_persons')
      .where('company_id', '=', companyId)
      .where('device_id', '=', deviceId)
      .where('person_id', '=', personId)
      .where('applied_rev', '=', 0)
      .where('inflight', '=', 0)
      .executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) await this.setDesired(db, companyId, deviceId, personId, { desired_rev: 0, updated_at: at });
  },
  async remove(db: Executor, companyId: number, deviceId: number, personId: number) {
    await db.deleteFrom('device_persons').where('company_id', '=', companyId).where('device_id', '=', deviceId).where('person_id', '=', personId).execute();
  },
  /** Work for one device: rows whose desired state is not applied, not in flight, due now. Deletions first: they free room. */
  due: (db: Executor, deviceId: number, now: string, limit: number) =>
    db
      .selectFrom('device_persons')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('inflight', '=', 0)
      // state is "synced" only when applied = desired; both are checked so a row can never be stranded.
      .where((eb) => eb.or([eb('state', '!=', 'synced'), eb('desired_rev', '!=', eb.ref('applied_rev'))]))
      .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]))
      .orderBy(sql`case when desired_rev = 0 then 0 else 1 end`)
      .orderBy('person_id')
      .limit(limit)
      .execute(),
  /** People the device holds or is about to hold (for the capacity check). */
  async occupied(db: Executor, deviceId: number): Promise<number> {
    const r = await db
      .selectFrom('device_persons')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('device_id', '=', deviceId)
      .where((eb) => eb.or([eb('applied_rev', '>', 0), eb('inflight', '=', 1)]))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
  summary: (db: Executor, companyId: number, deviceIds: number[]) =>
    deviceIds.length
      ? db
          .selectFrom('device_persons')
          .select(['device_id', 'state', (eb) => eb.fn.countAll<number>().as('n')])
          .where('company_id', '=', companyId)
          .where('device_id', 'in', deviceIds)
          .where('desired_rev', '>', 0)
          .groupBy(['device_id', 'state'])
          .execute()
      : Promise.resolve([]),
  /** Recomputes people's sync status (spec §3: 0 not synced, 1 synced, 2 failed) from their ledger rows. */
  async refreshPersonStatus(db: Executor, companyId: number, personIds: number[]) {
    for (const part of chunks([...new Set(personIds)])) {
      if (!part.length) continue;
      const rows = await db
        .selectFrom('device_persons')
        .select(['person_id', 'state', (eb) => eb.fn.countAll<number>().as('n')])
        .where('company_id', '=', companyId)
        .where('person_id', 'in', part)
        .where('desired_rev', '>', 0)
        .groupBy(['person_id', 'state'])
        .execute();
      const by = new Map<number, Map<string, number>>();
      for (const r of rows) by.set(r.person_id, (by.get(r.person_id) ?? new Map()).set(r.state, Number(r.n)));
      const groups: Record<0 | 1 | 2, number[]> = { 0: [], 1: [], 2: [] };
      for (const id of part) {
        const s = by.get(id);
        const status = !s ? 0 : (s.get('failed') ?? 0) > 0 ? 2 : (s.get('pending') ?? 0) > 0 ? 0 : 1;
        groups[status].push(id);
      }
      for (const status of [0, 1, 2] as const) {
        if (groups[status].length)
          await db.updateTable('persons').set({ sync_status: status }).where('company_id', '=', companyId).where('id', 'in', groups[status]).execute();
      }
    }
  },
};
