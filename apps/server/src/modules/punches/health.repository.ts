import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { olderThan, type Cursor } from '../../lib/xlsx.ts';
import type { HealthRecordTable } from '../../db/schema.ts';
import { likeKeyword } from '../../lib/schemas.ts';

export type HealthInsert = Insertable<HealthRecordTable>;

interface RangeFilter {
  keyword?: string | undefined;
  deviceId?: number | undefined;
  /** UTC instants (ISO-8601) */
  from?: string | undefined;
  to?: string | undefined;
}
export interface HealthFilter extends RangeFilter {
  color?: string | undefined;
}
export interface AlcoholFilter extends RangeFilter {
  over?: number | undefined;
}
interface Paging {
  offset: number;
  limit: number;
  /** newest first after this row (an export's next batch) */
  before?: Cursor | undefined;
}

/** The only SQL of health-code and alcohol records; every read takes the company id first. */
export const healthRepository = {
  /** Stores records, skipping any (device, PIN, device time) already stored: a resend adds nothing. */
  async insertIgnore(db: Executor, rows: HealthInsert[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 100)
      await db
        .insertInto('health_records')
        .values(rows.slice(i, i + 100))
        .onConflict((oc) => oc.columns(['device_id', 'pin', 'local_time']).doNothing())
        .execute();
  },

  /** The punch a record belongs to, when it is stored. */
  punchOf: (db: Executor, deviceId: number, pin: string, localTime: string) =>
    db
      .selectFrom('punches')
      .select(['id', 'company_id', 'person_id', 'time', 'health'])
      .where('device_id', '=', deviceId)
      .where('pin', '=', pin)
      .where('local_time', '=', localTime)
      .executeTakeFirst(),

  /** The punch of this key gets the colour unless it has one; answers the punch when it did. */
  colourBare: (db: Executor, deviceId: number, pin: string, localTime: string, color: string) =>
    db
      .updateTable('punches')
      .set({ health: color })
      .where('device_id', '=', deviceId)
      .where('pin', '=', pin)
      .where('local_time', '=', localTime)
      .where('health', 'is', null)
      .returning(['id', 'company_id', 'person_id', 'time'])
      .executeTakeFirst(),

  setPunchHealth: (db: Executor, punchId: number, color: string | null) => db.updateTable('punches').set({ health: color }).where('id', '=', punchId).execute(),

  /** A page of health records, newest first, with the punch's photo where there is one. */
  async list(db: Executor, companyId: number, f: HealthFilter & Paging, withTotal = true) {
    let q = db
      .selectFrom('health_records as h')
      .innerJoin('devices as d', 'd.id', 'h.device_id')
      .leftJoin('persons as u', 'u.id', 'h.person_id')
      // The punch of the same key (its unique index): the record's picture.
      .leftJoin('punches as p', (j) => j.onRef('p.device_id', '=', 'h.device_id').onRef('p.pin', '=', 'h.pin').onRef('p.local_time', '=', 'h.local_time'))
      .where('h.company_id', '=', companyId);
    if (f.deviceId) q = q.where('h.device_id', '=', f.deviceId);
    if (f.color) q = q.where('h.color', '=', f.color);
    if (f.from) q = q.where('h.time', '>=', f.from);
    if (f.to) q = q.where('h.time', '<', f.to);
    if (f.before) q = q.where(olderThan(f.before, 'h'));
    if (f.keyword) {
      const k = likeKeyword(f.keyword);
      q = q.where((eb) =>
        eb.or([
          eb('u.search', 'like', k),
          eb(eb.fn('lower', ['h.pin']), 'like', k),
          eb(eb.fn('lower', ['h.name']), 'like', k),
          eb(eb.fn('lower', ['h.id_number']), 'like', k),
        ]),
      );
    }
    const [items, total] = await Promise.all([
      q
        .select([
          'h.id',
          'h.person_id',
          'h.pin',
          'h.local_time',
          'h.time',
          'h.name',
          'h.id_number',
          'h.temperature',
          'h.color',
          'h.place',
          'h.nat_time',
          'h.nat_result',
          'h.trip',
          'h.vaccine_count',
          'h.vaccine_time',
          'h.device_id',
          'd.name as device_name',
          'u.name as person_name',
          'u.number as person_number',
          'p.id as punch_id',
          'p.photo',
        ])
        .orderBy('h.time', 'desc')
        .orderBy('h.id', 'desc')
        .limit(f.limit)
        .offset(f.offset)
        .execute(),
      withTotal ? q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow() : { n: -1 },
    ]);
    return { items, total: Number(total.n) };
  },

  /** A page of punches with a breath-alcohol reading, newest first. */
  async alcohol(db: Executor, companyId: number, f: AlcoholFilter & Paging, withTotal = true) {
    let q = db
      .selectFrom('punches as p')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .leftJoin('persons as u', 'u.id', 'p.person_id')
      .where('p.company_id', '=', companyId)
      .where('p.alcohol', 'is not', null);
    if (f.deviceId) q = q.where('p.device_id', '=', f.deviceId);
    if (f.over !== undefined) q = q.where('p.alcohol_over', '=', f.over);
    if (f.from) q = q.where('p.time', '>=', f.from);
    if (f.to) q = q.where('p.time', '<', f.to);
    if (f.before) q = q.where(olderThan(f.before, 'p'));
    if (f.keyword) {
      const k = likeKeyword(f.keyword);
      q = q.where((eb) => eb.or([eb('u.search', 'like', k), eb('p.pin', 'like', k)]));
    }
    const [items, total] = await Promise.all([
      q
        .select([
          'p.id',
          'p.person_id',
          'p.pin',
          'p.local_time',
          'p.time',
          'p.alcohol',
          'p.alcohol_over',
          'p.temperature',
          'p.photo',
          'p.device_id',
          'd.name as device_name',
          'u.name as person_name',
          'u.number as person_number',
        ])
        .orderBy('p.time', 'desc')
        .orderBy('p.id', 'desc')
        .limit(f.limit)
        .offset(f.offset)
        .execute(),
      withTotal ? q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow() : { n: -1 },
    ]);
    return { items, total: Number(total.n) };
  },
};
