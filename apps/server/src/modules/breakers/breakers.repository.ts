import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { BreakerAlarmTable, BreakerLineTable, BreakerSampleTable, BreakerTable, BreakerTimerTable } from '../../db/schema.ts';
import { likeKeyword } from '../../lib/schemas.ts';

export type BreakerRow = Selectable<BreakerTable>;
export type LineRow = Selectable<BreakerLineTable>;
export type TimerRow = Selectable<BreakerTimerTable>;
export type AlarmRow = Selectable<BreakerAlarmTable>;

/** Breakers, lines, timers and alarms of one company (the company id first); the byUuid lookups serve the gateway. */
export const breakersRepository = {
  async list(db: Executor, companyId: number, f: { keyword?: string | undefined; online?: number | undefined; offset: number; limit: number }) {
    let q = db.selectFrom('breakers').where('company_id', '=', companyId);
    if (f.online !== undefined) q = q.where('online', '=', f.online);
    if (f.keyword) {
      const p = likeKeyword(f.keyword);
      q = q.where((eb) => eb.or([eb(eb.fn('lower', ['alias']), 'like', p), eb(eb.fn('lower', ['uuid']), 'like', p)]));
    }
    const [items, total] = await Promise.all([
      q.selectAll().orderBy('sort').orderBy('id').limit(f.limit).offset(f.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },
  find: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('breakers').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
  /** The gateway's lookup: a breaker names itself by uuid only. */
  findByUuid: (db: Executor, uuid: string) => db.selectFrom('breakers').selectAll().where('uuid', '=', uuid).executeTakeFirst(),
  uuidTaken: async (db: Executor, uuid: string, exceptId = 0) =>
    Boolean(await db.selectFrom('breakers').select('id').where('uuid', '=', uuid).where('id', '!=', exceptId).executeTakeFirst()),
  insert: async (db: Executor, row: Insertable<BreakerTable>) => (await db.insertInto('breakers').values(row).returning('id').executeTakeFirstOrThrow()).id,
  update: (db: Executor, companyId: number, id: number, set: Updateable<BreakerTable>) =>
    db.updateTable('breakers').set(set).where('company_id', '=', companyId).where('id', '=', id).execute(),
  delete: (db: Executor, companyId: number, id: number) => db.deleteFrom('breakers').where('company_id', '=', companyId).where('id', '=', id).execute(),
  /** Connected to this instance (`by`): it serves the breaker from now on. */
  setConnected: (db: Executor, id: number, by: string, at: string) =>
    db.updateTable('breakers').set({ online: 1, last_seen_at: at, served_by: by }).where('id', '=', id).execute(),
  /**
   * Disconnected from instance `by`: offline, unless another instance serves it by now (it reconnected there first).
   * `by` null: the shared broker said so (its retained presence), whoever served it. Answers whether it turned offline.
   */
  async setDisconnected(db: Executor, id: number, by: string | null, at: string): Promise<boolean> {
    let q = db.updateTable('breakers').set({ online: 0, last_seen_at: at }).where('id', '=', id);
    if (by !== null) q = q.where('served_by', 'in', [by, '']);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  /** Online breakers served by none of these instances (they stopped): their uuids. */
  orphaned: async (db: Executor, running: string[]) => {
    let q = db.selectFrom('breakers').select('uuid').where('online', '=', 1);
    if (running.length) q = q.where('served_by', 'not in', running);
    return (await q.execute()).map((r) => r.uuid);
  },
  /** Where an online breaker is served: the instance id, or undefined when it is offline. */
  servedBy: async (db: Executor, uuid: string) =>
    (await db.selectFrom('breakers').select(['online', 'served_by']).where('uuid', '=', uuid).executeTakeFirst()) ?? undefined,
  /** At start: nothing is connected yet. */
  allOffline: (db: Executor) => db.updateTable('breakers').set({ online: 0 }).where('online', '=', 1).execute(),
  credentials: (db: Executor) => db.selectFrom('breakers').select(['uuid', 'broker_hash']).orderBy('uuid').execute(),
  /** Per breaker: total live power (main lines left out when there are others) and active alarms. */
  async figures(db: Executor, companyId: number, ids: number[]) {
    const out = new Map<number, { power: number; alarms: number }>();
    for (const id of ids) out.set(id, { power: 0, alarms: 0 });
    if (!ids.length) return out;
    const lines = await db
      .selectFrom('breaker_lines')
      .select(['breaker_id', 'main', 'power'])
      .where('company_id', '=', companyId)
      .where('breaker_id', 'in', ids)
      .execute();
    const byBreaker = new Map<number, { main: number; other: number; others: number }>();
    for (const l of lines) {
      const b = byBreaker.get(l.breaker_id) ?? { main: 0, other: 0, others: 0 };
      if (l.main) b.main += Number(l.power);
      else {
        b.other += Number(l.power);
        b.others++;
      }
      byBreaker.set(l.breaker_id, b);
    }
    for (const [id, b] of byBreaker) out.get(id)!.power = Math.round((b.others ? b.other : b.main) * 10) / 10;
    const alarms = await db
      .selectFrom('breaker_alarms')
      .select(['breaker_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('company_id', '=', companyId)
      .where('breaker_id', 'in', ids)
      .where('cleared_at', 'is', null)
      .groupBy('breaker_id')
      .execute();
    for (const a of alarms) out.get(a.breaker_id)!.alarms = Number(a.n);
    return out;
  },
};

export const linesRepository = {
  ofBreaker: (db: Executor, companyId: number, breakerId: number) =>
    db.selectFrom('breaker_lines').selectAll().where('company_id', '=', companyId).where('breaker_id', '=', breakerId).orderBy('addr').execute(),
  find: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('breaker_lines').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
  byIds: (db: Executor, companyId: number, ids: number[]) =>
    ids.length ? db.selectFrom('breaker_lines').selectAll().where('company_id', '=', companyId).where('id', 'in', ids).execute() : Promise.resolve([]),
  insertMany: (db: Executor, rows: Insertable<BreakerLineTable>[]) => (rows.length ? db.insertInto('breaker_lines').values(rows).execute() : Promise.resolve()),
  deleteAbove: (db: Executor, companyId: number, breakerId: number, addr: number) =>
    db.deleteFrom('breaker_lines').where('company_id', '=', companyId).where('breaker_id', '=', breakerId).where('addr', '>', addr).execute(),
  update: (db: Executor, companyId: number, id: number, set: Updateable<BreakerLineTable>) =>
    db.updateTable('breaker_lines').set(set).where('company_id', '=', companyId).where('id', '=', id).execute(),
  /** Live figures from the gateway (the line id came from the breaker's own row). */
  live: (db: Executor, id: number, set: Updateable<BreakerLineTable>) => db.updateTable('breaker_lines').set(set).where('id', '=', id).execute(),
  insertSamples: (db: Executor, rows: Insertable<BreakerSampleTable>[]) => db.insertInto('breaker_samples').values(rows).execute(),
  /** Per-minute aggregates of the raw readings in [from, to) (minutes already aggregated are rewritten with the same figures). */
  async aggregate(db: Executor, from: string, to: string) {
    const minute = sql<string>`substr(at, 1, 16)`;
    const rows = await db
      .selectFrom('breaker_samples')
      .select((eb) => [
        'line_id',
        minute.as('minute'),
        eb.fn.avg<number>('power').as('avg_w'),
        eb.fn.max<number>('power').as('max_w'),
        eb.fn.max<number>('energy_wh').as('energy_wh'),
        eb.fn.countAll<number>().as('n'),
      ])
      .where('at', '>=', from)
      .where('at', '<', to)
      .groupBy(['line_id', minute])
      .execute();
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500).map((r) => ({
        line_id: r.line_id,
        minute: r.minute,
        avg_w: Math.round(Number(r.avg_w) * 10) / 10,
        max_w: Number(r.max_w),
        energy_wh: Number(r.energy_wh),
        n: Number(r.n),
      }));
      await db
        .insertInto('breaker_minutes')
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(['line_id', 'minute']).doUpdateSet((eb) => ({
            avg_w: eb.ref('excluded.avg_w'),
            max_w: eb.ref('excluded.max_w'),
            energy_wh: eb.ref('excluded.energy_wh'),
            n: eb.ref('excluded.n'),
          })),
        )
        .execute();
    }
    return rows.length;
  },
  prune: async (db: Executor, samplesBefore: string, minutesBefore: string) => {
    await db.deleteFrom('breaker_samples').where('at', '<', samplesBefore).execute();
    await db.deleteFrom('breaker_minutes').where('minute', '<', minutesBefore).execute();
  },
  /**
   * Per-line, per-minute figures straight from the raw readings since `from` (an instant): the minutes the job has
   * not folded yet (average power, the meter at the minute's end). The caller sums the lines of a minute, exactly as
   * it does with folded minutes.
   */
  recentMinutes: (db: Executor, lineIds: number[], from: string) => {
    const minute = sql<string>`substr(at, 1, 16)`;
    return lineIds.length
      ? db
          .selectFrom('breaker_samples')
          .select((eb) => ['line_id', minute.as('minute'), eb.fn.avg<number>('power').as('avg_w'), eb.fn.max<number>('energy_wh').as('last_wh')])
          .where('line_id', 'in', lineIds)
          .where('at', '>=', from)
          .groupBy(['line_id', minute])
          .execute()
      : Promise.resolve([]);
  },
  /** The last folded minute of these lines since `from`, or undefined: raw readings after it are not folded yet. */
  lastMinute: async (db: Executor, lineIds: number[], from: string) => {
    if (!lineIds.length) return undefined;
    const r = await db
      .selectFrom('breaker_minutes')
      .select((eb) => eb.fn.max<string>('minute').as('m'))
      .where('line_id', 'in', lineIds)
      .where('minute', '>=', from)
      .executeTakeFirst();
    return r?.m ?? undefined;
  },
  /**
   * The lines' total power per folded minute since `from` ('YYYY-MM-DDTHH:mm'): the sum of the lines' one-minute
   * averages (a line without readings in a minute adds nothing to it).
   */
  minuteTotals: (db: Executor, lineIds: number[], from: string) =>
    lineIds.length
      ? db
          .selectFrom('breaker_minutes')
          .select((eb) => ['minute', eb.fn.sum<number>(sql`cast(avg_w as double precision)`).as('w')])
          .where('line_id', 'in', lineIds)
          .where('minute', '>=', from)
          .groupBy('minute')
          .orderBy('minute')
          .execute()
      : Promise.resolve([]),
  /**
   * The same minute totals gathered by quarter hour ('YYYY-MM-DDTHH' and quarter 0…3; every zone's offset is a whole
   * number of quarter hours, so a quarter never straddles a local day): their sum, highest and count.
   */
  async quarterTotals(db: Executor, lineIds: number[], from: string) {
    if (!lineIds.length) return [];
    const perMinute = db
      .selectFrom('breaker_minutes')
      .select((eb) => ['minute', eb.fn.sum<number>(sql`cast(avg_w as double precision)`).as('w')])
      .where('line_id', 'in', lineIds)
      .where('minute', '>=', from)
      .groupBy('minute');
    const hour = sql<string>`substr(m.minute, 1, 13)`;
    const quarter = sql<number>`cast(substr(m.minute, 15, 2) as integer) / 15`;
    return db
      .selectFrom(perMinute.as('m'))
      .select((eb) => [
        hour.as('hour'),
        quarter.as('quarter'),
        eb.fn.sum<number>('m.w').as('sum_w'),
        eb.fn.max<number>('m.w').as('max_w'),
        eb.fn.countAll<number>().as('minutes'),
      ])
      .groupBy([hour, quarter])
      .execute();
  },
  /** One line's meter by quarter hour since `from`: the first and last minute's reading (Wh) of each quarter. */
  async meterQuarters(db: Executor, lineId: number, from: string) {
    const hour = sql<string>`substr(minute, 1, 13)`;
    const quarter = sql<number>`cast(substr(minute, 15, 2) as integer) / 15`;
    return db
      .selectFrom('breaker_minutes')
      .select((eb) => [
        hour.as('hour'),
        quarter.as('quarter'),
        eb.fn.min<number>(sql`cast(energy_wh as double precision)`).as('first_wh'),
        eb.fn.max<number>(sql`cast(energy_wh as double precision)`).as('last_wh'),
      ])
      .where('line_id', '=', lineId)
      .where('minute', '>=', from)
      .groupBy([hour, quarter])
      .execute();
  },
  /** A line's last meter reading (Wh) before the minute `before`, or undefined. */
  meterBefore: async (db: Executor, lineId: number, before: string) => {
    const r = await db
      .selectFrom('breaker_minutes')
      .select('energy_wh')
      .where('line_id', '=', lineId)
      .where('minute', '<', before)
      .orderBy('minute', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r ? Number(r.energy_wh) : undefined;
  },
};

export const timersRepository = {
  ofBreaker: (db: Executor, companyId: number, breakerId: number) =>
    db.selectFrom('breaker_timers').selectAll().where('company_id', '=', companyId).where('breaker_id', '=', breakerId).orderBy('time').orderBy('id').execute(),
  find: (db: Executor, companyId: number, id: number) =>
    db.selectFrom('breaker_timers').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
  count: async (db: Executor, companyId: number, breakerId: number) =>
    Number(
      (
        await db
          .selectFrom('breaker_timers')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', companyId)
          .where('breaker_id', '=', breakerId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  insert: async (db: Executor, row: Insertable<BreakerTimerTable>) =>
    (await db.insertInto('breaker_timers').values(row).returning('id').executeTakeFirstOrThrow()).id,
  update: (db: Executor, companyId: number, id: number, set: Updateable<BreakerTimerTable>) =>
    db.updateTable('breaker_timers').set(set).where('company_id', '=', companyId).where('id', '=', id).execute(),
  delete: (db: Executor, companyId: number, id: number) => db.deleteFrom('breaker_timers').where('company_id', '=', companyId).where('id', '=', id).execute(),
};

export const alarmsRepository = {
  async list(
    db: Executor,
    companyId: number,
    f: { breakerId?: number | undefined; lineId?: number | undefined; type?: string | undefined; active?: number | undefined; offset: number; limit: number },
  ) {
    let q = db
      .selectFrom('breaker_alarms as a')
      .innerJoin('breakers as b', 'b.id', 'a.breaker_id')
      .leftJoin('breaker_lines as l', 'l.id', 'a.line_id')
      .where('a.company_id', '=', companyId);
    if (f.breakerId) q = q.where('a.breaker_id', '=', f.breakerId);
    if (f.lineId) q = q.where('a.line_id', '=', f.lineId);
    if (f.type) q = q.where('a.type', '=', f.type);
    if (f.active !== undefined) q = q.where('a.cleared_at', f.active ? 'is' : 'is not', null);
    const [items, total] = await Promise.all([
      q
        .select([
          'a.id',
          'a.breaker_id',
          'b.alias as breaker_alias',
          'b.uuid as breaker_uuid',
          'a.line_id',
          'l.title as line_title',
          'a.type',
          'a.value',
          'a.at',
          'a.cleared_at',
        ])
        .orderBy('a.at', 'desc')
        .orderBy('a.id', 'desc')
        .limit(f.limit)
        .offset(f.offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },
  open: (db: Executor, breakerId: number, lineId: number | null, type: string) => {
    let q = db.selectFrom('breaker_alarms').selectAll().where('breaker_id', '=', breakerId).where('type', '=', type).where('cleared_at', 'is', null);
    q = lineId === null ? q.where('line_id', 'is', null) : q.where('line_id', '=', lineId);
    return q.executeTakeFirst();
  },
  insert: (db: Executor, row: Insertable<BreakerAlarmTable>) => db.insertInto('breaker_alarms').values(row).execute(),
  clear: (db: Executor, id: number, at: string) => db.updateTable('breaker_alarms').set({ cleared_at: at }).where('id', '=', id).execute(),
};
