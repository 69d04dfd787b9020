import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type ApplicationDetail, type RuleInput, type WorkflowApp } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { until } from '../../../test/terminals.ts';

/**
 * How a rule counts (#17 items 9, 10, 13): worked time by in/out pairs, punches on days off, overtime only when
 * approved. Each option is stored by the rule route and changes a stored day result.
 */
let t: TestApp;
let A: Company;
let dept: number;
let person: number;
let device: number;
let ruleId: number;
const MON = '2026-11-16'; // a Monday in the past
const TUE = '2026-11-17';
const SUN = '2026-11-22';

const rule = (over: Partial<RuleInput> = {}): RuleInput => ({
  name: 'Counting',
  mode: 'fixed',
  shifts: [{ key: 'd', name: 'Day', start: '09:00', end: '18:00', late_grace_min: 5, early_grace_min: 0 }],
  weekdays: { 0: [], 1: ['d'], 2: ['d'], 3: ['d'], 4: ['d'], 5: ['d'], 6: [] },
  person_ids: [],
  department_ids: [dept],
  ...over,
});

before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Counting A');
  dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Staff' } })).data.id;
  const p = await t.app.database.db
    .insertInto('persons')
    .values({ company_id: A.id, number: '701', name: 'Qian Yu', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  person = p.id;
  await t.app.database.db.insertInto('person_departments').values({ company_id: A.id, person_id: person, department_id: dept }).execute();
  const d = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Gate', serial: 'COUNT001', ip: '10.0.0.7', password: 'pw', attendance_scope: 'all' },
  });
  assert.equal(d.code, CODES.OK, d.message);
  device = d.data.id;
  const r = await call(t.app, 'POST', '/attendance/rule/create', { token: A.main, body: rule() });
  assert.equal(r.code, CODES.OK, r.message);
  ruleId = r.data.id;
});
after(() => t.close());

/** Punches stored as a terminal's would be (wall times in the company's zone, UTC+8). */
async function punch(date: string, ...times: string[]) {
  for (const hm of times) {
    const time = new Date(`${date}T${hm}:00+08:00`).toISOString();
    await t.app.database.db
      .insertInto('punches')
      .values({ company_id: A.id, device_id: device, person_id: person, pin: '701', local_time: `${date} ${hm}:00`, time, created_at: time } as never)
      .execute();
  }
}
const update = async (over: Partial<RuleInput>) => {
  // effective from the start of the month the tests punch in (an edit otherwise applies from today)
  const r = await call(t.app, 'POST', '/attendance/rule/update', { token: A.main, body: { ...rule(over), id: ruleId, effective_from: '2026-11-01' } });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data;
};
/** The stored day result once it satisfies `ok` (the rule's save queues its people; the job runs every second). */
const stored = (what: string, date: string, ok: (d: { status: string; worked_min: number; overtime_min: number }) => boolean) =>
  until(what, async () => {
    const r = await call(t.app, 'GET', '/attendance/day/list', { token: A.main, query: { date } });
    const row = r.data?.items.find((x: { person_id: number }) => x.person_id === person);
    return row && ok(row) ? row : undefined;
  });
const info = async (date: string) => (await call(t.app, 'GET', '/attendance/day/info', { token: A.main, query: { person_id: person, date } })).data;
const keys = (d: { why: { key: string }[] }) => d.why.map((w) => w.key);

test(`worked time by in/out pairs: stored on the rule, and a break clocked out for is no longer worked (${DIALECT})`, async () => {
  const created = (await call(t.app, 'GET', '/attendance/rule/info', { token: A.main, query: { id: ruleId } })).data;
  assert.equal(created.worked_by, 'firstLast', "today's behaviour by default");
  await punch(MON, '08:55', '10:00', '10:30', '18:02');
  await call(t.app, 'POST', '/attendance/recalculate', { token: A.main, body: { from: MON, to: SUN } });
  await stored('first → last: 540 min', MON, (d) => d.worked_min === 540);
  const saved = await update({ worked_by: 'pairs' });
  assert.equal(saved.worked_by, 'pairs');
  assert.equal((await call(t.app, 'GET', '/attendance/rule/info', { token: A.main, query: { id: ruleId } })).data.worked_by, 'pairs');
  const d = await stored('pairs: the half hour out is not worked', MON, (x) => x.worked_min === 510);
  assert.equal(d.status, 'normal');
  const explained = await info(MON);
  assert.ok(keys(explained).includes('att.why.pairsAlternating'), JSON.stringify(explained.why));
  assert.equal(explained.why.filter((w: { key: string }) => w.key === 'att.why.pair').length, 2);
  assert.ok(
    explained.punches.every((p: { used: boolean }) => p.used),
    'the break punches are used in pairs',
  );
  const bad = await call(t.app, 'POST', '/attendance/rule/update', { token: A.main, lang: 'en-US', body: { ...rule(), id: ruleId, worked_by: 'sum' } });
  assert.equal(bad.code, CODES.VALIDATION, 'an unknown counting mode is refused');
  await update({ worked_by: 'firstLast' });
});

test(`punches on a rest day: rest-day overtime by default; ignored when the rule does not count them (${DIALECT})`, async () => {
  await punch(SUN, '09:00', '15:00');
  await call(t.app, 'POST', '/attendance/recalculate', { token: A.main, body: { from: SUN, to: SUN } });
  const counted = await stored('six hours of rest-day overtime', SUN, (d) => d.overtime_min === 360);
  assert.equal(counted.status, 'rest');
  assert.equal((await call(t.app, 'GET', '/attendance/rule/info', { token: A.main, query: { id: ruleId } })).data.count_off_day_punches, true);
  const saved = await update({ count_off_day_punches: false });
  assert.equal(saved.count_off_day_punches, false);
  const ignored = await stored('no overtime on the rest day', SUN, (d) => d.overtime_min === 0);
  assert.equal(ignored.status, 'rest');
  assert.equal(ignored.worked_min, 0);
  const explained = await info(SUN);
  assert.ok(keys(explained).includes('att.why.offDayIgnored'), JSON.stringify(explained.why));
  assert.ok(explained.punches.every((p: { used: boolean; detail?: { key: string } }) => !p.used && p.detail?.key === 'att.why.ignored.offDay'));
  await update({ count_off_day_punches: true });
});

test(`overtime only when approved: none without an approved application, then capped at the approved period (${DIALECT})`, async () => {
  await punch(TUE, '08:55', '20:00');
  await call(t.app, 'POST', '/attendance/recalculate', { token: A.main, body: { from: TUE, to: TUE } });
  await stored('two hours of overtime', TUE, (d) => d.overtime_min === 120);
  const saved = await update({ overtime_needs_approval: true });
  assert.equal(saved.overtime_needs_approval, true);
  const none = await stored('no approved overtime', TUE, (d) => d.overtime_min === 0);
  assert.equal(none.worked_min, 540);
  assert.ok(keys(await info(TUE)).includes('att.why.overtimeNotApproved'));
  // An overtime application for 18:00–19:00, approved by the administrator.
  const apps = (await call<{ items: WorkflowApp[] }>(t.app, 'GET', '/workflow/app/list', { token: A.main })).data.items;
  const app = apps.find((a) => a.kind === 'overtime')!;
  let a = (
    await call<ApplicationDetail>(t.app, 'POST', '/workflow/approval/create', {
      token: A.main,
      body: {
        app_id: app.id,
        person_id: person,
        values: { period: { from: `${TUE}T10:00:00.000Z`, to: `${TUE}T11:00:00.000Z` }, reason: 'Release' },
      },
    })
  ).data;
  assert.ok(a, 'the application is made');
  while (a.status === 0 && a.current) {
    const r = await call<ApplicationDetail>(t.app, 'POST', '/workflow/approval/decide', {
      token: A.main,
      body: { id: a.id, step_id: a.current.step_id, decision: 'approve', comment: '' },
    });
    assert.equal(r.code, CODES.OK, r.message);
    a = r.data;
  }
  assert.equal(a.status, 1);
  const capped = await stored('capped at the approved hour', TUE, (d) => d.overtime_min === 60);
  assert.equal(capped.worked_min, 540, 'approved overtime is no leave');
  const why = (await info(TUE)).why.find((w: { key: string }) => w.key === 'att.why.overtimeApproved');
  assert.deepEqual(why?.params, { minutes: 120, approved: 60, overtime: 60 });
  // Without the option the same approval changes nothing: overtime is computed from the punches.
  await update({ overtime_needs_approval: false });
  await stored('overtime from the punches again', TUE, (d) => d.overtime_min === 120);
});
