import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

/**
 * Sites (issue #16 /map): groups of devices and breakers an administrator defines, each on the company's own
 * floor plan (an uploaded image) or a tile map. A placement's ref_id names a device or a breaker by `kind`, so
 * it cannot carry a foreign key: deleting a device or breaker removes its placements in the same transaction.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('sites'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('image', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('image_width', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('image_height', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tile_url', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sites_company').on('sites').columns(['company_id', 'sort']).execute();

  await db.schema
    .createTable('site_placements')
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    /** device | breaker */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'integer', (c) => c.notNull())
    // double precision: longitude and latitude on a tile map need more than a 4-byte float holds
    .addColumn('x', 'double precision', (c) => c.notNull())
    .addColumn('y', 'double precision', (c) => c.notNull())
    .addUniqueConstraint('site_placements_unique', ['site_id', 'kind', 'ref_id'])
    .execute();
  // what a device's or breaker's deletion looks up
  await db.schema.createIndex('site_placements_ref').on('site_placements').columns(['company_id', 'kind', 'ref_id']).execute();
}
