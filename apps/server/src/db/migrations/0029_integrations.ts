import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

/**
 * Integrations (issue #19, company option thirdParty; docs/api-integrations.md): API keys, their per-minute use
 * counters (the throttle holds across instances sharing one PostgreSQL), webhook endpoints, the outbox the
 * causing writes fill in their own transaction, and the deliveries the webhook job makes of it (kept 30 days).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('api_keys'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** the key's visible head (`fa_` + 8 characters): how a presented key finds its row */
    .addColumn('prefix', 'text', (c) => c.notNull())
    /** salted HMAC-SHA256 of the whole key under the server key (lib/device-secret.ts); the key itself is never stored */
    .addColumn('key_hash', 'text', (c) => c.notNull())
    /** JSON array of API_SCOPES */
    .addColumn('scopes', 'text', (c) => c.notNull())
    /** the last day it works (the company's zone); null: no expiry */
    .addColumn('expires_on', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_prefix').on('api_keys').column('prefix').unique().execute();
  await db.schema.createIndex('api_keys_company').on('api_keys').column('company_id').execute();

  // One row per key, minute and route ('*': every route): the throttle's budget and the operation log's "first use
  // of this route this minute".
  await db.schema
    .createTable('api_key_uses')
    .addColumn('key_id', 'integer', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('minute', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('api_key_uses_pk', ['key_id', 'minute', 'route'])
    .execute();
  await db.schema.createIndex('api_key_uses_minute').on('api_key_uses').column('minute').execute();

  await withId(db.schema.createTable('webhook_endpoints'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    /** JSON array of WEBHOOK_EVENTS */
    .addColumn('events', 'text', (c) => c.notNull())
    /** the signing key: kept as is, since signing needs it (it verifies nothing here); never returned after it is drawn */
    .addColumn('secret', 'text', (c) => c.notNull())
    /** 'active' | 'paused' */
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('failing_since', 'text')
    .addColumn('paused_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_company').on('webhook_endpoints').column('company_id').execute();

  // Written by every subscribed event in its causing transaction: on SQLite a plain rowid key (no AUTOINCREMENT, whose
  // sqlite_sequence update would be one more write per event); ids are never reused while rows remain, which is all
  // the job needs (it works and deletes rows in id order).
  await (
    dialect === 'postgres'
      ? withId(db.schema.createTable('webhook_outbox'), dialect)
      : db.schema.createTable('webhook_outbox').addColumn('id', 'integer', (c) => c.primaryKey())
  )
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    /** JSON: the event's data */
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('webhook_deliveries'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    /** the exact body that is signed and sent */
    .addColumn('payload', 'text', (c) => c.notNull())
    /** 'pending' | 'succeeded' | 'failed' (gave up) */
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('response_code', 'integer')
    .addColumn('response_body', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('duration_ms', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_created').on('webhook_deliveries').column('created_at').execute();
}
