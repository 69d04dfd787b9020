/**
 * The growing fleet (issue #32, item 4): what BENCH_TERMINALS ZKTeco PUSH terminals cost one server instance while they
 * only poll (GET /iclock/getrequest with nothing to send back: the fleet at rest), each every BENCH_DELAY seconds as the
 * handshake's Delay tells it (5,000 at 10 s: 500 polls/s). The server runs in a process of its own (the real
 * apps/server/src/main.ts, as the e2e journeys start it); this process is only the load generator. Polls are paced
 * open-loop, staggered evenly over the Delay, over a pool of keep-alive connections; a poll's latency runs from the
 * moment it was due, so a server that falls behind shows in p99 and not only in the rate.
 *
 * Figures, each beside a baseline taken in the same run: the same terminals, handshakes and poll schedule against a
 * bare Fastify process that answers "OK" on the same two routes.
 *   - polls/s achieved against the schedule's rate, p50/p99 poll latency;
 *   - server CPU per poll (ms), and what the same server uses idle over the same time (no polls), per second;
 *   - database writes per poll: rows the server inserted, updated or deleted during the run, and statements that
 *     did so. On SQLite the server process loads this file first (--import, ZK_FLEET_ROLE=count) and counts what
 *     node:sqlite's statements change, per table; on PostgreSQL (DATABASE_URL) the n_tup_ins/upd/del deltas of
 *     pg_stat_user_tables and the commits of pg_stat_database (read 1.5 s after each phase: an idle backend may
 *     report later, so the idle figure can hold the call-in's last writes; a statement outside a transaction counts
 *     as one commit there);
 *   - memory per terminal: the server's RSS growth from before the terminals' first call to after every one has
 *     called in and polled for the whole run, divided by their number.
 *
 *   npm run bench:zk-fleet -w @faceadmin/bench
 *   BENCH_TERMINALS (5000), BENCH_SECONDS (60: each of the two runs), BENCH_DELAY (10 s between a terminal's polls),
 *   BENCH_CONNECTIONS (64 keep-alive connections to each server), DATABASE_URL (an empty PostgreSQL database; SQLite
 *   in a fresh data directory otherwise).
 *
 * Target (issue #32): a poll must not write a row each time: heartbeat writes per poll well under 1 (a terminal's
 * last-seen time is worth a write every minute or so, not every 10 s), server CPU per poll near the bare baseline's.
 * Nothing is asserted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StatementSync, type SQLInputValue } from 'node:sqlite';
import { isMainThread } from 'node:worker_threads';
import Fastify from 'fastify';
import { Pool } from 'undici';

const ROLE = process.env.ZK_FLEET_ROLE;

/** What the SQLite statements of one process changed: statements and rows, per table. */
interface Writes {
  statements: number;
  rows: number;
  commits: number;
  tables: Record<string, { statements: number; rows: number }>;
}

/** In the server process (preloaded with --import): counts the writes of node:sqlite and writes them out on SIGUSR2. */
function countWrites(file: string) {
  const counts: Writes = { statements: 0, rows: 0, commits: 0, tables: {} };
  const kinds = new Map<string, string | null>();
  const tableOf = (sql: string) => {
    let t = kinds.get(sql);
    if (t === undefined) {
      const m = /^\s*(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from|replace\s+into)\s+"?([\w]+)"?/i.exec(sql);
      t = m ? m[1]! : /^\s*commit/i.test(sql) ? 'COMMIT' : null;
      kinds.set(sql, t);
    }
    return t;
  };
  const add = (sql: string, rows: number) => {
    const t = tableOf(sql);
    if (t === null) return;
    if (t === 'COMMIT') {
      counts.commits++;
      return;
    }
    counts.statements++;
    counts.rows += rows;
    const e = (counts.tables[t] ??= { statements: 0, rows: 0 });
    e.statements++;
    e.rows += rows;
  };
  const proto = StatementSync.prototype;
  const run = proto.run;
  const all = proto.all;
  proto.run = function (this: StatementSync, ...args: SQLInputValue[]) {
    const r = run.apply(this, args as never);
    add(this.sourceSQL, Number(r.changes));
    return r;
  } as typeof run;
  proto.all = function (this: StatementSync, ...args: SQLInputValue[]) {
    const r = all.apply(this, args as never);
    // INSERT … RETURNING is read as rows: one per row written
    add(this.sourceSQL, r.length);
    return r;
  } as typeof all;
  // written whole, then renamed into place: the bench never reads a file half written
  process.on('SIGUSR2', () => {
    fs.writeFileSync(`${file}.part`, JSON.stringify({ at: process.hrtime.bigint().toString(), counts }));
    fs.renameSync(`${file}.part`, file);
  });
}

/** The baseline: a bare Fastify process answering the handshake and the polls with "OK", as the gateway answers an idle terminal. */
async function bareServer() {
  const app = Fastify();
  const ok = async (_req: unknown, reply: { type(t: string): { send(b: string): unknown } }) => reply.type('text/plain; charset=utf-8').send('OK');
  app.get('/iclock/cdata', ok);
  app.get('/iclock/getrequest', ok);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  console.log(typeof address === 'object' && address ? address.port : 0);
}

if (ROLE === 'count') {
  if (isMainThread) countWrites(process.env.ZK_FLEET_COUNTS!);
} else if (ROLE === 'baseline') {
  await bareServer();
} else {
  await main();
}

async function main() {
  const { api, cpuMs, fmt, machine, percentile } = await import('./lib.ts');
  const { startServer } = await import('../e2e/lib/server.ts');
  const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 5000);
  const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
  const DELAY = Number(process.env.BENCH_DELAY ?? 10);
  const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
  const IDLE_MS = 10_000;
  const PG = process.env.DATABASE_URL;
  const ADMIN = { username: 'admin', password: 'Bench-pass-1' };
  const serials = Array.from({ length: TERMINALS }, (_, i) => `ZKF${String(i).padStart(5, '0')}`);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

  /** `n` jobs, `c` at a time. */
  async function inTurn(n: number, c: number, job: (i: number) => Promise<void>) {
    let next = 0;
    await Promise.all(
      Array.from({ length: c }, async () => {
        for (let i = next++; i < n; i = next++) await job(i);
      }),
    );
  }

  /** One GET through the pool: status and text. */
  async function get(pool: Pool, p: string) {
    const res = await pool.request({ method: 'GET', path: p });
    return { status: res.statusCode, text: await res.body.text() };
  }

  /** Commands in a poll's reply are answered as done (the INFO every handshake queues): the fleet then rests. */
  async function answer(pool: Pool, sn: string, text: string) {
    const ids = [...text.matchAll(/^C:(\d+):(\S+)/gm)].map((m) => `ID=${m[1]}&Return=0&CMD=${m[2]}`);
    if (!ids.length) return 0;
    const res = await pool.request({ method: 'POST', path: `/iclock/devicecmd?SN=${sn}`, body: ids.join('\n') });
    await res.body.text();
    return ids.length;
  }

  /** Every terminal calls in: the handshake, then polls until nothing is waiting for it (a fleet that has settled). */
  async function callIn(pool: Pool) {
    await inTurn(TERMINALS, 16, async (i) => {
      const sn = serials[i]!;
      const hs = await get(pool, `/iclock/cdata?SN=${sn}&options=all&language=69&pushver=2.4.1`);
      if (hs.status !== 200) throw new Error(`handshake ${sn}: ${hs.status} ${hs.text.slice(0, 80)}`);
      for (let k = 0; k < 5; k++) {
        const poll = await get(pool, `/iclock/getrequest?SN=${sn}`);
        if (poll.status !== 200) throw new Error(`poll ${sn}: ${poll.status} ${poll.text.slice(0, 80)}`);
        if (!(await answer(pool, sn, poll.text))) break;
      }
    });
  }

  interface Run {
    polls: number;
    rate: number;
    lat: number[];
    cpuMs: number;
    busy: number;
    commands: number;
    late: number;
  }
  /** SECONDS of the fleet's polls on their schedule: poll j is terminal j % TERMINALS's, due at j × DELAY / TERMINALS. */
  async function fleet(pool: Pool, pid: number): Promise<Run> {
    const stepMs = (DELAY * 1000) / TERMINALS;
    const total = Math.floor((SECONDS * 1000) / stepMs);
    const lat: number[] = [];
    const inflight = new Set<Promise<void>>();
    let commands = 0;
    let late = 0;
    const cpu0 = cpuMs(pid);
    const m0 = machine();
    const t0 = performance.now();
    let j = 0;
    let lastDone = t0;
    while (j < total) {
      const now = performance.now();
      for (; j < total && t0 + j * stepMs <= now; j++) {
        const due = t0 + j * stepMs;
        if (now - due > 50) late++;
        const sn = serials[j % TERMINALS]!;
        const p = get(pool, `/iclock/getrequest?SN=${sn}`).then(async (r) => {
          if (r.status !== 200) throw new Error(`poll ${sn}: ${r.status} ${r.text.slice(0, 80)}`);
          lastDone = performance.now();
          lat.push(lastDone - due);
          if (r.text !== 'OK') commands += await answer(pool, sn, r.text);
        });
        inflight.add(p);
        void p.finally(() => inflight.delete(p));
      }
      await sleep(Math.max(1, Math.min(10, t0 + j * stepMs - performance.now())));
    }
    await Promise.all(inflight);
    const m1 = machine();
    return {
      polls: total,
      rate: total / ((lastDone - t0) / 1000),
      lat,
      cpuMs: cpuMs(pid) - cpu0,
      busy: (m1.busy - m0.busy) / Math.max(1, m1.total - m0.total),
      commands,
      late,
    };
  }

  // --- the real server, with its writes counted
  const countsFile = path.join(os.tmpdir(), `zk-fleet-${process.pid}.json`);
  const server = await startServer(ADMIN, {
    LOG_LEVEL: 'error',
    DEVICE_POLL_SECONDS: String(DELAY),
    ZK_FLEET_ROLE: 'count',
    ZK_FLEET_COUNTS: countsFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${import.meta.filename}`.trim(),
  });
  let baseline: ChildProcess | undefined;
  const pools: Pool[] = [];
  try {
    /** The database writes so far: SQLite through the preloaded counter, PostgreSQL from its statistics. */
    let pgStats: (() => Promise<Writes>) | undefined;
    let pgEnd: (() => Promise<void>) | undefined;
    if (PG) {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: PG });
      await client.connect();
      pgEnd = () => client.end();
      pgStats = async () => {
        // a busy backend reports its counts at most every second (an idle one only within 10 s, but a longer wait here
        // leaves the first terminals silent past the offline limit, and the sweep's writes then land in the figures)
        await sleep(1500);
        const t = await client.query<{ relname: string; n: string; writes: string }>(
          `select relname, (n_tup_ins + n_tup_upd + n_tup_del)::text as n, '0' as writes from pg_stat_user_tables`,
        );
        const c = await client.query<{ n: string }>(`select xact_commit::text as n from pg_stat_database where datname = current_database()`);
        const tables = Object.fromEntries(t.rows.map((r) => [r.relname, { statements: 0, rows: Number(r.n) }]));
        return { statements: 0, rows: t.rows.reduce((a, r) => a + Number(r.n), 0), commits: Number(c.rows[0]!.n), tables };
      };
    }
    let seq = 0;
    async function writes(): Promise<Writes> {
      if (pgStats) return pgStats();
      const before = fs.existsSync(countsFile) ? fs.readFileSync(countsFile, 'utf8') : '';
      process.kill(server.pid, 'SIGUSR2');
      seq++;
      for (let k = 0; k < 200; k++) {
        await sleep(5);
        if (fs.existsSync(countsFile)) {
          const text = fs.readFileSync(countsFile, 'utf8');
          if (text !== before) return (JSON.parse(text) as { counts: Writes }).counts;
        }
      }
      throw new Error(`the server did not report its writes (SIGUSR2 ${seq})`);
    }
    const minus = (a: Writes, b: Writes): Writes => ({
      statements: a.statements - b.statements,
      rows: a.rows - b.rows,
      commits: a.commits - b.commits,
      tables: Object.fromEntries(
        Object.entries(a.tables)
          .map(([k, v]) => [k, { statements: v.statements - (b.tables[k]?.statements ?? 0), rows: v.rows - (b.tables[k]?.rows ?? 0) }] as const)
          .filter(([, v]) => v.rows || v.statements),
      ),
    });

    const { token } = await api<{ token: string }>(server.baseUrl, '', '/user/login', ADMIN);
    await api(server.baseUrl, token, '/company/create', { name: 'Bench fleet', phone: '010-1234567' });
    const tc = performance.now();
    await inTurn(TERMINALS, 8, async (i) => {
      await api(server.baseUrl, token, '/device/create', { name: serials[i], serial: serials[i], ip: '10.0.0.1', password: 'x', tz_offset: 0 });
    });
    console.log(`${TERMINALS} terminals registered through /device/create in ${fmt((performance.now() - tc) / 1000, 1)} s`);

    const pool = new Pool(server.baseUrl, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 60_000 });
    pools.push(pool);
    await sleep(2000);
    const rss0 = rssMb(server.pid);
    const ti = performance.now();
    await callIn(pool);
    const callInS = (performance.now() - ti) / 1000;
    const rssIn = rssMb(server.pid);

    // idle: the same server, every terminal known, no polls
    await sleep(1000);
    const w0 = await writes();
    const idle0 = cpuMs(server.pid);
    await sleep(IDLE_MS);
    const idleMsPerS = (cpuMs(server.pid) - idle0) / (IDLE_MS / 1000);
    const w1 = await writes();
    const run = await fleet(pool, server.pid);
    const w2 = await writes();
    const rss1 = rssMb(server.pid);
    const idleW = minus(w1, w0);
    const runW = minus(w2, w1);
    await pool.close();
    pools.length = 0;
    await pgEnd?.();

    // --- the baseline: a bare Fastify process, the same terminals and schedule
    const child = spawn(process.execPath, [import.meta.filename], { env: { ...process.env, ZK_FLEET_ROLE: 'baseline' }, stdio: ['ignore', 'pipe', 'inherit'] });
    baseline = child;
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      child.once('exit', (code) => reject(new Error(`baseline exited with ${code}`)));
    });
    const bpool = new Pool(`http://127.0.0.1:${port}`, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 60_000 });
    pools.push(bpool);
    await sleep(1000);
    const brss0 = rssMb(child.pid!);
    await callIn(bpool);
    const bidle0 = cpuMs(child.pid!);
    await sleep(IDLE_MS);
    const bidleMsPerS = (cpuMs(child.pid!) - bidle0) / (IDLE_MS / 1000);
    const base = await fleet(bpool, child.pid!);
    const brss1 = rssMb(child.pid!);

    const target = TERMINALS / DELAY;
    const line = (name: string, r: Run, idle: number) =>
      `${name}: ${fmt(r.rate, 0)} polls/s of ${fmt(target, 0)} scheduled (${r.polls} polls; ${r.late} sent over 50 ms late), ` +
      `p50 ${fmt(percentile(r.lat, 50), 2)} ms, p99 ${fmt(percentile(r.lat, 99), 2)} ms; ` +
      `CPU ${fmt(r.cpuMs / r.polls, 3)} ms per poll (${fmt(r.cpuMs / SECONDS / 10, 1)}% of a core; idle ${fmt(idle / 10, 1)}% of a core, ` +
      `so ${fmt((r.cpuMs - idle * SECONDS) / r.polls, 3)} ms per poll above idle); machine ${fmt(r.busy * 100, 0)}% busy`;
    console.log(
      `database: ${PG ? 'postgresql' : 'sqlite'}; ${TERMINALS} terminals polling every ${DELAY} s, ${SECONDS} s per run, ` +
        `${CONNECTIONS} keep-alive connections, ${os.availableParallelism()} cores; all called in within ${fmt(callInS, 1)} s`,
    );
    console.log(line('baseline bare Fastify "OK"', base, bidleMsPerS));
    console.log(line('server /iclock/getrequest ', run, idleMsPerS));
    if (run.commands) console.log(`  (${run.commands} commands came back in polls and were answered as done)`);
    const tables = (w: Writes) =>
      Object.entries(w.tables)
        .sort((a, b) => b[1].rows - a[1].rows)
        .map(([k, v]) => `${k} ${v.rows}${PG ? '' : ` (${v.statements} statements)`}`)
        .join(', ') || 'none';
    console.log(
      `writes during the run: ${runW.rows} rows${PG ? '' : ` by ${runW.statements} statements`}, ${runW.commits} transactions committed: ` +
        `${fmt(runW.rows / run.polls, 3)} rows per poll (baseline: 0, it has no database; target: well under 1); by table: ${tables(runW)}`,
    );
    console.log(`writes while idle (${IDLE_MS / 1000} s, no polls): ${idleW.rows} rows, ${idleW.commits} transactions committed; by table: ${tables(idleW)}`);
    console.log(
      `memory: server RSS ${fmt(rss0, 0)} MB before the first call, ${fmt(rssIn, 0)} MB when all had called in, ${fmt(rss1, 0)} MB after the run: ` +
        `${fmt(((rss1 - rss0) * 1024) / TERMINALS, 1)} KB per terminal; baseline ${fmt(brss0, 0)} → ${fmt(brss1, 0)} MB: ` +
        `${fmt(((brss1 - brss0) * 1024) / TERMINALS, 1)} KB per terminal`,
    );
  } finally {
    for (const p of pools) await p.close().catch(() => undefined);
    baseline?.kill();
    await server.stop();
    fs.rmSync(countsFile, { force: true });
  }
}
