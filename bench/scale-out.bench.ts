/**
 * Scale-out (issue #32, item 2): punches through nginx with 1, 2 and 4 instances, each instance held to a CPU quota of
 * its own, so the instances are the bottleneck and not the machine they share. One PostgreSQL, four instances on it
 * (each with its own DATA_DIR and a shared DEVICE_SECRET_KEY, as docs/deploy.md runs them on separate machines), and
 * three nginx fronts with the shipped configuration: one before the first instance, one before the first two, one
 * before all four. PostgreSQL, nginx and this load generator run outside the quotas. Rounds alternate between the
 * fronts (medians of alternating rounds: the machine is shared).
 *
 * The quota is a cgroup's CPU bandwidth (v1 `cpu.cfs_quota_us` under /sys/fs/cgroup/cpu, or v2 `cpu.max`), written
 * directly: needs root and a writable cgroup mount; the bench says so and stops otherwise. Its period is 20 ms rather
 * than the kernel's 100 ms: an instance held to 15 ms of every 100 stood still for 85 ms at a time, and four of them
 * made waits of 1.6 s (p99) that no machine of that size would show.
 *
 * Load: ZK PUSH ATTLOG uploads of one live punch each (taken now, by a PIN the company does not know: a stranger, so
 * the live stream and its alarm are sent and no attendance is computed), from BENCH_TERMINALS terminals in turn,
 * growing with the instances (as a fleet that needs more instances sends more): BENCH_CONCURRENCY in flight and
 * BENCH_REQUESTS a round per instance. Beside each rate: each instance's CPU use as a share of its quota and how often
 * the kernel throttled it (an instance at its quota is the bottleneck, as intended), the CPU time per punch, and the
 * machine's busy share (near 100%, the machine and not the instances would be what limits).
 *
 *   npm run bench:scale-out -w @faceadmin/bench
 *   BENCH_QUOTA (15: % of one core per instance), BENCH_PERIOD_MS (20), BENCH_ROUNDS (5), BENCH_REQUESTS (1000 per
 *   instance and round), BENCH_CONCURRENCY (16 in flight per instance), BENCH_TERMINALS (20);
 *   BENCH_ONLY=0|1|2 runs only the rounds of that front (1, 2 or 4 instances) and prints each round as JSON (to compare
 *   two versions of the server, alternating runs); BENCH_PROF_DIR=<folder> has every instance write a CPU profile
 *   there when it stops (count samples rather than time: a throttled process's sampler stands still with it).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { findPgBin, startCluster } from '../apps/server/scripts/pg-cluster.ts';
import { startNginx, type NginxFront } from '../e2e/lib/cluster.ts';
import { startServer, type RunningServer } from '../e2e/lib/server.ts';
import { createTerminal } from '../tools/zk-emulator/terminal.ts';
import { api, cpuMs, fmt, machine, percentile } from './lib.ts';

const QUOTA = Number(process.env.BENCH_QUOTA ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 20);
const COUNTS = [1, 2, 4] as const;
const ADMIN = { username: 'admin', password: 'Bench-pass-1' };
const PERIOD_US = Number(process.env.BENCH_PERIOD_MS ?? 20) * 1000;
const IDLE_MS = 10_000;

/** A CPU quota for one process, through whichever cgroup mount this machine has. */
interface Quota {
  /** CPU time the group has been throttled for so far (ms) and how many periods it hit the quota in */
  throttled(): { ms: number; periods: number };
  remove(): void;
}

function cgroupQuota(name: string, pid: number, percent: number): Quota {
  const quotaUs = Math.round((PERIOD_US * percent) / 100);
  const v1 = '/sys/fs/cgroup/cpu';
  const v2 = fs.existsSync('/sys/fs/cgroup/cgroup.controllers') ? '/sys/fs/cgroup' : '/sys/fs/cgroup/unified';
  let dir: string;
  let write: () => void;
  let stat: (s: Record<string, number>) => { ms: number; periods: number };
  if (fs.existsSync(path.join(v1, 'cpu.cfs_quota_us'))) {
    dir = path.join(v1, name);
    fs.mkdirSync(dir, { recursive: true });
    write = () => {
      fs.writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quotaUs));
    };
    stat = (s) => ({ ms: (s.throttled_time ?? 0) / 1e6, periods: s.nr_throttled ?? 0 });
  } else if (fs.readFileSync(path.join(v2, 'cgroup.controllers'), 'utf8').includes('cpu')) {
    dir = path.join(v2, name);
    fs.mkdirSync(dir, { recursive: true });
    write = () => fs.writeFileSync(path.join(dir, 'cpu.max'), `${quotaUs} ${PERIOD_US}`);
    stat = (s) => ({ ms: (s.throttled_usec ?? 0) / 1e3, periods: s.nr_throttled ?? 0 });
  } else {
    throw new Error('no cgroup CPU controller to write to');
  }
  try {
    write();
    fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
  } catch (e) {
    fs.rmdirSync(dir);
    throw e;
  }
  return {
    throttled() {
      const s = Object.fromEntries(
        fs
          .readFileSync(path.join(dir, 'cpu.stat'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => l.split(' '))
          .map(([k, v]) => [k!, Number(v)]),
      );
      return stat(s);
    },
    remove() {
      // the process has exited by now (an empty group can go)
      try {
        fs.rmdirSync(dir);
      } catch {
        // still in use: left for the machine's next boot
      }
    },
  };
}

interface Round {
  rate: number;
  /** per instance in the front: CPU used during the round as a share of its quota */
  ofQuota: number[];
  /** per instance in the front: periods in which the kernel throttled it */
  throttled: number[];
  /** the machine's busy share during the round */
  busy: number;
  p99: number;
  /** CPU time the members spent per punch (ms), and the instances outside the front (the bus: they only listen) */
  msPerPunch: number;
  othersMsPerPunch: number;
}

const bin = findPgBin();
if (!bin) throw new Error('PostgreSQL binaries not found (npm test installs postgresql)');
const pg = await startCluster(bin);
const servers: RunningServer[] = [];
const quotas: Quota[] = [];
const fronts: NginxFront[] = [];
const pools: Pool[] = [];
try {
  const shared = {
    DATABASE_URL: pg.url,
    DEVICE_SECRET_KEY: randomBytes(32).toString('base64'),
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'error',
    ...(process.env.BENCH_PROF_DIR ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROF_DIR}` } : {}),
  };
  for (let i = 0; i < 4; i++) servers.push(await startServer(ADMIN, shared));
  for (const n of COUNTS) fronts.push(await startNginx(servers.slice(0, n).map((s) => new URL(s.baseUrl).host)));
  const base = fronts[2]!.baseUrl;
  const { token } = await api<{ token: string }>(base, '', '/user/login', ADMIN);
  await api(base, token, '/company/create', { name: 'Bench scale-out', phone: '010-1234567' });
  const serials = Array.from({ length: TERMINALS }, (_, i) => `SCALE${String(i).padStart(3, '0')}`);
  for (const sn of serials) {
    // on UTC, so the bench's punch times are the terminal's local times
    await api(base, token, '/device/create', { name: sn, serial: sn, ip: '10.0.0.1', password: 'x', tz_offset: 0 });
    // each terminal calls in once, so the server knows it (its punches are then taken)
    const t = createTerminal({ server: base, sn, pollMs: 1000, retryMs: 500 });
    await t.start();
    await t.stop();
  }
  // the quotas go on after the start (migrations and the first sign-in run at full speed)
  try {
    servers.forEach((s, i) => quotas.push(cgroupQuota(`faceadmin-scale-${process.pid}-${i}`, s.pid, QUOTA)));
  } catch (e) {
    console.error(`cannot give each instance a CPU quota here (${(e as Error).message}): run as root on a machine with a writable cgroup mount`);
    process.exitCode = 1;
    throw e;
  }
  COUNTS.forEach((n, k) => pools.push(new Pool(fronts[k]!.baseUrl, { connections: CONCURRENCY * n, pipelining: 1, keepAliveTimeout: 10_000 })));

  /** uploads sent so far (each one's Stamp and PIN) */
  let stamp = 0;
  /** A live punch: taken now (the terminal's clock is right), by a PIN of its own (every upload stores one new row). */
  const lineOf = (i: number) => `${100_000 + i}\t${new Date().toISOString().slice(0, 19).replace('T', ' ')}\t0\t15\t0\t0\t0`;
  /** One round through front `k` (1, 2 or 4 instances): single-punch uploads, each acknowledged once committed. */
  async function round(k: number): Promise<Round> {
    const members = servers.slice(0, COUNTS[k]);
    const pool = pools[k]!;
    // the load grows with the fleet: per instance, the same uploads in flight and in a round
    const requests = REQUESTS * members.length;
    const start = stamp;
    stamp += requests;
    let next = 0;
    const lat: number[] = [];
    const cpu0 = members.map((s) => cpuMs(s.pid));
    const others = servers.slice(members.length);
    const others0 = others.map((s) => cpuMs(s.pid));
    const thr0 = quotas.slice(0, members.length).map((q) => q.throttled().periods);
    const m0 = machine();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY * members.length }, async () => {
        for (;;) {
          const i = next++;
          if (i >= requests) return;
          const s = performance.now();
          const res = await pool.request({
            method: 'POST',
            path: `/iclock/cdata?SN=${serials[i % TERMINALS]}&table=ATTLOG&Stamp=${start + i}`,
            body: lineOf(start + i),
          });
          const text = await res.body.text();
          if (res.statusCode !== 200 || !text.startsWith('OK')) throw new Error(`upload: ${res.statusCode} ${text.slice(0, 80)}`);
          lat.push(performance.now() - s);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const m1 = machine();
    const used = members.map((s, i) => cpuMs(s.pid) - cpu0[i]!);
    return {
      rate: requests / seconds,
      msPerPunch: used.reduce((a, b) => a + b, 0) / requests,
      othersMsPerPunch: others.reduce((a, s, i) => a + cpuMs(s.pid) - others0[i]!, 0) / requests,
      ofQuota: used.map((ms) => ms / (seconds * 1000) / (QUOTA / 100)),
      throttled: quotas.slice(0, members.length).map((q, i) => q.throttled().periods - thr0[i]!),
      busy: (m1.busy - m0.busy) / Math.max(1, m1.total - m0.total),
      p99: percentile(lat, 99),
    };
  }

  // what an instance spends with nothing to do (timers, jobs, the bus's listener): taken from its quota too
  const idle0 = servers.map((s) => cpuMs(s.pid));
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const idle = servers.map((s, i) => (cpuMs(s.pid) - idle0[i]!) / IDLE_MS);
  if (process.env.BENCH_ONLY) {
    const k = Number(process.env.BENCH_ONLY);
    if (!(k in COUNTS)) throw new Error(`BENCH_ONLY: 0, 1 or 2 (the front of 1, 2 or 4 instances), not ${process.env.BENCH_ONLY}`);
    for (let r = 0; r < ROUNDS; r++) console.log(JSON.stringify(await round(k)));
  } else {
    for (let k = 0; k < COUNTS.length; k++) await round(k); // warm-up
    const rounds: Round[][] = COUNTS.map(() => []);
    for (let r = 0; r < ROUNDS; r++) {
      // rotate which front goes first, so none always meets a warmer or colder machine
      for (let j = 0; j < COUNTS.length; j++) {
        const k = (j + r) % COUNTS.length;
        rounds[k]!.push(await round(k));
      }
    }
    const median = (xs: number[]) => percentile(xs, 50);
    const rates = rounds.map((rs) => median(rs.map((x) => x.rate)));
    console.log(
      `database: postgresql, nginx in front, each instance held to ${QUOTA}% of one core (cgroup CPU quota), ${os.availableParallelism()} cores; ` +
        `${ROUNDS} alternating rounds × ${REQUESTS} single-punch uploads per instance from ${TERMINALS} terminals, ${CONCURRENCY} in flight per instance`,
    );
    console.log(`idle, each instance used ${idle.map((x) => fmt(x * 100, 1)).join(', ')}% of one core (over ${IDLE_MS / 1000} s)`);
    rounds.forEach((rs, k) => {
      const ofQuota = median(rs.map((x) => x.ofQuota.reduce((a, b) => a + b, 0) / x.ofQuota.length));
      console.log(
        `${COUNTS[k]} instance${COUNTS[k] === 1 ? ' ' : 's'}: median ${fmt(rates[k]!, 0)} punches/s (rounds ${rs.map((x) => fmt(x.rate, 0)).join(', ')}); ` +
          `p99 ${fmt(median(rs.map((x) => x.p99)), 0)} ms; instances at ${fmt(ofQuota * 100, 0)}% of their quota, ` +
          `throttled in ${fmt(median(rs.map((x) => x.throttled.reduce((a, b) => a + b, 0))), 0)} periods a round; ` +
          `${fmt(median(rs.map((x) => x.msPerPunch)), 2)} ms CPU per punch in the front, ${fmt(median(rs.map((x) => x.othersMsPerPunch)), 2)} ms in the instances outside it; ` +
          `machine ${fmt(median(rs.map((x) => x.busy)) * 100, 0)}% busy`,
      );
    });
    console.log(`two / one: ${fmt(rates[1]! / rates[0]!, 2)}× (target ≥ 1.8×); four / one: ${fmt(rates[2]! / rates[0]!, 2)}× (target ≥ 3.4×)`);
  }
} finally {
  // each step on its own: one that fails leaves the others to run (a cgroup left behind outlives the bench)
  const steps = [...pools.map((p) => () => p.close()), ...fronts.map((f) => () => f.stop()), ...servers.map((s) => () => s.stop())];
  for (const step of steps) await step().catch((e: unknown) => console.error(e));
  for (const q of quotas) q.remove();
  pg.stop();
}
