import { randomBytes, randomInt } from 'node:crypto';
import type { Executor } from '../../db/database.ts';
import { sha256 } from '../../lib/crypto.ts';
import { clock, isoIn, nowIso } from '../../lib/time.ts';

const TTL_MS = 5 * 60_000;
const LENGTH = 4;
const WIDTH = 120;
const HEIGHT = 40;

/**
 * Glyph outlines on a 10 × 16 cell (y down), drawn for this captcha. Only characters that cannot be taken for one
 * another once distorted: no 0/O/D/Q, 1/I/L, 5/S, 8/B, 6/G, 2/Z, U/V, E/F.
 */
const GLYPHS: Record<string, string> = {
  '2': 'M1 4 C1 -1 9 -1 9 4 C9 7 4 10 1 16 L9 16',
  '3': 'M1 2 C4 -1 9 1 8 5 C7 7 5 8 4 8 C6 8 10 10 9 13 C8 16 3 17 1 14',
  '4': 'M7 16 L7 0 L0 11 L10 11',
  '5': 'M9 0 L2 0 L1 7 C4 5 9 6 9 11 C9 15 4 17 1 14',
  '6': 'M8 1 C4 -1 1 4 1 10 C1 14 3 16 5 16 C8 16 9 13 9 11 C9 8 7 6 5 6 C3 6 1 8 1 10',
  '7': 'M1 0 L9 0 C6 5 4 10 3 16',
  '9': 'M9 6 C9 8 7 10 5 10 C2 10 1 8 1 6 C1 2 3 0 5 0 C8 0 9 3 9 6 C9 11 7 15 2 16',
  A: 'M0 16 L5 0 L10 16 M2 10 L8 10',
  C: 'M9 3 C7 -1 1 -1 1 8 C1 17 7 17 9 13',
  E: 'M9 0 L1 0 L1 16 L9 16 M1 8 L7 8',
  H: 'M1 0 L1 16 M9 0 L9 16 M1 8 L9 8',
  J: 'M9 0 L9 11 C9 17 1 17 1 12',
  K: 'M1 0 L1 16 M9 0 L1 10 M4 7 L9 16',
  M: 'M0 16 L1 0 L5 10 L9 0 L10 16',
  N: 'M1 16 L1 0 L9 16 L9 0',
  P: 'M1 16 L1 0 L6 0 C10 0 10 8 6 8 L1 8',
  R: 'M1 16 L1 0 L6 0 C10 0 10 8 6 8 L1 8 M5 8 L9 16',
  T: 'M0 0 L10 0 M5 0 L5 16',
  W: 'M0 0 L2 16 L5 6 L8 16 L10 0',
  X: 'M1 0 L9 16 M9 0 L1 16',
  Y: 'M0 0 L5 8 L10 0 M5 8 L5 16',
};
export const CAPTCHA_ALPHABET = Object.keys(GLYPHS).join('');

type Pt = [number, number];
/** A cubic Bézier curve: start, two control points, end. */
export type Cubic = [Pt, Pt, Pt, Pt];
/** One pen stroke: connected curves. */
export type Stroke = Cubic[];
export type Random = () => number;

const cryptoRandom: Random = () => randomInt(0, 2 ** 40) / 2 ** 40;
/** Uniform in [-1, 1). */
const signed = (rnd: Random) => rnd() * 2 - 1;

/** A glyph's outline as strokes of cubics, every point moved a little and straight lines bent, differently each time. */
function glyphStrokes(d: string, rnd: Random): Stroke[] {
  const strokes: Stroke[] = [];
  const tokens = d.match(/[MLC]|-?\d+(?:\.\d+)?/g) ?? [];
  let at: Pt = [0, 0];
  let i = 0;
  const num = () => Number(tokens[i++]);
  // Every point of the outline moves a little, then straight lines are bent between the moved ends.
  const pt = (): Pt => [num() + signed(rnd) * 0.4, num() + signed(rnd) * 0.4];
  while (i < tokens.length) {
    const cmd = tokens[i++];
    if (cmd === 'M') {
      at = pt();
      strokes.push([]);
    } else if (cmd === 'L') {
      const to = pt();
      const [dx, dy] = [to[0] - at[0], to[1] - at[1]];
      // Controls a third and two thirds along, pushed off the line on either side: no stroke is straight.
      const bend = () => (rnd() < 0.5 ? -1 : 1) * (0.04 + rnd() * 0.1);
      const b1 = bend();
      const b2 = bend();
      strokes.at(-1)!.push([at, [at[0] + dx / 3 - dy * b1, at[1] + dy / 3 + dx * b1], [at[0] + (2 * dx) / 3 - dy * b2, at[1] + (2 * dy) / 3 + dx * b2], to]);
      at = to;
    } else {
      const c1 = pt();
      const c2 = pt();
      const to = pt();
      strokes.at(-1)!.push([at, c1, c2, to]);
      at = to;
    }
  }
  return strokes;
}

const mapStroke = (s: Stroke, f: (p: Pt) => Pt): Stroke => s.map((c) => c.map(f) as Cubic);

export interface CaptchaLayout {
  /** per character, its strokes in image coordinates */
  glyphs: Stroke[][];
  /** strokes that belong to no character: long ones across the whole text, short ones over single glyphs */
  noise: Stroke[];
}

/**
 * Places the text: per character its own scale, slant, rotation and offset, every point jittered, then the whole
 * image waved; plus noise strokes drawn exactly like the glyphs' (same pen, same widths) that cross them.
 */
export function layoutCaptcha(text: string, rnd: Random = cryptoRandom): CaptchaLayout {
  const chars = [...text];
  const advance = (WIDTH - 20) / Math.max(chars.length, 1);
  const glyphs = chars.map((ch, i) => {
    const s = 1.55 + rnd() * 0.3;
    const sx = s * (0.85 + rnd() * 0.3);
    const sy = s * (0.9 + rnd() * 0.2);
    const angle = (signed(rnd) * 16 * Math.PI) / 180;
    const shear = signed(rnd) * 0.25;
    const cx = 10 + advance * (i + 0.5) + signed(rnd) * 3;
    const cy = HEIGHT / 2 + signed(rnd) * 3;
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    const place = ([x0, y0]: Pt): Pt => {
      const x = (x0 - 5 + shear * (y0 - 8)) * sx;
      const y = (y0 - 8) * sy;
      return [cx + x * cos - y * sin, cy + x * sin + y * cos];
    };
    return glyphStrokes(GLYPHS[ch] ?? '', rnd).map((st) => mapStroke(st, place));
  });

  const band = () => HEIGHT / 2 + signed(rnd) * 11;
  const noise: Stroke[] = [];
  // One or two long curves from edge to edge through the glyphs.
  for (let n = 1 + Math.floor(rnd() * 2); n > 0; n--) {
    const a: Pt = [rnd() * 8, band()];
    const m: Pt = [WIDTH / 2 + signed(rnd) * 15, band()];
    const b: Pt = [WIDTH - rnd() * 8, band()];
    noise.push([
      [a, [a[0] + 20, band()], [m[0] - 20, band()], m],
      [m, [m[0] + 20, band()], [b[0] - 20, band()], b],
    ]);
  }
  // Two short arcs over single glyphs, the length of a glyph's own strokes.
  for (let n = 2; n > 0; n--) {
    const c: Pt = [10 + rnd() * (WIDTH - 20), band()];
    const len = 8 + rnd() * 8;
    const dir = rnd() * Math.PI;
    const [ux, uy] = [(Math.cos(dir) * len) / 2, (Math.sin(dir) * len) / 2];
    const [nx, ny] = [-Math.sin(dir), Math.cos(dir)];
    const bend = signed(rnd) * len * 0.4;
    noise.push([
      [
        [c[0] - ux, c[1] - uy],
        [c[0] - ux / 3 + nx * bend, c[1] - uy / 3 + ny * bend],
        [c[0] + ux / 3 + nx * bend, c[1] + uy / 3 + ny * bend],
        [c[0] + ux, c[1] + uy],
      ],
    ]);
  }

  // One wave over everything, so even the long strokes are not straight lines.
  const [ax, fx, px] = [1 + rnd() * 1.5, (2 * Math.PI) / (30 + rnd() * 30), rnd() * 2 * Math.PI];
  const [ay, fy, py] = [1 + rnd() * 1.5, (2 * Math.PI) / (40 + rnd() * 40), rnd() * 2 * Math.PI];
  const wave = ([x, y]: Pt): Pt => [x + ax * Math.sin(y * fx + px), y + ay * Math.sin(x * fy + py)];
  return { glyphs: glyphs.map((g) => g.map((st) => mapStroke(st, wave))), noise: noise.map((st) => mapStroke(st, wave)) };
}

const n1 = (v: number) => (Math.round(v * 10) / 10).toString();
const pathOf = (s: Stroke) =>
  `M${n1(s[0]![0][0])} ${n1(s[0]![0][1])}` +
  s
    .map(
      (c) =>
        `C${c
          .slice(1)
          .map((p) => `${n1(p[0])} ${n1(p[1])}`)
          .join(' ')}`,
    )
    .join('');

/**
 * The captcha as SVG: curves only (no text, no straight lines, no group per character); glyph and noise strokes share
 * one pen and come in random order, so the markup does not say which stroke belongs to which character, or to none.
 * A speed bump for simple scripts, not a defence against OCR or solving services (docs/sign-in-protection.md).
 */
export function renderCaptcha(text: string, rnd: Random = cryptoRandom): string {
  const { glyphs, noise } = layoutCaptcha(text, rnd);
  const strokes = [...glyphs.flat(), ...noise];
  for (let i = strokes.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [strokes[i], strokes[j]] = [strokes[j]!, strokes[i]!];
  }
  const hue = Math.floor(rnd() * 360);
  const paths = strokes.map((s) => `<path d="${pathOf(s)}" stroke-width="${n1(1.4 + rnd() * 0.7)}"/>`).join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">` +
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="hsl(${(hue + 180) % 360},35%,95%)"/>` +
    `<g fill="none" stroke="hsl(${hue},55%,28%)" stroke-linecap="round" stroke-linejoin="round">${paths}</g></svg>`
  );
}

/** How answers are compared: spaces anywhere and letter case do not matter. */
export const normalizeAnswer = (s: string) => s.replace(/\s+/g, '').toUpperCase();

const randomText = () => Array.from({ length: LENGTH }, () => CAPTCHA_ALPHABET[randomInt(0, CAPTCHA_ALPHABET.length)]).join('');

export function captchaService(makeText: () => string = randomText) {
  return {
    async create(db: Executor) {
      const text = makeText();
      const id = randomBytes(16).toString('base64url');
      await db.deleteFrom('captchas').where('expires_at', '<', nowIso()).execute();
      await db
        .insertInto('captchas')
        .values({ id, answer_hash: sha256(normalizeAnswer(text)), expires_at: isoIn(TTL_MS) })
        .execute();
      const svg = renderCaptcha(text);
      return { captcha_id: id, image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
    },
    /** One use only: the captcha is consumed whether or not the answer is right. */
    async verify(db: Executor, id: string | undefined, answer: string | undefined): Promise<boolean> {
      if (!id || !answer) return false;
      // Taken and removed in one statement: two attempts at once (on two instances) cannot both use it.
      const row = await db.deleteFrom('captchas').where('id', '=', id).returning(['answer_hash', 'expires_at']).executeTakeFirst();
      if (!row) return false;
      return Date.parse(row.expires_at) > clock.now() && row.answer_hash === sha256(normalizeAnswer(answer));
    },
  };
}
export type CaptchaService = ReturnType<typeof captchaService>;
