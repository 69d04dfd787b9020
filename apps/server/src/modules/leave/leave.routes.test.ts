import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { CODES, type ApplicationDetail, type LeaveBalance, type LeavePolicy, type WorkflowApp } from '@faceadmin/shared';
import { API, call, CAPTCHA, captcha, DIALECT, makeApp, makeCompany, nextIp, type Answer, type Company, type TestApp } from '../../../test/helpers.ts';
import { addPersonWithFace, upload } from '../../../test/files.ts';
import { leaveOnApproved } from './leave.service.ts';

/**
 * Leave balances (#17 item 15), on SQLite and PostgreSQL: a quota set by hand, approval deducting the leave's
 * working time only (a weekend inside it is free), cancellation giving it back, the refusal below zero at
 * application and at approval unless the type allows it, the seniority rule from the hire date, the import and
 * the export, the balance on the approver's view and the self-service page, tenancy.
 */
let t: TestApp;
let A: Company;
let B: Company;
let leave: WorkflowApp;
const ids = { dept: 0, alice: 0, old: 0, fresh: 0 };
const phone = '13900000301';

const ok = <T>(r: Answer<T>, what = '') => {
  assert.equal(r.code, CODES.OK, `${what} ${r.code} ${r.message}`);
  return r.data;
};
/** Local (Asia/Shanghai) wall times of November 2026: Monday the 16th, Friday the 20th, Monday the 23rd. */
const at = (day: number, hm: string) => new Date(`2026-11-${String(day).padStart(2, '0')}T${hm}:00+08:00`).toISOString();
const values = (fromDay: number, toDay: number, type = 'annual') => ({
  leave_type: type,
  period: { from: at(fromDay, '09:00'), to: at(toDay, '18:00') },
  reason: 'Holiday',
});
const apply = (fromDay: number, toDay: number, type = 'annual') =>
  call<ApplicationDetail>(t.app, 'POST', '/workflow/approval/create', {
    token: A.main,
    lang: 'en-US',
    body: { app_id: leave.id, person_id: ids.alice, values: values(fromDay, toDay, type) },
  });
const approve = (a: ApplicationDetail) =>
  call<ApplicationDetail>(t.app, 'POST', '/workflow/approval/decide', {
    token: A.main,
    lang: 'en-US',
    body: { id: a.id, step_id: a.current!.step_id, decision: 'approve', comment: '' },
  });
const balance = async (personId: number, type = 'annual', year = 2026) =>
  ok(
    await call<{ items: LeaveBalance[] }>(t.app, 'GET', '/attendance/balance/list', { token: A.main, query: { year, leave_type: type, pageSize: 100 } }),
  ).items.find((b) => b.person_id === personId)!;
const policy = (p: Partial<LeavePolicy>): LeavePolicy => ({
  leave_type: 'annual',
  tracked: true,
  allow_negative: false,
  mode: 'manual',
  days: 0,
  tiers: [],
  accrual: 'year',
  carry_max: 0,
  carry_months: 0,
  ...p,
});
const savePolicy = async (p: Partial<LeavePolicy>) => ok(await call(t.app, 'POST', '/attendance/balance/policy', { token: A.main, body: policy(p) }));
const setQuota = (personId: number, quota: number | null, type = 'annual') =>
  call<LeaveBalance>(t.app, 'POST', '/attendance/balance/set', { token: A.main, body: { person_id: personId, leave_type: type, year: 2026, quota } });

before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Leave A');
  B = await makeCompany(t, 'Leave B');
  ids.dept = ok(await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Staff' } })).id;
  ids.alice = await addPersonWithFace(t, A, { number: '201', name: 'Alice', organizations: [ids.dept], joined_on: '2024-05-01', phone });
  ids.old = await addPersonWithFace(t, A, { number: '202', name: 'Old Hand', organizations: [ids.dept], joined_on: '2014-03-10', phone: '13900000302' });
  ids.fresh = await addPersonWithFace(t, A, { number: '203', name: 'New Hire', organizations: [ids.dept], joined_on: '2026-07-15', phone: '13900000303' });
  leave = ok(await call<{ items: WorkflowApp[] }>(t.app, 'GET', '/workflow/app/list', { token: A.main })).items.find((a) => a.kind === 'leave')!;
});
after(() => t.close());

test(`a quota set by hand is the balance; another company's person is not found (${DIALECT})`, async () => {
  await savePolicy({});
  const set = ok(await setQuota(ids.alice, 5), 'set');
  assert.deepEqual([set.quota, set.used, set.remaining, set.source], [5, 0, 5, 'manual']);
  assert.equal((await balance(ids.alice)).remaining, 5);
  const found = ok(
    await call<{ items: LeaveBalance[]; total: number }>(t.app, 'GET', '/attendance/balance/list', {
      token: A.main,
      query: { year: 2026, leave_type: 'annual', keyword: 'ALI' },
    }),
  );
  assert.deepEqual(
    found.items.map((b) => [b.name, b.department]),
    [['Alice', 'Staff']],
  );
  assert.equal(set.department, 'Staff', 'the saved balance names the department too');
  const foreign = await call(t.app, 'POST', '/attendance/balance/set', {
    token: B.main,
    body: { person_id: ids.alice, leave_type: 'annual', year: 2026, quota: 3 },
  });
  assert.equal(foreign.code, CODES.NOT_FOUND);
  const half = await call(t.app, 'POST', '/attendance/balance/set', {
    token: A.main,
    lang: 'en-US',
    body: { person_id: ids.alice, leave_type: 'annual', year: 2026, quota: 1.3 },
  });
  assert.equal(half.code, CODES.RULE, 'days go by halves');
  assert.match(half.message, /half days/);
});

test(`approval deducts the working time only, once; cancellation gives it back (${DIALECT})`, async () => {
  ok(await setQuota(ids.alice, 5));
  // Friday to Monday: the weekend between is not deducted.
  const made = ok(await apply(20, 23), 'apply');
  assert.equal(made.leave_balance?.remaining, 5, "the approver sees the applicant's balance");
  assert.equal(made.leave_balance?.pending, 2);
  const done = ok(await approve(made), 'approve');
  assert.equal(done.status, 1);
  let b = await balance(ids.alice);
  assert.deepEqual([b.used, b.pending, b.remaining], [2, 0, 3]);
  // A retried approval never deducts twice.
  const again = await approve(made);
  assert.equal(again.code, CODES.CONFLICT);
  const row = (await t.app.database.db.selectFrom('workflow_applications').selectAll().where('id', '=', made.id).executeTakeFirst())!;
  await leaveOnApproved(t.app.database.db, 'en-US', A.id, row);
  assert.equal((await balance(ids.alice)).used, 2);
  const rows = await t.app.database.db.selectFrom('leave_ledger').selectAll().where('application_id', '=', made.id).execute();
  assert.deepEqual(
    rows.map((r) => [Number(r.days), r.minutes, r.date]),
    [[2, 960, '2026-11-20']],
  );
  ok(await call(t.app, 'POST', '/workflow/approval/withdraw', { token: A.main, body: { id: made.id, reason: 'Cancelled trip' } }), 'cancel');
  b = await balance(ids.alice);
  assert.deepEqual([b.used, b.remaining], [0, 5]);
  // A holiday inside the leave is not deducted either.
  const h = ok(
    await call<{ id: number }>(t.app, 'POST', '/attendance/holiday/create', {
      token: A.main,
      body: { name: 'Day off', kind: 'holiday', from_date: '2026-11-23', to_date: '2026-11-23', rule_ids: [] },
    }),
  );
  const second = ok(await apply(20, 23));
  ok(await approve(second));
  assert.deepEqual([(await balance(ids.alice)).used, (await balance(ids.alice)).remaining], [1, 4]);
  ok(await call(t.app, 'POST', '/workflow/approval/withdraw', { token: A.main, body: { id: second.id, reason: 'x' } }));
  ok(await call(t.app, 'POST', '/attendance/holiday/delete', { token: A.main, body: { id: h.id } }));
});

test(`below zero is refused at application and at approval unless the type allows it (${DIALECT})`, async () => {
  ok(await setQuota(ids.alice, 5));
  // Monday 16 to Monday 23: six working days.
  const big = await apply(16, 23);
  assert.equal(big.code, CODES.RULE);
  assert.match(big.message, /Annual leave/);
  assert.match(big.message, /5 days available, 6 days asked/);
  // At approval: the quota went down while it waited.
  const three = ok(await apply(16, 18));
  ok(await setQuota(ids.alice, 1));
  const refused = await approve(three);
  assert.equal(refused.code, CODES.RULE);
  assert.match(refused.message, /1 days available, 3 days asked/);
  assert.equal((await balance(ids.alice)).used, 0, 'nothing deducted');
  // Allowed to go below zero: applied and approved, the balance negative.
  await savePolicy({ allow_negative: true });
  const done = ok(await approve(three), 'approve');
  assert.equal(done.status, 1);
  assert.equal((await balance(ids.alice)).remaining, -2);
  ok(await call(t.app, 'POST', '/workflow/approval/withdraw', { token: A.main, body: { id: three.id, reason: 'x' } }));
  await savePolicy({});
  // An untracked type is never refused.
  const sick = ok(await apply(16, 23, 'sick'), 'sick');
  assert.equal(sick.leave_balance, null);
  ok(await call(t.app, 'POST', '/workflow/approval/withdraw', { token: A.main, body: { id: sick.id, reason: 'x' } }));
});

test(`the seniority rule computes the quota from the hire date (${DIALECT})`, async () => {
  await savePolicy({
    mode: 'seniority',
    tiers: [
      { years: 0, days: 5 },
      { years: 1, days: 10 },
      { years: 10, days: 15 },
    ],
  });
  // Hired 2014-03-10: 11 full years on 1 January 2026.
  const old = await balance(ids.old);
  assert.deepEqual([old.quota, old.source], [15, 'rule']);
  // Hired 2024-05-01: one full year.
  ok(await setQuota(ids.alice, null));
  assert.equal((await balance(ids.alice)).quota, 10);
  // Hired 15 July 2026: the first tier for the six months left, to the half day.
  assert.equal((await balance(ids.fresh)).quota, 2.5);
  const bad = await call(t.app, 'POST', '/attendance/balance/policy', {
    token: A.main,
    lang: 'en-US',
    body: policy({
      mode: 'seniority',
      tiers: [
        { years: 1, days: 1 },
        { years: 1, days: 2 },
      ],
    }),
  });
  assert.equal(bad.code, CODES.RULE);
  const unknown = await call(t.app, 'POST', '/attendance/balance/policy', { token: A.main, body: policy({ leave_type: 'nope' }) });
  assert.equal(unknown.code, CODES.RULE);
});

test(`quotas import from a sheet and the report exports as one (${DIALECT})`, async () => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('q');
  ws.addRow(['Number', 'Leave type', 'Year', 'Quota', 'Carried over']);
  ws.addRow(['202', 'Annual leave', 2026, 12, 2]);
  ws.addRow(['203', 'annual', 2026, 4.5, null]);
  const data = Buffer.from(await wb.xlsx.writeBuffer());
  const r = ok(await upload(t, '/attendance/balance/import', A.main, { name: 'q.xlsx', data }), 'import');
  assert.deepEqual([r.total, r.created, r.updated, r.errors.length, r.written], [2, 2, 0, 0, true]);
  const old = await balance(ids.old);
  assert.deepEqual([old.quota, old.carried, old.remaining, old.source], [12, 2, 14, 'import']);
  // A wrong row saves nothing and names the row.
  const wb2 = new ExcelJS.Workbook();
  const ws2 = wb2.addWorksheet('q');
  ws2.addRow(['Number', 'Leave type', 'Year', 'Quota']);
  ws2.addRow(['999', 'annual', 2026, 1]);
  const r2 = ok(await upload(t, '/attendance/balance/import', A.main, { name: 'q.xlsx', data: Buffer.from(await wb2.xlsx.writeBuffer()) }));
  assert.deepEqual([r2.written, r2.failed, r2.errors[0]?.row], [false, 1, 2]);

  const res = await t.app.inject({
    method: 'POST',
    url: `${API}/attendance/balance/export`,
    headers: { 'x-token': A.main, 'x-lang': 'en-US' },
    payload: { year: 2026 },
  });
  assert.equal(res.statusCode, 200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), [
    'Number',
    'Name',
    'Department',
    'Leave type',
    'Year',
    'Quota',
    'Carried over',
    'Used',
    'Pending',
    'Remaining',
  ]);
  const oldRow = sheet.getRows(2, sheet.rowCount - 1)!.find((x) => x.getCell(1).value === '202')!;
  assert.deepEqual((oldRow.values as unknown[]).slice(1), ['202', 'Old Hand', 'Staff', 'Annual leave', 2026, 12, 2, 0, 0, 14]);
});

test(`the person sees their own balances on the self-service page (${DIALECT})`, async () => {
  const ip = nextIp();
  ok(await call(t.app, 'POST', '/self/sendcode', { ip, body: { phone, icode: CAPTCHA, captcha_id: await captcha(t.app, ip) } }), 'code');
  const code = t.sms.filter((x) => x.phone === phone).at(-1)!.code;
  const token = ok(await call<{ token: string }>(t.app, 'POST', '/self/login', { ip, body: { phone, code } }), 'login').token;
  const res = await t.app.inject({
    method: 'GET',
    url: `${API}/self/leave/balance`,
    headers: { 'x-person-token': token, 'x-lang': 'en-US' },
    query: { year: '2026' },
  });
  const mine = res.json<Answer<{ year: number; items: LeaveBalance[] }>>();
  assert.equal(mine.code, CODES.OK);
  assert.deepEqual(
    mine.data.items.map((b) => [b.leave_type, b.label, b.quota]),
    [['annual', 'Annual leave', 10]],
  );
});
