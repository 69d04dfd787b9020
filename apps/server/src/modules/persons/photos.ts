import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { AppError } from '../../lib/errors.ts';
import { sweepTempFiles } from '../../lib/files/disk.ts';
import { readAll, type FileStore, type StoredFile } from '../../lib/files/store.ts';
import { CODES } from '@faceadmin/shared';
import { isJpeg } from '../../lib/jpeg.ts';

/** Upload cap for one face picture. */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
/**
 * What terminals accept: ZKTeco visible-light faces and Hikvision face libraries both want a JPEG well
 * under 200 KB; 640 px on the long side keeps recognition quality while staying inside that.
 */
export const PHOTO_LONG_SIDE = 640;
export const PHOTO_TARGET_BYTES = 200 * 1024;
/** Too small to recognise a face reliably. */
export const PHOTO_MIN_SIDE = 120;

export type PhotoKind = 'jpeg' | 'png';

/** Content sniffing: the file's first bytes, never its name or declared type. */
export function sniffImage(buf: Buffer): PhotoKind | undefined {
  if (isJpeg(buf)) return 'jpeg';
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  return undefined;
}

const photoError = (key: string, params: Record<string, string | number> = {}) => new AppError(CODES.RULE, 422, key, params, { field: 'pic' });

/** Decodes, orients, shrinks and re-encodes a face picture into the JPEG terminals take. Bad input never gets stored. */
export async function normalizePhoto(input: Buffer): Promise<Buffer> {
  if (input.length > PHOTO_MAX_BYTES) throw photoError('errors.photoTooLarge', { mb: PHOTO_MAX_BYTES / 1024 / 1024 });
  if (!sniffImage(input)) throw photoError('errors.photoType');
  let meta;
  try {
    // limitInputPixels guards against decompression bombs (a tiny file claiming a huge canvas).
    meta = await sharp(input, { limitInputPixels: 40_000_000, failOn: 'error' }).metadata();
  } catch {
    throw photoError('errors.photoCorrupt');
  }
  if (!meta.width || !meta.height) throw photoError('errors.photoCorrupt');
  const rotated = (meta.orientation ?? 1) >= 5;
  const w = rotated ? meta.height : meta.width;
  const h = rotated ? meta.width : meta.height;
  if (Math.min(w, h) < PHOTO_MIN_SIDE) throw photoError('errors.photoTooSmall', { px: PHOTO_MIN_SIDE });
  try {
    for (const quality of [85, 75, 65, 55, 45]) {
      const out = await sharp(input, { limitInputPixels: 40_000_000, failOn: 'error' })
        .rotate()
        .resize({ width: PHOTO_LONG_SIDE, height: PHOTO_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality, mozjpeg: true, chromaSubsampling: '4:2:0' })
        .toBuffer();
      if (out.length <= PHOTO_TARGET_BYTES || quality === 45) return out;
    }
  } catch {
    throw photoError('errors.photoCorrupt');
  }
  throw photoError('errors.photoCorrupt');
}

/** Which of these face names some row still holds (persons.photo: people and visitors alike). */
export type PhotosInUse = (companyId: number, names: string[]) => Promise<Set<string>>;

/**
 * Face pictures are stored as `faces/<company>/<name>.jpg` in the file store (docs/files.md) with server-chosen
 * names; the database holds the name only. One upload may be the face of several people (its `pic` token sent to
 * several creates), so a face is deleted only when no row holds it any more (`release`, #28).
 */
export function photoStore(files: FileStore, dataDir: string | undefined, inUse: PhotosInUse) {
  const NAME = /^[a-f0-9]{32}\.jpg$/;
  /** Only names this store made, in this company's folder: no path tricks, no other tenant's files. */
  const keyOf = (companyId: number, name: string) => (NAME.test(name) ? `faces/${companyId}/${name}` : undefined);
  return {
    async save(companyId: number, jpeg: Buffer): Promise<string> {
      const name = `${randomBytes(16).toString('hex')}.jpg`;
      await files.put(keyOf(companyId, name)!, jpeg, { contentType: 'image/jpeg' });
      return name;
    },
    async exists(companyId: number, name: string): Promise<boolean> {
      const key = keyOf(companyId, name);
      return !!key && !!(await files.head(key));
    },
    /** The picture as a stream, or undefined when there is none. */
    async open(companyId: number, name: string): Promise<StoredFile | undefined> {
      const key = keyOf(companyId, name);
      return key ? files.get(key) : undefined;
    },
    /** A face as base64 (what terminals are sent), or undefined when the file is gone. */
    async base64(companyId: number, name: string): Promise<string | undefined> {
      const key = keyOf(companyId, name);
      return key ? (await readAll(files, key))?.toString('base64') : undefined;
    },
    /**
     * Deletes the faces no row holds any more: call it after the commit that let go of them. Asked again here, after
     * that commit, rather than trusted from before it: another person may hold the same upload (#28).
     */
    async release(companyId: number, names: string[]) {
      const wanted = [...new Set(names.filter((n) => keyOf(companyId, n)))];
      if (!wanted.length) return;
      const held = await inUse(companyId, wanted);
      for (const name of wanted) if (!held.has(name)) await files.delete(keyOf(companyId, name)!);
    },
    /**
     * Deletes the face files last written before `before` (ms) that `inUse` does not claim: uploads never
     * attached to a person (the drawer was cancelled). Returns how many. On disk, writes cut short by a crash
     * (.tmp) go too.
     */
    async sweep(before: number, inUse: (companyId: number) => Promise<Set<string>>): Promise<number> {
      const byCompany = new Map<number, { name: string; modifiedAt: number }[]>();
      for await (const f of files.list('faces/')) {
        const m = /^faces\/(\d+)\/([^/]+)$/.exec(f.key);
        if (!m || !NAME.test(m[2]!) || f.modifiedAt >= before) continue;
        const list = byCompany.get(Number(m[1])) ?? byCompany.set(Number(m[1]), []).get(Number(m[1]))!;
        list.push({ name: m[2]!, modifiedAt: f.modifiedAt });
      }
      let removed = 0;
      for (const [companyId, names] of byCompany) {
        const used = await inUse(companyId);
        for (const { name } of names) {
          if (used.has(name)) continue;
          await files.delete(keyOf(companyId, name)!);
          removed += 1;
        }
      }
      if (files.kind === 'disk' && dataDir) removed += await sweepTempFiles(dataDir, 'faces', before);
      return removed;
    },
  };
}
export type PhotoStore = ReturnType<typeof photoStore>;
