import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type DormitoryStatus } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { clock } from '../../lib/time.ts';

/**
 * The dormitory figures (issue #16): residents by building from their last punch's device direction, who was out
 * when the hour struck and is still out, who came back after it; the settings; tenancy and rights.
 * The company's zone is Asia/Shanghai (UTC+8): 23:00 there is 15:00 UTC.
 */
let t: TestApp;
let A: Company;
let B: Company;
let north: number;
let northFloor: number;
let south: number;
let office: number;
const ids: Record<string, number> = {};
let gateIn: number;
let gateOut: number;
let bGateOut: number;
let punchSeq = 0;

const realNow = clock.now;
async function at<T>(iso: string, fn: () => Promise<T>): Promise<T> {
  clock.now = () => Date.parse(iso);
  try {
    return await fn();
  } finally {
    clock.now = realNow;
  }
}

async function person(company: Company, number: string, name: string, dept: number, workStatus = 1) {
  const p = await t.app.database.db
    .insertInto('persons')
    .values({ company_id: company.id, number, name, work_status: workStatus, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.app.database.db.insertInto('person_departments').values({ company_id: company.id, person_id: p.id, department_id: dept }).execute();
  return p.id;
}

async function device(company: Company, name: string, serial: string, direction: 'in' | 'out') {
  const r = await call(t.app, 'POST', '/device/create', { token: company.main, body: { name, serial, ip: '10.0.0.9', password: 'pw', direction } });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data.id as number;
}

/** A punch at a UTC instant (the device's local time is only its key here). */
async function punch(company: Company, personId: number, deviceId: number, iso: string) {
  await t.app.database.db
    .insertInto('punches')
    .values({
      company_id: company.id,
      device_id: deviceId,
      person_id: personId,
      pin: String(personId),
      local_time: `2000-01-01 00:00:${String(++punchSeq % 60).padStart(2, '0')}${punchSeq}`,
      time: new Date(iso).toISOString(),
      created_at: new Date(iso).toISOString(),
    } as never)
    .execute();
}

const dept = async (c: Company, name: string, parent_id?: number) =>
  (await call(t.app, 'POST', '/org/create', { token: c.main, body: { name, ...(parent_id ? { parent_id } : {}) } })).data.id as number;

before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Dorm A');
  B = await makeCompany(t, 'Dorm B');
  north = await dept(A, 'North hall');
  northFloor = await dept(A, 'North 2F', north);
  south = await dept(A, 'South hall');
  office = await dept(A, 'Office');
  gateIn = await device(A, 'Gate in', 'DORMIN1', 'in');
  gateOut = await device(A, 'Gate out', 'DORMOUT1', 'out');
  bGateOut = await device(B, 'B gate out', 'DORMBOUT1', 'out');
  ids.ann = await person(A, 'N1', 'Ann', north); // in all evening
  ids.bob = await person(A, 'N2', 'Bob', northFloor); // out at 20:00, never back
  ids.cai = await person(A, 'N3', 'Cai', northFloor); // out at 21:00, back at 23:40 (late)
  ids.dan = await person(A, 'S1', 'Dan', south); // out at 23:20 (after the hour): out, not "not back"
  ids.eve = await person(A, 'S2', 'Eve', south); // no punch at all
  ids.fay = await person(A, 'S3', 'Fay', south, 0); // left the company: not a resident
  ids.gus = await person(A, 'O1', 'Gus', office); // another department
  const bDept = await dept(B, 'B hall');
  ids.bZed = await person(B, 'Z1', 'Zed', bDept);
  // 2026-11-20 in Shanghai; the hour 23:00 local = 15:00 UTC.
  await punch(A, ids.ann, gateIn, '2026-11-20T10:00:00Z'); // 18:00 local
  await punch(A, ids.bob, gateIn, '2026-11-20T09:00:00Z');
  await punch(A, ids.bob, gateOut, '2026-11-20T12:00:00Z'); // 20:00
  await punch(A, ids.cai, gateOut, '2026-11-20T13:00:00Z'); // 21:00
  await punch(A, ids.cai, gateIn, '2026-11-20T15:40:00Z'); // 23:40
  await punch(A, ids.dan, gateIn, '2026-11-20T11:00:00Z');
  await punch(A, ids.dan, gateOut, '2026-11-20T15:20:00Z'); // 23:20
  await punch(A, ids.fay, gateOut, '2026-11-20T12:00:00Z');
  await punch(A, ids.gus, gateOut, '2026-11-20T12:00:00Z');
  // Company B's resident goes out through B's own gate: never counted for A.
  await punch(B, ids.bZed, bGateOut, '2026-11-20T12:00:00Z');
});
after(() => t.close());

const status = async (token: string, query: Record<string, string> = {}) => {
  const r = await call<DormitoryStatus>(t.app, 'GET', '/dormitory/status', { token, query, lang: 'en-US' });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data;
};
const building = (s: DormitoryStatus, id: number) => s.buildings.find((b) => b.id === id)!;

test(`before the hour: who is in and out by top-level department, nobody "not back" yet (${DIALECT})`, async () => {
  const s = await at('2026-11-20T14:30:00Z', () => status(A.main)); // 22:30 local
  assert.equal(s.return_by, '23:00');
  assert.equal(s.passed_today, false);
  assert.equal(s.deadline, '2026-11-19T15:00:00.000Z', "yesterday's 23:00 is the latest that struck");
  assert.deepEqual(
    s.buildings.map((b) => b.name),
    ['North hall', 'South hall', 'Office'],
  );
  const n = building(s, north);
  // Ann in, Bob out, Cai out (her return is still to come); 2F counts in the hall above it.
  assert.deepEqual([n.total, n.inside, n.out, n.unknown], [3, 1, 2, 0]);
  assert.deepEqual(n.not_back, [], 'they went out after the last hour struck');
  assert.deepEqual(n.late, []);
  const so = building(s, south);
  assert.deepEqual([so.total, so.inside, so.out, so.unknown], [2, 1, 0, 1], 'Fay has left: not a resident; Eve has no punch');
});

test(`after the hour: out when it struck and still out is "not back"; a return after it is late (${DIALECT})`, async () => {
  const s = await at('2026-11-20T16:00:00Z', () => status(A.main)); // 00:00 local, the 21st
  assert.equal(s.deadline, '2026-11-20T15:00:00.000Z');
  const n = building(s, north);
  assert.deepEqual([n.total, n.inside, n.out], [3, 2, 1]);
  assert.deepEqual(
    n.not_back.map((p) => [p.name, p.number, p.time, p.device]),
    [['Bob', 'N2', '2026-11-20T12:00:00.000Z', 'Gate out']],
  );
  assert.deepEqual(
    n.late.map((p) => [p.name, p.time, p.late_min]),
    [['Cai', '2026-11-20T15:40:00.000Z', 40]],
  );
  const so = building(s, south);
  assert.deepEqual([so.inside, so.out, so.unknown], [0, 1, 1]);
  assert.deepEqual(so.not_back, [], 'Dan went out after the hour: out, but he was in when it struck');
  // Gus (Office, a top-level department too) went out at 20:00 as well.
  assert.deepEqual(s.totals, { total: 6, inside: 2, out: 3, unknown: 1, not_back: 2, late: 1 });

  // The next morning the list still holds Bob (out since before last night's hour).
  const morning = await at('2026-11-21T02:00:00Z', () => status(A.main)); // 10:00 local
  assert.equal(morning.passed_today, false);
  assert.deepEqual(
    building(morning, north).not_back.map((p) => p.name),
    ['Bob'],
  );
  // Another hour asked for (not stored): at 20:30 Bob (out at 20:00) was out, and Cai (out at 21:00) was in.
  const early = await at('2026-11-20T16:00:00Z', () => status(A.main, { return_by: '20:30' }));
  assert.equal(early.return_by, '20:30');
  assert.deepEqual(
    building(early, north).not_back.map((p) => p.name),
    ['Bob'],
  );
  assert.deepEqual(building(early, north).late, [], 'Cai went out after 20:30');
});

test(`settings: the hour and the buildings are stored per company; bad hours and foreign departments refused (${DIALECT})`, async () => {
  const first = (await call(t.app, 'GET', '/dormitory/settings', { token: A.main })).data;
  assert.deepEqual([first.return_by, first.department_ids], ['23:00', []]);
  assert.deepEqual(
    first.departments.map((d: { name: string; parent_id: number }) => [d.name, d.parent_id === north]),
    [
      ['North hall', false],
      ['North 2F', true],
      ['South hall', false],
      ['Office', false],
    ],
    'the departments to choose from, even without the people right',
  );
  for (const return_by of ['24:00', '23:60', '7:00', '', '23:00:00']) {
    const r = await call(t.app, 'POST', '/dormitory/settings', { token: A.main, lang: 'en-US', body: { return_by, department_ids: [] } });
    assert.equal(r.code, CODES.VALIDATION, return_by);
    assert.deepEqual(r.data, { field: 'return_by' }, return_by);
    const q = await call(t.app, 'GET', '/dormitory/status', { token: A.main, query: { return_by } });
    if (return_by !== '') {
      assert.equal(q.code, CODES.VALIDATION, `query ${return_by}`);
      assert.deepEqual(q.data, { field: 'return_by' });
    }
  }
  const bDept = (await call(t.app, 'GET', '/org/list', { token: B.main })).data;
  const foreign = Array.isArray(bDept) ? bDept[0].id : 999999;
  const r = await call(t.app, 'POST', '/dormitory/settings', { token: A.main, body: { return_by: '22:30', department_ids: [north, foreign] } });
  assert.equal(r.code, CODES.RULE);
  assert.deepEqual(r.data, { field: 'department_ids' });

  const saved = await call(t.app, 'POST', '/dormitory/settings', {
    token: A.main,
    body: { return_by: '22:30', department_ids: [northFloor, south, northFloor] },
  });
  assert.equal(saved.code, CODES.OK, saved.message);
  assert.deepEqual([saved.data.return_by, saved.data.department_ids], ['22:30', [northFloor, south]]);
  assert.deepEqual((await call(t.app, 'GET', '/dormitory/settings', { token: A.main })).data, saved.data);
  const bSettings = (await call(t.app, 'GET', '/dormitory/settings', { token: B.main })).data;
  assert.deepEqual([bSettings.return_by, bSettings.department_ids], ['23:00', []], "B's own");
  assert.deepEqual(
    bSettings.departments.map((d: { name: string }) => d.name),
    ['B hall'],
  );

  const s = await at('2026-11-20T16:00:00Z', () => status(A.main));
  assert.equal(s.return_by, '22:30');
  assert.deepEqual(
    s.buildings.map((b) => b.name),
    ['North 2F', 'South hall'],
  );
  assert.deepEqual(
    building(s, northFloor).not_back.map((p) => p.name),
    ['Bob'],
  );
  assert.equal(s.totals.total, 4, 'Bob, Cai, Dan, Eve');
  // the log says what changed
  const log = await call(t.app, 'GET', '/log/list', { token: A.main, lang: 'en-US', query: { keyword: 'dormitory' } });
  assert.ok(
    log.data.items.some((l: { description: string }) => l.description.includes('22:30')),
    JSON.stringify(log.data.items),
  );
});

test(`tenancy: company B sees only its own resident (${DIALECT})`, async () => {
  const s = await at('2026-11-20T16:00:00Z', () => status(B.main));
  assert.deepEqual(
    s.buildings.map((b) => [b.name, b.total, b.inside, b.out]),
    [['B hall', 1, 0, 1]],
  );
  assert.equal(s.totals.total, 1);
  assert.ok(!JSON.stringify(s).includes('Bob'));
});

test(`rights: attendance or face view reads; a sub-admin without them is refused (${DIALECT})`, async () => {
  const none = await makeSub(t, A, ['logView']);
  for (const [method, path, body] of [
    ['GET', '/dormitory/status', undefined],
    ['GET', '/dormitory/settings', undefined],
    ['POST', '/dormitory/settings', { return_by: '23:00', department_ids: [] }],
  ] as const) {
    const r = await call(t.app, method, path, { token: none.token, body });
    assert.equal(r.code, CODES.NO_AUTHORITY, path);
  }
  const face = await makeSub(t, A, ['faceView']);
  assert.equal((await call(t.app, 'GET', '/dormitory/status', { token: face.token })).code, CODES.OK);
  assert.equal(
    (await call(t.app, 'POST', '/dormitory/settings', { token: face.token, body: { return_by: '23:00', department_ids: [] } })).code,
    CODES.NO_AUTHORITY,
    'face view reads but does not set',
  );
  const att = await makeSub(t, A, ['attendance']);
  assert.equal((await call(t.app, 'GET', '/dormitory/status', { token: att.token })).code, CODES.OK);
  assert.equal((await call(t.app, 'POST', '/dormitory/settings', { token: att.token, body: { return_by: '23:15', department_ids: [] } })).code, CODES.OK);
});
