import type { Kysely } from 'kysely';
import { emptyText } from './helpers.ts';

/**
 * What integrators receive (issue #28, docs/api-integrations.md):
 * - the changes feed: `changes` lists, per company, every stored punch, changed day result and changed person under
 *   a sequence number drawn from the company's `change_counters` row in the writing transaction, right before it
 *   commits (db/changes.ts): the row stays locked until the commit, so numbers become visible in order and a cursor
 *   never passes a number that commits later;
 * - webhook ordering: an outbox row and its deliveries carry an `order_key` (a punch's device); a delivery waits
 *   while an earlier one of its endpoint with the same key is pending, so a receiver gets a terminal's punches in
 *   the terminal's order.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('change_counters')
    .addColumn('company_id', 'integer', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('changes')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    /** 'punch' | 'day' | 'person' */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** the punch id, or the person id (a day: with `date`) */
    .addColumn('ref', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('changes_pk', ['company_id', 'seq'])
    .execute();
  await db.schema.createIndex('changes_at').on('changes').column('at').execute();
  for (const table of ['webhook_outbox', 'webhook_deliveries'])
    await db.schema
      .alterTable(table)
      .addColumn('order_key', 'text', (c) => c.notNull().defaultTo(emptyText))
      .execute();
  await db.schema.createIndex('webhook_deliveries_order').on('webhook_deliveries').columns(['endpoint_id', 'order_key', 'status', 'id']).execute();
}
