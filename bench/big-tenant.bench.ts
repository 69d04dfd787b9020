/**
 * The big tenant (issue #32 item 3), one run, printed figures; asserts nothing.
 *
 * Two companies in one database: the big one, BENCH_PEOPLE (100,000) people in 1,000 departments (10 × 10 × 10),
 * a tenth with a face, 500 terminals; and the baseline, BENCH_SMALL (10,000) people on 50 terminals. Each person
 * punches twice a working day (Monday to Friday) for BENCH_DAYS (365) days up to yesterday, and has a day result
 * for every day of last month and this month so far. Then, for each company, BENCH_RUNS (30) rounds of the routes
 * the console calls, through HTTP on a loopback port, p50 / p99 and the ratio big ÷ small; and the xlsx exports of
 * every person and of last month's punches, streamed to nowhere: time, rows and the server's peak RSS growth.
 * Targets: every route p99 < 200 ms; an export's RSS growth < 150 MB; cost growing no faster than the data (10×).
 *
 * The data is written by set-based SQL (a day of punches per statement), with the punches' secondary indexes
 * dropped during the load and made again after it, as a bulk load does. On PostgreSQL: `DATABASE_URL=…`. The data
 * stays with `BENCH_DATA_DIR=…` (SQLite) or in the DATABASE_URL database; `BENCH_REUSE=1` measures it again without
 * writing it (to compare code before and after a change on the same data); `BENCH_EXPORTS=people` leaves out the punch
 * exports (a big month's take minutes), `BENCH_EXPORTS=small` the big company's.
 */
import { sql } from 'kysely';
import { API_PREFIX } from '../apps/server/src/lib/api.ts';
import { nowIso } from '../apps/server/src/lib/time.ts';
import { addDays } from '../apps/server/src/modules/attendance/plans.ts';
import { localDate } from '../apps/server/src/modules/attendance/recompute.service.ts';
import { newPersonRow } from '../apps/server/src/modules/persons/persons.repository.ts';
import { benchServer, fmt, percentile } from './lib.ts';

const BIG = Number(process.env.BENCH_PEOPLE ?? 100_000);
const SMALL = Number(process.env.BENCH_SMALL ?? 10_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const ZONE = 'Asia/Shanghai';
const ZONE_OFFSET_MIN = 8 * 60;
const started = performance.now();
const elapsed = () => `${fmt((performance.now() - started) / 1000, 0)} s`;

const { app, url, token, api, close } = await benchServer({ listen: true });
const db = app.database.db;
const pg = app.database.dialect === 'postgres';
const today = localDate(Date.now(), ZONE);
const yesterday = addDays(today, -1);
const monthOf = (d: string) => d.slice(0, 7);
const lastMonth = monthOf(addDays(`${monthOf(today)}-01`, -1));
const firstOfLastMonth = `${lastMonth}-01`;
const lastOfLastMonth = addDays(`${monthOf(today)}-01`, -1);
const weekday = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay();

interface Tenant {
  label: string;
  people: number;
  companyId: number;
  departments: number[];
  devices: number[];
  personIds: number[];
}

/** Departments 10 × 10 × 10 (or fewer for a small company), people spread over the leaves, terminals, a rule. */
async function makeTenant(label: string, people: number, terminals: number, companyId?: number): Promise<Tenant> {
  if (!companyId) companyId = (await api('/company/create', { name: label, phone: '1', time_zone: ZONE })).json().data.id as number;
  else await api('/company/update', { name: label, phone: '1', time_zone: ZONE });
  await api('/admin/setDefaultCompany', { company_id: companyId });
  const now = nowIso();
  const fan = people >= 100_000 ? 10 : 5;
  const departments: number[] = [];
  const tops: number[] = [];
  const leaves: number[] = [];
  const make = async (parent: number, depth: number, name: string) => {
    const row = await db
      .insertInto('departments')
      .values({ company_id: companyId, parent_id: parent, name, sort: 0, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    departments.push(row.id);
    if (depth === 0) tops.push(row.id);
    if (depth === 2) leaves.push(row.id);
    else for (let i = 0; i < fan; i++) await make(row.id, depth + 1, `${name}.${i}`);
  };
  for (let i = 0; i < fan; i++) await make(0, 0, `D${i}`);
  const devices: number[] = [];
  for (let i = 0; i < terminals; i++) {
    const r = await api('/device/create', {
      name: `Gate ${i}`,
      serial: `BIG${companyId}X${i}`,
      ip: '127.0.0.1',
      password: 'x',
      direction: i % 2 ? 'out' : 'in',
    });
    devices.push(r.json().data.id as number);
  }
  const personIds: number[] = [];
  for (let start = 0; start < people; start += 1000) {
    await db.transaction().execute(async (trx) => {
      const rows = Array.from({ length: Math.min(1000, people - start) }, (_, k) => {
        const i = start + k;
        const number = String(1_000_000 + i);
        const phone = `139${String(i).padStart(8, '0')}`;
        const row = newPersonRow({ number, name: `${label} Person ${i}`, phone, photo: i % 10 === 0 ? `face-${i}.jpg` : '', created_at: now });
        return { ...row, company_id: companyId, search: `${row.name} ${number} ${phone}`.toLowerCase() };
      });
      const made = await trx.insertInto('persons').values(rows).returning('id').execute();
      personIds.push(...made.map((r) => r.id));
      await trx
        .insertInto('person_departments')
        .values(made.map((r, k) => ({ company_id: companyId, person_id: r.id, department_id: leaves[(start + k) % leaves.length]! })))
        .execute();
    });
  }
  const rule = await api('/attendance/rule/create', {
    name: 'Office',
    mode: 'fixed',
    shifts: [{ key: 'd', name: 'Day', start: '09:00', end: '18:00', late_grace_min: 5 }],
    weekdays: { 0: [], 1: ['d'], 2: ['d'], 3: ['d'], 4: ['d'], 5: ['d'], 6: [] },
    person_ids: [],
    department_ids: tops,
  });
  if (rule.json().code !== 20000) throw new Error(rule.json().message);
  // the seeded results stand as written: nothing left for the recalculation job
  await db.deleteFrom('attendance_dirty').execute();
  return { label, people, companyId, departments, devices, personIds };
}

/** Two punches a working day for each person of the tenant, one statement per day. */
async function punchDays(t: Tenant): Promise<number> {
  // the terminals by index, for the statements to join
  await sql`delete from bench_devices`.execute(db);
  for (let i = 0; i < t.devices.length; i += 500)
    await db
      .insertInto('bench_devices' as never)
      .values(t.devices.slice(i, i + 500).map((id, k) => ({ idx: i + k, id })))
      .execute();
  const pairs = Math.floor(t.devices.length / 2);
  const created = nowIso();
  let total = 0;
  for (let d = DAYS; d >= 1; d--) {
    const date = addDays(today, -d);
    if (weekday(date) === 0 || weekday(date) === 6) continue;
    const seed = d * 13;
    // minute of the day: 08:50 or 18:05, ±10 minutes by person and day; the second by person
    const r = pg
      ? await sql`
          insert into punches (company_id, device_id, person_id, pin, local_time, time, status, verify, workcode, photo, stranger, created_at)
          select p.company_id, bd.id, p.id, p.number,
                 to_char(${date}::timestamp + (k.base + ((p.rn * 7 + ${seed}) % 21) - 10) * interval '1 minute' + (p.rn % 60) * interval '1 second', 'YYYY-MM-DD HH24:MI:SS'),
                 to_char(${date}::timestamp + (k.base + ((p.rn * 7 + ${seed}) % 21) - 10 - ${ZONE_OFFSET_MIN}) * interval '1 minute' + (p.rn % 60) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 0, 15, '', case when p.rn % 50 = 0 then 'cap.jpg' else '' end, 0, ${created}
          from (select id, company_id, number, row_number() over (order by id) as rn from persons where company_id = ${t.companyId}) p
          cross join (values (0, 530), (1, 1085)) as k(n, base)
          join bench_devices bd on bd.idx = (p.rn % ${pairs}) * 2 + k.n`.execute(db)
      : await sql`
          insert into punches (company_id, device_id, person_id, pin, local_time, time, status, verify, workcode, photo, stranger, created_at)
          select p.company_id, bd.id, p.id, p.number,
                 datetime(${date}, '+' || (k.base + ((p.rn * 7 + ${seed}) % 21) - 10) || ' minutes', '+' || (p.rn % 60) || ' seconds'),
                 strftime('%Y-%m-%dT%H:%M:%fZ', ${date}, '+' || (k.base + ((p.rn * 7 + ${seed}) % 21) - 10 - ${ZONE_OFFSET_MIN}) || ' minutes', '+' || (p.rn % 60) || ' seconds'),
                 0, 15, '', case when p.rn % 50 = 0 then 'cap.jpg' else '' end, 0, ${created}
          from (select id, company_id, number, row_number() over (order by id) as rn from persons where company_id = ${t.companyId}) p
          cross join (select 0 as n, 530 as base union all select 1, 1085) k
          join bench_devices bd on bd.idx = (p.rn % ${pairs}) * 2 + k.n`.execute(db);
    total += Number(r.numAffectedRows ?? 0);
  }
  return total;
}

/** A day result for every person and day of last month and this month up to today (today still open). */
async function dayResults(t: Tenant): Promise<number> {
  let total = 0;
  const created = nowIso();
  await db.deleteFrom('attendance_days').where('company_id', '=', t.companyId).execute();
  for (let date = firstOfLastMonth; date <= today; date = addDays(date, 1)) {
    const rest = weekday(date) === 0 || weekday(date) === 6;
    const r = await sql`
      insert into attendance_days (company_id, person_id, date, rule_id, status, late_min, computed_at)
      select company_id, id, ${date}, null,
             case when ${rest ? 1 : 0} = 1 then 'rest' when ${date === today ? 1 : 0} = 1 then 'pending'
                  else (case (id * 7 + ${date.length + Number(date.slice(8))}) % 10 when 5 then 'late' when 6 then 'early' when 7 then 'absent' when 8 then 'leave' when 9 then 'missingOut' else 'normal' end) end,
             case when (id * 7 + ${Number(date.slice(8))}) % 10 = 5 then 6 else 0 end, ${created}
      from persons where company_id = ${t.companyId}`.execute(db);
    total += Number(r.numAffectedRows ?? 0);
  }
  return total;
}

/** The punches' secondary indexes: dropped before the load, made again after it (the same definitions). */
async function punchIndexes(): Promise<string[]> {
  if (pg) {
    const r = await sql<{ name: string; def: string }>`
      select i.indexname as name, i.indexdef as def from pg_indexes i
      where i.tablename = 'punches' and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(db);
    for (const x of r.rows) await sql`drop index ${sql.id(x.name)}`.execute(db);
    return r.rows.map((x) => x.def);
  }
  const r = await sql<{
    name: string;
    def: string;
  }>`select name, sql as def from sqlite_master where type = 'index' and tbl_name = 'punches' and sql is not null`.execute(db);
  for (const x of r.rows) await sql`drop index ${sql.id(x.name)}`.execute(db);
  return r.rows.map((x) => x.def);
}

/** The tenant a run before made (BENCH_REUSE=1, on the same DATABASE_URL or BENCH_DATA_DIR), or undefined. */
async function madeBefore(label: string): Promise<Tenant | undefined> {
  const company = await db.selectFrom('companies').select('id').where('name', '=', label).executeTakeFirst();
  if (!company) return undefined;
  const companyId = company.id;
  const departments = (await db.selectFrom('departments').select('id').where('company_id', '=', companyId).orderBy('id').execute()).map((r) => r.id);
  const devices = (await db.selectFrom('devices').select('id').where('company_id', '=', companyId).orderBy('id').execute()).map((r) => r.id);
  const personIds = (await db.selectFrom('persons').select('id').where('company_id', '=', companyId).orderBy('id').limit(100).execute()).map((r) => r.id);
  const people = Number(
    (
      await db
        .selectFrom('persons')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow()
    ).n,
  );
  return { label, people, companyId, departments, devices, personIds };
}

// ---------------------------------------------------------------------------------------------------------------
console.log(`big tenant: ${BIG.toLocaleString('en')} and ${SMALL.toLocaleString('en')} people, ${DAYS} days, ${pg ? 'PostgreSQL' : 'SQLite'}`);
let small = process.env.BENCH_REUSE === '1' ? await madeBefore('Small') : undefined;
let big = small && (await madeBefore('Big'));
if (small && big) console.log(`  the data of a run before (${small.people.toLocaleString('en')} and ${big.people.toLocaleString('en')} people)\n`);
else {
  const firstCompany = (await api('/company/info')).json().data.id as number;
  small = await makeTenant('Small', SMALL, 50, firstCompany);
  big = await makeTenant('Big', BIG, 500);
  console.log(`  people, departments and terminals written (${elapsed()})`);
  await sql`create table bench_devices (idx integer primary key, id integer not null)`.execute(db);
  const indexes = await punchIndexes();
  let punches = 0;
  for (const t of [small, big]) {
    punches += await punchDays(t);
    console.log(`  ${t.label}: punches written, ${punches.toLocaleString('en')} in all (${elapsed()})`);
  }
  await sql`drop table bench_devices`.execute(db);
  // one connection, with the memory a bulk load gives its index builds on PostgreSQL
  await db.connection().execute(async (c) => {
    if (pg) await sql`set maintenance_work_mem = '1GB'`.execute(c);
    for (const def of indexes) await sql.raw(def).execute(c);
  });
  console.log(`  ${indexes.length} punch indexes made again (${elapsed()})`);
  let results = 0;
  for (const t of [small, big]) results += await dayResults(t);
  await db.deleteFrom('attendance_dirty').execute();
  await sql`analyze`.execute(db);
  console.log(`  ${results.toLocaleString('en')} day results; analyzed (${elapsed()})\n`);
}

const get = async (path: string, query: Record<string, string | number> = {}) => {
  const q = new URLSearchParams(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])));
  const t0 = performance.now();
  const res = await fetch(`${url}${API_PREFIX}${path}?${q}`, { headers: { 'x-token': token } });
  const body = (await res.json()) as { code: number; message: string; data: { total?: number; more?: boolean } };
  const ms = performance.now() - t0;
  if (body.code !== 20000) throw new Error(`${path}: ${body.message}`);
  // a list that stopped counting (the punches past 10,000) shows as "10,000+"
  return { ms, total: body.data?.more ? `${body.data.total?.toLocaleString('en')}+` : body.data?.total?.toLocaleString('en') };
};

interface Route {
  label: string;
  path: string;
  query: (t: Tenant) => Record<string, string | number>;
}
const routes: Route[] = [
  { label: 'people: first page', path: '/person/list', query: () => ({ page: 1, pageSize: 20 }) },
  { label: 'people: page 200', path: '/person/list', query: () => ({ page: 200, pageSize: 20 }) },
  { label: 'people: search a name', path: '/person/list', query: (t) => ({ page: 1, pageSize: 20, keyword: `person ${Math.floor(t.people / 3)}` }) },
  { label: 'people: a top department (a tenth)', path: '/person/list', query: (t) => ({ page: 1, pageSize: 20, department_id: t.departments[0]! }) },
  { label: 'punches: first page, no filter', path: '/attendance/list', query: () => ({ page: 1, pageSize: 20 }) },
  { label: 'punches: yesterday', path: '/attendance/list', query: () => ({ page: 1, pageSize: 20, from: yesterday, to: yesterday }) },
  {
    label: 'punches: a person, last month',
    path: '/attendance/list',
    query: (t) => ({ page: 1, pageSize: 20, person_id: t.personIds[7]!, from: firstOfLastMonth, to: lastOfLastMonth }),
  },
  {
    label: 'punches: a terminal, yesterday',
    path: '/attendance/list',
    query: (t) => ({ page: 1, pageSize: 20, device_id: t.devices[3]!, from: yesterday, to: yesterday }),
  },
  {
    label: 'punches: search a number, last month',
    path: '/attendance/list',
    query: (t) => ({ page: 1, pageSize: 20, keyword: String(1_000_000 + Math.floor(t.people / 2)), from: firstOfLastMonth, to: lastOfLastMonth }),
  },
  { label: 'day results: yesterday', path: '/attendance/day/list', query: () => ({ page: 1, pageSize: 20, date: yesterday }) },
  { label: 'day results: yesterday, absent', path: '/attendance/day/list', query: () => ({ page: 1, pageSize: 20, date: yesterday, status: 'absent' }) },
  { label: 'month report: last month, first page', path: '/attendance/report/month', query: () => ({ page: 1, pageSize: 20, month: lastMonth }) },
  {
    label: 'month report: a top department',
    path: '/attendance/report/month',
    query: (t) => ({ page: 1, pageSize: 20, month: lastMonth, department_id: t.departments[0]! }),
  },
  { label: 'dashboard: summary', path: '/dashboard/summary', query: () => ({}) },
  { label: 'dashboard: attendance', path: '/dashboard/attendance', query: () => ({}) },
  { label: 'dashboard: trend (30 days)', path: '/dashboard/trend', query: () => ({}) },
  { label: 'dashboard: devices', path: '/dashboard/devices', query: () => ({}) },
  { label: 'dashboard: flow', path: '/dashboard/flow', query: () => ({}) },
  { label: 'dashboard: recognitions', path: '/dashboard/recognitions', query: () => ({}) },
];

const times = new Map<string, { small: number[]; big: number[] }>(routes.map((r) => [r.label, { small: [], big: [] }]));
const totals = new Map<string, { small?: string | undefined; big?: string | undefined }>();
// the rounds alternate the companies, so the machine's noise falls on both alike
for (let round = 0; round < RUNS; round++) {
  for (const t of round % 2 ? [big, small] : [small, big]) {
    await api('/admin/setDefaultCompany', { company_id: t.companyId });
    const key = t === big ? 'big' : 'small';
    for (const r of routes) {
      const { ms, total } = await get(r.path, r.query(t));
      times.get(r.label)![key].push(ms);
      if (round < 2) totals.set(r.label, { ...totals.get(r.label), [key]: total });
    }
  }
}
console.log(
  `  ${'route'.padEnd(40)} ${'small p50'.padStart(9)} ${'p99'.padStart(7)}   ${'big p50'.padStart(8)} ${'p99'.padStart(7)}   big÷small (p50)   rows (small / big)`,
);
for (const r of routes) {
  const x = times.get(r.label)!;
  const tot = totals.get(r.label);
  const rows = tot?.small !== undefined ? `${tot.small} / ${tot.big}` : '';
  console.log(
    `  ${r.label.padEnd(40)} ${fmt(percentile(x.small, 50)).padStart(9)} ${fmt(percentile(x.small, 99)).padStart(7)}   ${fmt(percentile(x.big, 50)).padStart(8)} ${fmt(percentile(x.big, 99)).padStart(7)}   ${fmt(percentile(x.big, 50) / percentile(x.small, 50)).padStart(8)}×        ${rows}`,
  );
}

/** An export streamed to nowhere: its time, bytes and the server's RSS growth above the RSS before it. */
async function exportOf(path: string, body: object): Promise<string> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const res = await fetch(`${url}${API_PREFIX}${path}`, {
    method: 'POST',
    headers: { 'x-token': token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  let bytes = 0;
  let first = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (!bytes) first = performance.now() - t0;
    bytes += chunk.length;
  }
  clearInterval(timer);
  return `${fmt((performance.now() - t0) / 1000)} s (first bytes after ${fmt(first)} ms), ${fmt(bytes / 1e6)} MB, RSS +${fmt((peak - base) / 1e6, 0)} MB`;
}
console.log('');
for (const t of [small, big]) {
  await api('/admin/setDefaultCompany', { company_id: t.companyId });
  console.log(`  ${t.label}: every person (${t.people.toLocaleString('en')}): ${await exportOf('/person/exportPerson', {})}`);
  if (process.env.BENCH_EXPORTS === 'people' || (process.env.BENCH_EXPORTS === 'small' && t === big)) continue;
  const [from, to] = [`${firstOfLastMonth}T00:00:00.000Z`, `${lastOfLastMonth}T23:59:59.999Z`];
  const month = await db
    .selectFrom('punches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', t.companyId)
    .where('time', '>=', from)
    .where('time', '<=', to)
    .executeTakeFirstOrThrow();
  console.log(
    `  ${t.label}: last month's punches (about ${Number(month.n).toLocaleString('en')}): ${await exportOf('/attendance/export', { from: firstOfLastMonth, to: lastOfLastMonth })}`,
  );
}
console.log(`\n(${elapsed()} in all)`);
await close();
