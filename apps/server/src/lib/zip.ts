import { CODES } from '@faceadmin/shared';
import yauzl from 'yauzl';
import { AppError } from './errors.ts';

export interface ZipLimits {
  maxEntries: number;
  /** cap on the sum of declared and of actually inflated sizes */
  maxTotalBytes: number;
  maxEntryBytes: number;
  /** an entry over maxEntryBytes: 'skip' returns it empty (for a per-file report), 'fail' refuses the archive */
  oversize?: 'skip' | 'fail';
}

export const zipError = (field: string, key: string, params: Record<string, string | number> = {}) =>
  new AppError(CODES.VALIDATION, 400, key, params, { field });

const isZip = (buf: Buffer) => buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;

function open(buf: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true, validateEntrySizes: true }, (err, zf) => (err || !zf ? reject(err) : resolve(zf))),
  );
}

/**
 * Reads every file of a zip into memory with zip-bomb guards: entry count, declared sizes, and the bytes
 * actually inflated (a lying header cannot get past the running total). Directories and macOS
 * resource forks are skipped.
 */
export async function readZip(buf: Buffer, field: string, limits: ZipLimits): Promise<{ name: string; data: Buffer }[]> {
  if (!isZip(buf)) throw zipError(field, 'errors.zipType');
  let zf: yauzl.ZipFile;
  try {
    zf = await open(buf);
  } catch {
    throw zipError(field, 'errors.zipCorrupt');
  }
  if (zf.entryCount > limits.maxEntries) {
    zf.close();
    throw zipError(field, 'errors.zipTooManyEntries', { max: limits.maxEntries });
  }
  const out: { name: string; data: Buffer }[] = [];
  let total = 0;
  return new Promise((resolve, reject) => {
    const fail = (e: unknown) => {
      zf.close();
      reject(e instanceof AppError ? e : zipError(field, 'errors.zipCorrupt'));
    };
    zf.on('error', fail);
    zf.on('end', () => resolve(out));
    zf.on('entry', (entry: yauzl.Entry) => {
      const name = entry.fileName;
      if (name.endsWith('/') || name.startsWith('__MACOSX/') || name.split('/').pop()!.startsWith('._')) return zf.readEntry();
      if (entry.uncompressedSize > limits.maxEntryBytes) {
        if (limits.oversize === 'fail') return fail(zipError(field, 'errors.zipTooLarge', { mb: Math.round(limits.maxTotalBytes / 1024 / 1024) }));
        out.push({ name, data: Buffer.alloc(0) });
        return zf.readEntry();
      }
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes) return fail(zipError(field, 'errors.zipTooLarge', { mb: Math.round(limits.maxTotalBytes / 1024 / 1024) }));
      zf.openReadStream(entry, (err, stream) => {
        if (err || !stream) return fail(err);
        const parts: Buffer[] = [];
        let size = 0;
        stream.on('data', (c: Buffer) => {
          size += c.length;
          if (size > limits.maxEntryBytes) stream.destroy(zipError(field, 'errors.zipTooLarge', { mb: Math.round(limits.maxTotalBytes / 1024 / 1024) }));
          else parts.push(c);
        });
        stream.on('error', fail);
        stream.on('end', () => {
          out.push({ name, data: Buffer.concat(parts) });
          zf.readEntry();
        });
      });
    });
    zf.readEntry();
  });
}

/** Checks an xlsx container before a spreadsheet parser sees it: a real zip, sane entry count and inflated size. */
export async function checkXlsx(buf: Buffer, field: string): Promise<void> {
  if (!isZip(buf)) throw zipError(field, 'errors.xlsxType');
  const files = await readZip(buf, field, { maxEntries: 500, maxTotalBytes: 60 * 1024 * 1024, maxEntryBytes: 60 * 1024 * 1024, oversize: 'fail' }).catch(
    (e: unknown) => {
      if (e instanceof AppError && e.key === 'errors.zipType') throw zipError(field, 'errors.xlsxType');
      throw e;
    },
  );
  if (!files.some((f) => f.name === '[Content_Types].xml') || !files.some((f) => f.name.startsWith('xl/'))) throw zipError(field, 'errors.xlsxType');
}
