import type { Kysely } from 'kysely';

/**
 * Requests counted per route, client address and time window for the route limits of the management API (sign-in,
 * self-service, visitors, parking: plugins/request-quota.ts), in the database so that every instance behind the
 * load balancer counts against one limit (issue #21). A window opens with a key's first request and lasts the
 * route's time window: `expires` (epoch ms) is when it closes (and the row may go).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('request_quota')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('request_quota_expires').on('request_quota').column('expires').execute();
}
