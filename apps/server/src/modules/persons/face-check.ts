import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { CODES } from '@faceadmin/shared';
import { AppError } from '../../lib/errors.ts';

/**
 * Face photos checked at upload (docs/face-check.md): one face, large and sharp enough for a terminal, before the
 * picture is stored and synced. The detector is @vladmandic/face-api's Tiny Face Detector with its 68-point tiny
 * landmark net, on TensorFlow.js's WebAssembly backend; both models ship inside the npm package, nothing is
 * downloaded at run time. It loads once per process, on the first photo.
 */

/** A face box narrower than this (pixels, on the normalised photo terminals get) is too small. */
export const FACE_MIN_PX = 120;
/**
 * Eye centres closer than this (pixels) are too small as well. The detector's box is about three times the eye
 * distance, so a frontal face of FACE_MIN_PX has about 40 px; a face turned aside has its eyes closer in a big box.
 */
export const EYES_MIN_PX = 40;
/** A second face at least this wide counts ("several faces"); smaller ones are background people terminals ignore. */
export const OTHER_FACE_MIN_PX = 60;
/** Detector confidence for a face. */
export const FACE_SCORE = 0.5;
/** The face is measured for sharpness at this width, so the figure does not depend on the photo's size. */
export const SHARPNESS_SAMPLE_PX = 112;
/**
 * Variance of the Laplacian of the face (grey, at SHARPNESS_SAMPLE_PX wide) below which the face is too blurred.
 * Calibrated on a real portrait (docs/face-check.md): sharp faces measure 360–720; a Gaussian blur of σ = 2 px on
 * a 320 px wide portrait measures 56, σ = 3 px on a 480 px one 48 (about σ ≥ 1.2 px at the 112 px scale).
 */
export const SHARPNESS_MIN = 60;

export interface FaceFinding {
  faces: number;
  /** the largest face's box (pixels) */
  box?: { x: number; y: number; width: number; height: number };
  eyes?: number;
  sharpness?: number;
}

/** What a photo is refused for, or undefined when it is good. */
export type FaceProblem = 'noFace' | 'manyFaces' | 'faceSmall' | 'blurred';

export function judge(f: FaceFinding): FaceProblem | undefined {
  if (!f.faces || !f.box) return 'noFace';
  if (f.faces > 1) return 'manyFaces';
  if (f.box.width < FACE_MIN_PX || (f.eyes ?? 0) < EYES_MIN_PX) return 'faceSmall';
  if ((f.sharpness ?? 0) < SHARPNESS_MIN) return 'blurred';
  return undefined;
}

/** Variance of the 4-neighbour Laplacian over a grey image (one byte a pixel). */
export function laplacianVariance(grey: Uint8Array | Buffer, width: number, height: number): number {
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const v = grey[i - width]! + grey[i + width]! + grey[i - 1]! + grey[i + 1]! - 4 * grey[i]!;
      sum += v;
      sumSq += v * v;
      n++;
    }
  }
  if (!n) return 0;
  const mean = sum / n;
  return sumSq / n - mean * mean;
}

// The part of face-api this module uses (its bundled typings pull the whole tfjs type tree).
interface Point {
  x: number;
  y: number;
}
interface Detected {
  detection: { score: number; box: { x: number; y: number; width: number; height: number } };
  landmarks: { getLeftEye(): Point[]; getRightEye(): Point[] };
}
interface Tensor {
  dispose(): void;
}
interface FaceApi {
  tf: {
    setBackend(name: string): Promise<boolean>;
    ready(): Promise<void>;
    getBackend(): string;
    env(): { set(flag: string, value: unknown): void };
    setWasmPaths(prefix: string): void;
    tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): Tensor;
  };
  nets: { tinyFaceDetector: { loadFromDisk(dir: string): Promise<void> }; faceLandmark68TinyNet: { loadFromDisk(dir: string): Promise<void> } };
  TinyFaceDetectorOptions: new (o: { inputSize: number; scoreThreshold: number }) => unknown;
  detectAllFaces(input: Tensor, options: unknown): { withFaceLandmarks(tiny: boolean): Promise<Detected[]> };
}

export interface Detector {
  backend: string;
  detect(rgb: Buffer, width: number, height: number): Promise<Detected[]>;
}

/**
 * The detector's input sizes (the photo is padded square and scaled to each): 416 finds faces down to about 60 px on
 * a 640 px photo, half of FACE_MIN_PX, in about 100 ms with landmarks. Its confidence on one clear face varies with
 * the scale (0.35 at 416 and 0.89 at 224 on one of the bench's photos; docs/face-check.md), so a photo where 416
 * finds no face is looked at again at 320 and 224 (about 50 and 30 ms more) before it is refused as faceless.
 */
const INPUT_SIZES = [416, 320, 224];

async function loadDetector(): Promise<Detector> {
  const require = createRequire(import.meta.url);
  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
  const { tf } = faceapi;
  // The WASM binaries ship in @tensorflow/tfjs-backend-wasm; read from disk, one thread (the server shares its cores).
  const wasmDir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + path.sep;
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tf.setWasmPaths(wasmDir);
  // No fallback to the pure-JavaScript backend: it takes 1–2 s a photo (docs/face-check.md), blocking the server.
  if (!(await tf.setBackend('wasm'))) throw new Error('the TensorFlow.js wasm backend did not start');
  await tf.ready();
  const models = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
  await faceapi.nets.tinyFaceDetector.loadFromDisk(models);
  await faceapi.nets.faceLandmark68TinyNet.loadFromDisk(models);
  const passes = INPUT_SIZES.map((inputSize) => new faceapi.TinyFaceDetectorOptions({ inputSize, scoreThreshold: FACE_SCORE }));
  return {
    backend: tf.getBackend(),
    async detect(rgb, width, height) {
      const tensor = tf.tensor3d(new Uint8Array(rgb.buffer, rgb.byteOffset, rgb.length), [height, width, 3], 'int32');
      try {
        let found: Detected[] = [];
        for (const options of passes) {
          found = await faceapi.detectAllFaces(tensor, options).withFaceLandmarks(true);
          if (found.length) break;
        }
        return found;
      } finally {
        tensor.dispose();
      }
    },
  };
}

let loading: Promise<Detector> | undefined;
let failedAt = 0;
/** After a failed load, the next photo tries again this much later (a broken install stays broken, a busy disk may not). */
const RETRY_MS = 60_000;

/** The process's one detector, loaded on first use. */
export function detector(): Promise<Detector> {
  if (loading && failedAt && Date.now() - failedAt > RETRY_MS) loading = undefined;
  if (!loading) {
    failedAt = 0;
    loading = loadDetector().catch((e: unknown) => {
      failedAt = Date.now();
      throw e;
    });
  }
  return loading;
}

const centre = (pts: Point[]) => ({ x: pts.reduce((s, p) => s + p.x, 0) / pts.length, y: pts.reduce((s, p) => s + p.y, 0) / pts.length });

/** Finds the faces of a decoded photo and measures the largest one. */
export async function examine(jpeg: Buffer): Promise<FaceFinding> {
  const { data, info } = await sharp(jpeg).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const found = (await (await detector()).detect(data, info.width, info.height)).filter((d) => d.detection.score >= FACE_SCORE);
  if (!found.length) return { faces: 0 };
  found.sort((a, b) => b.detection.box.width - a.detection.box.width);
  const main = found[0]!;
  const faces = 1 + found.slice(1).filter((d) => d.detection.box.width >= OTHER_FACE_MIN_PX).length;
  const l = centre(main.landmarks.getLeftEye());
  const r = centre(main.landmarks.getRightEye());
  const eyes = Math.hypot(l.x - r.x, l.y - r.y);
  const b = main.detection.box;
  const left = Math.max(0, Math.floor(b.x));
  const top = Math.max(0, Math.floor(b.y));
  const width = Math.min(info.width - left, Math.floor(b.width));
  const height = Math.min(info.height - top, Math.floor(b.height));
  const box = { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) };
  if (width < 8 || height < 8) return { faces, box, eyes, sharpness: 0 };
  const sample = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .extract({ left, top, width, height })
    .greyscale()
    .resize({ width: SHARPNESS_SAMPLE_PX })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sharpness = laplacianVariance(sample.data, sample.info.width, sample.info.height);
  return { faces, box, eyes, sharpness };
}

const faceError = (key: string, params: Record<string, string | number> = {}) => new AppError(CODES.RULE, 422, key, params, { field: 'pic' });

/** Checks a normalised face photo; throws the reason a terminal would refuse it for, or answers its measures (none when the check is off). */
export type FaceCheck = (jpeg: Buffer) => Promise<FaceFinding | undefined>;

/**
 * Of two faces of one person that both passed the check, whether `b` is the better for recognition: the larger face
 * (its width, a fifth larger at least: the same photo measured twice differs by a few pixels), then the sharper
 * (a third sharper at least). Unmeasured faces (the check off) are never better than what is kept.
 */
export function betterFace(a: FaceFinding | undefined, b: FaceFinding | undefined): boolean {
  if (!a?.box || !b?.box) return false;
  if (b.box.width >= a.box.width * 1.2) return true;
  if (a.box.width >= b.box.width * 1.2) return false;
  return (b.sharpness ?? 0) >= (a.sharpness ?? 0) * 1.33;
}

/**
 * FACE_CHECK=off turns the check off (a site whose terminals do their own, or tests of other features).
 * When the detector cannot load, the reason is logged and uploads are refused with a message saying so: a photo
 * is never passed unchecked while the check is on.
 */
export function faceChecker(mode: 'on' | 'off', log?: FastifyBaseLogger, look: (jpeg: Buffer) => Promise<FaceFinding> = examine): FaceCheck {
  if (mode === 'off') return async () => undefined;
  let logged = false;
  return async (jpeg) => {
    let finding: FaceFinding;
    try {
      finding = await look(jpeg);
    } catch (e) {
      if (e instanceof AppError) throw e;
      if (!logged) {
        logged = true;
        log?.error({ err: e }, 'the face detector cannot run; face photos are refused until it does (FACE_CHECK=off turns the check off)');
      }
      throw new AppError(CODES.UNAVAILABLE, 503, 'errors.faceCheckDown', {}, { field: 'pic' });
    }
    logged = false;
    const problem = judge(finding);
    if (problem === 'noFace') throw faceError('errors.photoNoFace');
    if (problem === 'manyFaces') throw faceError('errors.photoManyFaces', { count: finding.faces });
    if (problem === 'faceSmall') throw faceError('errors.photoFaceSmall', { px: FACE_MIN_PX, eyes: EYES_MIN_PX });
    if (problem === 'blurred') throw faceError('errors.photoBlurred');
    return finding;
  };
}
