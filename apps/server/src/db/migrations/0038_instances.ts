import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText } from './helpers.ts';

/**
 * Several instances on one database (issue #21): each running instance's heartbeat, and which instance holds each
 * breaker's connection, so a starting or surviving instance turns offline only the breakers of an instance that
 * stopped, never those another live instance serves.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('version', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('breakers')
    .addColumn('served_by', 'text', (c) => c.notNull().defaultTo(emptyText))
    .execute();
}
