// The enrolment faces of an emulated terminal that already holds a working site (ZK and ISAPI emulators' site.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The public-domain portrait the server's face-check tests use (apps/server/test/faces/README.md). */
export const SITE_FACE_FILE = join(import.meta.dirname, '..', 'apps', 'server', 'test', 'faces', 'astronaut.jpg');

let portrait: Buffer | undefined;

/** The default face photos: one real portrait, read once (a face check must find a face in every one). */
export function siteFaces(): Buffer[] {
  portrait ??= readFileSync(SITE_FACE_FILE);
  return [portrait];
}

/**
 * The same picture with different bytes: a JPEG comment segment (COM, 0xFFFE) right after the start marker. Decoders
 * skip it, so the image is unchanged, but each person's photo has its own hash and size, as on a real site (a
 * take-over must not mistake one face for another by hash), and 3,000 faces cost no image processing.
 */
export function varyJpeg(jpeg: Buffer, tag: string): Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('varyJpeg: not a JPEG (no FFD8 start marker)');
  const text = Buffer.from(tag.slice(0, 200), 'utf8');
  const head = Buffer.from([0xff, 0xfe, (text.length + 2) >> 8, (text.length + 2) & 0xff]);
  return Buffer.concat([jpeg.subarray(0, 2), head, text, jpeg.subarray(2)]);
}
