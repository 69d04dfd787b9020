import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { AppError } from '../../lib/errors.ts';
import { CODES } from '@faceadmin/shared';

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
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
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

/** Face pictures live under DATA_DIR/faces/<company>/ with server-chosen names; the database holds the name only. */
export function photoStore(dataDir: string) {
  const dirOf = (companyId: number) => path.join(dataDir, 'faces', String(companyId));
  const NAME = /^[a-f0-9]{32}\.jpg$/;
  const TMP = /^[a-f0-9]{32}\.jpg\.tmp$/;
  return {
    async save(companyId: number, jpeg: Buffer): Promise<string> {
      const name = `${randomBytes(16).toString('hex')}.jpg`;
      await fs.promises.mkdir(dirOf(companyId), { recursive: true });
      const file = path.join(dirOf(companyId), name);
      await fs.promises.writeFile(`${file}.tmp`, jpeg);
      await fs.promises.rename(`${file}.tmp`, file);
      return name;
    },
    /** Only names this store made, in this company's folder: no path tricks, no other tenant's files. */
    pathOf(companyId: number, name: string): string | undefined {
      if (!NAME.test(name)) return undefined;
      const file = path.join(dirOf(companyId), name);
      return fs.existsSync(file) ? file : undefined;
    },
    /** A face as base64 (what terminals are sent), or undefined when the file is gone. */
    async base64(companyId: number, name: string): Promise<string | undefined> {
      if (!NAME.test(name)) return undefined;
      try {
        return (await fs.promises.readFile(path.join(dirOf(companyId), name))).toString('base64');
      } catch {
        return undefined;
      }
    },
    async remove(companyId: number, name: string) {
      if (NAME.test(name)) await fs.promises.rm(path.join(dirOf(companyId), name), { force: true });
    },
    /**
     * Deletes the face files last written before `before` (ms) that `inUse` does not claim: uploads never
     * attached to a person (the drawer was cancelled) and writes cut short by a crash (.tmp). Returns how many.
     * Only unclaimed files are looked at on disk, so the people's own faces cost no stat call.
     */
    async sweep(before: number, inUse: (companyId: number) => Promise<Set<string>>): Promise<number> {
      const root = path.join(dataDir, 'faces');
      const companies = await fs.promises.readdir(root).catch(() => [] as string[]);
      let removed = 0;
      for (const folder of companies) {
        if (!/^\d+$/.test(folder)) continue;
        const dir = path.join(root, folder);
        const names = (await fs.promises.readdir(dir).catch(() => [] as string[])).filter((n) => NAME.test(n) || TMP.test(n));
        if (!names.length) continue;
        const used = await inUse(Number(folder));
        for (const name of names) {
          if (used.has(name)) continue;
          const file = path.join(dir, name);
          const stat = await fs.promises.stat(file).catch(() => undefined);
          if (!stat?.isFile() || stat.mtimeMs >= before) continue;
          await fs.promises.rm(file, { force: true });
          removed += 1;
        }
      }
      return removed;
    },
  };
}
export type PhotoStore = ReturnType<typeof photoStore>;
