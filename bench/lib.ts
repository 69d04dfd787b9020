import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App, type BuildOptions } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { API_PREFIX } from '../apps/server/src/lib/api.ts';

/** A server on a fresh SQLite database (or DATABASE_URL), driven in-process through inject: no network noise. `opts` go to buildApp. */
export async function benchApp(opts: Pick<BuildOptions, 'plainAssets'> = {}): Promise<{ app: App; close(): Promise<void> }> {
  // BENCH_DATA_DIR: a data directory kept after the run (a bench that reuses its data, e.g. big-tenant.bench.ts)
  const kept = process.env.BENCH_DATA_DIR;
  const dataDir = kept ? (fs.mkdirSync(kept, { recursive: true }), kept) : fs.mkdtempSync(path.join(os.tmpdir(), 'fa-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SCRYPT_LOG2N: '10',
    LOG_LEVEL: 'silent',
    ADMIN_USERNAME: 'bench',
    ADMIN_PASSWORD: 'bench123',
    // The breakers' embedded MQTT broker on a port of its own (breakers.bench.ts reads app.mqtt.port).
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    // webhooks.bench.ts posts to a receiver on this machine (loopback is refused unless allowed, issue #28)
    OUTBOUND_ALLOW: '127.0.0.0/8',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const app = await buildApp({ config, database: openDatabase(config), logger: false, sms: null, ...opts });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      if (!kept) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * benchApp() signed in as bench/bench123 with one company. `listen` puts it on a loopback port (`url`);
 * `device` also registers a terminal with that serial and lets it call in once (implies `listen`).
 */
export async function benchServer(opts: { listen?: boolean; device?: string } = {}) {
  const { app, close } = await benchApp();
  let url = '';
  if (opts.listen || opts.device) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }
  const inject = (path: string, token: string, payload?: object) =>
    app.inject({ method: payload ? 'POST' : 'GET', url: API_PREFIX + path, headers: { 'x-token': token }, ...(payload ? { payload } : {}) });
  const token = (await inject('/user/login', '', { username: 'bench', password: 'bench123' })).json().data.token as string;
  const companyId = (await inject('/company/create', token, { name: 'Bench Co', phone: '1' })).json().data.id as number;
  if (opts.device) {
    await inject('/device/create', token, { name: 'Bench door', serial: opts.device, ip: '127.0.0.1', password: 'x' });
    await fetch(`${url}/iclock/cdata?SN=${opts.device}&options=all&language=69&pushver=2.4.1`);
  }
  /** A signed-in API call through inject: POST when there is a payload, else GET. */
  const api = (path: string, payload?: object) => inject(path, token, payload);
  return { app, url, token, companyId, api, close };
}

/** Punches stored, all devices. */
export async function punchCount(app: App): Promise<number> {
  const r = await app.database.db
    .selectFrom('punches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Whether the wrk load generator is on PATH. */
export const hasWrk = () => execFileSync('sh', ['-c', 'command -v wrk || true']).toString().trim() !== '';

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

/** CPU time (ms) a process has used so far: utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms. */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The whole machine's busy and total jiffies (/proc/stat's first line: user, nice, system, idle, iowait, irq, softirq,
 * steal; guest time is already inside user and nice, so it is not added again).
 */
export function machine(): { busy: number; total: number } {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  return { busy: total - idle, total };
}

/** A management API call over HTTP (a bench driving real server processes): its data, or an error naming the route. */
export async function api<T>(base: string, token: string, route: string, body: unknown): Promise<T> {
  const r = await fetch(`${base}/api/management${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-token': token, 'x-lang': 'en-US' },
    body: JSON.stringify(body),
  });
  const j = (await r.json()) as { code: number; message: string; data: T };
  if (j.code !== 20000) throw new Error(`${route}: ${j.code} ${j.message}`);
  return j.data;
}
