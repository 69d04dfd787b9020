/**
 * Face check at upload (issue 20): the detector's time per photo (median, p95) on 640 × 480 JPEGs, beside the
 * plain upload pipeline without detection (decode, orient, shrink, re-encode) in the same run, plus the one-time
 * load of the detector and the whole HTTP upload with the check on and off. Prints figures; asserts nothing
 * (target: well under 200 ms a photo on one core). The photos derive from the public-domain portrait in
 * apps/server/test/faces/ at several sizes, places, brightnesses and mirrored, plus photos with no face and two faces.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { API_PREFIX } from '../apps/server/src/lib/api.ts';
import { detector, examine } from '../apps/server/src/modules/persons/face-check.ts';
import { normalizePhoto } from '../apps/server/src/modules/persons/photos.ts';
import { fmt, percentile } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_FACE_ROUNDS ?? 5);
const PORTRAIT = path.join(import.meta.dirname, '..', 'apps', 'server', 'test', 'faces', 'astronaut.jpg');

/** 640 × 480 JPEGs: the portrait at 3 sizes × 3 places × 2 brightnesses, mirrored or not; 2 without a face, 2 with two. */
async function photos(): Promise<Buffer[]> {
  const out: Buffer[] = [];
  const canvas = () => sharp({ create: { width: 640, height: 480, channels: 3, background: '#cfd6dd' } });
  for (const h of [300, 380, 460])
    for (const left of [40, 200, 330])
      for (const bright of [0.8, 1.1])
        for (const flop of [false, true]) {
          const face = await sharp(PORTRAIT).resize({ height: h }).flop(flop).modulate({ brightness: bright }).toBuffer();
          const { width = 0 } = await sharp(face).metadata();
          out.push(
            await canvas()
              .composite([{ input: face, left: Math.min(left, 640 - width), top: 480 - h }])
              .jpeg({ quality: 88 })
              .toBuffer(),
          );
        }
  for (const bg of ['#7890a8', '#e0d0c0'])
    out.push(
      await sharp({ create: { width: 640, height: 480, channels: 3, background: bg } })
        .jpeg()
        .toBuffer(),
    );
  const face = await sharp(PORTRAIT).resize({ height: 400 }).toBuffer();
  for (const gap of [0, 60])
    out.push(
      await canvas()
        .composite([
          { input: face, left: 0, top: 80 },
          { input: face, left: 320 + gap / 2 - 10, top: 80 },
        ])
        .jpeg({ quality: 88 })
        .toBuffer(),
    );
  return out;
}

const set = await photos();
const line = (name: string, xs: number[]) =>
  console.log(`${name.padEnd(44)} median ${fmt(percentile(xs, 50)).padStart(6)} ms   p95 ${fmt(percentile(xs, 95)).padStart(6)} ms   (${xs.length} photos)`);

// The one-time load (lazy, on the first photo).
const t0 = performance.now();
const d = await detector();
console.log(
  `face-check: detector loaded in ${fmt(performance.now() - t0, 0)} ms on the ${d.backend} backend; ${set.length} photos of 640 × 480, ${ROUNDS} rounds`,
);

const plain: number[] = [];
const detect: number[] = [];
const outcomes = new Map<string, number>();
// Warm-up (the first inferences compile kernels), not measured.
for (const p of set.slice(0, 3)) await examine(await normalizePhoto(p));
for (let r = 0; r < ROUNDS; r++) {
  for (const p of set) {
    const a = performance.now();
    const jpeg = await normalizePhoto(p);
    const b = performance.now();
    const f = await examine(jpeg);
    const c = performance.now();
    plain.push(b - a);
    detect.push(c - b);
    if (r === 0) {
      const k = f.faces === 0 ? 'no face' : f.faces > 1 ? `${f.faces} faces` : 'one face';
      outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    }
  }
}
line('upload pipeline without detection', plain);
line('face check (detect + landmarks + sharpness)', detect);
line(
  'pipeline + face check',
  plain.map((x, i) => x + detect[i]!),
);
console.log(`found: ${[...outcomes].map(([k, n]) => `${n} ${k}`).join(', ')}`);

// The whole HTTP upload (multipart, normalise, check, store), FACE_CHECK on and off, in-process through inject.
const refused: string[] = [];
async function uploads(check: 'on' | 'off'): Promise<number[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SCRYPT_LOG2N: '10',
    LOG_LEVEL: 'silent',
    ADMIN_USERNAME: 'bench',
    ADMIN_PASSWORD: 'bench123',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    FACE_CHECK: check,
  });
  const app = await buildApp({ config, database: openDatabase(config), logger: false, sms: null });
  await app.ready();
  try {
    const post = (url: string, token: string, payload: object) => app.inject({ method: 'POST', url: API_PREFIX + url, headers: { 'x-token': token }, payload });
    const admin = (await post('/user/login', '', { username: 'bench', password: 'bench123' })).json().data.token as string;
    await post('/company/create', admin, { name: 'Bench Co', phone: '1' });
    const times: number[] = [];
    for (const p of set.slice(0, 36)) {
      const boundary = `----fa${Math.random().toString(16).slice(2)}`;
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
        p,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const a = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: `${API_PREFIX}/person/upload`,
        headers: { 'x-token': admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: body,
      });
      times.push(performance.now() - a);
      if (res.json().code !== 20000) refused.push(res.json().message as string);
    }
    return times;
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
line('POST /person/upload, FACE_CHECK=off', await uploads('off'));
line('POST /person/upload, FACE_CHECK=on', await uploads('on'));
if (refused.length) console.log(`refused with the check on: ${refused.length} (${[...new Set(refused)].join('; ')})`);
