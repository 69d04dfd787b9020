import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Files in the database (issue #21): with several servers on one PostgreSQL, faces, capture photos, floor plans,
 * workflow files, firmware and terminal logs must be reachable from each (docs/files.md). A file is one `files`
 * row and its bytes in `file_chunks` of 256 KB, written in one transaction and read back chunk by chunk.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('files')
    /** the file's key: its relative path as under DATA_DIR (faces/<company>/<name>.jpg) */
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    /** ms since the epoch (the faces sweep reads the age of unclaimed uploads) */
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('file_chunks')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('data', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_chunks_pk', ['key', 'n'])
    .execute();
}
