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
 * Beside each rate: how busy the whole machine was (on a machine whose cores one instance already keeps busy, a
 * second cannot add throughput). And what one instance's punches cost the other: every punch sent straight to the
 * first instance of two, the CPU time each spent per 1,000 punches (the bus, the live stream: the others' share of
 * the work, which is what would keep two instances from scaling on a machine with the cores to spare).
 *
 *   BENCH_ROUNDS (5), BENCH_REQUESTS (3000 per round), BENCH_CONCURRENCY (32), BENCH_DOORS (20 per case)
 */
import { Agent } from 'undici';
import { startNginxCluster, type RunningCluster } from '../e2e/lib/cluster.ts';
import { createTerminal, type Terminal } from '../tools/zk-emulator/terminal.ts';
import { api, cpuMs, fmt, machine, percentile } from './lib.ts';

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

interface Round {
  rate: number;
  /** each instance's CPU time per 1,000 punches of the round (ms) */
  cpuPerK: number[];
  /** share of the machine's CPU in use during the round */
  busy: number;
}

const stampOf = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString().slice(0, 19).replace('T', ' ');

/** Single-punch uploads through nginx: punches/s (each request one punch, acknowledged once committed), with CPU figures. */
async function ingest(d: Deployment, target = d.cluster.baseUrl): Promise<Round> {
  let next = 0;
  const start = d.stamp;
  d.stamp += REQUESTS;
  const pids = d.cluster.servers.map((s) => s.pid);
  const cpu0 = pids.map(cpuMs);
  const m0 = machine();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (;;) {
        const i = next++;
        if (i >= REQUESTS) return;
        const res = await fetch(`${target}/iclock/cdata?SN=BENCHGATE&table=ATTLOG&Stamp=${start + i}`, {
          method: 'POST',
          body: `${1000 + (i % 500)}\t${stampOf(start + i)}\t0\t15\t0\t0\t0`,
          dispatcher,
        });
        const text = await res.text();
        if (res.status !== 200 || !text.startsWith('OK')) throw new Error(`upload: ${res.status} ${text.slice(0, 80)}`);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const m1 = machine();
  const each = pids.map((p, i) => ((cpuMs(p) - cpu0[i]!) / REQUESTS) * 1000);
  return { rate: REQUESTS / seconds, cpuPerK: each, busy: (m1.busy - m0.busy) / Math.max(1, m1.total - m0.total) };
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
  const rounds = { one: [] as Round[], two: [] as Round[] };
  await ingest(one);
  await ingest(two); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    // alternate which goes first, so neither always meets a warmer or colder machine
    const order = r % 2 === 0 ? [one, two] : [two, one];
    for (const d of order) (d === one ? rounds.one : rounds.two).push(await ingest(d));
  }
  const m1 = median(rounds.one.map((x) => x.rate));
  const m2 = median(rounds.two.map((x) => x.rate));
  console.log(
    `database: postgresql (a cluster each), nginx in front, ${ROUNDS} alternating rounds × ${REQUESTS} single-punch uploads, ${CONCURRENCY} in flight`,
  );
  const row = (what: string, xs: Round[], m: number) =>
    console.log(
      `punch ingestion through nginx, ${what}: median ${fmt(m, 0)} punches/s  (rounds ${xs.map((x) => fmt(x.rate, 0)).join(', ')}); ` +
        `machine ${fmt(median(xs.map((x) => x.busy)) * 100, 0)}% busy`,
    );
  row('one instance ', rounds.one, m1);
  row('two instances', rounds.two, m2);
  console.log(
    `two / one: ${fmt(m2 / m1, 2)}×  (target ≥ 1.6×; this machine has ${(await import('node:os')).availableParallelism()} cores for PostgreSQL, nginx, the instances and this load generator together)`,
  );
  // What one instance's punches cost the other: all of them straight to the first instance of two.
  const direct: Round[] = [];
  for (let r = 0; r < ROUNDS; r++) direct.push(await ingest(two, two.cluster.servers[0]!.baseUrl));
  // Means over the rounds (the kernel counts CPU time in 10 ms ticks: one round's share of the other may be below one).
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const took = mean(direct.map((x) => x.cpuPerK[0]!));
  const other = mean(direct.map((x) => x.cpuPerK[1]!));
  console.log(
    `every punch to one instance of two (${ROUNDS} × ${REQUESTS}): it spends ${fmt(took, 0)} ms CPU per 1,000 punches, the other ${fmt(other, 1)} ms ` +
      `(${fmt((other / took) * 100, 1)}%: the bus and the live stream; what keeps two instances from doubling is the machine, not the work)`,
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
