import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressPlugin } from './scripts/precompress.ts';

// The console is served by the Fastify server from apps/web/dist (WEB_DIST); in development Vite proxies the API.
// The build writes brotli and gzip variants beside each file; the server sends the one the browser accepts.
const { version } = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
// The console build reported with client errors (System → Client errors): version + build time, UTC.
const release = `${version}+${new Date().toISOString().slice(0, 16).replace(/\D/g, '')}`;

/** The chunk a language's text file goes to: `locale-<folder>` for src/locales/<folder>/*.json. */
function localeChunk(id: string): string | null {
  const folder = /\/src\/locales\/([^/]+)\//.exec(id)?.[1];
  return folder ? `locale-${folder}` : null;
}

export default defineConfig({
  plugins: [react(), precompressPlugin()],
  // The API contracts' schemas are the server's to check: the console gets plain shapes (scripts/schema-shapes.ts).
  resolve: { alias: { typebox: fileURLToPath(new URL('./scripts/schema-shapes.ts', import.meta.url)) } },
  define: { __FACEADMIN_RELEASE__: JSON.stringify(release) },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // A language's texts (src/locales/<folder>/*.json) as one chunk, fetched when it is chosen (lib/i18n.ts).
        codeSplitting: {
          groups: [{ debugName: 'locales', test: /\/src\/locales\//, name: (id: string) => localeChunk(id) }],
        },
      },
    },
  },
});
