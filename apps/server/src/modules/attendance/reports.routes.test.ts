import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { CODES } from '@faceadmin/shared';
import { addPersonWithFace, personWithFace } from '../../../test/files.ts';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { addDays, datesBetween } from './plans.ts';
import { localDate } from './recompute.service.ts';
import { plainPunch, punchWriter, type PunchInsert } from '../punches/punches.repository.ts';

/** The per-person month calendar and the exports (#10): figures and counted punches from the stored results. */
let t: TestApp;
let A: Company;
let B: Company;
let late: number; // 501: late 7 min on Monday 5 October, on time after
let absent: number; // 502: no punches at all
let dept: number;
let pic: string;
const ZONE = 'Asia/Shanghai';

before(async () => {
  t = await makeApp();
  // The recompute job (every second) would drain the queue these tests read after a write.
  await t.app.jobs.stop();
  A = await makeCompany(t, 'Reports A');
  B = await makeCompany(t, 'Reports B');
  dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Staff' } })).data.id;
  late = await addPersonWithFace(t, A, { number: '501', name: 'Zhao Lei', organizations: [dept] });
  ({ id: absent, pic } = await personWithFace(t, A, { number: '502', name: 'Qian Yu', organizations: [dept] }));
  const r = await call(t.app, 'POST', '/attendance/rule/create', {
    token: A.main,
    body: {
      name: 'Office',
      mode: 'fixed',
      shifts: [{ key: 'd', name: 'Day', start: '09:00', end: '18:00', late_grace_min: 5 }],
      weekdays: { 0: [], 1: ['d'], 2: ['d'], 3: ['d'], 4: ['d'], 5: ['d'], 6: [] },
      person_ids: [],
      department_ids: [dept],
    },
  });
  assert.equal(r.code, CODES.OK, r.message);
  const device = (await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Gate', serial: 'REP001', ip: '10.0.0.1', password: 'pw' } })).data
    .id as number;
  // A week of punches for 501 (written as a terminal's upload would be), then October computed for both.
  const rows: PunchInsert[] = [];
  const punch = (local: string): PunchInsert => plainPunch({ companyId: A.id, deviceId: device, personId: late, pin: '501', local, zone: ZONE });
  rows.push(punch('2026-10-05 09:07:00'), punch('2026-10-05 12:00:00'), punch('2026-10-05 18:02:00'));
  for (const d of ['06', '07', '08', '09']) rows.push(punch(`2026-10-${d} 08:55:00`), punch(`2026-10-${d} 18:01:00`));
  await t.app.database.db.transaction().execute((trx) => punchWriter().insertIgnore(trx, rows));
  for (const id of [late, absent]) await t.app.modules.attendance.recompute.person(A.id, id, '2026-10-01', '2026-10-31');
});
after(() => t.close());

async function xlsx(url: string, payload: object, token = A.main) {
  const r = await t.app.inject({ method: 'POST', url: `/api/management${url}`, headers: { 'x-token': token, 'x-lang': 'en-US' }, payload });
  assert.equal(r.statusCode, 200, r.body.slice(0, 300));
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0]!;
  return Array.from({ length: sheet.rowCount }, (_, i) => (sheet.getRow(i + 1).values as unknown[]).slice(1));
}

test(`a person's month calendar: every day's result, its figures and first/last counted punch, and the month's totals (${DIALECT})`, async () => {
  const r = await call(t.app, 'GET', '/attendance/report/person', { token: A.main, query: { person_id: late, month: '2026-10' } });
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.name, 'Zhao Lei');
  assert.equal(r.data.days.length, 31, 'one entry per date with a result: rest days too');
  const monday = r.data.days.find((d: { date: string }) => d.date === '2026-10-05');
  assert.equal(monday.status, 'late');
  assert.equal(monday.late_min, 7);
  assert.equal(monday.check_in, '2026-10-05T01:07:00.000Z', 'the first counted punch');
  assert.equal(monday.check_out, '2026-10-05T10:02:00.000Z', 'the last counted punch, not the lunch one in between');
  assert.equal(r.data.days.find((d: { date: string }) => d.date === '2026-10-04').status, 'rest');
  assert.equal(r.data.days.find((d: { date: string }) => d.date === '2026-10-12').status, 'absent');
  assert.equal(r.data.totals.late_count, 1);
  assert.equal(r.data.totals.late_min, 7);
  assert.equal(r.data.totals.present_days, 5);
  assert.equal(r.data.totals.work_days, 22);
  // A month without results: no days, zero totals (not an error).
  const empty = await call(t.app, 'GET', '/attendance/report/person', { token: A.main, query: { person_id: late, month: '2025-01' } });
  assert.equal(empty.code, CODES.OK);
  assert.deepEqual([empty.data.days.length, empty.data.totals.work_days], [0, 0]);
  // Another company's person is not found; a malformed month is refused by shape.
  const other = await call(t.app, 'GET', '/attendance/report/person', { token: B.main, query: { person_id: late, month: '2026-10' } });
  assert.equal(other.code, CODES.NOT_FOUND);
  const bad = await call(t.app, 'GET', '/attendance/report/person', { token: A.main, query: { person_id: late, month: '2026-13' } });
  assert.equal(bad.code, CODES.VALIDATION);
});

test(`day results export: one row per person-day by date then number, statuses translated, punches in the company's zone (${DIALECT})`, async () => {
  const rows = await xlsx('/attendance/day/export', { from: '2026-10-05', to: '2026-10-06' });
  assert.deepEqual(rows[0]!.slice(0, 7), ['Date', 'Number', 'Name', 'Rule', 'Result', 'Check-in', 'Check-out']);
  assert.deepEqual(
    rows.slice(1).map((r) => [r[0], r[1], r[4], r[5], r[6], r[7]]),
    [
      ['2026-10-05', '501', 'Late', '09:07', '18:02', 7],
      ['2026-10-05', '502', 'Absent', undefined, undefined, 0],
      ['2026-10-06', '501', 'Normal', '08:55', '18:01', 0],
      ['2026-10-06', '502', 'Absent', undefined, undefined, 0],
    ],
  );
  assert.equal(rows[3]![9], 9, 'worked hours: 09:00 to 18:00 (arriving early adds nothing)');
  // Filters as the day view's.
  const absentOnly = await xlsx('/attendance/day/export', { from: '2026-10-01', to: '2026-10-31', status: 'absent', keyword: 'Qian' });
  assert.equal(absentOnly.length - 1, 22);
  assert.ok(absentOnly.slice(1).every((r) => r[1] === '502'));
  // Another company exports nothing of A's.
  assert.equal((await xlsx('/attendance/day/export', { from: '2026-10-01', to: '2026-10-31' }, B.main)).length, 1);
});

test(`day results export refuses a reversed or too long range before it starts (${DIALECT})`, async () => {
  const reversed = await call(t.app, 'POST', '/attendance/day/export', { token: A.main, body: { from: '2026-10-06', to: '2026-10-05' } });
  assert.equal(reversed.code, CODES.RULE);
  assert.equal(reversed.data.field, 'to');
  const long = await call(t.app, 'POST', '/attendance/day/export', { token: A.main, body: { from: '2025-01-01', to: '2026-01-02' }, lang: 'en-US' });
  assert.equal(long.code, CODES.RULE);
  assert.match(long.message, /366/);
});

test(`month report export: the report page's figures for everyone, below a title and the legend (${DIALECT})`, async () => {
  const rows = await xlsx('/attendance/report/export', { month: '2026-10' });
  assert.equal(rows.length, 5, 'title, legend, header, two people');
  const header = rows[2]!;
  assert.deepEqual(header.slice(0, 3), ['Number', 'Name', 'Department']);
  const col = (name: string) => header.indexOf(name);
  const [zhao, qian] = [rows[3]!, rows[4]!];
  assert.deepEqual([zhao[0], zhao[col('Working days')], zhao[col('Present (days)')], zhao[col('Late (times)')], zhao[col('Late (min)')]], ['501', 22, 5, 1, 7]);
  assert.deepEqual([qian[0], qian[col('Present (days)')], qian[col('Absent (days)')]], ['502', 0, 22]);
  assert.equal(zhao[col('Department')], 'Staff');
  assert.equal(zhao[col('5')], 'L 7', 'the day grid: late 7 minutes on the 5th');
  assert.equal((await xlsx('/attendance/report/export', { month: '2026-10', keyword: '502' })).length, 4);
  assert.equal((await xlsx('/attendance/report/export', { month: '2026-10' }, B.main)).length, 3);
});

test(`a department's day results, month report and their exports include the departments below it (${DIALECT})`, async () => {
  // Plant > Line 1; 501 works on Line 1 (as well as in Staff), 502 in Staff only
  const org = (name: string, parent_id = 0) => call(t.app, 'POST', '/org/create', { token: A.main, body: { name, parent_id } });
  const plant = (await org('Plant')).data.id as number;
  const line = (await org('Line 1', plant)).data.id as number;
  const office = (await org('Office')).data.id as number;
  await t.app.database.db.insertInto('person_departments').values({ company_id: A.id, person_id: late, department_id: line }).execute();
  const numbers = (items: { number: string }[]) => items.map((r) => r.number);
  for (const department_id of [plant, line]) {
    const days = await call(t.app, 'GET', '/attendance/day/list', { token: A.main, query: { date: '2026-10-05', department_id: String(department_id) } });
    assert.deepEqual(numbers(days.data.items), ['501'], `day results of department ${department_id}`);
    const month = await call(t.app, 'GET', '/attendance/report/month', { token: A.main, query: { month: '2026-10', department_id: String(department_id) } });
    assert.deepEqual(numbers(month.data.items), ['501'], `month report of department ${department_id}`);
    assert.equal(month.data.total, 1);
    const dayRows = await xlsx('/attendance/day/export', { from: '2026-10-05', to: '2026-10-06', department_id });
    assert.equal(dayRows.filter((r) => r.includes('502')).length, 0);
    assert.equal(dayRows.filter((r) => r.includes('501')).length, 2, 'two days of 501');
    const monthRows = await xlsx('/attendance/report/export', { month: '2026-10', department_id });
    assert.ok(monthRows.some((r) => r.includes('501')) && !monthRows.some((r) => r.includes('502')), JSON.stringify(monthRows.slice(0, 6)));
  }
  // a department with nobody in it or below it, and another company's
  const empty = await call(t.app, 'GET', '/attendance/report/month', { token: A.main, query: { month: '2026-10', department_id: String(office) } });
  assert.equal(empty.data.total, 0);
  const theirs = await call(t.app, 'GET', '/attendance/report/month', { token: B.main, query: { month: '2026-10', department_id: String(plant) } });
  assert.equal(theirs.data.total, 0);
});

test(`someone who left keeps their results up to the day they left and gets none after it; coming back resumes them (${DIALECT})`, async () => {
  const db = t.app.database.db;
  const recompute = t.app.modules.attendance.recompute;
  const today = localDate(Date.now(), ZONE);
  const [from, to] = [addDays(today, -2), addDays(today, 2)];
  const dates = async () =>
    (
      await db
        .selectFrom('attendance_days')
        .select('date')
        .where('person_id', '=', absent)
        .where('date', '>=', from)
        .where('date', '<=', to)
        .orderBy('date')
        .execute()
    ).map((r) => r.date);
  const save = (workStatus: number) =>
    call(t.app, 'POST', '/person/update', { token: A.main, body: { id: absent, name: 'Qian Yu', phone: '139', organizations: [dept], pic, workStatus } });
  await recompute.person(A.id, absent, from, to);
  assert.deepEqual(await dates(), datesBetween(from, to));

  assert.equal((await save(0)).code, CODES.OK);
  const left = await db.selectFrom('persons').select(['left_at']).where('id', '=', absent).executeTakeFirstOrThrow();
  assert.ok(left.left_at, 'the moment of leaving is kept');
  // at once, through the save alone: the days computed ahead are gone, those up to leaving stay
  assert.deepEqual(await dates(), [from, addDays(today, -1), today]);
  // "attendance update" over the range still covers them (their days up to leaving can be corrected)
  await db.deleteFrom('attendance_dirty').execute();
  assert.equal((await call(t.app, 'POST', '/attendance/recalculate', { token: A.main, body: { from, to } })).code, CODES.OK);
  assert.ok(await db.selectFrom('attendance_dirty').select('person_id').where('person_id', '=', absent).executeTakeFirst(), 'the leaver is queued');
  await recompute.person(A.id, absent, '2026-10-01', '2026-10-31');
  await recompute.person(A.id, absent, from, to);
  assert.deepEqual(await dates(), [from, addDays(today, -1), today], 'up to the day they left, none after');
  const october = await call(t.app, 'GET', '/attendance/report/person', { token: A.main, query: { person_id: absent, month: '2026-10' } });
  assert.equal(october.data.days.length, 31, 'earlier months keep their results');

  assert.equal((await save(1)).code, CODES.OK);
  assert.equal((await db.selectFrom('persons').select(['left_at']).where('id', '=', absent).executeTakeFirstOrThrow()).left_at, null);
  await recompute.person(A.id, absent, from, to);
  assert.deepEqual(await dates(), datesBetween(from, to));
});

test(`punch records filter by the company's days, whatever the viewer's zone (${DIALECT})`, async () => {
  const list = (date: string) => call(t.app, 'GET', '/attendance/list', { token: A.main, query: { from: date, to: date } });
  assert.equal((await list('2026-10-05')).data.total, 3, "Shanghai's 5 October: 09:07, 12:00, 18:02");
  // The same instants in a company on Pacific time: 09:07 and 12:00 in Shanghai were still 4 October there.
  const zone = (time_zone: string) => call(t.app, 'POST', '/company/update', { token: A.main, body: { name: 'Reports A', phone: '010-1234567', time_zone } });
  assert.equal((await zone('America/Los_Angeles')).code, CODES.OK);
  try {
    assert.equal((await list('2026-10-04')).data.total, 2);
    assert.equal((await list('2026-10-05')).data.total, 2, '18:02 on the 5th and 08:55 on the 6th in Shanghai (03:02 and 17:55 on the 5th in LA)');
  } finally {
    await zone(ZONE);
  }
});

test(`a punch record is found by a PIN with letters in any case, on either database (${DIALECT})`, async () => {
  const db = t.app.database.db;
  const device = (await db.selectFrom('devices').select('id').where('serial', '=', 'REP001').executeTakeFirstOrThrow()).id;
  await db
    .transaction()
    .execute((trx) =>
      punchWriter().insertIgnore(trx, [
        plainPunch({ companyId: A.id, deviceId: device, personId: null, pin: 'AB77', local: '2026-10-07 07:30:00', zone: ZONE }),
      ]),
    );
  for (const keyword of ['ab7', 'AB77', 'b77']) {
    const r = await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { keyword } });
    assert.deepEqual(
      r.data.items.map((p: { pin?: string; number?: string }) => p.pin ?? p.number),
      ['AB77'],
      keyword,
    );
  }
});

test(`someone hired mid-month has no results (no absences) before the hire date and normal ones from it (#17) (${DIALECT})`, async () => {
  const db = t.app.database.db;
  const hired = await addPersonWithFace(t, A, { number: '503', name: 'Sun Li', organizations: [dept], pic, joined_on: '2026-10-14' });
  const device = (await db.selectFrom('devices').select('id').where('company_id', '=', A.id).executeTakeFirstOrThrow()).id;
  const punch = (local: string): PunchInsert => plainPunch({ companyId: A.id, deviceId: device, personId: hired, pin: '503', local, zone: ZONE });
  // punches before the hire date (a trial day) count for nothing
  const rows = [punch('2026-10-12 08:55:00'), punch('2026-10-12 18:01:00'), punch('2026-10-15 08:55:00'), punch('2026-10-15 18:01:00')];
  await db.transaction().execute((trx) => punchWriter().insertIgnore(trx, rows));
  await t.app.modules.attendance.recompute.person(A.id, hired, '2026-10-01', '2026-10-31');
  const days = await db
    .selectFrom('attendance_days')
    .select(['date', 'status'])
    .where('person_id', '=', hired)
    .where('date', '<=', '2026-10-31')
    .orderBy('date')
    .execute();
  assert.equal(days[0]?.date, '2026-10-14', 'nothing before the hire date');
  assert.deepEqual(
    days.map((d) => d.date),
    datesBetween('2026-10-14', '2026-10-31'),
  );
  const status = new Map(days.map((d) => [d.date, d.status]));
  assert.equal(status.get('2026-10-14'), 'absent', 'the hire day itself is a working day like any other');
  assert.equal(status.get('2026-10-15'), 'normal');
  const month = await call(t.app, 'GET', '/attendance/report/person', { token: A.main, query: { person_id: hired, month: '2026-10' } });
  assert.equal(month.code, CODES.OK, month.message);
  const absentDays = (month.data.days as any[]).filter((d) => d.status === 'absent').map((d) => d.date);
  assert.ok(
    absentDays.every((d: string) => d >= '2026-10-14'),
    `absent before hire: ${absentDays.join(', ')}`,
  );

  // an earlier hire date recomputed: the days come back; a later one clears the days before it at once
  const save = (joined_on: string) =>
    call(t.app, 'POST', '/person/update', { token: A.main, body: { id: hired, name: 'Sun Li', phone: '139', organizations: [dept], pic, joined_on } });
  assert.equal((await save('2026-10-16')).code, CODES.OK);
  const after16 = await db.selectFrom('attendance_days').select('date').where('person_id', '=', hired).orderBy('date').executeTakeFirst();
  assert.equal(after16?.date, '2026-10-16', 'the save itself removes the results before the new date');
  assert.equal((await save('2026-10-01')).code, CODES.OK);
  await t.app.modules.attendance.recompute.person(A.id, hired, '2026-10-01', '2026-10-31');
  // October only: the queue's job may meanwhile have computed the days since (the hire date moved back, up to today)
  const all = await db
    .selectFrom('attendance_days')
    .select(['date', 'status'])
    .where('person_id', '=', hired)
    .where('date', '<=', '2026-10-31')
    .orderBy('date')
    .execute();
  assert.equal(all.length, 31);
  assert.equal(all.find((d) => d.date === '2026-10-12')?.status, 'normal');
});
