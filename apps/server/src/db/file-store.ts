import { Readable } from 'node:stream';
import { diskFileStore } from '../lib/files/disk.ts';
import { s3FileStore, type S3Settings } from '../lib/files/s3.ts';
import { asStream, checkKey, meter, typeOfKey, type FileStore, type FileStoreKind, type ListedFile } from '../lib/files/store.ts';
import type { Database } from './database.ts';
import { transaction } from './transaction.ts';

/** The bytes of a file are kept in chunks of this size: written and read one at a time, never the file whole. */
export const CHUNK_BYTES = 256 * 1024;

const toBuffer = (u: Uint8Array) => (Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength));

/** Splits a stream into pieces of exactly CHUNK_BYTES (the last one shorter). */
async function* chunked(source: Readable): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let held = 0;
  for await (const c of source) {
    let buf = c as Buffer;
    while (held + buf.length >= CHUNK_BYTES) {
      const take = CHUNK_BYTES - held;
      parts.push(buf.subarray(0, take));
      yield Buffer.concat(parts);
      parts = [];
      held = 0;
      buf = buf.subarray(take);
    }
    if (buf.length) {
      parts.push(buf);
      held += buf.length;
    }
  }
  if (held) yield Buffer.concat(parts);
}

/**
 * Files in the database (migration 0037): one `files` row and its chunks, replaced in one transaction (a reader
 * sees the old file or the new one), streamed back chunk by chunk. Every server on the same PostgreSQL sees them.
 */
export function databaseFileStore(database: Database): FileStore {
  const { db } = database;
  const info = (r: { size: number; content_type: string; modified_at: number | string }) => ({
    size: Number(r.size),
    contentType: r.content_type,
    modifiedAt: Number(r.modified_at),
  });
  const row = (key: string) => db.selectFrom('files').select(['size', 'content_type', 'modified_at']).where('key', '=', key).executeTakeFirst();
  return {
    kind: 'database',
    async put(key, data, opts = {}) {
      checkKey(key);
      const m = meter(opts.maxBytes);
      const input = asStream(data);
      // an error may come before the transaction reads (a cap passed while the first statement runs): kept for it
      let failed: unknown;
      m.stream.on('error', (e) => (failed ??= e));
      input.on('error', (e) => m.stream.destroy(e));
      input.pipe(m.stream);
      let runs = 0;
      return transaction(db, async (trx) => {
        // a stream is read once: a transaction retried after a deadlock cannot read it again
        if (runs++) throw new Error(`file ${key} was written concurrently; try again`);
        await trx.deleteFrom('file_chunks').where('key', '=', key).execute();
        let n = 0;
        if (failed) throw failed;
        for await (const chunk of chunked(m.stream)) await trx.insertInto('file_chunks').values({ key, n: n++, data: chunk }).execute();
        if (failed) throw failed;
        const r = m.result();
        const values = { size: r.size, content_type: opts.contentType ?? typeOfKey(key), modified_at: Date.now(), created_at: new Date().toISOString() };
        await trx
          .insertInto('files')
          .values({ key, ...values })
          .onConflict((oc) => oc.column('key').doUpdateSet(values))
          .execute();
        return r;
      });
    },
    async get(key) {
      const r = await row(checkKey(key));
      if (!r) return undefined;
      const f = info(r);
      const count = Math.ceil(f.size / CHUNK_BYTES);
      async function* chunks() {
        for (let n = 0; n < count; n++) {
          const c = await db.selectFrom('file_chunks').select('data').where('key', '=', key).where('n', '=', n).executeTakeFirst();
          if (!c) throw new Error(`file ${key} changed while it was read`);
          yield toBuffer(c.data);
        }
      }
      return { ...f, stream: Readable.from(chunks(), { objectMode: false }) };
    },
    async head(key) {
      const r = await row(checkKey(key));
      return r ? info(r) : undefined;
    },
    async delete(key) {
      checkKey(key);
      await transaction(db, async (trx) => {
        await trx.deleteFrom('file_chunks').where('key', '=', key).execute();
        await trx.deleteFrom('files').where('key', '=', key).execute();
      });
    },
    async *list(prefix) {
      // keyset pages: a big store is never listed in one answer
      let after = '';
      for (;;) {
        const rows = await db
          .selectFrom('files')
          .select(['key', 'size', 'modified_at'])
          .where('key', '>=', prefix)
          .where('key', '>', after)
          .orderBy('key')
          .limit(500)
          .execute();
        for (const r of rows) {
          if (!r.key.startsWith(prefix)) return;
          yield { key: r.key, size: Number(r.size), modifiedAt: Number(r.modified_at) } satisfies ListedFile;
        }
        if (rows.length < 500) return;
        after = rows[rows.length - 1]!.key;
      }
    },
  };
}

export interface FileStoreSettings {
  kind: FileStoreKind;
  dataDir: string;
  s3: S3Settings | undefined;
}

/** The store config.ts chose: DATA_DIR, the database, or the bucket. */
export function openFileStore(settings: FileStoreSettings, database: Database): FileStore {
  if (settings.kind === 'database') return databaseFileStore(database);
  if (settings.kind === 's3') {
    if (!settings.s3) throw new Error('FILE_STORE=s3 needs the S3_* settings');
    return s3FileStore(settings.s3);
  }
  return diskFileStore(settings.dataDir);
}
