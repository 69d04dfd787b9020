import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { CODES, type ApplicationDetail, type WorkflowApp } from '@faceadmin/shared';
import { addPersonWithFace } from '../../../test/files.ts';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { plainPunch, punchWriter } from '../punches/punches.repository.ts';

/**
 * Leave in the figures (#17 items 2, 14, 16): a partial-day leave on a day without punches is leave for its
 * covered part and absent for the rest (a half day by the thresholds); day results, the month report and the
 * exports carry leave minutes by leave type, out-of-office and absent minutes; the month export is the payroll
 * sheet (title, department, a day grid with the legend's symbols).
 */
let t: TestApp;
let A: Company;
let B: Company;
let wang: number; // 601: an approved half day of annual leave on Monday 5 October, no punch
let li: number; // 602: a morning of sick leave recorded by hand on Tuesday 6 October, no punch
// 603 (#18): a morning's leave then the afternoon worked on the 5th, a whole day's leave on the 7th, an hour's on the 8th
let zhao: number;
const ok = (r: { code: number; message: string; data?: any }, what = '') => {
  assert.equal(r.code, CODES.OK, `${what} ${r.code} ${r.message}`);
  return r.data;
};
const at = (local: string) => new Date(`${local.replace(' ', 'T')}:00+08:00`).toISOString();

before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Leave Co');
  B = await makeCompany(t, 'Leave B');
  const dept = ok(await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Finance' } })).id as number;
  wang = await addPersonWithFace(t, A, { number: '601', name: 'Wang Fang', organizations: [dept] });
  li = await addPersonWithFace(t, A, { number: '602', name: 'Li Na', organizations: [dept] });
  zhao = await addPersonWithFace(t, A, { number: '603', name: 'Zhao Lei', organizations: [dept] });
  ok(
    await call(t.app, 'POST', '/attendance/rule/create', {
      token: A.main,
      body: {
        name: 'Office',
        mode: 'fixed',
        shifts: [{ key: 'd', name: 'Day', start: '09:00', end: '18:00', breaks: [{ start: '12:00', end: '13:00', deducted: true }] }],
        weekdays: { 0: [], 1: ['d'], 2: ['d'], 3: ['d'], 4: ['d'], 5: ['d'], 6: [] },
        person_ids: [],
        department_ids: [dept],
      },
    }),
    'rule',
  );
  // Wang: a leave application (annual, 09:00–14:00) an administrator files and approves (no head: administrators decide).
  const leaveApp = (ok(await call(t.app, 'GET', '/workflow/app/list', { token: A.main })).items as WorkflowApp[]).find((a) => a.kind === 'leave')!;
  const made = ok(
    await call<ApplicationDetail>(t.app, 'POST', '/workflow/approval/create', {
      token: A.main,
      body: {
        app_id: leaveApp.id,
        person_id: wang,
        values: { leave_type: 'annual', period: { from: at('2026-10-05 09:00'), to: at('2026-10-05 14:00') }, reason: 'Bank' },
      },
    }),
    'apply',
  ) as ApplicationDetail;
  const decided = ok(
    await call<ApplicationDetail>(t.app, 'POST', '/workflow/approval/decide', {
      token: A.main,
      body: { id: made.id, step_id: made.current!.step_id, decision: 'approve', comment: '' },
    }),
    'approve',
  ) as ApplicationDetail;
  assert.equal(decided.status, 1, 'approved');
  // Li: a morning of sick leave recorded by hand (09:00–13:00: 180 minutes of the 480).
  ok(
    await call(t.app, 'POST', '/attendance/absence/create', {
      token: A.main,
      body: { person_id: li, kind: 'leave', leave_type: 'sick', from: at('2026-10-06 09:00'), to: at('2026-10-06 13:00'), reason: 'Dentist' },
    }),
    'absence',
  );
  for (const [from, to] of [
    ['2026-10-05 09:00', '2026-10-05 13:00'],
    ['2026-10-07 09:00', '2026-10-07 18:00'],
    ['2026-10-08 09:00', '2026-10-08 10:00'],
  ])
    ok(
      await call(t.app, 'POST', '/attendance/absence/create', {
        token: A.main,
        body: { person_id: zhao, kind: 'leave', leave_type: 'annual', from: at(from!), to: at(to!), reason: 'Errand' },
      }),
      `absence ${from}`,
    );
  const device = ok(
    await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Gate', serial: 'LEA001', ip: '10.0.0.1', password: 'pw' } }),
  ).id;
  const punches = ['2026-10-05 13:00:00', '2026-10-05 18:00:00', '2026-10-08 10:00:00', '2026-10-08 18:00:00'].map((local) =>
    plainPunch({ companyId: A.id, deviceId: device, personId: zhao, pin: '603', local, zone: 'Asia/Shanghai' }),
  );
  await t.app.database.db.transaction().execute((trx) => punchWriter().insertIgnore(trx, punches));
  for (const id of [wang, li, zhao]) await t.app.modules.attendance.recompute.person(A.id, id, '2026-10-01', '2026-10-31');
});
after(() => t.close());

test(`a half-day leave and no punch is a half day: 240 leave and 240 absent minutes, by leave type, in the day list and the day (${DIALECT})`, async () => {
  const list = ok(await call(t.app, 'GET', '/attendance/day/list', { token: A.main, query: { date: '2026-10-05' } }));
  const row = list.items.find((r: { person_id: number }) => r.person_id === wang);
  assert.deepEqual(
    [row.status, row.leave_min, row.absent_min, row.out_min, row.leave_kinds],
    ['halfDay', 240, 240, 0, { annual: 240 }],
    'the covered part is leave, only the rest absent',
  );
  const info = ok(await call(t.app, 'GET', '/attendance/day/info', { token: A.main, query: { person_id: wang, date: '2026-10-05' } }));
  assert.deepEqual([info.status, info.leave_min, info.absent_min, info.leave_kinds], ['halfDay', 240, 240, { annual: 240 }]);
  assert.ok(info.why.some((w: { key: string }) => w.key === 'att.why.partialHalfDay'));
  // Below half the day (180 of 480 covered): absent, but only for the 300 minutes not on leave.
  const li6 = ok(await call(t.app, 'GET', '/attendance/day/info', { token: A.main, query: { person_id: li, date: '2026-10-06' } }));
  assert.deepEqual([li6.status, li6.leave_min, li6.absent_min, li6.leave_kinds], ['absent', 180, 300, { sick: 180 }]);
  // A day with no leave and no punch: all of it absent minutes.
  const li7 = ok(await call(t.app, 'GET', '/attendance/day/info', { token: A.main, query: { person_id: li, date: '2026-10-07' } }));
  assert.deepEqual([li7.status, li7.leave_min, li7.absent_min], ['absent', 0, 480]);
});

test(`a leave type is only for leave, and the absence list shows it (${DIALECT})`, async () => {
  const bad = await call(t.app, 'POST', '/attendance/absence/create', {
    token: A.main,
    lang: 'en-US',
    body: { person_id: li, kind: 'out', leave_type: 'sick', from: at('2026-10-08 09:00'), to: at('2026-10-08 10:00'), reason: 'Client' },
  });
  assert.equal(bad.code, CODES.RULE);
  assert.equal(bad.data.field, 'leave_type');
  assert.match(bad.message, /Leave type/);
  const list = ok(await call(t.app, 'GET', '/attendance/absence/list', { token: A.main, query: { person_id: li, from: '2026-10-06', to: '2026-10-06' } }));
  assert.equal(list.items[0].leave_type, 'sick');
});

test(`the month report and a person's month carry leave, out and absent minutes, leave by type, the department and the day grid (${DIALECT})`, async () => {
  const month = ok(await call(t.app, 'GET', '/attendance/report/month', { token: A.main, lang: 'en-US', query: { month: '2026-10' } }));
  const w = month.items.find((r: { person_id: number }) => r.person_id === wang);
  assert.equal(w.department, 'Finance');
  assert.equal(w.leave_min, 240);
  assert.deepEqual(w.leave_kinds, { annual: 240 });
  assert.equal(w.absent_min, 21 * 480 + 240, '21 other working days absent, and half of the 5th');
  assert.equal(w.days.length, 31);
  assert.deepEqual(
    w.days.find((d: { date: string }) => d.date === '2026-10-05'),
    { date: '2026-10-05', status: 'halfDay', minutes: 240 },
  );
  assert.deepEqual(
    w.days.find((d: { date: string }) => d.date === '2026-10-04'),
    { date: '2026-10-04', status: 'rest', minutes: 0 },
  );
  const types = month.leave_types.map((x: { value: string; label: string }) => [x.value, x.label]);
  assert.deepEqual(types[0], ['annual', 'Annual leave']);
  assert.ok(types.some(([v]: [string]) => v === 'other'));
  const person = ok(await call(t.app, 'GET', '/attendance/report/person', { token: A.main, query: { person_id: li, month: '2026-10' } }));
  const d6 = person.days.find((d: { date: string }) => d.date === '2026-10-06');
  assert.deepEqual([d6.leave_min, d6.absent_min, d6.leave_kinds], [180, 300, { sick: 180 }]);
  assert.deepEqual(person.totals.leave_kinds, { sick: 180 });
  // Another company sees none of it.
  const other = ok(await call(t.app, 'GET', '/attendance/report/month', { token: B.main, query: { month: '2026-10' } }));
  assert.equal(other.total, 0);
});

async function workbook(url: string, payload: object) {
  const r = await t.app.inject({ method: 'POST', url: `/api/management${url}`, headers: { 'x-token': A.main, 'x-lang': 'en-US' }, payload });
  assert.equal(r.statusCode, 200, r.body.slice(0, 300));
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
  return wb.worksheets[0]!;
}
async function xlsx(url: string, payload: object) {
  const sheet = await workbook(url, payload);
  return Array.from({ length: sheet.rowCount }, (_, i) => (sheet.getRow(i + 1).values as unknown[]).slice(1));
}

test(`the month export is the payroll sheet: title, legend, department, a day grid with symbols and minutes, leave by type (${DIALECT})`, async () => {
  const rows = await xlsx('/attendance/report/export', { month: '2026-10' });
  const [title, legend, header] = [rows[0]!, rows[1]!, rows[2]!];
  assert.match(String(title[0]), /Leave Co/);
  assert.match(String(title[0]), /2026-10/);
  assert.match(String(legend[0]), /½ Half day/);
  assert.deepEqual(header.slice(0, 4), ['Number', 'Name', 'Department', '1']);
  assert.equal(header[3 + 30], '31', 'one column per day of October');
  const col = (name: string) => {
    const i = header.indexOf(name);
    assert.ok(i >= 0, `a column ${name}: ${header.join(' | ')}`);
    return i;
  };
  const byNumber = new Map(rows.slice(3).map((r) => [r[0], r]));
  const w = byNumber.get('601')!;
  const l = byNumber.get('602')!;
  assert.equal(w[col('Department')], 'Finance');
  assert.equal(w[col('5')], '½ 240', 'a half day, 240 minutes absent');
  assert.equal(w[col('4')], 'R', 'a Sunday: rest');
  assert.equal(l[col('6')], 'A 300', 'absent for the part not on leave');
  assert.equal(w[col('Annual leave (min)')], 240);
  assert.equal(l[col('Sick leave (min)')], 180);
  assert.equal(w[col('Leave (min)')], 240);
  assert.equal(w[col('Absent (min)')], 21 * 480 + 240);
  assert.equal(w[col('Out of office (min)')], 0);
  // Number, name and department stay in view beside the grid, and the title rows and header above it.
  const view = (await workbook('/attendance/report/export', { month: '2026-10' })).views[0];
  assert.deepEqual([view?.state, view && 'xSplit' in view ? view.xSplit : null, view && 'ySplit' in view ? view.ySplit : null], ['frozen', 3, 3]);
});

test(`the day export carries leave, out and absent minutes and a column per leave type (${DIALECT})`, async () => {
  const rows = await xlsx('/attendance/day/export', { from: '2026-10-05', to: '2026-10-06' });
  const header = rows[0]!;
  const col = (name: string) => header.indexOf(name);
  const row = rows.find((r) => r[0] === '2026-10-05' && r[1] === '601')!;
  assert.equal(row[col('Result')], 'Half day');
  assert.equal(row[col('Leave (min)')], 240);
  assert.equal(row[col('Annual leave (min)')], 240);
  assert.equal(row[col('Absent (min)')], 240);
  const li6 = rows.find((r) => r[0] === '2026-10-06' && r[1] === '602')!;
  assert.equal(li6[col('Sick leave (min)')], 180);
});

test(`leave days count to the half day: a morning's leave is 0.5 in the day, the month totals and both exports (${DIALECT})`, async () => {
  // The day: leave minutes over the day's scheduled minutes (480), to the nearest half day.
  const day = async (person: number, date: string) => {
    const list = ok(await call(t.app, 'GET', '/attendance/day/list', { token: A.main, query: { date } }));
    const row = list.items.find((r: { person_id: number }) => r.person_id === person);
    const info = ok(await call(t.app, 'GET', '/attendance/day/info', { token: A.main, query: { person_id: person, date } }));
    assert.equal(info.leave_days, row.leave_days, `${date}: the day and the list agree`);
    return [row.status, row.leave_min, row.leave_days];
  };
  assert.deepEqual(await day(wang, '2026-10-05'), ['halfDay', 240, 0.5], '09:00–14:00 and no punch');
  assert.deepEqual(await day(li, '2026-10-06'), ['absent', 180, 0.5], '09:00–13:00 (180 of 480) is still half a day of leave');
  assert.deepEqual(await day(zhao, '2026-10-05'), ['normal', 180, 0.5], 'a morning on leave, the afternoon worked');
  assert.deepEqual(await day(zhao, '2026-10-07'), ['leave', 480, 1], 'a whole day');
  assert.deepEqual(await day(zhao, '2026-10-08'), ['normal', 60, 0], 'an hour is less than a quarter of the day');
  assert.equal(await day(li, '2026-10-07').then((d) => d[2]), 0, 'no leave, no leave days');

  // The month totals: the month report and a person's month.
  const month = ok(await call(t.app, 'GET', '/attendance/report/month', { token: A.main, query: { month: '2026-10' } }));
  const total = (person: number) => month.items.find((r: { person_id: number }) => r.person_id === person).leave_days;
  assert.deepEqual([total(wang), total(li), total(zhao)], [0.5, 0.5, 1.5]);
  const person = ok(await call(t.app, 'GET', '/attendance/report/person', { token: A.main, query: { person_id: zhao, month: '2026-10' } }));
  assert.equal(person.totals.leave_days, 1.5);
  assert.equal(person.days.find((d: { date: string }) => d.date === '2026-10-05').leave_days, 0.5);

  // The payroll sheet and the day export.
  const rows = await xlsx('/attendance/report/export', { month: '2026-10' });
  const header = rows[2]!;
  const days = header.indexOf('Leave (days)');
  assert.ok(days >= 0, header.join(' | '));
  const byNumber = new Map(rows.slice(3).map((r) => [r[0], r]));
  assert.deepEqual(
    ['601', '602', '603'].map((n) => byNumber.get(n)![days]),
    [0.5, 0.5, 1.5],
  );
  const dayRows = await xlsx('/attendance/day/export', { from: '2026-10-05', to: '2026-10-08' });
  const dayCol = dayRows[0]!.indexOf('Leave (days)');
  assert.ok(dayCol >= 0, dayRows[0]!.join(' | '));
  const cell = (date: string, number: string) => dayRows.find((r) => r[0] === date && r[1] === number)![dayCol];
  assert.deepEqual([cell('2026-10-05', '603'), cell('2026-10-07', '603'), cell('2026-10-08', '603'), cell('2026-10-05', '601')], [0.5, 1, 0, 0.5]);

  // A result hand-set to leave is one leave day, whatever was computed.
  ok(
    await call(t.app, 'POST', '/attendance/day/manual', {
      token: A.main,
      body: { person_id: zhao, date: '2026-10-08', status: 'leave', reason: 'Whole day after all' },
    }),
  );
  assert.equal((await day(zhao, '2026-10-08'))[2], 1);
  const after = ok(await call(t.app, 'GET', '/attendance/report/person', { token: A.main, query: { person_id: zhao, month: '2026-10' } }));
  assert.equal(after.totals.leave_days, 2.5);
});
