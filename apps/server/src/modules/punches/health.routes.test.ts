import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type RuleInput } from '@faceadmin/shared';
import ExcelJS from 'exceljs';
import { call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { addPersonWithFace, picture } from '../../../test/files.ts';
import { listen, stopTerminals, terminal, until } from '../../../test/terminals.ts';

/** Health-code records and alcohol records (#10, spec §2 /attendance/alcohol, §3 "Health record") from emulated terminals. */
let t: TestApp;
let server: string;
let A: Company;
let B: Company;
let gate: number;
let breath: number;
let dept: number;
const DAY = '2026-11-16'; // a Monday, in the past

before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  server = await listen(t);
  A = await makeCompany(t, 'Health A');
  B = await makeCompany(t, 'Health B');
  dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Staff' } })).data.id;
  for (const [number, name] of [
    ['701', 'Zhao Lei'],
    ['702', 'Qian Min'],
  ] as const)
    await addPersonWithFace(t, A, { number, name, organizations: [dept] });
  const device = async (name: string, serial: string) =>
    (await call(t.app, 'POST', '/device/create', { token: A.main, body: { name, serial, ip: '10.0.0.1', password: 'pw', attendance_scope: 'all' } })).data
      .id as number;
  gate = await device('Health gate', 'HLT001');
  breath = await device('Breath gate', 'HLT002');
});
after(async () => {
  await stopTerminals();
  await t.close();
});

const list = (query: Record<string, string | number> = {}, token = A.main) => call(t.app, 'GET', '/attendance/health/list', { token, lang: 'en-US', query });
const alcohol = (query: Record<string, string | number> = {}, token = A.main) =>
  call(t.app, 'GET', '/attendance/alcohol/list', { token, lang: 'en-US', query });
async function xlsx(url: string, payload: unknown, token = A.main) {
  const r = await t.app.inject({ method: 'POST', url: `/api/management${url}`, headers: { 'x-token': token, 'x-lang': 'en-US' }, payload: payload as object });
  assert.equal(r.statusCode, 200, r.body.slice(0, 200));
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0]!;
  return Array.from({ length: sheet.rowCount }, (_, i) => (sheet.getRow(i + 1).values as unknown[]).slice(1));
}

test(`a health-code terminal's records are listed with every field and the punch's picture; a resend adds nothing (${DIALECT})`, async () => {
  const term = terminal(server, 'HLT001', { health: true, place: 'North gate, building 2' });
  await term.start();
  const face = await picture(320, 240);
  const r = await term.punch({
    pin: '701',
    time: `${DAY} 08:55:00`,
    photo: face,
    health: {
      color: 'green',
      name: '赵磊',
      idNumber: '11010519491231002X',
      temperature: 36.5,
      natTime: `2026-11-15 10:00:00`,
      natResult: 'negative',
      trip: 'Shenzhen;Dongguan',
      vaccineCount: 3,
      vaccineTime: '2022-03-01',
    },
  });
  assert.match(r.healthReply ?? '', /^OK: 1/);
  await term.punch({ pin: '702', time: `${DAY} 08:56:00`, health: { color: 'yellow', temperature: 36.9 } });
  await term.punch({ pin: '9999', time: `${DAY} 08:57:00`, health: { color: 'red' } });
  const page = await until('three records with the picture', async () => {
    const l = await list();
    return l.data.total === 3 && l.data.items.find((x: any) => x.number === '701')?.pic_url ? l.data : undefined;
  });
  const rec = page.items.find((x: any) => x.number === '701');
  assert.deepEqual(
    { ...rec, id: 0, person_id: 0, device_id: 0, pic_url: '' },
    {
      id: 0,
      person_id: 0,
      number: '701',
      name: '赵磊',
      id_number: '11010519491231002X',
      device_id: 0,
      device: 'Health gate',
      place: 'North gate, building 2',
      day: DAY,
      time: '08:55:00',
      utc: `${DAY}T00:55:00.000Z`,
      temperature: 36.5,
      color: 'green',
      nat_time: '2026-11-15 10:00:00',
      nat_result: 'negative',
      trip: 'Shenzhen;Dongguan',
      vaccine_count: 3,
      vaccine_time: '2022-03-01',
      pic_url: '',
    },
  );
  assert.equal(rec.device_id, gate);
  const img = await t.app.inject({ method: 'GET', url: rec.pic_url, headers: { 'x-token': A.main } });
  assert.equal(img.statusCode, 200);
  assert.equal(img.headers['content-type'], 'image/jpeg');
  assert.equal(page.items.find((x: any) => x.number === '702').name, 'Qian Min', 'no name reported: the roster name');
  assert.equal(page.items.find((x: any) => x.number === '9999').color, 'red', 'a stranger is listed too');

  // Retried uploads (the terminal missed our OK) add nothing.
  assert.deepEqual(await term.replayHealth(2), ['OK: 1', 'OK: 1']);
  await term.replay(1);
  assert.equal((await list()).data.total, 3);

  // Filters: colour, keyword (number, reported name, id number), device, days in the company's zone.
  assert.deepEqual(
    (await list({ color: 'yellow' })).data.items.map((x: any) => x.number),
    ['702'],
  );
  for (const keyword of ['赵', '1231002x', '701'])
    assert.deepEqual(
      (await list({ keyword })).data.items.map((x: any) => x.number),
      ['701'],
      keyword,
    );
  assert.equal((await list({ device_id: breath })).data.total, 0);
  assert.equal((await list({ from: DAY, to: DAY })).data.total, 3);
  assert.equal((await list({ from: '2026-11-17' })).data.total, 0);
  assert.equal((await list({ to: '2026-11-15' })).data.total, 0);
  assert.deepEqual(
    (await list({ pageSize: 2, page: 2 })).data.items.map((x: any) => x.number),
    ['701'],
    'newest first, paginated',
  );
  assert.equal((await list({ color: 'blue' })).code, CODES.VALIDATION);

  const rows = await xlsx('/attendance/health/export', { color: 'green' });
  assert.deepEqual(rows[0]!.slice(0, 9), ['Number', 'Name', 'ID number', 'Device', 'Install place', 'Day', 'Time', 'Temperature', 'Colour']);
  assert.equal(rows.length, 2);
  assert.deepEqual(rows[1]!.slice(0, 9), ['701', '赵磊', '11010519491231002X', 'Health gate', 'North gate, building 2', DAY, '08:55:00', 36.5, 'Green']);
  assert.equal(rows[1]![10], 'Negative');
});

test('under the health model a punch whose code is not green is not a valid check-in, and the day says why', async () => {
  const rule: RuleInput = {
    name: 'Health office',
    mode: 'fixed',
    model: 'health',
    shifts: [{ key: 'd', name: 'Day', start: '09:00', end: '18:00', late_grace_min: 5, early_grace_min: 0 }],
    weekdays: { 0: [], 1: ['d'], 2: ['d'], 3: ['d'], 4: ['d'], 5: ['d'], 6: [] },
    person_ids: [],
    department_ids: [dept],
  };
  const created = await call(t.app, 'POST', '/attendance/rule/create', { token: A.main, body: rule });
  assert.equal(created.code, CODES.OK, created.message);
  const term = terminal(server, 'HLT001', { health: true });
  await term.start();
  await term.punch({ pin: '702', time: `${DAY} 18:05:00`, health: { color: 'green' } });
  // 702 checked in at 08:56 with a yellow code (first test): not valid, so the check-in is missing.
  const day = await until('day computed', async () => {
    const r = await call(t.app, 'GET', '/attendance/day/info', { token: A.main, query: { person_id: await idOf('702'), date: DAY } });
    return r.code === CODES.OK && r.data.status !== 'pending' && r.data.punches.length === 2 ? r.data : undefined;
  });
  assert.equal(day.status, 'missingIn');
  const yellow = day.punches.find((p: any) => p.time === `${DAY}T00:56:00.000Z`);
  assert.deepEqual([yellow.used, yellow.ignored, yellow.detail.key, yellow.detail.params.color], [false, 'invalidModel', 'att.why.ignored.health', 'yellow']);
});
test('a health record sent before its punch still colours it when the punch arrives', async () => {
  const early = await t.app.inject({
    method: 'POST',
    url: '/iclock/cdata?SN=HLT001&table=HEALTHLOG',
    headers: { 'content-type': 'application/push;charset=UTF-8' },
    payload: `HEALTH PIN=701\tTime=${DAY} 18:01:00\tColor=red`,
  });
  assert.equal(early.body, 'OK: 1');
  const term = terminal(server, 'HLT001');
  await term.start();
  await term.punch({ pin: '701', time: `${DAY} 18:01:00` });
  const day = await until('day with the red check-out', async () => {
    const r = await call(t.app, 'GET', '/attendance/day/info', { token: A.main, query: { person_id: await idOf('701'), date: DAY } });
    return r.code === CODES.OK && r.data.punches.length === 2 ? r.data : undefined;
  });
  const late = day.punches.find((p: any) => p.time === `${DAY}T10:01:00.000Z`);
  assert.deepEqual([late.used, late.ignored, late.detail?.params.color], [false, 'invalidModel', 'red'], 'the red check-out does not count');
  assert.equal(day.status, 'missingOut');
});
const idOf = async (number: string) => (await call(t.app, 'GET', '/person/list', { token: A.main, query: { keyword: number } })).data.items[0].id as number;

test('alcohol records: punches with a breath reading, filtered over or under the threshold, exported', async () => {
  const term = terminal(server, 'HLT002', { alcohol: true });
  await term.start();
  await term.punch({ pin: '701', time: `${DAY} 07:00:00`, alcohol: 3.5 });
  await term.punch({ pin: '702', time: `${DAY} 07:01:00`, alcohol: 42 });
  await term.punch({ pin: '702', time: `${DAY} 07:02:00` });
  const all = await alcohol();
  assert.equal(all.code, CODES.OK);
  assert.deepEqual(
    all.data.items.map((x: any) => [x.number, x.name, x.device, x.alcohol, x.over]),
    [
      ['702', 'Qian Min', 'Breath gate', 42, true],
      ['701', 'Zhao Lei', 'Breath gate', 3.5, false],
    ],
    'only punches with a reading; over the default 20 mg/100 mL limit flagged',
  );
  assert.deepEqual(
    (await alcohol({ over: 1 })).data.items.map((x: any) => x.number),
    ['702'],
  );
  assert.deepEqual(
    (await alcohol({ over: 0, device_id: breath })).data.items.map((x: any) => x.number),
    ['701'],
  );
  assert.equal((await alcohol({ device_id: gate })).data.total, 0);
  assert.equal((await alcohol({ from: '2026-11-17' })).data.total, 0);
  const rows = await xlsx('/attendance/alcohol/export', { over: 1 });
  assert.deepEqual(rows, [
    ['Number', 'Name', 'Device', 'Day', 'Time', 'Alcohol (mg/100 mL)', 'Result', 'Temperature'],
    ['702', 'Qian Min', 'Breath gate', DAY, '07:01:00', 42, 'Over the limit'],
  ]);
});

test('tenancy and rights: another company sees none of it; a sub-admin without the attendance right is refused; an unregistered terminal is refused', async () => {
  assert.equal((await list({}, B.main)).data.total, 0);
  assert.equal((await alcohol({}, B.main)).data.total, 0);
  assert.equal((await list({ device_id: gate }, B.main)).data.total, 0, "another company's device filters to nothing");
  const rows = await xlsx('/attendance/health/export', {}, B.main);
  assert.equal(rows.length, 1, 'headers only');
  const none = await makeSub(t, A, ['userView']);
  for (const r of [await list({}, none.token), await alcohol({}, none.token)]) assert.equal(r.code, CODES.NO_AUTHORITY);
  const refused = await call(t.app, 'POST', '/attendance/health/export', { token: none.token, body: {} });
  assert.equal(refused.code, CODES.NO_AUTHORITY);
  const ok = await makeSub(t, A, ['attendance']);
  assert.equal((await list({}, ok.token)).data.total, 5);

  const before_ = (await list()).data.total;
  const stranger = await t.app.inject({
    method: 'POST',
    url: '/iclock/cdata?SN=NOPE0001&table=HEALTHLOG',
    headers: { 'content-type': 'application/push;charset=UTF-8' },
    payload: 'HEALTH PIN=701\tTime=2026-11-16 10:00:00\tColor=red',
  });
  assert.equal(stranger.statusCode, 403);
  assert.doesNotMatch(stranger.body, /^OK/);
  // A registered terminal whose body has no readable record is told so (and keeps it); nothing is stored.
  const garbled = await t.app.inject({
    method: 'POST',
    url: '/iclock/cdata?SN=HLT001&table=HEALTHLOG',
    headers: { 'content-type': 'application/push;charset=UTF-8' },
    payload: 'HEALTH PIN=\tTime=yesterday\nnot a record',
  });
  assert.deepEqual([garbled.statusCode, garbled.body], [400, 'ERROR: no valid records']);
  assert.equal((await list()).data.total, before_);
});
