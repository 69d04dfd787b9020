import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EYES_MIN_PX, FACE_MIN_PX, faceChecker, judge, laplacianVariance, SHARPNESS_MIN } from './face-check.ts';

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
