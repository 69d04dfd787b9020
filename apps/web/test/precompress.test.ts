import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, test } from 'node:test';
import { MIN_BYTES, precompress } from '../scripts/precompress.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-precompress-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const put = (rel: string, content: string | Buffer) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), content);
};
const has = (rel: string) => fs.existsSync(path.join(dir, rel));

test('every compressible build file gets brotli and gzip variants that decode to it; small and binary files get none', async () => {
  const script = `export const rows = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `person ${i}` })))};`;
  put('assets/index-Ab12Cd34.js', script);
  put('assets/index-Xy98Zw76.css', `.fa-login { margin: 0 auto; }\n`.repeat(100));
  put('index.html', `<!doctype html><html><body>${'<div></div>'.repeat(200)}</body></html>`);
  put('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  put('assets/photo-Qq11Rr22.png', Buffer.alloc(4096, 7));

  const r = await precompress(dir);

  assert.equal(r.files, 3);
  for (const rel of ['assets/index-Ab12Cd34.js', 'assets/index-Xy98Zw76.css', 'index.html']) {
    const raw = fs.readFileSync(path.join(dir, rel));
    assert.deepEqual(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, `${rel}.br`))), raw, rel);
    assert.deepEqual(zlib.gunzipSync(fs.readFileSync(path.join(dir, `${rel}.gz`))), raw, rel);
  }
  assert.ok(fs.statSync(path.join(dir, 'assets/index-Ab12Cd34.js.br')).size < script.length / 5);
  assert.ok(r.br < r.gz && r.gz < r.raw);
  assert.equal(has('favicon.svg.br') || has('favicon.svg.gz'), false, `below ${MIN_BYTES} bytes`);
  assert.equal(has('assets/photo-Qq11Rr22.png.br'), false, 'PNG is compressed already');
});

test('run again on the same folder it rewrites the variants and drops those of a file that became too small', async () => {
  put('index.html', '<!doctype html><p>small now</p>');
  const r = await precompress(dir);
  assert.equal(r.files, 2);
  assert.equal(has('index.html.br') || has('index.html.gz'), false);
  assert.equal(has('assets/index-Ab12Cd34.js.br.br'), false, 'variants are not compressed again');
});
