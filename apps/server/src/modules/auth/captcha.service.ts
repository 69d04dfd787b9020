import { randomBytes, randomInt } from 'node:crypto';
import type { Executor } from '../../db/database.ts';
import { sha256 } from '../../lib/crypto.ts';
import { clock, isoIn, nowIso } from '../../lib/time.ts';

const TTL_MS = 5 * 60_000;
/** Seven-segment strokes for each digit on a 10×16 cell: [x1, y1, x2, y2]. */
const SEGMENTS: Record<string, [number, number, number, number]> = {
  a: [0, 0, 10, 0],
  b: [10, 0, 10, 8],
  c: [10, 8, 10, 16],
  d: [0, 16, 10, 16],
  e: [0, 8, 0, 16],
  f: [0, 0, 0, 8],
  g: [0, 8, 10, 8],
};
const DIGITS: Record<string, string> = {
  '0': 'abcdef',
  '1': 'bc',
  '2': 'abged',
  '3': 'abgcd',
  '4': 'fgbc',
  '5': 'afgcd',
  '6': 'afgedc',
  '7': 'abc',
  '8': 'abcdefg',
  '9': 'abcdfg',
};

/**
 * Draws digits as jittered strokes (no <text>, so the answer is not in the markup) with noise lines.
 * It slows down scripted guessing; it is not meant to stop a determined OCR.
 */
export function renderCaptcha(text: string): string {
  const j = () => (randomInt(0, 7) - 3) / 2;
  const parts: string[] = [];
  for (let i = 0; i < 6; i++) {
    parts.push(
      `<line x1="${randomInt(0, 120)}" y1="${randomInt(0, 40)}" x2="${randomInt(0, 120)}" y2="${randomInt(0, 40)}" stroke="hsl(${randomInt(0, 360)},50%,60%)" stroke-width="1"/>`,
    );
  }
  [...text].forEach((ch, i) => {
    const ox = 12 + i * 26 + j() * 2;
    const oy = 10 + j() * 2;
    const rot = randomInt(-18, 19);
    const color = `hsl(${randomInt(0, 360)},60%,35%)`;
    const strokes = [...(DIGITS[ch] ?? '')].map((s) => {
      const [x1, y1, x2, y2] = SEGMENTS[s]!;
      return `<line x1="${x1 + j()}" y1="${y1 + j()}" x2="${x2 + j()}" y2="${y2 + j()}"/>`;
    });
    parts.push(`<g transform="translate(${ox} ${oy}) rotate(${rot} 5 8)" stroke="${color}" stroke-width="2.4" stroke-linecap="round">${strokes.join('')}</g>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><rect width="120" height="40" fill="#f4f6f8"/>${parts.join('')}</svg>`;
}

export function captchaService(makeText: () => string = () => Array.from({ length: 4 }, () => String(randomInt(0, 10))).join('')) {
  return {
    async create(db: Executor) {
      const text = makeText();
      const id = randomBytes(16).toString('base64url');
      await db.deleteFrom('captchas').where('expires_at', '<', nowIso()).execute();
      await db
        .insertInto('captchas')
        .values({ id, answer_hash: sha256(text), expires_at: isoIn(TTL_MS) })
        .execute();
      const svg = renderCaptcha(text);
      return { captcha_id: id, image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
    },
    /** One use only: the captcha is consumed whether or not the answer is right. */
    async verify(db: Executor, id: string | undefined, answer: string | undefined): Promise<boolean> {
      if (!id || !answer) return false;
      const row = await db.selectFrom('captchas').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return false;
      await db.deleteFrom('captchas').where('id', '=', id).execute();
      return Date.parse(row.expires_at) > clock.now() && row.answer_hash === sha256(answer.trim());
    },
  };
}
export type CaptchaService = ReturnType<typeof captchaService>;
