import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { makeApp, type TestApp } from '../../test/helpers.ts';

// A built console as Vite leaves it, with the variants the build writes beside each file.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-web-'));
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div>${' '.repeat(2000)}</body></html>`;
const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word number ${i}`))};\n`;
const files: Record<string, Buffer> = {};
function write(rel: string, content: string, variants = true) {
  const raw = Buffer.from(content);
  fs.mkdirSync(path.dirname(path.join(dist, rel)), { recursive: true });
  fs.writeFileSync(path.join(dist, rel), raw);
  files[rel] = raw;
  if (!variants) return;
  for (const [ext, data] of [
    ['.br', zlib.brotliCompressSync(raw)],
    ['.gz', zlib.gzipSync(raw)],
  ] as const) {
    files[rel + ext] = data;
    fs.writeFileSync(path.join(dist, rel + ext), data);
  }
}
write('index.html', INDEX);
write('assets/index-Ab12Cd34.js', SCRIPT);
write('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>', false);

let t: TestApp;
before(async () => (t = await makeApp({ WEB_DIST: dist })));
after(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const IMMUTABLE = 'public, max-age=31536000, immutable';

test('a hashed asset is sent brotli-compressed to a browser that accepts br, as the build wrote it', async () => {
  const res = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-encoding'], 'br');
  assert.match(String(res.headers['content-type']), /javascript/);
  assert.deepEqual(res.rawPayload, files['assets/index-Ab12Cd34.js.br']);
  assert.equal(zlib.brotliDecompressSync(res.rawPayload).toString(), SCRIPT);
  assert.match(String(res.headers.vary), /accept-encoding/i);
  assert.equal(res.headers['cache-control'], IMMUTABLE);
});

test('a browser that accepts only gzip gets the gzip variant', async () => {
  const res = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': 'gzip, deflate' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-encoding'], 'gzip');
  assert.deepEqual(res.rawPayload, files['assets/index-Ab12Cd34.js.gz']);
  assert.match(String(res.headers.vary), /accept-encoding/i);
  assert.equal(res.headers['cache-control'], IMMUTABLE);
});

test('a client that accepts no encoding gets the file itself, still cacheable for a year', async () => {
  const res = await get('/assets/index-Ab12Cd34.js');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-encoding'], undefined);
  assert.equal(res.body, SCRIPT);
  assert.match(String(res.headers.vary), /accept-encoding/i);
  assert.equal(res.headers['cache-control'], IMMUTABLE);
});

test('index.html is compressed but revalidated on every visit: unchanged, a repeat visit gets a 304', async () => {
  const first = await get('/', { 'accept-encoding': 'br' });
  assert.equal(first.statusCode, 200);
  assert.equal(first.headers['content-encoding'], 'br');
  assert.equal(zlib.brotliDecompressSync(first.rawPayload).toString(), INDEX);
  assert.equal(first.headers['cache-control'], 'no-cache');
  assert.ok(first.headers.etag && first.headers['last-modified']);
  const again = await get('/', { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
  assert.equal(again.statusCode, 304);
  assert.equal(again.rawPayload.length, 0);
  const plain = await get('/index.html');
  assert.equal(plain.body, INDEX);
  assert.equal(plain.headers['cache-control'], 'no-cache');
});

test('a console path the server does not know gets index.html (the SPA fallback), no-cache, with a 304 when unchanged', async () => {
  const res = await get('/devices/list?page=2', { 'accept-encoding': 'gzip' });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /text\/html/);
  assert.equal(res.headers['content-encoding'], 'gzip');
  assert.equal(zlib.gunzipSync(res.rawPayload).toString(), INDEX);
  assert.equal(res.headers['cache-control'], 'no-cache');
  assert.match(String(res.headers.vary), /accept-encoding/i);
  const again = await get('/devices/list', { 'accept-encoding': 'gzip', 'if-none-match': String(res.headers.etag) });
  assert.equal(again.statusCode, 304);
  const raw = await get('/persons');
  assert.equal(raw.statusCode, 200);
  assert.equal(raw.body, INDEX);
});

test('public files are revalidated (not hashed); the variants are no URLs of their own; the API still answers 404 in its envelope', async () => {
  const icon = await get('/favicon.svg', { 'accept-encoding': 'br' });
  assert.equal(icon.statusCode, 200);
  assert.equal(icon.headers['content-encoding'], undefined);
  assert.equal(icon.headers['cache-control'], 'no-cache');
  // …a request for one falls through to the SPA fallback like any unknown path.
  const variant = await get('/assets/index-Ab12Cd34.js.br');
  assert.match(String(variant.headers['content-type']), /text\/html/);
  const api = await get('/api/nothing-here');
  assert.equal(api.statusCode, 404);
  assert.equal(api.json().code, CODES.NOT_FOUND);
});
