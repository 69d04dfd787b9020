import path from 'node:path';
import type { FastifyStaticOptions } from '@fastify/static';

/** Hashed build output: the URL changes whenever the content does, so a browser keeps it for a year unasked. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else is asked for again on every visit: a 304 (ETag / Last-Modified) when unchanged. */
export const CACHE_REVALIDATE = 'no-cache';

/**
 * @fastify/static options for the built console (apps/web/dist).
 *
 * Vite names all it emits under `assets/` by content hash, so those files are immutable for a year.
 * index.html (which names the current hashes), the SPA fallback and public files such as the favicon are
 * `no-cache`: a repeat visit asks for index.html, gets a 304, and takes every asset from the cache.
 * The build writes `.br` and `.gz` beside each file (apps/web/scripts/precompress.ts); `preCompressed`
 * picks the variant the browser accepts (brotli, then gzip, else the file) and sends Vary: Accept-Encoding.
 * The variants are not URLs of their own.
 *
 * `plain` serves as the server did before (uncompressed, `max-age=0`): the bench's baseline only.
 */
export function consoleAssets(root: string, opts: { plain?: boolean } = {}): FastifyStaticOptions {
  const base = { root, wildcard: false, index: ['index.html'] };
  if (opts.plain) return base;
  const assetsDir = path.join(root, 'assets') + path.sep;
  return {
    ...base,
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    cacheControl: false,
    setHeaders(reply, file) {
      reply.header('cache-control', file.startsWith(assetsDir) ? CACHE_IMMUTABLE : CACHE_REVALIDATE);
    },
  };
}
