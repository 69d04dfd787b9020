/**
 * Breakers over MQTT (issue #12), one run, printed figures:
 *  - baseline: a bare aedes broker (no authentication, no ingestion) carrying the same fleet's reports;
 *  - the server: its embedded broker with per-device authentication and ACL, and the ingestion of every report
 *    (live figures + raw samples), from BENCH_BREAKERS (1,000) breakers reporting every BENCH_REPORT_MS (5 s);
 *    then the same fleet reporting ten times as often, to show the headroom;
 *  - the latency from a switch request (POST /breaker/line/switch) to the breaker's confirmation, p50 / p99.
 * The fleet runs in a child process (breaker-fleet.ts), so CPU and memory are the server's (or the broker's).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { Aedes } from 'aedes';
import { benchServer, fmt, percentile } from './lib.ts';

const N = Number(process.env.BENCH_BREAKERS ?? 1000);
const REPORT_MS = Number(process.env.BENCH_REPORT_MS ?? 5000);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 20_000);
const SWITCHES = Number(process.env.BENCH_SWITCHES ?? 300);
const LINES = 2;
const PASSWORD = 'bench-breaker-pw';
const node = process.execPath;

function fleet(url: string, prefix: string, reportMs: number): Promise<ChildProcess> {
  const child = spawn(node, [path.join(import.meta.dirname, 'breaker-fleet.ts'), url, prefix, String(N), PASSWORD, String(reportMs), String(LINES)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`fleet exited ${code}`)));
  });
}
async function stopFleet(child: ChildProcess) {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Counts over a window: messages, CPU (% of one core) and resident memory of this process. */
async function window(count: () => number) {
  const c0 = count();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let rss = process.memoryUsage().rss;
  const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 250);
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  clearInterval(sampler);
  const s = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { perS: (count() - c0) / s, cpuPct: ((cpu.user + cpu.system) / 1e6 / s) * 100, rssMb: rss / 1024 / 1024 };
}

const expected = (reportMs: number) => (N * 1000) / reportMs;
const row = (label: string, w: { perS: number; cpuPct: number; rssMb: number }, unit: string) =>
  console.log(`  ${label.padEnd(58)} ${fmt(w.perS).padStart(8)} ${unit}   CPU ${fmt(w.cpuPct).padStart(5)} %   RSS ${fmt(w.rssMb, 0).padStart(4)} MB`);

console.log(
  `\nBreakers over MQTT: ${N} emulated breakers × ${LINES} lines, NotifyStatus every ${REPORT_MS} ms (offered ${fmt(expected(REPORT_MS))} msg/s); ${WINDOW_MS / 1000} s windows\n`,
);

// Baseline: a bare broker, one in-process subscriber counting what arrives.
{
  const broker = new Aedes();
  await broker.listen();
  let received = 0;
  broker.on('publish', (packet, client) => {
    if (client && packet.topic.endsWith('/events/rpc')) received++;
  });
  const server = net.createServer(broker.handle as (s: net.Socket) => void);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const child = await fleet(url, 'BASE', REPORT_MS);
  row('baseline: bare aedes broker, no auth, no ingestion', await window(() => received), 'msg/s');
  await stopFleet(child);
  await new Promise<void>((r) => broker.close(() => r()));
  await new Promise<void>((r) => server.close(() => r()));
}

const s = await benchServer();
const db = s.app.database.db;
const t0 = performance.now();
for (let i = 1; i <= N; i++) {
  const r = await s.api('/breaker/create', { uuid: `BENCH-${String(i).padStart(5, '0')}`, sort: i, linenum: LINES, password: PASSWORD });
  if (r.json().code !== 20000) throw new Error(r.body);
}
console.log(`  (registered ${N} breakers in ${fmt((performance.now() - t0) / 1000)} s)`);
const url = `mqtt://127.0.0.1:${s.app.mqtt.port}`;
const samples = async () =>
  Number(
    (
      await db
        .selectFrom('breaker_samples')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
let stored = await samples();
const poll = setInterval(() => void samples().then((n) => (stored = n)), 500);
const received = () => s.app.mqtt.stats.received;

for (const reportMs of [REPORT_MS, REPORT_MS / 10]) {
  const tc = performance.now();
  const child = await fleet(url, 'BENCH', reportMs);
  for (;;) {
    const online = Number(
      (
        await db
          .selectFrom('breakers')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('online', '=', 1)
          .executeTakeFirstOrThrow()
      ).n,
    );
    if (online === N) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  if (reportMs === REPORT_MS) console.log(`  (${N} breakers connected and resynced in ${fmt((performance.now() - tc) / 1000)} s)`);
  await new Promise((r) => setTimeout(r, 2000));
  const offered = expected(reportMs);
  row(`server: frames received, reports every ${reportMs} ms (offered ${fmt(offered, 0)}/s)`, await window(received), 'msg/s');
  row(`server: line readings stored (2 per frame)`, await window(() => stored), 'rows/s');
  if (reportMs === REPORT_MS) {
    // Switch latency: request → breaker's confirmation → answer, one at a time, under the 5-s report load.
    const lines = await db.selectFrom('breaker_lines').select('id').orderBy('id').limit(SWITCHES).execute();
    const lat: number[] = [];
    for (const [i, l] of lines.entries()) {
      const t = performance.now();
      const r = await s.api('/breaker/line/switch', { id: l.id, oc: i % 2 });
      const body = r.json();
      if (body.data?.outcome !== 'success') throw new Error(r.body);
      lat.push(performance.now() - t);
    }
    console.log(
      `  switch request → breaker confirmation (${lat.length} sequential)            p50 ${fmt(percentile(lat, 50), 2)} ms   p99 ${fmt(percentile(lat, 99), 2)} ms   max ${fmt(Math.max(...lat), 2)} ms`,
    );
  }
  await stopFleet(child);
  await new Promise((r) => setTimeout(r, 1000));
}
clearInterval(poll);
console.log(`  dropped: ${JSON.stringify(s.app.mqtt.stats.dropped)}; refused: ${JSON.stringify(s.app.mqtt.stats.refused)}\n`);
await s.close();
process.exit(0);
