import { createHash } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';

/**
 * One place for every file the server keeps (faces, uploads awaiting a form, capture photos, floor plans, workflow
 * files, firmware, terminal logs): on disk under DATA_DIR, in the database (PostgreSQL, chunked) or in an
 * S3-compatible bucket (docs/files.md). Keys are relative paths, as the files lay under DATA_DIR before:
 * `faces/<company>/<name>.jpg`, so an existing DATA_DIR is a valid disk store and moves as it is.
 */
export interface FileStore {
  readonly kind: FileStoreKind;
  /** Writes the whole file or nothing (readers see the old file or the new one); refuses past `maxBytes`. */
  put(key: string, data: Buffer | Readable, opts?: PutOptions): Promise<PutResult>;
  /** The file as a stream (never read whole), or undefined when there is none. */
  get(key: string): Promise<StoredFile | undefined>;
  head(key: string): Promise<FileInfo | undefined>;
  /** Removes the file; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  /** Every file whose key starts with `prefix` (a folder: `faces/` or `faces/7/`), in no set order. */
  list(prefix: string): AsyncIterable<ListedFile>;
}

export type FileStoreKind = 'disk' | 'database' | 's3';
export const FILE_STORE_KINDS = ['disk', 'database', 's3'] as const satisfies readonly FileStoreKind[];

export interface PutOptions {
  contentType?: string;
  /** refuse (FileTooLarge, nothing stored) once more than this many bytes came */
  maxBytes?: number;
}
export interface PutResult {
  size: number;
  sha256: string;
}
export interface FileInfo {
  size: number;
  contentType: string;
  /** when it was written (ms) */
  modifiedAt: number;
}
export interface StoredFile extends FileInfo {
  stream: Readable;
}
export interface ListedFile {
  key: string;
  size: number;
  modifiedAt: number;
}

export class FileTooLarge extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`file larger than ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
/** Keys are slash-separated names of letters, digits, `.`, `_`, `-` (no empty, `.` or `..` segment): never a path trick. */
export function validKey(key: string): boolean {
  if (!key || key.length > 512) return false;
  return key.split('/').every((s) => SEGMENT.test(s) && s !== '.' && s !== '..');
}
export function checkKey(key: string): string {
  if (!validKey(key)) throw new Error(`invalid file key "${key}"`);
  return key;
}

const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  log: 'text/plain',
  txt: 'text/plain',
  json: 'application/json',
};
/** The content type a key's extension suggests (the disk store keeps no other). */
export const typeOfKey = (key: string) => TYPES[key.slice(key.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';

/** Counts and hashes what flows through, refusing past `max` bytes. */
export function meter(max = Infinity) {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      size += chunk.length;
      if (size > max) return cb(new FileTooLarge(max));
      hash.update(chunk);
      cb(null, chunk);
    },
  });
  return { stream, result: (): PutResult => ({ size, sha256: hash.digest('hex') }) };
}

export const asStream = (data: Buffer | Readable): Readable => (Buffer.isBuffer(data) ? Readable.from([data]) : data);

/** A small file whole (a face for a terminal): only for files known to be small. */
export async function readAll(store: FileStore, key: string): Promise<Buffer | undefined> {
  const f = await store.get(key);
  if (!f) return undefined;
  const parts: Buffer[] = [];
  for await (const c of f.stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}
