import { sql, type Insertable, type Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { VisitorTable } from '../../db/schema.ts';
import { likeKeyword } from '../../lib/schemas.ts';

export type VisitorRow = Selectable<VisitorTable>;

export interface VisitorFilter {
  keyword?: string | undefined;
  state?: string | undefined;
  /** an employee sees the invitations they made */
  inviterPersonId?: number | undefined;
  offset: number;
  limit: number;
}

export interface VisitFilter {
  /** ISO instants, [from, to) */
  from?: string | undefined;
  to?: string | undefined;
  keyword?: string | undefined;
  deviceId?: number | undefined;
  status?: 'success' | 'failure' | undefined;
}

/**
 * Visits: the punches of a visitor's hidden person (the door let them in: `stranger` 0) and the refusals of their PIN
 * (`stranger` 2, kept by PIN: punches.service STRANGER). Joined by PIN, which stays unique in the company.
 */
function visits(db: Executor, companyId: number, f: VisitFilter) {
  let q = db
    .selectFrom('visitors as v')
    .innerJoin('persons as u', 'u.id', 'v.person_id')
    .innerJoin('punches as p', (j) => j.onRef('p.company_id', '=', 'u.company_id').onRef('p.pin', '=', 'u.number'))
    .innerJoin('devices as d', 'd.id', 'p.device_id')
    .where('v.company_id', '=', companyId)
    .where('p.stranger', 'in', [sql.lit(0), sql.lit(2)]);
  if (f.from) q = q.where('p.time', '>=', f.from);
  if (f.to) q = q.where('p.time', '<', f.to);
  if (f.deviceId) q = q.where('p.device_id', '=', f.deviceId);
  if (f.status) q = q.where('p.stranger', '=', f.status === 'success' ? sql.lit(0) : sql.lit(2));
  if (f.keyword) {
    const k = likeKeyword(f.keyword);
    q = q.where((eb) => eb.or([eb(sql`lower(v.name)`, 'like', k), eb(sql`lower(v.inviter_name)`, 'like', k), eb('v.phone', 'like', k)]));
  }
  return q;
}
const VISIT_COLUMNS = [
  'p.id',
  'p.local_time',
  'p.time',
  'p.stranger',
  'p.photo',
  'p.device_id',
  'd.name as device_name',
  'v.id as visitor_id',
  'v.name',
  'v.phone',
  'v.inviter_name',
] as const;

/** Invitations of one company; every method takes the company id first. */
export const visitorsRepository = {
  async list(db: Executor, companyId: number, f: VisitorFilter) {
    let q = db.selectFrom('visitors as v').innerJoin('persons as u', 'u.id', 'v.person_id').where('v.company_id', '=', companyId);
    if (f.state) q = q.where('v.state', '=', f.state);
    if (f.inviterPersonId) q = q.where('v.inviter_person_id', '=', f.inviterPersonId);
    if (f.keyword) {
      const k = likeKeyword(f.keyword);
      q = q.where((eb) => eb.or([eb(sql`lower(v.name)`, 'like', k), eb('v.phone', 'like', k), eb(sql`lower(v.visitor_company)`, 'like', k)]));
    }
    const [items, total] = await Promise.all([
      q.selectAll('v').select('u.photo').orderBy('v.created_at', 'desc').orderBy('v.id', 'desc').limit(f.limit).offset(f.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },
  find: (db: Executor, companyId: number, id: number) =>
    db
      .selectFrom('visitors as v')
      .innerJoin('persons as u', 'u.id', 'v.person_id')
      .selectAll('v')
      .select('u.photo')
      .where('v.company_id', '=', companyId)
      .where('v.id', '=', id)
      .executeTakeFirst(),
  /** By the link's hash, in any company (the public page knows no company). */
  byToken: (db: Executor, tokenHash: string) =>
    db
      .selectFrom('visitors as v')
      .innerJoin('persons as u', 'u.id', 'v.person_id')
      .innerJoin('companies as c', 'c.id', 'v.company_id')
      .selectAll('v')
      .select(['u.photo', 'c.name as host', 'c.time_zone'])
      .where('v.token_hash', '=', tokenHash)
      .executeTakeFirst(),
  async insert(db: Executor, row: Insertable<VisitorTable>): Promise<number> {
    return (await db.insertInto('visitors').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },
  async setState(db: Executor, companyId: number, id: number, state: string, at: string) {
    await db.updateTable('visitors').set({ state, updated_at: at }).where('company_id', '=', companyId).where('id', '=', id).execute();
  },
  /** Open invitations whose window has passed, oldest first. */
  due: (db: Executor, now: string, limit: number) =>
    db
      .selectFrom('visitors')
      .select(['id', 'company_id', 'person_id'])
      .where('state', 'in', ['invited', 'active'])
      .where('ends_at', '<=', now)
      .orderBy('ends_at')
      .limit(limit)
      .execute(),
  /** Visitors among these people not yet arrived (the first accepted punch tells the inviter). */
  notArrived: (db: Executor, companyId: number, personIds: number[]) =>
    db.selectFrom('visitors').selectAll().where('company_id', '=', companyId).where('person_id', 'in', personIds).where('arrived_at', 'is', null).execute(),
  /** Marks the arrival once; answers whether this call did it (another instance may have). */
  async arrive(db: Executor, companyId: number, id: number, at: string): Promise<boolean> {
    const r = await db
      .updateTable('visitors')
      .set({ arrived_at: at })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .where('arrived_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
  /** The company's devices (id, name, options) among these ids. */
  devices: (db: Executor, companyId: number, ids: number[]) =>
    ids.length ? db.selectFrom('devices').selectAll().where('company_id', '=', companyId).where('id', 'in', ids).orderBy('id').execute() : Promise.resolve([]),
  allDevices: (db: Executor, companyId: number) =>
    db.selectFrom('devices').select(['id', 'name', 'options']).where('company_id', '=', companyId).orderBy('name').orderBy('id').execute(),
  async deviceNames(db: Executor, companyId: number, ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await db.selectFrom('devices').select(['id', 'name']).where('company_id', '=', companyId).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  },
  async numberTaken(db: Executor, companyId: number, number: string): Promise<boolean> {
    return !!(await db.selectFrom('persons').select('id').where('company_id', '=', companyId).where('number', '=', number).executeTakeFirst());
  },
  async visits(db: Executor, companyId: number, f: VisitFilter & { offset: number; limit: number }, withTotal = true) {
    const q = visits(db, companyId, f);
    const [items, total] = await Promise.all([
      q.select(VISIT_COLUMNS).orderBy('p.time', 'desc').orderBy('p.id', 'desc').limit(f.limit).offset(f.offset).execute(),
      withTotal ? q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow() : { n: -1 },
    ]);
    return { items, total: Number(total.n) };
  },
  /** One visit of this company (its capture photo). */
  visit: (db: Executor, companyId: number, id: number) => visits(db, companyId, {}).where('p.id', '=', id).select(VISIT_COLUMNS).executeTakeFirst(),
};
export type VisitorListRow = Awaited<ReturnType<typeof visitorsRepository.list>>['items'][number];
export type VisitRow = Awaited<ReturnType<typeof visitorsRepository.visits>>['items'][number];
