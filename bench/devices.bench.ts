/**
 * Device benchmarks (issue 4), one run, printed figures (targets in the issue: single-punch ≥ 50% of the
 * baseline with p99 < 50 ms; batches ≥ 40k punches/s; a 10k-person roster with photos synced at the
 * protocol's pace, not the server's). Everything runs on loopback, in this process. The punch figures
 * (bare-Fastify baseline, single punches, batches of 50) are measured here only when wrk is not installed:
 * with wrk, wrk.bench.ts measures them with the load generator in its own process.
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import sharp from 'sharp';
import { Agent } from 'undici';
import { nowIso } from '../apps/server/src/lib/time.ts';
import { newPersonRow } from '../apps/server/src/modules/persons/persons.repository.ts';
import { photoStore } from '../apps/server/src/modules/persons/photos.ts';
import { createTerminal } from '../tools/zk-emulator/terminal.ts';
import { benchServer, fmt, hasWrk, percentile, punchCount } from './lib.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROSTER = Number(process.env.BENCH_ROSTER ?? 10_000);
const dispatcher = new Agent({ connections: CONCURRENCY, pipelining: 1, keepAliveTimeout: 10_000 });

/** Fires `n` requests with `c` in flight; returns requests/s and per-request latencies (ms). */
async function load(n: number, c: number, make: (i: number) => { url: string; body?: string; method?: string }) {
  const lat: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: c }, async () => {
      for (;;) {
        const i = next++;
        if (i >= n) return;
        const r = make(i);
        const s = performance.now();
        const res = await fetch(r.url, { method: r.method ?? (r.body ? 'POST' : 'GET'), body: r.body, dispatcher });
        const text = await res.text();
        lat.push(performance.now() - s);
        if (res.status !== 200) throw new Error(`${r.url}: ${res.status} ${text.slice(0, 100)}`);
      }
    }),
  );
  return { rps: n / ((performance.now() - t0) / 1000), lat };
}

/** Bare Fastify "hello world" on this machine: the baseline of the punch figures. */
async function baseline() {
  const hello = Fastify();
  hello.get('/', async () => 'hello');
  await hello.listen({ port: 0, host: '127.0.0.1' });
  const helloUrl = `http://127.0.0.1:${(hello.server.address() as AddressInfo).port}/`;
  await load(500, CONCURRENCY, () => ({ url: helloUrl }));
  const base = await load(REQUESTS, CONCURRENCY, () => ({ url: helloUrl }));
  await hello.close();
  return base;
}

// 1. Baseline, unless wrk.bench.ts measures the punch figures out of process.
const base = hasWrk() ? undefined : await baseline();

// 2. The real server, with one registered terminal for the punch figures.
const { app, url, companyId, api, close } = await benchServer(base ? { device: 'BENCH1' } : { listen: true });
if (base) {
  const stamp = (i: number) => {
    const d = new Date(Date.UTC(2026, 0, 1) + i * 1000);
    return d.toISOString().slice(0, 19).replace('T', ' ');
  };
  const single = await load(REQUESTS, CONCURRENCY, (i) => ({
    url: `${url}/iclock/cdata?SN=BENCH1&table=ATTLOG&Stamp=${i}`,
    body: `${1000 + (i % 500)}\t${stamp(i)}\t0\t15\t0\t0\t0`,
  }));
  const BATCHES = Math.max(200, Math.floor(REQUESTS / 4));
  const batch = await load(BATCHES, 8, (b) => ({
    url: `${url}/iclock/cdata?SN=BENCH1&table=ATTLOG&Stamp=${b}`,
    body: Array.from({ length: 50 }, (_, k) => `${2000 + k}\t${stamp(10_000_000 + b * 50 + k)}\t0\t15\t0\t0\t0`).join('\n'),
  }));
  const stored = await punchCount(app);

  console.log(`database: ${app.database.dialect}; ${REQUESTS} requests, ${CONCURRENCY} in flight, loopback HTTP`);
  console.log(
    `baseline bare Fastify hello-world  ${fmt(base.rps, 0)} req/s  p50 ${fmt(percentile(base.lat, 50), 2)} ms  p99 ${fmt(percentile(base.lat, 99), 2)} ms`,
  );
  console.log(
    `single-punch POST /iclock/cdata     ${fmt(single.rps, 0)} req/s  p50 ${fmt(percentile(single.lat, 50), 2)} ms  p99 ${fmt(percentile(single.lat, 99), 2)} ms  (${fmt((100 * single.rps) / base.rps, 0)}% of baseline; target ≥ 50%, p99 < 50 ms)`,
  );
  console.log(
    `backlog batches of 50 punches        ${fmt(batch.rps * 50, 0)} punches/s  (${fmt(batch.rps, 0)} req/s, p99 ${fmt(percentile(batch.lat, 99), 2)} ms; target ≥ 40k/s)`,
  );
  console.log(`punches stored: ${stored} (expected ${REQUESTS + BATCHES * 50}: every upload committed before its OK)`);
} else {
  console.log(`database: ${app.database.dialect}; punch figures: wrk.bench.ts (wrk is installed)`);
}

// 3. Roster: ROSTER people with face photos onto one emulated terminal.
const face = await sharp({ create: { width: 480, height: 640, channels: 3, background: { r: 200, g: 170, b: 150 } } })
  .composite([
    {
      input: Buffer.from(
        '<svg width="480" height="640"><ellipse cx="240" cy="300" rx="150" ry="200" fill="#e9c4a6"/><circle cx="190" cy="270" r="14"/><circle cx="290" cy="270" r="14"/></svg>',
      ),
    },
  ])
  .jpeg({ quality: 85 })
  .toBuffer();
// faces are only written and read here: every one counts as held (none is ever released)
const photos = photoStore(app.files, undefined, async (_company, names) => new Set(names));
const now = nowIso();
const dept = (await api('/org/create', { name: 'Roster' })).json().data.id as number;
await app.database.db.transaction().execute(async (trx) => {
  for (let start = 0; start < ROSTER; start += 500) {
    const rows = [];
    for (let i = start; i < Math.min(ROSTER, start + 500); i++) {
      rows.push({
        ...newPersonRow({ number: String(500000 + i), name: `Roster ${i}`, phone: '1', photo: await photos.save(companyId, face), created_at: now }),
        company_id: companyId,
        search: '',
      });
    }
    const ids = await trx.insertInto('persons').values(rows).returning('id').execute();
    await trx
      .insertInto('person_departments')
      .values(ids.map((r) => ({ company_id: companyId, person_id: r.id, department_id: dept })))
      .execute();
  }
});
await api('/device/create', { name: 'Roster door', serial: 'ROSTER1', ip: '127.0.0.1', password: 'x', capacity: ROSTER + 10 });
const t0 = performance.now();
const rosterDevice = (await app.database.db.selectFrom('devices').select('id').where('serial', '=', 'ROSTER1').executeTakeFirstOrThrow()).id;
await api('/device/persons/add', { id: rosterDevice, department_ids: [dept] });
const assignMs = performance.now() - t0;
let polls = 0;
const term = createTerminal({
  server: url,
  sn: 'ROSTER1',
  pollMs: 0,
  retryMs: 50,
  capacity: ROSTER + 10,
  timezone: 8,
  onEvent: (e) => void (e.type === 'poll' && polls++),
});
const t1 = performance.now();
await term.start();
for (;;) {
  const r = await app.database.db
    .selectFrom('device_persons')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('device_id', '=', rosterDevice)
    .where('state', '=', 'synced')
    .executeTakeFirstOrThrow();
  if (Number(r.n) >= ROSTER) break;
  await new Promise((res) => setTimeout(res, 200));
}
const syncMs = performance.now() - t1;
await term.stop();
const commands = await app.database.db
  .selectFrom('device_commands')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .where('device_id', '=', rosterDevice)
  .executeTakeFirstOrThrow();
const perPoll = ROSTER / Math.max(1, polls);
console.log(
  `roster: ${ROSTER} people with ${fmt(face.length / 1024)} KB faces assigned in ${fmt(assignMs, 0)} ms; synced to an emulated terminal polling back-to-back in ${fmt(syncMs / 1000, 1)} s (${fmt(ROSTER / (syncMs / 1000), 0)} people/s, ${polls} polls, ~${fmt(perPoll, 0)} people per reply, ${Number(commands.n)} commands)`,
);
console.log(`  the time a terminal polling every 10 s takes for it (full replies, asked again at once): resync.bench.ts`);
console.log(`  emulator holds ${term.users.size} users and ${term.photos.size} faces`);
await close();
await dispatcher.close();
