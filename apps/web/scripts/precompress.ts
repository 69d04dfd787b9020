import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text the server sends; images and fonts in their own compressed formats gain nothing. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|wasm)$/i;
/** Below this a response fits in one packet either way; the variant is not worth a file. */
export const MIN_BYTES = 1024;
/** A variant is kept only when it is at least this much smaller than the file. */
const KEEP_RATIO = 0.9;

export interface PrecompressResult {
  files: number;
  raw: number;
  br: number;
  gz: number;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile()) yield p;
  }
}

/** Writes `<file>.br` and `<file>.gz` next to one file; a variant that saves too little is removed instead. */
async function compressOne(file: string): Promise<{ raw: number; br: number; gz: number }> {
  const raw = await fs.readFile(file);
  const [br, gz] = await Promise.all([
    brotli(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
    gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  const sizes = { raw: raw.length, br: raw.length, gz: raw.length };
  for (const [ext, data, key] of [
    ['.br', br, 'br'],
    ['.gz', gz, 'gz'],
  ] as const) {
    if (data.length <= raw.length * KEEP_RATIO) {
      await fs.writeFile(file + ext, data);
      sizes[key] = data.length;
    } else {
      await fs.rm(file + ext, { force: true });
    }
  }
  return sizes;
}

/**
 * Brotli and gzip variants of every compressible file of at least MIN_BYTES under `dir`, beside it
 * (`app.js` → `app.js.br`, `app.js.gz`): the server picks one by Accept-Encoding and never compresses
 * per request. Node's zlib only; run again on the same folder, it rewrites the variants.
 */
export async function precompress(dir: string): Promise<PrecompressResult> {
  const todo: string[] = [];
  for await (const file of walk(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const { size } = await fs.stat(file);
    if (size >= MIN_BYTES) todo.push(file);
    else await Promise.all(['.br', '.gz'].map((ext) => fs.rm(file + ext, { force: true })));
  }
  const total: PrecompressResult = { files: todo.length, raw: 0, br: 0, gz: 0 };
  // zlib's async calls run on the libuv pool: all files at once keep its threads busy.
  for (const s of await Promise.all(todo.map(compressOne))) {
    total.raw += s.raw;
    total.br += s.br;
    total.gz += s.gz;
  }
  return total;
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

/** Vite plugin: precompresses the build output once it is written. */
export function precompressPlugin(): Plugin {
  return {
    name: 'faceadmin:precompress',
    apply: 'build',
    async writeBundle(options) {
      if (!options.dir) return;
      const r = await precompress(options.dir);
      this.info(`precompressed ${r.files} files: ${kb(r.raw)} → brotli ${kb(r.br)}, gzip ${kb(r.gz)}`);
    },
  };
}
