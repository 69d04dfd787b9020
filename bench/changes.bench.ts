/**
 * The changes feed (issue #28, docs/api-integrations.md §changes): an integrator catching up pages through a million
 * changes (target: under 60 s). A million stored punches with their change rows are written straight into the
 * database, then read back through `GET /integration/changes` 1,000 at a time, each page as JSON with every punch
 * as its webhook shows it; beside it, in the same process, the baseline: the same pages read with one SQL statement
 * each (the changes joined to their punches, no presenting), the floor any feed of this data stands on.
 * BENCH_CHANGES sets the count (default 1,000,000).
 */
import { transaction } from '../apps/server/src/db/transaction.ts';
import { nowIso, utcToLocal } from '../apps/server/src/lib/time.ts';
import { newPersonRow } from '../apps/server/src/modules/persons/persons.repository.ts';
import { benchServer, fmt } from './lib.ts';

const N = Number(process.env.BENCH_CHANGES ?? 1_000_000);
const PAGE = 1000;

const { app, api, companyId, close } = await benchServer({ device: 'BENCH1' });
const { db } = app.database;
const ok = async (r: Awaited<ReturnType<typeof api>>) => {
  const body = r.json<{ code: number; message: string; data: any }>();
  if (body.code !== 20000) throw new Error(body.message);
  return body.data;
};
await ok(await api('/company/update', { name: 'Bench Co', phone: '1', options: { thirdParty: 1 } }));
const dept = (await ok(await api('/org/create', { name: 'Staff' }))).id as number;
const device = await db.selectFrom('devices').select(['id', 'tz_offset']).where('serial', '=', 'BENCH1').executeTakeFirstOrThrow();
const people = await transaction(db, async (trx) => {
  const rows = Array.from({ length: 500 }, (_, i) => ({
    ...newPersonRow({ number: String(1000 + i), name: `Staff ${i}`, phone: '1', photo: '', created_at: nowIso() }),
    company_id: companyId,
    search: '',
  }));
  const ids = await trx.insertInto('persons').values(rows).returning(['id', 'number']).execute();
  await trx
    .insertInto('person_departments')
    .values(ids.map((r) => ({ company_id: companyId, person_id: r.id, department_id: dept })))
    .execute();
  return ids;
});

// A million punches (one a second of device time, 500 people) and their changes, as a month of a busy site.
let t0 = performance.now();
const start = Date.now() - N * 1000;
const at = nowIso();
for (let i = 0; i < N; i += 5000) {
  await transaction(db, async (trx) => {
    const n = Math.min(5000, N - i);
    for (let j = 0; j < n; j += 1000) {
      const rows = Array.from({ length: Math.min(1000, n - j) }, (_, k) => {
        const x = i + j + k;
        const ms = start + x * 1000;
        const p = people[x % people.length]!;
        return {
          company_id: companyId,
          device_id: device.id,
          person_id: p.id,
          pin: p.number,
          local_time: utcToLocal(new Date(ms).toISOString(), device.tz_offset),
          time: new Date(ms).toISOString(),
          status: 0,
          verify: 15,
          workcode: '',
          photo: '',
          stranger: 0,
          created_at: at,
        };
      });
      const ids = await trx.insertInto('punches').values(rows).returning('id').execute();
      await trx
        .insertInto('changes')
        .values(ids.map((r, k) => ({ company_id: companyId, seq: i + j + k + 1, kind: 'punch', ref: r.id, date: '', at })))
        .execute();
    }
  });
}
await db.insertInto('change_counters').values({ company_id: companyId, seq: N }).execute();
console.log(`seeded ${N} punches and changes in ${fmt((performance.now() - t0) / 1000)} s (${app.database.dialect})`);

// The baseline: each page as one statement, rows as the driver gives them.
t0 = performance.now();
let cursor = 0;
let rows = 0;
for (;;) {
  const page = await db
    .selectFrom('changes as c')
    .innerJoin('punches as p', 'p.id', 'c.ref')
    .selectAll('p')
    .select(['c.seq'])
    .where('c.company_id', '=', companyId)
    .where('c.seq', '>', cursor)
    .orderBy('c.seq')
    .limit(PAGE)
    .execute();
  if (!page.length) break;
  rows += page.length;
  cursor = page[page.length - 1]!.seq;
}
const baseline = (performance.now() - t0) / 1000;

// The feed as an integrator reads it: every page through the route, answered as JSON.
t0 = performance.now();
let feed = 0;
let next: string | undefined;
let pages = 0;
for (;;) {
  const data = (await ok(await api(`/integration/changes?limit=${PAGE}${next ? `&cursor=${next}` : ''}`))) as {
    items: unknown[];
    cursor: string;
    more: boolean;
  };
  feed += data.items.length;
  next = data.cursor;
  pages++;
  if (!data.more) break;
}
const seconds = (performance.now() - t0) / 1000;
if (feed !== N || rows !== N) throw new Error(`read ${feed} changes and ${rows} rows of ${N}`);
console.log(`baseline (one SQL statement a page, ${PAGE} rows)  ${fmt(baseline)} s  ${fmt(N / baseline / 1000)}k rows/s`);
console.log(`GET /integration/changes (${pages} pages of ${PAGE})  ${fmt(seconds)} s  ${fmt(N / seconds / 1000)}k changes/s  (target: ${N} in under 60 s)`);
await close();
