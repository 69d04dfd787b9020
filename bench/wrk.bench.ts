/**
 * The device benchmark with wrk (Debian package `wrk`) as the load generator in its own process, so the
 * client does not share the server's CPU: bare Fastify baseline, single-punch POSTs, batches of 50.
 * Prints figures; needs `wrk` on PATH.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { benchServer, fmt, hasWrk, percentile, punchCount } from './lib.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Baseline and punch runs alternate this many times; medians are printed (this machine's speed drifts within minutes). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONCURRENCY ?? 32);
/** A second load: many terminals at once, each with a request open. */
const MANY = Number(process.env.BENCH_MANY ?? 256);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-wrk-'));

/** Runs wrk in the background (so this process keeps serving) and parses req/s and the latency distribution. */
async function wrk(url: string, script?: string, connections = CONNECTIONS): Promise<{ rps: number; p50: number; p99: number }> {
  const args = ['-t1', `-c${connections}`, `-d${SECONDS}s`, '--latency', ...(script ? ['-s', script] : []), url];
  const out = await new Promise<string>((resolve, reject) => {
    const p = spawn('wrk', args);
    let text = '';
    p.stdout.on('data', (c: Buffer) => (text += c.toString()));
    p.on('error', reject);
    p.on('close', () => resolve(text));
  });
  const ms = (label: string) => {
    const m = new RegExp(`\\s${label}\\s+([\\d.]+)(us|ms|s)`).exec(out);
    if (!m) return NaN;
    const v = Number(m[1]);
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
  };
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN), p50: ms('50%'), p99: ms('99%') };
}

if (!hasWrk()) {
  console.log('wrk is not installed (apt-get install wrk): skipping the out-of-process load test');
  process.exit(0);
}
// The baseline, and (for reference) the same bare server answering a POST with a punch-sized body:
// reading a request body costs Node and the kernel more than a whole GET.
const hello = Fastify();
hello.get('/', async () => 'hello');
hello.removeAllContentTypeParsers();
hello.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
hello.post('/iclock/cdata', async (_req, reply) => reply.type('text/plain; charset=utf-8').send('OK: 1'));
await hello.listen({ port: 0, host: '127.0.0.1' });
const helloUrl = `http://127.0.0.1:${(hello.server.address() as AddressInfo).port}`;

const { app, url, close } = await benchServer({ device: 'WRK1' });

// Each request a new punch: the Lua counter walks the clock forward one second per request.
const single = path.join(dir, 'single.lua');
fs.writeFileSync(
  single,
  `counter = 0
request = function()
  counter = counter + 1
  local t = os.date("!%Y-%m-%d %H:%M:%S", 1767225600 + counter)
  return wrk.format("POST", "/iclock/cdata?SN=WRK1&table=ATTLOG&Stamp=" .. counter, nil, (1000 + counter % 500) .. "\\t" .. t .. "\\t0\\t15\\t0\\t0\\t0")
end`,
);
const batch = path.join(dir, 'batch.lua');
fs.writeFileSync(
  batch,
  `counter = 0
request = function()
  counter = counter + 1
  local lines = {}
  for k = 1, 50 do
    lines[k] = (2000 + k) .. "\\t" .. os.date("!%Y-%m-%d %H:%M:%S", 1800000000 + counter * 50 + k) .. "\\t0\\t15\\t0\\t0\\t0"
  end
  return wrk.format("POST", "/iclock/cdata?SN=WRK1&table=ATTLOG&Stamp=" .. counter, nil, table.concat(lines, "\\n"))
end`,
);
type Run = Awaited<ReturnType<typeof wrk>>;
const rounds: { base: Run; bareBody: Run; one: Run }[] = [];
for (let r = 0; r < ROUNDS; r++) rounds.push({ base: await wrk(`${helloUrl}/`), bareBody: await wrk(helloUrl, single), one: await wrk(url, single) });
const baseMany = await wrk(`${helloUrl}/`, undefined, MANY);
await hello.close();
const oneMany = await wrk(url, single, MANY);
const fifty = await wrk(url, batch);
const median = (xs: number[]) => percentile(xs, 50);
const pick = (k: 'base' | 'bareBody' | 'one') => ({
  rps: median(rounds.map((x) => x[k].rps)),
  p50: median(rounds.map((x) => x[k].p50)),
  p99: median(rounds.map((x) => x[k].p99)),
});
const base = pick('base');
const bareBody = pick('bareBody');
const one = pick('one');
const ratios = rounds.map((x) => (100 * x.one.rps) / x.base.rps);
const stored = await punchCount(app);
console.log(`wrk, 1 thread, ${CONNECTIONS} connections, ${SECONDS} s a run, medians of ${ROUNDS} alternating rounds; database ${app.database.dialect}`);
console.log(`baseline bare Fastify hello-world  ${fmt(base.rps, 0)} req/s  p50 ${fmt(base.p50, 2)} ms  p99 ${fmt(base.p99, 2)} ms`);
console.log(
  `  (bare Fastify POST, punch body     ${fmt(bareBody.rps, 0)} req/s = ${fmt((100 * bareBody.rps) / base.rps, 0)}% of baseline: the ceiling of any POST here)`,
);
console.log(
  `single-punch POST /iclock/cdata     ${fmt(one.rps, 0)} req/s  p50 ${fmt(one.p50, 2)} ms  p99 ${fmt(one.p99, 2)} ms  (${fmt(median(ratios), 0)}% of baseline, rounds ${ratios.map((x) => fmt(x, 0)).join('/')}%; target ≥ 50%, p99 < 50 ms)`,
);
console.log(
  `  with ${MANY} connections           ${fmt(oneMany.rps, 0)} req/s  p99 ${fmt(oneMany.p99, 2)} ms  (${fmt((100 * oneMany.rps) / baseMany.rps, 0)}% of hello-world at ${MANY}: ${fmt(baseMany.rps, 0)} req/s)`,
);
console.log(
  `backlog batches of 50 punches        ${fmt(fifty.rps * 50, 0)} punches/s  (${fmt(fifty.rps, 0)} req/s, p99 ${fmt(fifty.p99, 2)} ms; target ≥ 40k/s)`,
);
console.log(`punches stored: ${stored} (every acknowledged upload was committed first)`);
await close();
fs.rmSync(dir, { recursive: true, force: true });
