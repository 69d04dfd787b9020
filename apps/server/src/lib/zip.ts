import yauzl from 'yauzl';
import { AppError, badInput } from './errors.ts';

export interface ZipLimits {
  maxEntries: number;
  /** cap on the sum of declared and of actually inflated sizes */
  maxTotalBytes: number;
  maxEntryBytes: number;
  /** an entry over maxEntryBytes: 'skip' returns it empty (for a per-file report), 'fail' refuses the archive */
  oversize?: 'skip' | 'fail';
  /** false: inflate and count every byte (the bomb guards) but keep only the names */
  keep?: boolean;
}

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
  if (!isZip(buf)) throw badInput('errors.zipType', field);
  let zf: yauzl.ZipFile;
  try {
    zf = await open(buf);
  } catch {
    throw badInput('errors.zipCorrupt', field);
  }
  if (zf.entryCount > limits.maxEntries) {
    zf.close();
    throw badInput('errors.zipTooManyEntries', field, { max: limits.maxEntries });
  }
  const out: { name: string; data: Buffer }[] = [];
  let total = 0;
  return new Promise((resolve, reject) => {
    const fail = (e: unknown) => {
      zf.close();
      reject(e instanceof AppError ? e : badInput('errors.zipCorrupt', field));
    };
    zf.on('error', fail);
    zf.on('end', () => resolve(out));
    zf.on('entry', (entry: yauzl.Entry) => {
      const name = entry.fileName;
      if (name.endsWith('/') || name.startsWith('__MACOSX/') || name.split('/').pop()!.startsWith('._')) return zf.readEntry();
      if (entry.uncompressedSize > limits.maxEntryBytes) {
        if (limits.oversize === 'fail') return fail(badInput('errors.zipTooLarge', field, { mb: Math.round(limits.maxTotalBytes / 1024 / 1024) }));
        out.push({ name, data: Buffer.alloc(0) });
        return zf.readEntry();
      }
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes) return fail(badInput('errors.zipTooLarge', field, { mb: Math.round(limits.maxTotalBytes / 1024 / 1024) }));
      zf.openReadStream(entry, (err, stream) => {
        if (err || !stream) return fail(err);
        const parts: Buffer[] = [];
        let size = 0;
        stream.on('data', (c: Buffer) => {
          size += c.length;
          if (size > limits.maxEntryBytes) stream.destroy(badInput('errors.zipTooLarge', field, { mb: Math.round(limits.maxTotalBytes / 1024 / 1024) }));
          else if (limits.keep !== false) parts.push(c);
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
  if (!isZip(buf)) throw badInput('errors.xlsxType', field);
  const files = await readZip(buf, field, { maxEntries: 500, maxTotalBytes: 60 * 1024 * 1024, maxEntryBytes: 60 * 1024 * 1024, oversize: 'fail', keep: false });
  if (!files.some((f) => f.name === '[Content_Types].xml') || !files.some((f) => f.name.startsWith('xl/'))) throw badInput('errors.xlsxType', field);
}
