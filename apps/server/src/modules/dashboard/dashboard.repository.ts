import { DEVICE_OPTION_DEFAULTS } from '@faceadmin/shared';
import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { chunks } from '../../lib/chunks.ts';
import { parseJson } from '../../lib/json.ts';
import { PUNCH_COLUMNS } from '../punches/punches.repository.ts';
import { sitesRepository } from '../sites/sites.repository.ts';

/**
 * The dashboard's reads (issue #16): counts and short lists over the tables other features write, every one
 * scoped to the company, and to a site's devices or breakers when a site is chosen.
 */

/** The devices and breakers placed on one site; what the dashboard's blocks filter on. */
export interface SiteScope {
  devices: number[];
  breakers: number[];
}

const n = (v: unknown) => Number(v ?? 0);

export const dashboardRepository = {
  /** The company's sites, for the site screen's picker. */
  sites: (db: Executor, companyId: number) =>
    db.selectFrom('sites').select(['id', 'name']).where('company_id', '=', companyId).orderBy('sort').orderBy('name').orderBy('id').execute(),

  /** The devices and breakers placed on a site (that still exist), or undefined when the company has no such site. */
  async site(db: Executor, companyId: number, siteId: number): Promise<SiteScope | undefined> {
    if (!(await sitesRepository.get(db, companyId, siteId))) return undefined;
    const [devices, breakers] = await Promise.all([
      sitesRepository.refIds(db, companyId, siteId, 'device'),
      sitesRepository.refIds(db, companyId, siteId, 'breaker'),
    ]);
    return { devices, breakers };
  },

  /** Today's stored results: the status as shown (a manual one wins) and the minutes late so far. */
  dayRows(db: Executor, companyId: number, date: string) {
    return db
      .selectFrom('attendance_days')
      .select(['person_id', sql<string>`coalesce(manual_status, status)`.as('status'), 'late_min'])
      .where('company_id', '=', companyId)
      .where('date', '=', date)
      .execute();
  },

  /** People who punched between the instants (their result may not be written yet). */
  async punchedBetween(db: Executor, companyId: number, from: string, to: string): Promise<Set<number>> {
    const rows = await db
      .selectFrom('punches')
      .select('person_id')
      .distinct()
      .where('company_id', '=', companyId)
      .where('time', '>=', from)
      .where('time', '<', to)
      .where('person_id', 'is not', null)
      .execute();
    return new Set(rows.map((r) => r.person_id!));
  },

  /** People on the job (id only). */
  async working(db: Executor, companyId: number): Promise<number[]> {
    const rows = await db
      .selectFrom('persons')
      .select('id')
      .where('company_id', '=', companyId)
      .where('work_status', '=', 1)
      .where('kind', '=', 'employee')
      .execute();
    return rows.map((r) => r.id);
  },

  /** The departments of these people, and their grid cell of the date (shift mode). */
  async planInputs(db: Executor, companyId: number, personIds: number[], date: string) {
    const departments = new Map<number, number[]>();
    for (const part of chunks(personIds)) {
      const rows = await db
        .selectFrom('person_departments')
        .select(['person_id', 'department_id'])
        .where('company_id', '=', companyId)
        .where('person_id', 'in', part)
        .execute();
      for (const r of rows) (departments.get(r.person_id) ?? departments.set(r.person_id, []).get(r.person_id)!).push(r.department_id);
    }
    const grid = new Map(
      (await db.selectFrom('attendance_schedule').select(['person_id', 'shift_id']).where('company_id', '=', companyId).where('date', '=', date).execute()).map(
        (r) => [r.person_id, r.shift_id],
      ),
    );
    return { departments, grid };
  },

  /**
   * Results per date and shown status between two dates (inclusive). Grouped by the index's own columns (date,
   * status, manual status) so the groups come in index order without a sort; the caller folds the manual status.
   */
  async trend(db: Executor, companyId: number, from: string, to: string) {
    const rows = await db
      .selectFrom('attendance_days')
      .select(['date', 'status', 'manual_status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('company_id', '=', companyId)
      .where('date', '>=', from)
      .where('date', '<=', to)
      .groupBy(['date', 'status', 'manual_status'])
      .execute();
    return rows.map((r) => ({ date: r.date, status: r.manual_status ?? r.status, n: Number(r.n) }));
  },

  /** Terminals with their online flag, clock drift and whether any person's sync failed on them. */
  async terminals(db: Executor, companyId: number, site: SiteScope | undefined) {
    let q = db
      .selectFrom('devices')
      .select(['id', 'name', 'direction', 'online', 'last_seen_at', 'clock_drift', 'options'])
      .where('company_id', '=', companyId);
    if (site) q = site.devices.length ? q.where('id', 'in', site.devices) : q.where(sql.lit(false));
    const devices = await q.orderBy('name').orderBy('id').execute();
    const failed = new Set<number>();
    for (const part of chunks(devices.map((d) => d.id))) {
      const rows = await db.selectFrom('device_persons').select('device_id').distinct().where('device_id', 'in', part).where('state', '=', 'failed').execute();
      for (const r of rows) failed.add(r.device_id);
    }
    return devices.map((d) => ({ ...d, failed: failed.has(d.id) }));
  },

  /** Breakers with their online flag and the ids of those with an open alarm. */
  async breakers(db: Executor, companyId: number, site: SiteScope | undefined) {
    let q = db.selectFrom('breakers').select(['id', 'alias', 'online', 'last_seen_at']).where('company_id', '=', companyId);
    if (site) q = site.breakers.length ? q.where('id', 'in', site.breakers) : q.where(sql.lit(false));
    const breakers = await q.orderBy('sort').orderBy('id').execute();
    const alarmed = new Set(
      (await db.selectFrom('breaker_alarms').select('breaker_id').distinct().where('company_id', '=', companyId).where('cleared_at', 'is', null).execute()).map(
        (r) => r.breaker_id,
      ),
    );
    return breakers.map((b) => ({ ...b, alarmed: alarmed.has(b.id) }));
  },

  /** The lines of these breakers (the console's tiles). */
  lines(db: Executor, companyId: number, breakerIds: number[]) {
    if (!breakerIds.length) return Promise.resolve([]);
    return db
      .selectFrom('breaker_lines')
      .select(['id', 'breaker_id', 'addr', 'title', 'oc', 'alarm', 'updated_at'])
      .where('company_id', '=', companyId)
      .where('breaker_id', 'in', breakerIds)
      .orderBy('breaker_id')
      .orderBy('addr')
      .execute();
  },

  /** Open breaker alarms, newest first, and how many there are. */
  async openBreakerAlarms(db: Executor, companyId: number, site: SiteScope | undefined, limit: number) {
    let q = db
      .selectFrom('breaker_alarms as a')
      .innerJoin('breakers as b', 'b.id', 'a.breaker_id')
      .leftJoin('breaker_lines as l', 'l.id', 'a.line_id')
      .where('a.company_id', '=', companyId)
      .where('a.cleared_at', 'is', null);
    if (site) q = site.breakers.length ? q.where('a.breaker_id', 'in', site.breakers) : q.where(sql.lit(false));
    const [items, total] = await Promise.all([
      q
        .select(['a.id', 'a.breaker_id', 'a.type', 'a.value', 'a.at', 'b.alias', 'l.title', 'l.addr'])
        .orderBy('a.at', 'desc')
        .orderBy('a.id', 'desc')
        .limit(limit)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: n(total.n) };
  },

  /**
   * Today's punches over a limit (a temperature at or above the terminal's alarm temperature, alcohol over its
   * threshold, a red health code) and strangers: the latest of each kind and the counts.
   */
  async punchAlarms(db: Executor, companyId: number, site: SiteScope | undefined, from: string, to: string, limit: number) {
    const devices = await db.selectFrom('devices').select(['id', 'options']).where('company_id', '=', companyId).execute();
    const threshold = (options: string) => Number(parseJson<{ alarmTemp?: number }>(options, {}).alarmTemp ?? DEVICE_OPTION_DEFAULTS.alarmTemp);
    // Each terminal judges temperature against its own alarm setting: one CASE over the company's terminals.
    const limitOf = devices.length
      ? sql`case p.device_id ${sql.join(
          devices.map((d) => sql`when ${sql.lit(d.id)} then ${sql.lit(threshold(d.options))}`),
          sql` `,
        )} else ${sql.lit(DEVICE_OPTION_DEFAULTS.alarmTemp)} end`
      : sql.lit(DEVICE_OPTION_DEFAULTS.alarmTemp);
    let base = db
      .selectFrom('punches as p')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .leftJoin('persons as u', 'u.id', 'p.person_id')
      .where('p.company_id', '=', companyId)
      .where('p.time', '>=', from)
      .where('p.time', '<', to);
    if (site) base = site.devices.length ? base.where('p.device_id', 'in', site.devices) : base.where(sql.lit(false));
    const over = base.where((eb) =>
      eb.or([eb('p.alcohol_over', '=', 1), eb('p.health', '=', 'red'), eb(eb.ref('p.temperature'), '>=', sql<number>`${limitOf}`)]),
    );
    const strangers = base.where('p.stranger', '=', 1);
    const columns = [
      'p.id',
      'p.device_id',
      'p.pin',
      'p.time',
      'p.temperature',
      'p.alcohol',
      'p.alcohol_over',
      'p.health',
      'p.stranger',
      'd.name as device_name',
      'u.name as person_name',
      sql<number>`${limitOf}`.as('temp_limit'),
    ] as const;
    const [overItems, overTotal, strangerItems, strangerTotal] = await Promise.all([
      over.select(columns).orderBy('p.time', 'desc').orderBy('p.id', 'desc').limit(limit).execute(),
      over.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      strangers.select(columns).orderBy('p.time', 'desc').orderBy('p.id', 'desc').limit(limit).execute(),
      strangers.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { over: overItems, overTotal: n(overTotal.n), strangers: strangerItems, strangerTotal: n(strangerTotal.n) };
  },

  /** Entries and exits per hour of the terminal's own clock, between the instants. */
  async flowByHour(db: Executor, companyId: number, site: SiteScope | undefined, from: string, to: string) {
    const hour = sql<string>`substr(p.local_time, 12, 2)`;
    let q = db
      .selectFrom('punches as p')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .where('p.company_id', '=', companyId)
      .where('p.time', '>=', from)
      .where('p.time', '<', to);
    if (site) q = site.devices.length ? q.where('p.device_id', 'in', site.devices) : q.where(sql.lit(false));
    const rows = await q
      .select([hour.as('hour'), 'd.direction', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy([hour, 'd.direction'])
      .execute();
    return rows.map((r) => ({ hour: Number(r.hour), direction: r.direction, n: n(r.n) }));
  },

  /** People whose last punch between the instants was on an entrance terminal. */
  async inside(db: Executor, companyId: number, site: SiteScope | undefined, from: string, to: string): Promise<number> {
    let q = db
      .selectFrom('punches as p')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .where('p.company_id', '=', companyId)
      .where('p.time', '>=', from)
      .where('p.time', '<', to)
      .where('p.person_id', 'is not', null);
    if (site) q = site.devices.length ? q.where('p.device_id', 'in', site.devices) : q.where(sql.lit(false));
    const last = q
      .select([
        'p.person_id',
        sql<string | null>`max(case when d.direction = 'in' then p.time end)`.as('last_in'),
        sql<string | null>`max(case when d.direction = 'out' then p.time end)`.as('last_out'),
      ])
      .groupBy('p.person_id')
      .as('x');
    const r = await db
      .selectFrom(last)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('x.last_in', 'is not', null)
      .where((eb) => eb.or([eb('x.last_out', 'is', null), eb('x.last_in', '>', eb.ref('x.last_out'))]))
      .executeTakeFirstOrThrow();
    return n(r.n);
  },

  /** The latest punches with a capture photo since an instant, newest first, as the punch list shows them. */
  recognitions(db: Executor, companyId: number, site: SiteScope | undefined, since: string, limit: number) {
    let q = db
      .selectFrom('punches as p')
      .leftJoin('persons as u', 'u.id', 'p.person_id')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .where('p.company_id', '=', companyId)
      .where('p.time', '>=', since)
      .where('p.photo', '!=', '');
    if (site) q = site.devices.length ? q.where('p.device_id', 'in', site.devices) : q.where(sql.lit(false));
    return q.select(PUNCH_COLUMNS).orderBy('p.time', 'desc').orderBy('p.id', 'desc').limit(limit).execute();
  },

  /** Each terminal's latest punch (one indexed look-up per terminal: a console has tens of them). */
  async lastPunches(db: Executor, companyId: number, deviceIds: number[]) {
    const rows = await Promise.all(
      deviceIds.map((id) =>
        db
          .selectFrom('punches as p')
          .leftJoin('persons as u', 'u.id', 'p.person_id')
          .innerJoin('devices as d', 'd.id', 'p.device_id')
          .select(PUNCH_COLUMNS)
          .where('p.device_id', '=', id)
          .where('p.company_id', '=', companyId)
          .orderBy('p.local_time', 'desc')
          // two records in one second (the terminal's clock has no finer grain): the one stored last
          .orderBy('p.id', 'desc')
          .limit(1)
          .executeTakeFirst(),
      ),
    );
    return new Map(rows.filter((r) => r !== undefined).map((r) => [r.device_id, r]));
  },

  /** The company's option switches (iocount). */
  async options(db: Executor, companyId: number): Promise<Record<string, unknown>> {
    const r = await db.selectFrom('companies').select('options').where('id', '=', companyId).executeTakeFirst();
    return parseJson<Record<string, unknown>>(r?.options ?? '{}', {});
  },
};
