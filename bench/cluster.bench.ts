/**
 * Several instances behind nginx (issue #21), one run, printed figures. Two deployments of docs/deploy.md run at once
 * on this machine, each with its own throwaway PostgreSQL and Debian's nginx with the shipped configuration: one with
 * a single instance, one with two. Rounds alternate between them (the machine is shared: medians of alternating
 * rounds, not one long run each):
 * - punch ingestion: ZK PUSH ATTLOG uploads (single punches, BENCH_CONCURRENCY in flight) through nginx;
 *   target: two instances ≥ 1.6× one;
 * - door-open latency: POST /device/open (click to result) with the terminal polling the same instance as the click,
 *   and across two (the click on one instance, the terminal polling the other).
 *
 *   BENCH_ROUNDS (5), BENCH_REQUESTS (3000 per round), BENCH_CONCURRENCY (32), BENCH_DOORS (20 per case)
 */
import { Agent } from 'undici';
import { startNginxCluster, type RunningCluster } from '../e2e/lib/cluster.ts';
import { createTerminal, type Terminal } from '../tools/zk-emulator/terminal.ts';
import { fmt, percentile } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const DOORS = Number(process.env.BENCH_DOORS ?? 20);
const ADMIN = { username: 'admin', password: 'Bench-pass-1' };
const dispatcher = new Agent({ connections: CONCURRENCY, pipelining: 1, keepAliveTimeout: 10_000 });

interface Deployment {
  name: string;
  cluster: RunningCluster;
  token: string;
  deviceId: number;
  stamp: number;
}

async function api<T>(base: string, token: string, path: string, body: unknown): Promise<T> {
  const r = await fetch(`${base}/api/management${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-token': token, 'x-lang': 'en-US' },
    body: JSON.stringify(body),
  });
  const j = (await r.json()) as { code: number; message: string; data: T };
  if (j.code !== 20000) throw new Error(`${path}: ${j.code} ${j.message}`);
  return j.data;
}

async function deploy(name: string, count: number): Promise<Deployment> {
  const cluster = await startNginxCluster(ADMIN, { DEVICE_POLL_SECONDS: '1', LOG_LEVEL: 'error' }, count);
  const { token } = await api<{ token: string }>(cluster.baseUrl, '', '/user/login', ADMIN);
  await api(cluster.baseUrl, token, '/company/create', { name: `Bench ${name}`, phone: '010-1234567' });
  const d = await api<{ id: number }>(cluster.baseUrl, token, '/device/create', { name: 'Gate', serial: 'BENCHGATE', ip: '10.0.0.1', password: 'x' });
  // the terminal calls in once, so the server knows it (its punches are then taken)
  const t = createTerminal({ server: cluster.baseUrl, sn: 'BENCHGATE', pollMs: 1000, retryMs: 500 });
  await t.start();
  await t.stop();
  return { name, cluster, token, deviceId: d.id, stamp: 0 };
}

const stampOf = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString().slice(0, 19).replace('T', ' ');

/** Single-punch uploads through nginx: punches/s (each request one punch, acknowledged once committed). */
async function ingest(d: Deployment): Promise<number> {
  let next = 0;
  const start = d.stamp;
  d.stamp += REQUESTS;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (;;) {
        const i = next++;
        if (i >= REQUESTS) return;
        const res = await fetch(`${d.cluster.baseUrl}/iclock/cdata?SN=BENCHGATE&table=ATTLOG&Stamp=${start + i}`, {
          method: 'POST',
          body: `${1000 + (i % 500)}\t${stampOf(start + i)}\t0\t15\t0\t0\t0`,
          dispatcher,
        });
        const text = await res.text();
        if (res.status !== 200 || !text.startsWith('OK')) throw new Error(`upload: ${res.status} ${text.slice(0, 80)}`);
      }
    }),
  );
  return REQUESTS / ((performance.now() - t0) / 1000);
}

/** Door opens clicked on `clickOn` with the terminal polling `terminalOn` every 100 ms: click-to-result latencies (ms). */
async function doors(d: Deployment, clickOn: string, terminalOn: string): Promise<number[]> {
  const term: Terminal = createTerminal({ server: terminalOn, sn: 'BENCHGATE', pollMs: 100, retryMs: 200 });
  await term.start();
  const lat: number[] = [];
  try {
    for (let i = 0; i < DOORS; i++) {
      const t0 = performance.now();
      const r = await api<{ state: string }>(clickOn, d.token, '/device/open', { id: d.deviceId });
      if (r.state !== 'success') throw new Error(`door open: ${r.state}`);
      lat.push(performance.now() - t0);
    }
  } finally {
    await term.stop();
  }
  return lat;
}

const median = (xs: number[]) => percentile(xs, 50);

const one = await deploy('one instance', 1);
const two = await deploy('two instances', 2);
try {
  const rates = { one: [] as number[], two: [] as number[] };
  await ingest(one);
  await ingest(two); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    // alternate which goes first, so neither always meets a warmer or colder machine
    const order = r % 2 === 0 ? [one, two] : [two, one];
    for (const d of order) (d === one ? rates.one : rates.two).push(await ingest(d));
  }
  const m1 = median(rates.one);
  const m2 = median(rates.two);
  console.log(
    `database: postgresql (a cluster each), nginx in front, ${ROUNDS} alternating rounds × ${REQUESTS} single-punch uploads, ${CONCURRENCY} in flight`,
  );
  console.log(`punch ingestion through nginx, one instance:  median ${fmt(m1, 0)} punches/s  (rounds ${rates.one.map((x) => fmt(x, 0)).join(', ')})`);
  console.log(`punch ingestion through nginx, two instances: median ${fmt(m2, 0)} punches/s  (rounds ${rates.two.map((x) => fmt(x, 0)).join(', ')})`);
  console.log(
    `two / one: ${fmt(m2 / m1, 2)}×  (target ≥ 1.6×; this machine has ${(await import('node:os')).availableParallelism()} cores for PostgreSQL, nginx, the instances and this load generator together)`,
  );

  const [a, b] = two.cluster.servers.map((s) => s.baseUrl) as [string, string];
  const same = await doors(two, a, a);
  const across = await doors(two, a, b);
  const line = (what: string, xs: number[]) =>
    console.log(
      `door open, ${what}: median ${fmt(median(xs), 0)} ms, p95 ${fmt(percentile(xs, 95), 0)} ms (${xs.length} opens, terminal polling every 100 ms)`,
    );
  line('click and terminal on one instance', same);
  line('click on one instance, terminal polling the other', across);
} finally {
  await one.cluster.stop();
  await two.cluster.stop();
  await dispatcher.close();
}
