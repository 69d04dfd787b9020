import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';

/**
 * The counts behind the management API's route limits (`config.rateLimit` on sign-in, self-service, visitors,
 * parking: @fastify/rate-limit), kept in the database rather than in each process: behind a load balancer every
 * instance counts against one limit, and a restart forgets nothing (issue #21). A fixed window per route and client
 * address, opened by its first request; one upsert per limited request (these routes are few and light).
 */
export const requestQuota = {
  /**
   * Counts one request of `key`: its window opens with the first request and lasts `windowMs` (as the plugin's own
   * in-memory store does). Answers the count in the window (this request included) and when the window closes.
   */
  async spend(db: Executor, key: string, now: number, windowMs: number): Promise<{ count: number; expires: number }> {
    const row = await db
      .insertInto('request_quota')
      .values({ key, count: 1, expires: now + windowMs })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when request_quota.expires <= ${now} then 1 else request_quota.count + 1 end`,
          expires: sql<number>`case when request_quota.expires <= ${now} then ${now + windowMs} else request_quota.expires end`,
        }),
      )
      .returning(['count', 'expires'])
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), expires: Number(row.expires) };
  },
  /** Takes back one count of `key` (a try that turned out right). */
  giveBack: (db: Executor, key: string) =>
    db
      .updateTable('request_quota')
      .set((eb) => ({ count: eb('count', '-', 1) }))
      .where('key', '=', key)
      .where('count', '>', 0)
      .execute(),
  /** Windows that have ended (the cleanup job). */
  prune: (db: Executor, now: number) => db.deleteFrom('request_quota').where('expires', '<', now).execute(),
};

/** The rate-limit plugin's store over `request_quota`: `store: databaseQuotaStore(db)`. */
export function databaseQuotaStore(db: Executor): FastifyRateLimitStoreCtor {
  class DatabaseQuotaStore implements FastifyRateLimitStore {
    private readonly route: string;
    constructor(_options: unknown, route = '') {
      this.route = route;
    }
    incr(key: string, cb: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      const now = Date.now();
      requestQuota.spend(db, `${this.route} ${key}`.slice(0, 500), now, timeWindow).then(
        (r) => cb(null, { current: r.count, ttl: Math.max(0, r.expires - now) }),
        (err: unknown) => cb(err instanceof Error ? err : new Error(String(err))),
      );
    }
    child(routeOptions: { routeInfo?: { method?: string | string[]; url?: string }; method?: string | string[]; url?: string }): FastifyRateLimitStore {
      const info = routeOptions.routeInfo ?? routeOptions;
      return new DatabaseQuotaStore(undefined, `${String(info.method ?? '')} ${info.url ?? ''}`);
    }
  }
  return DatabaseQuotaStore;
}
