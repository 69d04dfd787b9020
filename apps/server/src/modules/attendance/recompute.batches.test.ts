import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { plainPunch, punchWriter } from '../punches/punches.repository.ts';
import { markDirty } from './dirty.ts';
import { parsePgPunches } from './recompute.service.ts';

/**
 * The queue worked in several batches (#32): on PostgreSQL a batch is computed while the one before is written. Every
 * person of every batch ends with the results a fresh computation gives, and a run past its time starts no batch.
 */
let t: TestApp;
let A: Company;
const ids: number[] = [];
let dept: number;
let deviceId: number;
const DATES = ['2026-11-16', '2026-11-17', '2026-11-18']; // Monday to Wednesday, in the past

before(async () => {
  t = await makeApp();
  await t.app.jobs.stop(); // this file works the queue itself
  A = await makeCompany(t, 'Batches');
  dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Line' } })).data.id;
  const db = t.app.database.db;
  const made = await db
    .insertInto('persons')
    .values(
      Array.from(
        { length: 7 },
        (_, i) =>
          ({ company_id: A.id, number: `B${i + 1}`, name: `Worker ${i + 1}`, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }) as never,
      ),
    )
    .returning('id')
    .execute();
  ids.push(...made.map((r) => r.id));
  await db
    .insertInto('person_departments')
    .values(ids.map((person_id) => ({ company_id: A.id, person_id, department_id: dept })))
    .execute();
  const rule = await call(t.app, 'POST', '/attendance/rule/create', {
    token: A.main,
    body: {
      name: 'Office',
      mode: 'fixed',
      shifts: [{ key: 'd', name: 'Day', start: '09:00', end: '18:00', late_grace_min: 0, early_grace_min: 0 }],
      weekdays: { 0: [], 1: ['d'], 2: ['d'], 3: ['d'], 4: ['d'], 5: ['d'], 6: [] },
      person_ids: [],
      department_ids: [dept],
    },
  });
  assert.equal(rule.code, CODES.OK, rule.message);
  const device = await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Gate', serial: 'BATCHES01', ip: '10.0.0.9', password: 'pw' } });
  assert.equal(device.code, CODES.OK, device.message);
  deviceId = device.data.id;
  // Person i comes i minutes late on the first day and leaves i minutes early on the second; the third day, nobody punches out.
  const rows = ids.flatMap((personId, i) => [
    plainPunch({
      companyId: A.id,
      deviceId,
      personId,
      pin: `B${i + 1}`,
      local: `${DATES[0]} 09:${String(i + 1).padStart(2, '0')}:00`,
      zone: 'Asia/Shanghai',
    }),
    plainPunch({ companyId: A.id, deviceId, personId, pin: `B${i + 1}`, local: `${DATES[0]} 18:05:00`, zone: 'Asia/Shanghai' }),
    plainPunch({ companyId: A.id, deviceId, personId, pin: `B${i + 1}`, local: `${DATES[1]} 08:55:00`, zone: 'Asia/Shanghai' }),
    plainPunch({ companyId: A.id, deviceId, personId, pin: `B${i + 1}`, local: `${DATES[1]} 17:${String(59 - i)}:00`, zone: 'Asia/Shanghai' }),
    plainPunch({ companyId: A.id, deviceId, personId, pin: `B${i + 1}`, local: `${DATES[2]} 08:50:00`, zone: 'Asia/Shanghai' }),
  ]);
  await db.transaction().execute((trx) => punchWriter().insertIgnore(trx, rows));
  await db.deleteFrom('attendance_days').execute();
  await db.deleteFrom('attendance_dirty').execute();
});
after(async () => {
  await t.close();
});

test(`a run past its time starts no batch; a run in batches of 2 leaves every person's days as a fresh computation gives them (${DIALECT})`, async () => {
  const db = t.app.database.db;
  const recompute = t.app.modules.attendance.recompute;
  await db.transaction().execute((trx) => markDirty(trx, A.id, ids, { from: DATES[0]!, to: DATES[2]! }));
  const queued = async () => (await db.selectFrom('attendance_dirty').select('person_id').where('company_id', '=', A.id).execute()).length;

  assert.deepEqual(await recompute.runOnce(100, { until: Date.now() - 1 }), { people: 0, days: 0 });
  assert.equal(await queued(), ids.length, 'everyone still queued');

  // 7 people in batches of 2: four batches, the last of one.
  const run = await recompute.runOnce(100, { batch: 2 });
  assert.deepEqual(run, { people: 7, days: 7 * DATES.length });
  assert.equal(await queued(), 0, 'the queue is empty');

  const stored = await db
    .selectFrom('attendance_days')
    .select(['person_id', 'date', 'status', 'late_min', 'early_min'])
    .where('company_id', '=', A.id)
    .orderBy('person_id')
    .orderBy('date')
    .execute();
  assert.equal(stored.length, ids.length * DATES.length);
  for (const s of stored) {
    const i = ids.indexOf(s.person_id);
    const fresh = await recompute.explain(A.id, s.person_id, s.date);
    assert.ok(fresh);
    assert.deepEqual([s.status, s.late_min, s.early_min], [fresh.status, fresh.lateMin, fresh.earlyMin], `${s.person_id} ${s.date}`);
    // and what the punches say
    if (s.date === DATES[0]) assert.equal(s.late_min, i + 1);
    if (s.date === DATES[1]) assert.equal(s.early_min, i + 1);
    if (s.date === DATES[2]) assert.equal(s.status, 'missingOut');
  }
});

test("PostgreSQL's punch text reads back as the punches, with and without the model's readings", () => {
  assert.deepEqual(parsePgPunches(undefined, false), []);
  assert.deepEqual(parsePgPunches('7\x1f2026-11-16T01:05:00.000Z\x1f3\x1e9\x1f2026-11-16T10:05:00.000Z\x1f4', false), [
    [7, '2026-11-16T01:05:00.000Z', 3],
    [9, '2026-11-16T10:05:00.000Z', 4],
  ]);
  assert.deepEqual(parsePgPunches('7\x1f2026-11-16T01:05:00.000Z\x1f3\x1f37.5\x1f-\x1fgreen\x1e9\x1f2026-11-16T10:05:00.000Z\x1f4\x1f-\x1f1\x1f-', true), [
    [7, '2026-11-16T01:05:00.000Z', 3, 37.5, null, 'green'],
    [9, '2026-11-16T10:05:00.000Z', 4, null, 1, null],
  ]);
});

test(`the month report counts everyone the filters select on every page, past the last one too (${DIALECT})`, async () => {
  const month = (query: Record<string, string>) =>
    call(t.app, 'GET', '/attendance/report/month', { token: A.main, query: { month: DATES[0]!.slice(0, 7), ...query } });
  for (const [page, items] of [
    [1, 2],
    [2, 2],
    [4, 1],
    [5, 0],
  ] as const) {
    const r = await month({ page: String(page), pageSize: '2' });
    assert.equal(r.code, CODES.OK, r.message);
    assert.deepEqual([r.data.total, r.data.items.length], [ids.length, items], `page ${page}`);
  }
  const second = await month({ page: '2', pageSize: '2' });
  assert.deepEqual(
    second.data.items.map((r: { number: string }) => r.number),
    ['B3', 'B4'],
  );
  // what the people repository keeps for the keyword (written here: these people were made without it)
  for (const [i, id] of ids.entries())
    await t.app.database.db
      .updateTable('persons')
      .set({ search: `worker ${i + 1} b${i + 1}` })
      .where('id', '=', id)
      .execute();
  const one = await month({ keyword: 'worker 1', pageSize: '2' });
  assert.deepEqual([one.data.total, one.data.items.map((r: { number: string }) => r.number)], [1, ['B1']]);
  assert.equal((await month({ department_id: String(dept), page: '2', pageSize: '5' })).data.total, ids.length);
  const other = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Nobody' } })).data.id;
  const none = (await month({ department_id: String(other) })).data;
  assert.deepEqual([none.total, none.items], [0, []]);
});

test(`a person whose days cannot be computed leaves the queue alone; the others of their batch are written (${DIALECT})`, async () => {
  const db = t.app.database.db;
  const recompute = t.app.modules.attendance.recompute;
  // Marked as left at an instant that is no time: computing their days throws.
  const broken = ids[2]!;
  await db.updateTable('persons').set({ work_status: 2, left_at: 'not a time' }).where('id', '=', broken).execute();
  await db.deleteFrom('attendance_days').where('company_id', '=', A.id).execute();
  await db.transaction().execute((trx) => markDirty(trx, A.id, ids, { from: DATES[0]!, to: DATES[2]! }));
  const run = await recompute.runOnce(100, { batch: 2 });
  assert.deepEqual(run, { people: ids.length, days: (ids.length - 1) * DATES.length });
  assert.deepEqual(await db.selectFrom('attendance_dirty').select('person_id').where('company_id', '=', A.id).execute(), [], 'nobody left queued');
  const written = await db.selectFrom('attendance_days').select('person_id').distinct().where('company_id', '=', A.id).orderBy('person_id').execute();
  assert.deepEqual(
    written.map((r) => r.person_id),
    ids.filter((id) => id !== broken),
  );
  await db.updateTable('persons').set({ work_status: 1, left_at: null }).where('id', '=', broken).execute();
});
