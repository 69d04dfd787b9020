/**
 * A fleet reconnecting after a server restart (issue #18 item 3), one run, printed figures:
 *  - baseline: BENCH_BASE_BREAKERS (300) breakers whose stored hash is the scrypt one (N=2^17) every breaker had
 *    before device secrets became HMACs — what every CONNECT after a restart cost then (the in-memory cache was
 *    empty), and what the first CONNECT after the upgrade costs now, once;
 *  - the server: BENCH_BREAKERS (1,000) breakers with HMAC-stored secrets, all dialling at once after a restart.
 * Each run: the breakers were registered and connected once (limits synced), the server restarts on the same
 * database and DATA_DIR, then the whole fleet dials at once (bench/breaker-fleet.ts burst, its own process).
 * Printed: online after 10 / 20 / 30 s, the time until all are online, the server's CPU and its memory growth
 * (peak RSS above the RSS just before the burst). Target: 1,000 online within 30 s, memory growth < 200 MB.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { API_PREFIX } from '../apps/server/src/lib/api.ts';
import { hashPassword } from '../apps/server/src/lib/crypto.ts';
import { fmt } from './lib.ts';

const N = Number(process.env.BENCH_BREAKERS ?? 1000);
const BASE_N = Number(process.env.BENCH_BASE_BREAKERS ?? 300);
const LIMIT_MS = Number(process.env.BENCH_RECONNECT_LIMIT_MS ?? 60_000);
const LINES = 2;
const PASSWORD = 'bench-breaker-secret-0123456789';
const node = process.execPath;
// The registration runs in a process of its own (`prepare`), so the server measured is a fresh process: restarted.
const preparing = process.argv[2] === 'prepare';
const dataDir = preparing ? process.argv[3]! : fs.mkdtempSync(path.join(os.tmpdir(), 'fa-bench-reconnect-'));
const env = {
  DATA_DIR: dataDir,
  // the console users' cost (not the breakers'): registering breakers fast on a server before this change too
  SCRYPT_LOG2N: '10',
  LOG_LEVEL: 'silent',
  ADMIN_USERNAME: 'bench',
  ADMIN_PASSWORD: 'bench123',
  MQTT_PORT: '0',
  MQTT_HOST: '127.0.0.1',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
};

async function start(): Promise<App> {
  const config = loadConfig(env);
  const app = await buildApp({ config, database: openDatabase(config), logger: false, sms: null });
  await app.ready();
  return app;
}
const mqttUrl = (app: App) => `mqtt://127.0.0.1:${app.mqtt.port}`;

function fleet(url: string, prefix: string, count: number, mode: 'burst' | 'steady'): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(node, [path.join(import.meta.dirname, 'breaker-fleet.ts'), url, prefix, String(count), PASSWORD, '5000', String(LINES), mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`fleet exited ${code}`)));
  });
  ready.catch(() => {});
  return { child, ready };
}
async function stopFleet(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
const online = async (app: App, prefix: string) =>
  Number(
    (
      await app.database.db
        .selectFrom('breakers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('online', '=', 1)
        .where('uuid', 'like', `${prefix}-%`)
        .executeTakeFirstOrThrow()
    ).n,
  );

if (!preparing) {
  const r = spawnSync(node, [import.meta.filename, 'prepare', dataDir], { stdio: 'inherit', env: process.env });
  if (r.status !== 0) throw new Error(`prepare exited ${r.status}`);
}
// 1. Register both fleets and connect them once (limits synced, as a running site), then stop them.
if (preparing) {
  const app = await start();
  const inject = (p: string, token: string, payload: object) => app.inject({ method: 'POST', url: API_PREFIX + p, headers: { 'x-token': token }, payload });
  const token = (await inject('/user/login', '', { username: 'bench', password: 'bench123' })).json().data.token as string;
  await inject('/company/create', token, { name: 'Bench Co', phone: '1' });
  const t0 = performance.now();
  for (const [prefix, n] of [
    ['FLEET', N],
    ['OLD', BASE_N],
  ] as const) {
    for (let i = 1; i <= n; i++) {
      const r = await inject('/breaker/create', token, { uuid: `${prefix}-${String(i).padStart(5, '0')}`, sort: i, linenum: LINES, password: PASSWORD });
      if (r.json().code !== 20000) throw new Error(r.body);
    }
    const f = fleet(mqttUrl(app), prefix, n, 'steady');
    await f.ready;
    while ((await online(app, prefix)) < n) await new Promise((r) => setTimeout(r, 200));
    await stopFleet(f.child);
  }
  console.log(`\n  (registered and connected ${N} + ${BASE_N} breakers once in ${fmt((performance.now() - t0) / 1000)} s)`);
  await app.close();
}
// The baseline fleet's stored hash: scrypt at the user-password cost, as before.
if (preparing) {
  const config = loadConfig(env);
  const database = openDatabase(config);
  const old = await hashPassword(PASSWORD, 17);
  await database.db.updateTable('breakers').set({ password_hash: old }).where('uuid', 'like', 'OLD-%').execute();
  await database.close();
  process.exit(0);
}

interface Run {
  label: string;
  n: number;
  at: Record<number, number>;
  allMs: number | null;
  cpuPct: number;
  growthMb: number;
}
async function burst(label: string, prefix: string, n: number): Promise<Run> {
  const app = await start(); // a restart: nothing in memory
  await new Promise((r) => setTimeout(r, 500));
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const f = fleet(mqttUrl(app), prefix, n, 'burst');
  const at: Record<number, number> = {};
  let allMs: number | null = null;
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const ms = performance.now() - t0;
    const c = await online(app, prefix);
    for (const s of [10, 20, 30]) if (ms >= s * 1000 && at[s] === undefined) at[s] = c;
    if (c >= n) {
      allMs = ms;
      for (const s of [10, 20, 30]) at[s] ??= c;
      break;
    }
    if (ms > LIMIT_MS) break;
  }
  const s = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  await stopFleet(f.child);
  // A server still deep in password hashes may take long to close: the figures are taken already.
  await Promise.race([app.close(), new Promise((r) => setTimeout(r, 20_000).unref())]);
  return { label, n, at, allMs, cpuPct: ((cpu.user + cpu.system) / 1e6 / s) * 100, growthMb: (peak - base) / 1024 / 1024 };
}

console.log(`\nA fleet dialling at once after a server restart (${LINES} lines each; ${os.cpus().length} cores; cap ${LIMIT_MS / 1000} s)\n`);
const print = (r: Run) =>
  console.log(
    `  ${r.label.padEnd(58)} online @10 s ${String(r.at[10] ?? '-').padStart(5)}  @20 s ${String(r.at[20] ?? '-').padStart(5)}  @30 s ${String(r.at[30] ?? '-').padStart(5)}   all ${r.allMs === null ? `not within ${LIMIT_MS / 1000} s` : `${fmt(r.allMs / 1000)} s`}   CPU ${fmt(r.cpuPct, 0).padStart(3)} %   memory +${fmt(r.growthMb, 0)} MB`,
  );
const runs: Run[] = [];
for (const [label, prefix, n] of [
  // the server first, so its memory is measured from a process the baseline's scrypt buffers never grew
  [`server: ${N} breakers, HMAC-stored secrets`, 'FLEET', N],
  [`baseline: ${BASE_N} breakers, scrypt-stored (N=2^17), as before`, 'OLD', BASE_N],
] as const) {
  const r = await burst(label, prefix, n);
  print(r);
  runs.push(r);
}
const target = runs[0]!;
const pass = target.allMs !== null && target.allMs <= 30_000 && target.growthMb < 200;
console.log(`\n  target (all ${N} online within 30 s, memory growth < 200 MB): ${pass ? 'met' : 'NOT met'}\n`);
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
