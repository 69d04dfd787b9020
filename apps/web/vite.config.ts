import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressPlugin } from './scripts/precompress.ts';

// The console is served by the Fastify server from apps/web/dist (WEB_DIST); in development Vite proxies the API.
// The build writes brotli and gzip variants beside each file; the server sends the one the browser accepts.
export default defineConfig({
  plugins: [react(), precompressPlugin()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
});
