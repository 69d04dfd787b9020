import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';

/** A server on a fresh SQLite database (or DATABASE_URL), driven in-process through inject: no network noise. */
export async function benchApp(): Promise<{ app: App; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SCRYPT_LOG2N: '10',
    LOG_LEVEL: 'silent',
    ADMIN_USERNAME: 'bench',
    ADMIN_PASSWORD: 'bench123',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const app = await buildApp({ config, database: openDatabase(config), logger: false, sms: null });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Peak resident memory above the starting point while `fn` runs, sampled every 5 ms. */
export async function measure<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number; peakMb: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const t0 = performance.now();
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, ms: performance.now() - t0, peakMb: (peak - base) / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);
