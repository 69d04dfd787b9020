/**
 * Dashboard benchmarks (issue #16): every /dashboard/* route on a company of BENCH_PEOPLE people (default 10,000)
 * with a month of day results (30 days up to today), two punches a person a day on 20 terminals (some with a
 * capture photo, a few over the temperature limit, strangers), 10 breakers with open alarms; iocount on. A fifth
 * of the people have no result today yet (the route plans their day from their rule). Beside a baseline in the
 * same run: the raw count of today's results. Prints p50/p99 per route; asserts nothing. Target: p99 < 100 ms.
 */
import type { Insertable } from 'kysely';
import type { AttendanceDayTable } from '../apps/server/src/db/schema.ts';
import { nowIso, zonedToUtcMs } from '../apps/server/src/lib/time.ts';
import { addDays } from '../apps/server/src/modules/attendance/plans.ts';
import { localDate } from '../apps/server/src/modules/attendance/recompute.service.ts';
import { newPersonRow } from '../apps/server/src/modules/persons/persons.repository.ts';
import { plainPunch, punchWriter, type PunchInsert } from '../apps/server/src/modules/punches/punches.repository.ts';
import { benchServer, fmt, percentile } from './lib.ts';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 10_000);
const DAYS = 30;
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const ZONE = 'Asia/Shanghai';
const { app, companyId, api, close } = await benchServer();
const db = app.database.db;
const today = localDate(Date.now(), ZONE);
const nowLocalMinute = (() => {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date());
  const [h, m] = parts.split(':').map(Number);
  return h! * 60 + m!;
})();

// Setup (not measured).
const dept = (await api('/org/create', { name: 'Everyone' })).json().data.id as number;
const devices: number[] = [];
for (let i = 0; i < 20; i++) {
  const r = await api('/device/create', { name: `Gate ${i}`, serial: `BENCHDSH${i}`, ip: '127.0.0.1', password: 'x', direction: i % 2 ? 'out' : 'in' });
  devices.push(r.json().data.id as number);
}
await db.updateTable('devices').set({ online: 1 }).where('company_id', '=', companyId).where('id', 'in', devices.slice(0, 15)).execute();
await db
  .updateTable('companies')
  .set({ options: JSON.stringify({ iocount: 1 }) })
  .where('id', '=', companyId)
  .execute();
const now = nowIso();
const ids: number[] = [];
await db.transaction().execute(async (trx) => {
  for (let start = 0; start < PEOPLE; start += 500) {
    const rows = Array.from({ length: Math.min(500, PEOPLE - start) }, (_, k) => ({
      ...newPersonRow({ number: String(100000 + start + k), name: `Person ${start + k}`, phone: '1', created_at: now }),
      company_id: companyId,
      search: `person ${start + k}`,
    }));
    const made = await trx.insertInto('persons').values(rows).returning('id').execute();
    ids.push(...made.map((r) => r.id));
    await trx
      .insertInto('person_departments')
      .values(made.map((r) => ({ company_id: companyId, person_id: r.id, department_id: dept })))
      .execute();
  }
});
const rule = await api('/attendance/rule/create', {
  name: 'Office',
  mode: 'fixed',
  shifts: [{ key: 'd', name: 'Day', start: '09:00', end: '18:00', late_grace_min: 5 }],
  weekdays: { 0: ['d'], 1: ['d'], 2: ['d'], 3: ['d'], 4: ['d'], 5: ['d'], 6: ['d'] },
  person_ids: [],
  department_ids: [dept],
});
if (rule.json().code !== 20000) throw new Error(rule.json().message);
// The seeded results stand as written: nothing queued for the recalculation job.
await db.deleteFrom('attendance_dirty').execute();

let seed = 7;
const rand = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
const STATUSES = ['normal', 'normal', 'normal', 'normal', 'normal', 'late', 'early', 'absent', 'leave', 'missingOut'];
const writer = punchWriter();
let punchTotal = 0;
let resultTotal = 0;
for (let d = DAYS - 1; d >= 0; d--) {
  const date = addDays(today, -d);
  const isToday = d === 0;
  for (let start = 0; start < ids.length; start += 500) {
    const part = ids.slice(start, start + 500);
    const days: Insertable<AttendanceDayTable>[] = [];
    const punches: PunchInsert[] = [];
    for (const [k, id] of part.entries()) {
      const i = start + k;
      // today: a fifth have no result yet; the rest are open days
      if (isToday && i % 5 === 0) continue;
      const status = isToday ? 'pending' : STATUSES[Math.floor(rand() * STATUSES.length)]!;
      days.push({
        company_id: companyId,
        person_id: id,
        date,
        rule_id: null,
        status,
        late_min: status === 'late' || (isToday && i % 7 === 0) ? 6 : 0,
        manual_status: null,
        manual_reason: null,
        computed_at: now,
      });
      for (const [n, minute] of [8 * 60 + 50, 18 * 60 + 5].entries()) {
        const m = minute + Math.round((rand() - 0.5) * 20);
        if (isToday && m > nowLocalMinute) continue;
        const local = `${date} ${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:${String(k % 60).padStart(2, '0')}`;
        const device = devices[(i % 10) * 2 + n]!;
        punches.push({
          ...plainPunch({ companyId, deviceId: device, personId: id, pin: String(100000 + i), local, zone: ZONE }),
          ...(i % 50 === 0 ? { photo: `${id}.jpg` } : {}),
          ...(i % 997 === 0 ? { temperature: 37.9 } : {}),
        });
      }
    }
    await db.transaction().execute(async (trx) => {
      if (days.length) await trx.insertInto('attendance_days').values(days).execute();
      await writer.insertIgnore(trx, punches);
    });
    punchTotal += punches.length;
    resultTotal += days.length;
  }
}
// strangers today
const strangers: PunchInsert[] = Array.from({ length: 40 }, (_, k) => ({
  ...plainPunch({ companyId, deviceId: devices[k % 20]!, personId: null, pin: '0', local: `${today} 00:${String(k).padStart(2, '0')}:00`, zone: ZONE }),
  stranger: 1,
  photo: `s${k}.jpg`,
}));
await writer.insertIgnore(db, strangers);
for (let b = 0; b < 10; b++) {
  const br = await db
    .insertInto('breakers')
    .values({
      company_id: companyId,
      uuid: `BENCHBRK${b}`,
      alias: `Board ${b}`,
      sort: b,
      linenum: 4,
      online: b < 8 ? 1 : 0,
      password_hash: '',
      broker_hash: '',
      created_at: now,
      updated_at: now,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let addr = 1; addr <= 4; addr++) {
    const line = await db
      .insertInto('breaker_lines')
      .values({ company_id: companyId, breaker_id: br.id, addr, title: `Line ${addr}`, mxgg: 2200, mxgl: 1000, oc: 1 } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    if (b < 2 && addr === 1)
      await db
        .insertInto('breaker_alarms')
        .values({ company_id: companyId, breaker_id: br.id, line_id: line.id, type: 'overcurrent', value: 11, at: now, cleared_at: null })
        .execute();
  }
}
console.log(
  `database: ${app.database.dialect}; ${PEOPLE} people, ${resultTotal} day results over ${DAYS} days, ${punchTotal + strangers.length} punches, 20 terminals, 10 breakers`,
);

async function timed(label: string, fn: () => Promise<unknown>) {
  for (let i = 0; i < 5; i++) await fn(); // warm-up: statement caches, page cache
  const lat: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    lat.push(performance.now() - t0);
  }
  return { label, p50: percentile(lat, 50), p99: percentile(lat, 99) };
}

const from = new Date(zonedToUtcMs(today, ZONE)).toISOString();
const baseline = await timed('baseline: raw count of today’s results', () =>
  db
    .selectFrom('attendance_days')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('company_id', '=', companyId)
    .where('date', '=', today)
    .executeTakeFirstOrThrow(),
);
const baselinePunches = await timed('baseline: raw count of today’s punches', () =>
  db
    .selectFrom('punches')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('company_id', '=', companyId)
    .where('time', '>=', from)
    .executeTakeFirstOrThrow(),
);
const call = (path: string) => async () => {
  const r = await api(path);
  const body = r.json();
  if (body.code !== 20000) throw new Error(`${path}: ${body.message}`);
};
const rows = [baseline, baselinePunches];
for (const path of [
  '/dashboard/summary',
  '/dashboard/attendance',
  '/dashboard/trend?days=30',
  '/dashboard/devices',
  '/dashboard/alarms',
  '/dashboard/flow',
  '/dashboard/recognitions?limit=12',
  '/dashboard/sites',
  '/dashboard/consoles',
]) {
  rows.push(await timed(`GET ${path}`, call(path)));
}
const width = Math.max(...rows.map((r) => r.label.length));
for (const r of rows) {
  console.log(
    `${r.label.padEnd(width)}  p50 ${fmt(r.p50).padStart(6)} ms  p99 ${fmt(r.p99).padStart(6)} ms${r === baseline || r === baselinePunches ? '' : r.p99 < 100 ? '' : '  (over the 100 ms target)'}`,
  );
}
console.log(`target: p99 < 100 ms per route (${RUNS} calls each, after 5 warm-up calls)`);
await close();
