import { sql, type Insertable } from 'kysely';
import type { PunchTable } from '../../db/schema.ts';
import type { Executor } from '../../db/database.ts';
import { likePattern } from '../../lib/schemas.ts';

/** A punch as written: the table's columns (the id is generated). */
export type PunchInsert = Insertable<PunchTable>;

export interface PunchFilter {
  keyword?: string | undefined;
  deviceId?: number | undefined;
  personId?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
  stranger?: number | undefined;
  offset: number;
  limit: number;
}

const CHUNK = 200;

export const punchesRepository = {
  /** Inserts, skipping any (device, PIN, device time) already stored: re-uploads and replays add nothing. */
  async insertIgnore(db: Executor, rows: PunchInsert[]): Promise<void> {
    for (let i = 0; i < rows.length; i += CHUNK) {
      await db
        .insertInto('punches')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) => oc.columns(['device_id', 'pin', 'local_time']).doNothing())
        .execute();
    }
  },
  async setPhoto(db: Executor, deviceId: number, pin: string, localTime: string, photo: string): Promise<boolean> {
    const r = await db
      .updateTable('punches')
      .set({ photo })
      .where('device_id', '=', deviceId)
      .where('pin', '=', pin)
      .where('local_time', '=', localTime)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  async list(db: Executor, companyId: number, f: PunchFilter) {
    let q = db
      .selectFrom('punches as p')
      .leftJoin('persons as u', 'u.id', 'p.person_id')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .where('p.company_id', '=', companyId);
    if (f.deviceId) q = q.where('p.device_id', '=', f.deviceId);
    if (f.personId) q = q.where('p.person_id', '=', f.personId);
    if (f.from) q = q.where('p.time', '>=', f.from);
    if (f.to) q = q.where('p.time', '<', f.to);
    if (f.stranger !== undefined) q = q.where('p.stranger', '=', f.stranger);
    if (f.keyword) {
      const p = sql<string>`${likePattern(f.keyword.toLowerCase())} escape '\\'`;
      q = q.where((eb) => eb.or([eb('u.search', 'like', p), eb('p.pin', 'like', p)]));
    }
    const [items, total] = await Promise.all([
      q
        .select([
          'p.id',
          'p.pin',
          'p.person_id',
          'p.local_time',
          'p.time',
          'p.status',
          'p.verify',
          'p.temperature',
          'p.mask',
          'p.photo',
          'p.stranger',
          'p.device_id',
          'd.name as device_name',
          'd.direction',
          'u.name as person_name',
          'u.number as person_number',
        ])
        .orderBy('p.time', 'desc')
        .orderBy('p.id', 'desc')
        .limit(f.limit)
        .offset(f.offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },
  find: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('punches').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
};
