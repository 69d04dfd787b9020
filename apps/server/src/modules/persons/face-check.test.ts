import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { betterFace, EYES_MIN_PX, FACE_MIN_PX, faceChecker, judge, laplacianVariance, SHARPNESS_MIN } from './face-check.ts';

const box = (width: number) => ({ x: 10, y: 10, width, height: width * 1.2 });

test('the rules: no face, several faces, a small face (box or eyes), a blurred face, in that order', () => {
  const good = { faces: 1, box: box(FACE_MIN_PX), eyes: EYES_MIN_PX, sharpness: SHARPNESS_MIN };
  assert.equal(judge(good), undefined);
  assert.equal(judge({ faces: 0 }), 'noFace');
  assert.equal(judge({ ...good, faces: 2, sharpness: 0 }), 'manyFaces');
  assert.equal(judge({ ...good, box: box(FACE_MIN_PX - 1) }), 'faceSmall');
  assert.equal(judge({ ...good, eyes: EYES_MIN_PX - 1 }), 'faceSmall');
  assert.equal(judge({ ...good, sharpness: SHARPNESS_MIN - 0.1 }), 'blurred');
});

test('the Laplacian variance is 0 on a flat or smoothly graded picture and large on fine detail', () => {
  const w = 32;
  const flat = new Uint8Array(w * w).fill(128);
  assert.equal(laplacianVariance(flat, w, w), 0);
  const ramp = Uint8Array.from({ length: w * w }, (_, i) => (i % w) * 4);
  assert.equal(laplacianVariance(ramp, w, w), 0);
  const checker = Uint8Array.from({ length: w * w }, (_, i) => (((i % w) + Math.floor(i / w)) % 2 ? 255 : 0));
  assert.ok(laplacianVariance(checker, w, w) > 100_000);
});

test('FACE_CHECK=off lets any picture through without loading the detector', async () => {
  await faceChecker('off')(Buffer.from('not even a picture'));
});

test('a detector that cannot run refuses uploads with 503 and a clear reason, logged once, never passing a photo', async () => {
  const logged: string[] = [];
  const log = { error: (_o: unknown, msg: string) => void logged.push(msg) } as unknown as FastifyBaseLogger;
  const check = faceChecker('on', log, () => Promise.reject(new Error('model file missing')));
  for (let i = 0; i < 2; i++) {
    const e = await check(Buffer.from('jpeg')).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(e instanceof AppError);
    assert.equal(e.status, 503);
    assert.equal(e.code, CODES.UNAVAILABLE);
    assert.equal(e.key, 'errors.faceCheckDown');
  }
  assert.equal(logged.length, 1, 'logged once, not per photo');
  assert.match(logged[0]!, /FACE_CHECK=off/);
  // a finding is judged: the reason key and its figures
  const small = await faceChecker('on', log, async () => ({ faces: 1, box: { x: 0, y: 0, width: 90, height: 100 }, eyes: 30, sharpness: 500 }))(
    Buffer.from('x'),
  ).catch((err: unknown) => err);
  assert.ok(small instanceof AppError);
  assert.equal(small.key, 'errors.photoFaceSmall');
  assert.deepEqual(small.params, { px: FACE_MIN_PX, eyes: EYES_MIN_PX });
});

test('of two faces of one person the larger is kept, then the sharper; a face measured alike, or unmeasured, never replaces the one kept', () => {
  const face = (width: number, sharpness: number) => ({ faces: 1, box: { x: 0, y: 0, width, height: width }, eyes: width / 3, sharpness });
  assert.equal(betterFace(face(140, 300), face(212, 250)), true, 'a fifth larger and more');
  assert.equal(betterFace(face(212, 250), face(140, 900)), false, 'a smaller face, however sharp');
  assert.equal(betterFace(face(150, 200), face(160, 400)), true, 'about as large, twice as sharp');
  assert.equal(betterFace(face(150, 300), face(160, 330)), false, 'the same photo measured again');
  assert.equal(betterFace(face(150, 300), face(150, 300)), false);
  assert.equal(betterFace(undefined, face(212, 400)), false, 'nothing measured here: the check was off');
  assert.equal(betterFace(face(150, 300), undefined), false);
});
