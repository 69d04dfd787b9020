import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeApp, type TestApp } from '../../../test/helpers.ts';
import { CAPTCHA_ALPHABET, captchaService, layoutCaptcha, renderCaptcha, type Cubic, type Random } from './captcha.service.ts';

let t: TestApp;
before(async () => (t = await makeApp()));
after(() => t.close());

/** A seeded generator, so the geometric tests below are the same on every run. */
function seeded(seed: number): Random {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * The script of issue #9 (23 of 23 solved): take each character's strokes, snap their ends to the nearest of the seven
 * segment positions of a 10 × 16 cell, and look the set of segments up as a digit.
 */
function sevenSegmentSolver(svg: string): string {
  const seg: Record<string, number[]> = {
    a: [0, 0, 10, 0],
    b: [10, 0, 10, 8],
    c: [10, 8, 10, 16],
    d: [0, 16, 10, 16],
    e: [0, 8, 0, 16],
    f: [0, 0, 0, 8],
    g: [0, 8, 10, 8],
  };
  const digits: Record<string, string> = {
    abcdef: '0',
    bc: '1',
    abdeg: '2',
    abcdg: '3',
    bcfg: '4',
    acdfg: '5',
    acdefg: '6',
    abc: '7',
    abcdefg: '8',
    abcdfg: '9',
  };
  const off = (l: number[], s: number[]) =>
    Math.min(
      Math.hypot(l[0]! - s[0]!, l[1]! - s[1]!) + Math.hypot(l[2]! - s[2]!, l[3]! - s[3]!),
      Math.hypot(l[0]! - s[2]!, l[1]! - s[3]!) + Math.hypot(l[2]! - s[0]!, l[3]! - s[1]!),
    );
  let out = '';
  for (const g of svg.matchAll(/<g[^>]*>(.*?)<\/g>/g)) {
    const lines = [...g[1]!.matchAll(/<line x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)"/g)].map((m) => m.slice(1).map(Number));
    if (!lines.length) continue;
    const names = lines.map((l) => Object.keys(seg).sort((p, q) => off(l, seg[p]!) - off(l, seg[q]!))[0]!);
    out += digits[[...new Set(names)].sort().join('')] ?? '?';
  }
  return out;
}

test('the captcha image does not contain its answer as text', () => {
  const svg = renderCaptcha('7342');
  assert.doesNotMatch(svg, /<text/);
  assert.doesNotMatch(svg, /7342/);
  assert.match(svg, /^<svg /);
});

test('the seven-segment script of issue #9 reads none of 50 captchas', () => {
  const rnd = seeded(9);
  let solved = 0;
  for (let i = 0; i < 50; i++) {
    const text = Array.from({ length: 4 }, () => '234679'[Math.floor(rnd() * 6)]).join('');
    if (sevenSegmentSolver(renderCaptcha(text)) === text) solved++;
  }
  assert.equal(solved, 0);
});

test('the markup does not tell glyphs apart: curves only, no group or transform per character, one pen for glyphs and noise', () => {
  const svg = renderCaptcha('K4MP');
  assert.doesNotMatch(svg, /<line|<text|<polyline|transform=/);
  assert.equal(svg.match(/<g[ >]/g)?.length, 1, 'one group around every stroke');
  const paths = [...svg.matchAll(/<path ([^>]*)\/>/g)].map((m) => m[1]!);
  const layout = layoutCaptcha('K4MP');
  assert.ok(paths.length > layout.glyphs.flat().length, 'noise strokes are drawn too');
  for (const p of paths) {
    // Each stroke: a start and cubic curves, nothing else: no straight segment to snap, no attribute but its width.
    assert.match(p, /^d="M[-\d.]+ [-\d.]+(C[-\d.]+(?: [-\d.]+){5})+" stroke-width="[\d.]+"$/);
  }
});

test('every glyph comes out different each time: rotated, scaled, bent and jittered, never at fixed positions', () => {
  assert.notEqual(renderCaptcha('2A9C'), renderCaptcha('2A9C'));
  const rnd = seeded(1);
  const ends = (c: Cubic[]) => c.map((k) => `${k[0][0].toFixed(1)},${k[0][1].toFixed(1)}`).join(' ');
  const same = layoutCaptcha('7777', rnd);
  assert.equal(new Set(same.glyphs.map((g) => g.map(ends).join('|'))).size, 4, 'the same character four times: four different shapes');
  // Letters drawn with straight lines only come out as curves: both control points leave the chord.
  const away = (p0: number[], c: number[], p3: number[]) => {
    const [dx, dy] = [p3[0]! - p0[0]!, p3[1]! - p0[1]!];
    return Math.abs((c[0]! - p0[0]!) * dy - (c[1]! - p0[1]!) * dx) / Math.hypot(dx, dy);
  };
  const offs = Array.from({ length: 50 }, () => layoutCaptcha('HXNT', rnd).glyphs.flat(2))
    .flat()
    .map(([p0, c1, c2, p3]) => Math.max(away(p0, c1, p3), away(p0, c2, p3)));
  assert.ok(
    offs.every((d) => d > 0.05),
    'no stroke is straight',
  );
  assert.ok(offs.filter((d) => d > 0.5).length / offs.length > 0.95, 'nearly all visibly bent (half a pixel or more)');
});

test('noise strokes cross the glyphs: most characters are crossed by an edge-to-edge curve', () => {
  const rnd = seeded(42);
  let crossed = 0;
  let glyphs = 0;
  for (let i = 0; i < 100; i++) {
    const { glyphs: gs, noise } = layoutCaptcha('HX3W', rnd);
    const long = noise.filter((s) => s.length > 1);
    assert.ok(long.length >= 1);
    const points = long.flatMap((s) => s.flatMap(sample));
    for (const g of gs) {
      glyphs++;
      const pts = g.flatMap((s) => s.flatMap(sample));
      const [x0, x1] = [Math.min(...pts.map((p) => p[0])), Math.max(...pts.map((p) => p[0]))];
      const [y0, y1] = [Math.min(...pts.map((p) => p[1])), Math.max(...pts.map((p) => p[1]))];
      if (points.some(([x, y]) => x > x0 && x < x1 && y > y0 && y < y1)) crossed++;
    }
  }
  assert.ok(crossed / glyphs > 0.9, `${crossed} of ${glyphs} glyphs crossed`);
});

/** Points along a cubic. */
function sample([p0, p1, p2, p3]: Cubic): [number, number][] {
  return Array.from({ length: 11 }, (_, i) => {
    const u = i / 10;
    const w = [(1 - u) ** 3, 3 * u * (1 - u) ** 2, 3 * u ** 2 * (1 - u), u ** 3] as const;
    return [w[0] * p0[0] + w[1] * p1[0] + w[2] * p2[0] + w[3] * p3[0], w[0] * p0[1] + w[1] * p1[1] + w[2] * p2[1] + w[3] * p3[1]];
  });
}

test('answers are checked ignoring case and spaces, once only, and the text uses only unambiguous characters', async () => {
  const db = t.app.database.db;
  const svc = captchaService(() => 'KM4P');
  const a = await svc.create(db);
  assert.match(a.image, /^data:image\/svg\+xml;base64,/);
  assert.equal(await svc.verify(db, a.captcha_id, ' km 4p '), true);
  assert.equal(await svc.verify(db, a.captcha_id, 'KM4P'), false, 'used once');
  const b = await svc.create(db);
  assert.equal(await svc.verify(db, b.captcha_id, 'KM4R'), false);
  const random = captchaService();
  for (let i = 0; i < 20; i++) {
    const { captcha_id } = await random.create(db);
    const row = await db.selectFrom('captchas').select('answer_hash').where('id', '=', captcha_id).executeTakeFirstOrThrow();
    assert.match(row.answer_hash, /^[0-9a-f]{64}$/, 'only a hash of the answer is stored');
  }
  assert.doesNotMatch(CAPTCHA_ALPHABET, /[01OILS8BGZDQUVF]/);
});
