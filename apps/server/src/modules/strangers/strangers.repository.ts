import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { olderThan, type Cursor } from '../../lib/xlsx.ts';

export interface StrangerFilter {
  deviceId?: number | undefined;
  /** ISO instants, [from, to) */
  from?: string | undefined;
  to?: string | undefined;
  /** newest first after this row (an export's next batch) */
  before?: Cursor | undefined;
  offset: number;
  limit: number;
}

/**
 * Faces the company's terminals refused: punch rows with `stranger` 1 (unknown face or PIN) or 2 (a registered
 * person refused, found by PIN: punches.service STRANGER). The literal `<> 0` matches the partial index.
 */
function base(db: Executor, companyId: number) {
  return db
    .selectFrom('punches as p')
    .innerJoin('devices as d', 'd.id', 'p.device_id')
    .leftJoin('persons as u', (j) => j.onRef('u.company_id', '=', 'p.company_id').onRef('u.number', '=', 'p.pin').on('p.stranger', '=', sql.lit(2)))
    .where('p.company_id', '=', companyId)
    .where('p.stranger', '<>', sql.lit(0));
}

const COLUMNS = [
  'p.id',
  'p.pin',
  'p.local_time',
  'p.time',
  'p.stranger',
  'p.temperature',
  'p.photo',
  'p.device_id',
  'd.name as device_name',
  'u.id as person_id',
  'u.name as person_name',
] as const;

export const strangersRepository = {
  /** A page newest first; `withTotal: false` skips counting (exports page through it). */
  async list(db: Executor, companyId: number, f: StrangerFilter, withTotal = true) {
    let q = base(db, companyId);
    if (f.deviceId) q = q.where('p.device_id', '=', f.deviceId);
    if (f.from) q = q.where('p.time', '>=', f.from);
    if (f.to) q = q.where('p.time', '<', f.to);
    if (f.before) q = q.where(olderThan(f.before, 'p'));
    const [items, total] = await Promise.all([
      q.select(COLUMNS).orderBy('p.time', 'desc').orderBy('p.id', 'desc').limit(f.limit).offset(f.offset).execute(),
      withTotal ? q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow() : { n: -1 },
    ]);
    return { items, total: Number(total.n) };
  },
  /** One refused face of this company (what the consoles are told of a new one), or undefined. */
  find: (db: Executor, companyId: number, id: number) => base(db, companyId).where('p.id', '=', id).select(COLUMNS).executeTakeFirst(),
  /** Whether the device is this company's. */
  async deviceOf(db: Executor, companyId: number, deviceId: number): Promise<boolean> {
    return !!(await db.selectFrom('devices').select('id').where('company_id', '=', companyId).where('id', '=', deviceId).executeTakeFirst());
  },
};
export type StrangerRow = NonNullable<Awaited<ReturnType<typeof strangersRepository.find>>>;
