/**
 * Webhooks versus punch ingestion (issue #19): a delivery never slows the write that caused it. One server, one
 * terminal posting single punches (as devices.bench.ts does), measured in alternating rounds: with no webhook, and
 * with 3 endpoints subscribed to every event and pointing at a local receiver that answers after 2 s. Printed side by
 * side (target: within 5%). The PINs belong to 500 registered people, so each upload is one `punch` event. The punches are fresh (their time is now), so each one is published and, with the
 * endpoints, written to the outbox in the ingest's transaction; the webhook job works in the same process meanwhile.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { WEBHOOK_EVENTS } from '@faceadmin/shared';
import { transaction } from '../apps/server/src/db/transaction.ts';
import { nowIso, utcToLocal } from '../apps/server/src/lib/time.ts';
import { newPersonRow } from '../apps/server/src/modules/persons/persons.repository.ts';
import { benchServer, fmt, percentile } from './lib.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RECEIVER_DELAY_MS = 2000;
const dispatcher = new Agent({ connections: CONCURRENCY, pipelining: 1, keepAliveTimeout: 10_000 });

// The customer's receiver: answers every delivery after 2 s.
let received = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    setTimeout(() => res.writeHead(200).end('ok'), RECEIVER_DELAY_MS);
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const { app, url, api, companyId, close } = await benchServer({ device: 'BENCH1' });
// The people behind PINs 1000–1499, so each upload is a punch (one event), as at a real door.
const dept = (await api('/org/create', { name: 'Staff' })).json().data.id as number;
await transaction(app.database.db, async (trx) => {
  const rows = Array.from({ length: 500 }, (_, i) => ({
    ...newPersonRow({ number: String(1000 + i), name: `Staff ${i}`, phone: '1', photo: '', created_at: nowIso() }),
    company_id: companyId,
    search: '',
  }));
  const ids = await trx.insertInto('persons').values(rows).returning('id').execute();
  await trx
    .insertInto('person_departments')
    .values(ids.map((r) => ({ company_id: companyId, person_id: r.id, department_id: dept })))
    .execute();
});
const device = await app.database.db.selectFrom('devices').select(['tz_offset']).where('serial', '=', 'BENCH1').executeTakeFirstOrThrow();
const ok = async (r: Awaited<ReturnType<typeof api>>) => {
  const body = r.json<{ code: number; message: string; data: any }>();
  if (body.code !== 20000) throw new Error(body.message);
  return body.data;
};
await ok(await api('/company/update', { name: 'Bench Co', phone: '1', options: { thirdParty: 1 } }));

// Every request is one fresh punch: 500 PINs per second of device time, counting back from now.
const start = Date.now() - 5 * 60_000;
let seq = 0;
const stamp = (i: number) => utcToLocal(new Date(start + Math.floor(i / 500) * 1000).toISOString(), device.tz_offset);

async function load(n: number) {
  const lat: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (;;) {
        if (next >= n) return;
        next++;
        const i = seq++;
        const s = performance.now();
        const res = await fetch(`${url}/iclock/cdata?SN=BENCH1&table=ATTLOG&Stamp=${i}`, {
          method: 'POST',
          body: `${1000 + (i % 500)}\t${stamp(i)}\t0\t15\t0\t0\t0`,
          dispatcher,
        });
        const text = await res.text();
        lat.push(performance.now() - s);
        if (res.status !== 200 || !text.startsWith('OK')) throw new Error(`${res.status} ${text.slice(0, 100)}`);
      }
    }),
  );
  return { rps: n / ((performance.now() - t0) / 1000), lat };
}

let hooks: number[] = [];
async function setHooks(on: boolean) {
  for (const id of hooks) await ok(await api('/integration/webhook/delete', { id }));
  hooks = [];
  if (on)
    for (let k = 0; k < 3; k++)
      hooks.push((await ok(await api('/integration/webhook/create', { name: `Bench hook ${k}`, url: receiverUrl, events: [...WEBHOOK_EVENTS] }))).id);
}
const count = async (table: 'webhook_outbox' | 'webhook_deliveries') =>
  Number(
    (
      await app.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

await load(500); // warm-up
const results: Record<'none' | 'hooks', { rps: number; lat: number[] }[]> = { none: [], hooks: [] };
let deliveriesMade = 0;
for (let r = 0; r < ROUNDS; r++) {
  for (const variant of ['none', 'hooks'] as const) {
    await setHooks(variant === 'hooks');
    const before = await count('webhook_deliveries');
    results[variant].push(await load(REQUESTS));
    deliveriesMade += (await count('webhook_deliveries')) - before;
  }
}
const outboxLeft = await count('webhook_outbox');
await setHooks(false);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const line = (name: string, rs: { rps: number; lat: number[] }[]) => {
  const lat = rs.flatMap((x) => x.lat);
  return {
    rps: median(rs.map((x) => x.rps)),
    text: `${name.padEnd(38)} ${fmt(median(rs.map((x) => x.rps)), 0).padStart(6)} punches/s (rounds: ${rs.map((x) => fmt(x.rps, 0)).join(', ')})  p50 ${fmt(percentile(lat, 50), 2)} ms  p99 ${fmt(percentile(lat, 99), 2)} ms`,
  };
};
const none = line('ingestion, no webhook', results.none);
const withHooks = line('ingestion, 3 webhooks (receiver 2 s)', results.hooks);
console.log(`database: ${app.database.dialect}; ${ROUNDS} alternating rounds of ${REQUESTS} single-punch uploads, ${CONCURRENCY} in flight, loopback HTTP`);
console.log(none.text);
console.log(withHooks.text);
console.log(`difference: ${fmt(((withHooks.rps - none.rps) / none.rps) * 100, 1)}% (target: within 5%)`);
console.log(
  `during the webhook rounds: ${deliveriesMade} deliveries queued, ${received} posts answered by the receiver, ${outboxLeft} outbox rows not yet fanned out`,
);

await close();
receiver.close();
await dispatcher.close();
