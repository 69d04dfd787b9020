import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { SITE_LIMITS } from '@faceadmin/shared';
import { badInput } from '../../lib/errors.ts';
import type { FileStore, StoredFile } from '../../lib/files/store.ts';
import { isJpeg } from '../../lib/jpeg.ts';

export type PlanType = 'png' | 'jpeg' | 'webp';
const EXT: Record<PlanType, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };
const MIME: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

/** Content sniffing: the file's first bytes, never its name or declared type. */
export function sniffPlan(buf: Buffer): PlanType | undefined {
  if (isJpeg(buf)) return 'jpeg';
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

const planError = (key: string, params: Record<string, string | number> = {}) => badInput(key, 'file', params);
/** A floor plan may be large, but not a decompression bomb. */
const MAX_PIXELS = 120_000_000;

/**
 * Checks an uploaded floor plan: a PNG, JPEG or WebP by content, that decodes, no longer than a browser draws on
 * a side. Answers its type and its size as the browser shows it (a JPEG's EXIF orientation applied). The file is
 * stored as sent: a plan is drawn as uploaded, and re-encoding a large one would cost more than it saves.
 */
export async function checkPlan(data: Buffer): Promise<{ type: PlanType; width: number; height: number }> {
  if (data.length > SITE_LIMITS.imageMaxBytes) throw planError('errors.fileTooLarge', { mb: SITE_LIMITS.imageMaxBytes / 1024 / 1024 });
  const type = sniffPlan(data);
  if (!type) throw planError('errors.planType');
  let meta;
  try {
    meta = await sharp(data, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).metadata();
  } catch {
    throw planError('errors.planCorrupt');
  }
  if (!meta.width || !meta.height || meta.format !== type) throw planError('errors.planCorrupt');
  const rotated = (meta.orientation ?? 1) >= 5;
  const width = rotated ? meta.height : meta.width;
  const height = rotated ? meta.width : meta.height;
  if (Math.max(width, height) > SITE_LIMITS.imageMaxSide) throw planError('errors.planTooLarge', { px: SITE_LIMITS.imageMaxSide });
  try {
    // A header can be whole while the pixels are not: decode it (shrunk on load where the format allows).
    await sharp(data, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).resize(64, 64, { fit: 'inside' }).toBuffer();
  } catch {
    throw planError('errors.planCorrupt');
  }
  return { type, width, height };
}

/** Floor plans are sites/<company>/<name> in the file store with server-chosen names; the database holds the name only. */
export function planStore(files: FileStore) {
  const NAME = /^[a-f0-9]{32}\.(png|jpg|webp)$/;
  /** Only names this store made, in this company's folder: no path tricks, no other tenant's files. */
  const keyOf = (companyId: number, name: string) => (NAME.test(name) ? `sites/${companyId}/${name}` : undefined);
  const mimeOf = (name: string) => MIME[name.slice(name.lastIndexOf('.') + 1)]!;
  return {
    async save(companyId: number, data: Buffer, type: PlanType): Promise<string> {
      const name = `${randomBytes(16).toString('hex')}.${EXT[type]}`;
      await files.put(keyOf(companyId, name)!, data, { contentType: mimeOf(name) });
      return name;
    },
    /** The plan as a stream with its type, or undefined when there is none. */
    async fileOf(companyId: number, name: string): Promise<(StoredFile & { mime: string }) | undefined> {
      const key = keyOf(companyId, name);
      const file = key ? await files.get(key) : undefined;
      return file ? { ...file, mime: mimeOf(name) } : undefined;
    },
    async remove(companyId: number, name: string) {
      const key = keyOf(companyId, name);
      if (key) await files.delete(key);
    },
  };
}
export type PlanStore = ReturnType<typeof planStore>;
