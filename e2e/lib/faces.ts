import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './server.ts';

// sharp is the server's dependency: the journeys borrow it to make face pictures.
const serverRequire = createRequire(path.join(ROOT, 'apps', 'server', 'package.json'));
interface Sharp {
  resize(o: { height: number }): Sharp;
  composite(layers: { input: Buffer; left: number; top: number }[]): Sharp;
  jpeg(o: { quality: number }): Sharp;
  png(): Sharp;
  toBuffer(): Promise<Buffer>;
}
const sharp = serverRequire('sharp') as (input: Buffer | string) => Sharp;

/** A real portrait (public domain, apps/server/test/faces/README.md): the server checks every face photo (docs/face-check.md). */
const PORTRAIT = path.join(ROOT, 'apps', 'server', 'test', 'faces', 'astronaut.jpg');

/**
 * A landscape JPEG of one real face on a coloured background with a label (the console crops it to a portrait
 * before uploading; the face stays in the middle, large and sharp enough for the face check).
 */
export async function facePhoto(label: string, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">
    <rect width="800" height="600" fill="hsl(${hue},45%,80%)"/>
  </svg>`;
  const text = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="70">
    <text x="400" y="50" font-size="40" text-anchor="middle" fill="#222">${label}</text>
  </svg>`;
  const face = await sharp(PORTRAIT).resize({ height: 500 }).toBuffer();
  return sharp(await sharp(Buffer.from(svg)).png().toBuffer())
    .composite([
      { input: face, left: 400 - 195, top: 20 },
      { input: await sharp(Buffer.from(text)).png().toBuffer(), left: 0, top: 525 },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The portrait far away (its face about 75 px wide on 480 × 620): the face check refuses it as too small. */
export async function smallFacePhoto(): Promise<Buffer> {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="620"><rect width="480" height="620" fill="#d8d4cf"/></svg>';
  const face = await sharp(PORTRAIT).resize({ height: 200 }).toBuffer();
  return sharp(await sharp(Buffer.from(svg)).png().toBuffer())
    .composite([{ input: face, left: 160, top: 200 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}
