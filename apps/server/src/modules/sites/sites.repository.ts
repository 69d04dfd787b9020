import { sql, type Expression, type Insertable, type RawBuilder, type Updateable } from 'kysely';
import type { PlacementKind } from '@faceadmin/shared';
import type { Executor } from '../../db/database.ts';
import type { SiteTable } from '../../db/schema.ts';

export type SiteRow = { id: number } & Omit<SiteTable, 'id'>;
/** A device or breaker as its marker shows it (active_alarms: a breaker's uncleared alarms other than 'offline'). */
export interface ItemRow {
  kind: PlacementKind;
  ref_id: number;
  name: string;
  online: number;
  last_seen_at: string | null;
  active_alarms: number;
}
export type PlacementRow = ItemRow & { x: number; y: number };

/**
 * Sites and their placements, one company at a time (the company id first). Placements are read joined to
 * their device or breaker, so one whose device is gone is never shown or counted, even if a deletion missed it.
 */
export const sitesRepository = {
  async list(db: Executor, companyId: number) {
    return db
      .selectFrom('sites as s')
      .selectAll('s')
      .select((eb) => [
        eb
          .selectFrom('site_placements as p')
          .innerJoin('devices as d', (j) => j.onRef('d.id', '=', 'p.ref_id').onRef('d.company_id', '=', 'p.company_id'))
          .whereRef('p.site_id', '=', 's.id')
          .where('p.kind', '=', 'device')
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('devices'),
        eb
          .selectFrom('site_placements as p')
          .innerJoin('breakers as b', (j) => j.onRef('b.id', '=', 'p.ref_id').onRef('b.company_id', '=', 'p.company_id'))
          .whereRef('p.site_id', '=', 's.id')
          .where('p.kind', '=', 'breaker')
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('breakers'),
      ])
      .where('s.company_id', '=', companyId)
      .orderBy('s.sort')
      .orderBy('s.id')
      .execute();
  },
  get(db: Executor, companyId: number, id: number): Promise<SiteRow | undefined> {
    return db.selectFrom('sites').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  },
  async insert(db: Executor, companyId: number, row: Omit<Insertable<SiteTable>, 'company_id' | 'id'>): Promise<number> {
    const r = await db
      .insertInto('sites')
      .values({ ...row, company_id: companyId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },
  async update(db: Executor, companyId: number, id: number, patch: Updateable<Omit<SiteTable, 'id' | 'company_id' | 'created_at'>>) {
    await db.updateTable('sites').set(patch).where('company_id', '=', companyId).where('id', '=', id).execute();
  },
  async delete(db: Executor, companyId: number, id: number) {
    await db.deleteFrom('site_placements').where('company_id', '=', companyId).where('site_id', '=', id).execute();
    await db.deleteFrom('sites').where('company_id', '=', companyId).where('id', '=', id).execute();
  },
  /** Every file name the company's sites use (for a sweep of leftovers). */
  async images(db: Executor, companyId: number): Promise<Set<string>> {
    const rows = await db.selectFrom('sites').select('image').where('company_id', '=', companyId).where('image', '!=', '').execute();
    return new Set(rows.map((r) => r.image));
  },

  /** The site's placements with their devices' and breakers' names and states. */
  async placements(db: Executor, companyId: number, siteId: number): Promise<PlacementRow[]> {
    const [devices, breakers] = await Promise.all([
      db
        .selectFrom('site_placements as p')
        .innerJoin('devices as d', (j) => j.onRef('d.id', '=', 'p.ref_id').onRef('d.company_id', '=', 'p.company_id'))
        .select(['p.ref_id', 'p.x', 'p.y', 'd.name', 'd.online', 'd.last_seen_at'])
        .where('p.company_id', '=', companyId)
        .where('p.site_id', '=', siteId)
        .where('p.kind', '=', 'device')
        .orderBy('d.name')
        .execute(),
      db
        .selectFrom('site_placements as p')
        .innerJoin('breakers as b', (j) => j.onRef('b.id', '=', 'p.ref_id').onRef('b.company_id', '=', 'p.company_id'))
        .select(['p.ref_id', 'p.x', 'p.y', 'b.alias', 'b.uuid', 'b.online', 'b.last_seen_at'])
        .select((eb) => activeAlarms(eb.ref('b.id')).as('active_alarms'))
        .where('p.company_id', '=', companyId)
        .where('p.site_id', '=', siteId)
        .where('p.kind', '=', 'breaker')
        .orderBy('b.sort')
        .orderBy('b.id')
        .execute(),
    ]);
    return [
      ...devices.map((d) => ({
        kind: 'device' as const,
        ref_id: d.ref_id,
        name: d.name,
        online: d.online,
        last_seen_at: d.last_seen_at,
        active_alarms: 0,
        x: Number(d.x),
        y: Number(d.y),
      })),
      ...breakers.map((b) => ({
        kind: 'breaker' as const,
        ref_id: b.ref_id,
        name: b.alias || b.uuid,
        online: b.online,
        last_seen_at: b.last_seen_at,
        active_alarms: Number(b.active_alarms),
        x: Number(b.x),
        y: Number(b.y),
      })),
    ];
  },
  /** The company's devices and breakers not on this site. */
  async unplaced(db: Executor, companyId: number, siteId: number): Promise<ItemRow[]> {
    const [devices, breakers] = await Promise.all([
      db
        .selectFrom('devices as d')
        .select(['d.id', 'd.name', 'd.online', 'd.last_seen_at'])
        .where('d.company_id', '=', companyId)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('site_placements as p')
                .select('p.ref_id')
                .where('p.site_id', '=', siteId)
                .where('p.kind', '=', 'device')
                .whereRef('p.ref_id', '=', 'd.id'),
            ),
          ),
        )
        .orderBy('d.name')
        .orderBy('d.id')
        .execute(),
      db
        .selectFrom('breakers as b')
        .select(['b.id', 'b.alias', 'b.uuid', 'b.online', 'b.last_seen_at'])
        .select((eb) => activeAlarms(eb.ref('b.id')).as('active_alarms'))
        .where('b.company_id', '=', companyId)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('site_placements as p')
                .select('p.ref_id')
                .where('p.site_id', '=', siteId)
                .where('p.kind', '=', 'breaker')
                .whereRef('p.ref_id', '=', 'b.id'),
            ),
          ),
        )
        .orderBy('b.sort')
        .orderBy('b.id')
        .execute(),
    ]);
    return [
      ...devices.map((d) => ({ kind: 'device' as const, ref_id: d.id, name: d.name, online: d.online, last_seen_at: d.last_seen_at, active_alarms: 0 })),
      ...breakers.map((b) => ({
        kind: 'breaker' as const,
        ref_id: b.id,
        name: b.alias || b.uuid,
        online: b.online,
        last_seen_at: b.last_seen_at,
        active_alarms: Number(b.active_alarms),
      })),
    ];
  },
  /** One device or breaker of this company (undefined: none, or another company's). */
  async item(db: Executor, companyId: number, kind: PlacementKind, refId: number): Promise<ItemRow | undefined> {
    if (kind === 'device') {
      const d = await db
        .selectFrom('devices')
        .select(['id', 'name', 'online', 'last_seen_at'])
        .where('company_id', '=', companyId)
        .where('id', '=', refId)
        .executeTakeFirst();
      return d && { kind, ref_id: d.id, name: d.name, online: d.online, last_seen_at: d.last_seen_at, active_alarms: 0 };
    }
    const b = await db
      .selectFrom('breakers as b')
      .select(['b.id', 'b.alias', 'b.uuid', 'b.online', 'b.last_seen_at'])
      .select((eb) => activeAlarms(eb.ref('b.id')).as('active_alarms'))
      .where('b.company_id', '=', companyId)
      .where('b.id', '=', refId)
      .executeTakeFirst();
    return b && { kind, ref_id: b.id, name: b.alias || b.uuid, online: b.online, last_seen_at: b.last_seen_at, active_alarms: Number(b.active_alarms) };
  },

  /** Places (or moves) a device or breaker on a site. */
  async place(db: Executor, companyId: number, siteId: number, kind: PlacementKind, refId: number, x: number, y: number) {
    await db
      .insertInto('site_placements')
      .values({ company_id: companyId, site_id: siteId, kind, ref_id: refId, x, y })
      .onConflict((oc) => oc.columns(['site_id', 'kind', 'ref_id']).doUpdateSet({ x, y }))
      .execute();
  },
  /** Takes a device or breaker off a site; answers whether it was on it. */
  async unplace(db: Executor, companyId: number, siteId: number, kind: PlacementKind, refId: number): Promise<boolean> {
    const r = await db
      .deleteFrom('site_placements')
      .where('company_id', '=', companyId)
      .where('site_id', '=', siteId)
      .where('kind', '=', kind)
      .where('ref_id', '=', refId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },
  /** Takes everything off a site (its coordinates changed meaning). */
  async clear(db: Executor, companyId: number, siteId: number) {
    await db.deleteFrom('site_placements').where('company_id', '=', companyId).where('site_id', '=', siteId).execute();
  },
  /** Moves every placement of a site by the factors of a new floor plan's size, keeping each at its spot on the plan. */
  async scale(db: Executor, companyId: number, siteId: number, fx: number, fy: number) {
    await db
      .updateTable('site_placements')
      .set((eb) => ({ x: eb('x', '*', fx), y: eb('y', '*', fy) }))
      .where('company_id', '=', companyId)
      .where('site_id', '=', siteId)
      .execute();
  },
  /**
   * A deleted device or breaker leaves every site: called in the deleting service's transaction (devices,
   * breakers), since ref_id cannot carry a foreign key and SQLite may hand a deleted row's id to the next one.
   */
  async forget(db: Executor, companyId: number, kind: PlacementKind, refId: number) {
    await db.deleteFrom('site_placements').where('company_id', '=', companyId).where('kind', '=', kind).where('ref_id', '=', refId).execute();
  },
  /** The ids of the devices (or breakers) placed on a site that still exist: what the big screen (/spotconsoles) shows. */
  async refIds(db: Executor, companyId: number, siteId: number, kind: PlacementKind): Promise<number[]> {
    const rows = await db
      .selectFrom('site_placements as p')
      .select('p.ref_id')
      .where('p.company_id', '=', companyId)
      .where('p.site_id', '=', siteId)
      .where('p.kind', '=', kind)
      .where((eb) =>
        kind === 'device'
          ? eb.exists(eb.selectFrom('devices as r').select('r.id').whereRef('r.id', '=', 'p.ref_id').whereRef('r.company_id', '=', 'p.company_id'))
          : eb.exists(eb.selectFrom('breakers as r').select('r.id').whereRef('r.id', '=', 'p.ref_id').whereRef('r.company_id', '=', 'p.company_id')),
      )
      .orderBy('p.ref_id')
      .execute();
    return rows.map((r) => r.ref_id);
  },
};

/** A breaker's uncleared alarms other than 'offline' (offline alone shows grey, not red). */
function activeAlarms(breakerId: Expression<number>): RawBuilder<number> {
  return sql<number>`(select count(*) from breaker_alarms a where a.breaker_id = ${breakerId} and a.cleared_at is null and a.type <> 'offline')`;
}
