import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './server.ts';

// sharp is the server's dependency: the journeys borrow it to make face pictures.
const serverRequire = createRequire(path.join(ROOT, 'apps', 'server', 'package.json'));
const sharp = serverRequire('sharp') as (input: Buffer) => { jpeg(o: { quality: number }): { toBuffer(): Promise<Buffer> } };

/** A landscape JPEG with a drawn face and a label (the console crops it to a portrait before uploading). */
export async function facePhoto(label: string, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">
    <rect width="800" height="600" fill="hsl(${hue},45%,80%)"/>
    <ellipse cx="400" cy="270" rx="120" ry="160" fill="#f1c7a5"/>
    <circle cx="355" cy="240" r="14" fill="#333"/><circle cx="445" cy="240" r="14" fill="#333"/>
    <path d="M350 340 Q400 380 450 340" stroke="#a33" stroke-width="8" fill="none"/>
    <text x="400" y="560" font-size="40" text-anchor="middle" fill="#222">${label}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}
