import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/**
 * The gauges' queries, read on each scrape (a few a minute). Server-wide on purpose: these are the operator's
 * figures (counts by state or protocol), never a company's data, and no company id or name leaves in a label.
 * Each is one aggregate over an indexed or small table.
 */
export const metricsRepository = {
  /** Ledger rows not yet applied on their terminal, by state (pending, failed). */
  async syncQueue(db: Executor): Promise<{ state: string; n: number }[]> {
    const rows = await db
      .selectFrom('device_persons')
      .select(['state', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where((eb) => eb.or([eb('state', '!=', 'synced'), eb('desired_rev', '!=', eb.ref('applied_rev'))]))
      .groupBy('state')
      .execute();
    return rows.map((r) => ({ state: r.state, n: Number(r.n) }));
  },

  /** People whose attendance days wait to be recomputed, and when the oldest of them was queued. */
  async recalcQueue(db: Executor): Promise<{ n: number; oldest: string | null }> {
    const row = await db
      .selectFrom('attendance_dirty')
      .select([(eb) => eb.fn.countAll<number | string>().as('n'), (eb) => eb.fn.min('queued_at').as('oldest')])
      .executeTakeFirst();
    return { n: Number(row?.n ?? 0), oldest: (row?.oldest as string | null | undefined) ?? null };
  },

  /** Terminals by protocol and whether they are online now. */
  async terminals(db: Executor): Promise<{ protocol: string; online: number; n: number }[]> {
    const rows = await db
      .selectFrom('devices')
      .select(['protocol', 'online', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy(['protocol', 'online'])
      .execute();
    return rows.map((r) => ({ protocol: r.protocol, online: Number(r.online), n: Number(r.n) }));
  },

  /** Breakers by whether they are online now. */
  async breakers(db: Executor): Promise<{ online: number; n: number }[]> {
    const rows = await db
      .selectFrom('breakers')
      .select(['online', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('online')
      .execute();
    return rows.map((r) => ({ online: Number(r.online), n: Number(r.n) }));
  },

  /** The migrations the database has run (readiness). */
  async migrations(db: Executor): Promise<string[]> {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    return rows.map((r) => r.name);
  },
};
