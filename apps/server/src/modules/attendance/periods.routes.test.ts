import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type RuleInput } from '@faceadmin/shared';
import { addPersonWithFace } from '../../../test/files.ts';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { plainPunch, punchWriter } from '../punches/punches.repository.ts';

/**
 * Rule history and closed periods (#17 item 6): a rule's members and edits apply from an effective date, earlier
 * days keep the rule they had; a closed period is neither recalculated nor edited until it is reopened.
 */
let t: TestApp;
let A: Company;
let B: Company;
let device: number;
const ZONE = 'Asia/Shanghai';
const EARLY = '2026-10-06'; // a Tuesday before the change
const LATE = '2026-10-20'; // a Tuesday after it
const CHANGE = '2026-10-15';

const office = (name: string, start: string, end: string, department_ids: number[], person_ids: number[] = []): RuleInput => ({
  name,
  mode: 'fixed',
  shifts: [{ key: 'd', name: 'Day', start, end }],
  weekdays: { 0: [], 1: ['d'], 2: ['d'], 3: ['d'], 4: ['d'], 5: ['d'], 6: [] },
  person_ids,
  department_ids,
});

before(async () => {
  t = await makeApp();
  // The recompute job (every second) would race the queue these tests read and work by hand: once, on a busy machine,
  // it ran between the reopen's answer and the progress read, and the pending counts differed.
  await t.app.jobs.stop();
  A = await makeCompany(t, 'Periods A');
  B = await makeCompany(t, 'Periods B');
  device = (await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Gate', serial: 'PER001', ip: '10.0.0.1', password: 'pw' } })).data.id;
});
after(() => t.close());

/** A department under a 09:00–18:00 rule, one person in it who punched 09:30–18:00 on both Tuesdays (late 30). */
async function setUp(tag: string) {
  const dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: `Staff ${tag}` } })).data.id as number;
  const number = `P${tag}`;
  const person = await addPersonWithFace(t, A, { number, name: `Person ${tag}`, organizations: [dept] });
  const r = await call(t.app, 'POST', '/attendance/rule/create', { token: A.main, body: office(`Office ${tag}`, '09:00', '18:00', [dept]) });
  assert.equal(r.code, CODES.OK, r.message);
  await punch(person, number, [`${EARLY} 09:30:00`, `${EARLY} 18:00:00`, `${LATE} 09:30:00`, `${LATE} 18:00:00`]);
  await t.app.modules.attendance.recompute.person(A.id, person, '2026-10-01', '2026-10-31');
  return { dept, person, number, ruleId: r.data.id as number };
}
async function punch(person: number, pin: string, locals: string[]) {
  const rows = locals.map((local) => plainPunch({ companyId: A.id, deviceId: device, personId: person, pin, local, zone: ZONE }));
  await t.app.database.db.transaction().execute((trx) => punchWriter().insertIgnore(trx, rows));
}
/** The stored result of a person-day (what lists and reports read). */
const stored = (person: number, date: string) =>
  t.app.database.db
    .selectFrom('attendance_days as d')
    .leftJoin('attendance_rules as r', 'r.id', 'd.rule_id')
    .select(['d.status', 'd.late_min', 'd.early_min', 'd.manual_status', 'r.name as rule'])
    .where('d.person_id', '=', person)
    .where('d.date', '=', date)
    .executeTakeFirst();
/** "Attendance update" for October, then the queue worked off. */
async function recalculateOctober(token = A.main) {
  const r = await call(t.app, 'POST', '/attendance/recalculate', { token, lang: 'en-US', body: { from: '2026-10-01', to: '2026-10-31' } });
  while ((await t.app.modules.attendance.recompute.runOnce(100)).people);
  return r;
}
const logged = (action: string) =>
  t.app.database.db.selectFrom('operation_logs').select('data').where('company_id', '=', A.id).where('action', '=', action).execute();

test(`a person added to a rule from a date mid-month keeps the old rule's results before it (${DIALECT})`, async () => {
  const { person, dept } = await setUp('1');
  assert.equal((await stored(person, EARLY))?.late_min, 30);
  const r = await call(t.app, 'POST', '/attendance/rule/create', {
    token: A.main,
    lang: 'en-US',
    body: { ...office('Late shift 1', '10:00', '19:00', [], [person]), effective_from: CHANGE },
  });
  assert.equal(r.code, CODES.OK, r.message);
  assert.deepEqual(
    r.data.versions.map((v: { effective_from: string }) => v.effective_from),
    [CHANGE],
  );
  assert.equal((await recalculateOctober()).code, CODES.OK);
  const before = await stored(person, EARLY);
  assert.equal(before?.rule, 'Office 1', 'before the date the department rule applied, as it did then');
  assert.equal(before?.late_min, 30);
  const afterDay = await stored(person, LATE);
  assert.equal(afterDay?.rule, 'Late shift 1', 'from the date on the new rule');
  assert.equal(afterDay?.late_min, 0);
  assert.equal(afterDay?.early_min, 60);
  // Another company's rule is not found; a date that is not a calendar date is refused.
  const bad = await call(t.app, 'POST', '/attendance/rule/create', {
    token: A.main,
    lang: 'en-US',
    body: { ...office('Bad', '10:00', '19:00', [dept]), effective_from: '2026-02-30' },
  });
  assert.notEqual(bad.code, CODES.OK);
});

test(`a rule edit from a date leaves earlier days as they were computed (${DIALECT})`, async () => {
  const { person, dept, ruleId } = await setUp('2');
  const current = (await call(t.app, 'GET', '/attendance/rule/info', { token: A.main, query: { id: ruleId } })).data;
  assert.deepEqual(current.versions, [], 'no history until an edit with a date');
  const edit = await call(t.app, 'POST', '/attendance/rule/update', {
    token: A.main,
    lang: 'en-US',
    body: { ...office('Office 2', '09:30', '18:00', [dept]), id: ruleId, effective_from: CHANGE },
  });
  assert.equal(edit.code, CODES.OK, edit.message);
  assert.deepEqual(
    edit.data.versions.map((v: { effective_from: string | null }) => v.effective_from),
    [CHANGE, null],
    'the new version from its date, the rule as it was before it',
  );
  assert.equal((await recalculateOctober()).code, CODES.OK);
  assert.equal((await stored(person, EARLY))?.late_min, 30, 'the earlier day keeps the 09:00 start');
  const later = await stored(person, LATE);
  assert.equal(later?.late_min, 0, 'from the date the 09:30 start applies');
  assert.equal(later?.status, 'normal');
  // Another company cannot see or edit it.
  assert.equal(
    (
      await call(t.app, 'POST', '/attendance/rule/update', {
        token: B.main,
        body: { ...office('X', '09:00', '18:00', []), id: ruleId, effective_from: CHANGE },
      })
    ).code,
    CODES.NOT_FOUND,
  );
});

test(`a closed month is neither recalculated nor edited until it is reopened, and the log records both (${DIALECT})`, async () => {
  const { person, number, dept, ruleId } = await setUp('3');
  assert.equal((await stored(person, EARLY))?.late_min, 30);
  const closed = await call(t.app, 'POST', '/attendance/period/close', { token: A.main, lang: 'en-US', body: { from: '2026-10-01', to: '2026-10-31' } });
  assert.equal(closed.code, CODES.OK, closed.message);
  assert.equal(closed.data.from, '2026-10-01');
  assert.deepEqual((await logged('attendance.period.close')).length, 1);
  const list = await call(t.app, 'GET', '/attendance/period/list', { token: A.main });
  assert.deepEqual(
    list.data.items.map((p: { from: string; to: string }) => [p.from, p.to]),
    [['2026-10-01', '2026-10-31']],
  );
  assert.equal((await call(t.app, 'GET', '/attendance/period/list', { token: B.main })).data.total, 0, 'another company sees none');
  const overlap = await call(t.app, 'POST', '/attendance/period/close', { token: A.main, lang: 'en-US', body: { from: '2026-10-31', to: '2026-11-01' } });
  assert.equal(overlap.code, CODES.CONFLICT);

  // A punch that would make the day on time: the queued recalculation leaves the closed day as it was.
  await punch(person, number, [`${EARLY} 08:55:00`]);
  await t.app.modules.attendance.recompute.person(A.id, person, '2026-10-01', '2026-10-31');
  assert.equal((await stored(person, EARLY))?.late_min, 30, 'a punch does not recalculate a closed day');
  // A rule change reaching into the period is refused; one from today on is saved and leaves October alone.
  const into = await call(t.app, 'POST', '/attendance/rule/update', {
    token: A.main,
    lang: 'en-US',
    body: { ...office('Office 3', '10:00', '18:00', [dept]), id: ruleId, effective_from: '2026-10-20' },
  });
  assert.equal(into.code, CODES.CONFLICT);
  assert.match(into.message, /2026-10-01/);
  const later = await call(t.app, 'POST', '/attendance/rule/update', { token: A.main, body: { ...office('Office 3', '10:00', '18:00', [dept]), id: ruleId } });
  assert.equal(later.code, CODES.OK, later.message);
  // "Attendance update", a hand-set result and a hand-recorded absence in the period: refused, naming it.
  const recalc = await recalculateOctober();
  assert.equal(recalc.code, CODES.CONFLICT);
  assert.match(recalc.message, /2026-10-01.*2026-10-31/);
  const manual = await call(t.app, 'POST', '/attendance/day/manual', {
    token: A.main,
    lang: 'en-US',
    body: { person_id: person, date: EARLY, status: 'normal', reason: 'Badge broken' },
  });
  assert.equal(manual.code, CODES.CONFLICT);
  assert.match(manual.message, /closed/);
  const absence = await call(t.app, 'POST', '/attendance/absence/create', {
    token: A.main,
    body: { person_id: person, kind: 'leave', from: `${EARLY}T09:00:00+08:00`, to: `${EARLY}T12:00:00+08:00`, reason: 'Dentist' },
  });
  assert.equal(absence.code, CODES.CONFLICT);
  const day = await stored(person, EARLY);
  assert.equal(day?.late_min, 30);
  assert.equal(day?.rule, 'Office 3', 'the stored result is the one computed before closing (the rule kept its id)');
  assert.equal(day?.manual_status, null);

  // Reopened (another company cannot): recalculated and editable again.
  assert.equal((await call(t.app, 'POST', '/attendance/period/reopen', { token: B.main, body: { id: closed.data.id } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/attendance/period/reopen', { token: A.main, body: { id: closed.data.id } })).code, CODES.OK);
  assert.deepEqual((await logged('attendance.period.reopen')).length, 1);
  assert.equal((await recalculateOctober()).code, CODES.OK);
  const reopened = await stored(person, EARLY);
  assert.equal(reopened?.late_min, 0, 'the 08:55 punch counts now');
  assert.equal(reopened?.status, 'normal');
  const set = await call(t.app, 'POST', '/attendance/day/manual', {
    token: A.main,
    body: { person_id: person, date: EARLY, status: 'absent', reason: 'Checked' },
  });
  assert.equal(set.code, CODES.OK, set.message);
});

test(`a closed period's schedule cells are not edited, and its absences are not removed by hand (${DIALECT})`, async () => {
  const dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Line 4' } })).data.id as number;
  const person = await addPersonWithFace(t, A, { number: 'P4', name: 'Person 4', organizations: [dept] });
  const rule = await call(t.app, 'POST', '/attendance/rule/create', {
    token: A.main,
    body: {
      name: 'Line rule 4',
      mode: 'shift',
      shifts: [{ key: 'd', name: 'Day', start: '08:00', end: '20:00' }],
      person_ids: [],
      department_ids: [dept],
    },
  });
  assert.equal(rule.code, CODES.OK, rule.message);
  const leave = await call(t.app, 'POST', '/attendance/absence/create', {
    token: A.main,
    body: { person_id: person, kind: 'leave', from: '2026-09-10T09:00:00+08:00', to: '2026-09-10T12:00:00+08:00', reason: 'Dentist' },
  });
  assert.equal(leave.code, CODES.OK, leave.message);
  const closed = await call(t.app, 'POST', '/attendance/period/close', { token: A.main, body: { from: '2026-09-01', to: '2026-09-30' } });
  assert.equal(closed.code, CODES.OK, closed.message);
  const grid = await call(t.app, 'GET', '/attendance/schedule', { token: A.main, query: { rule_id: rule.data.id, month: '2026-09' } });
  assert.equal(grid.code, CODES.OK, grid.message);
  const save = (date: string) =>
    call(t.app, 'POST', '/attendance/schedule/save', {
      token: A.main,
      lang: 'en-US',
      body: { rule_id: rule.data.id, month: date.slice(0, 7), hash: grid.data.hash, cells: [{ person_id: person, date, shift_key: rule.data.shifts[0].key }] },
    });
  const refused = await save('2026-09-10');
  assert.equal(refused.code, CODES.CONFLICT);
  assert.match(refused.message, /2026-09-01/);
  assert.equal((await call(t.app, 'POST', '/attendance/absence/delete', { token: A.main, body: { id: leave.data.id } })).code, CODES.CONFLICT);
  assert.equal((await call(t.app, 'POST', '/attendance/period/reopen', { token: A.main, body: { id: closed.data.id } })).code, CODES.OK);
  const saved = await save('2026-09-10');
  assert.equal(saved.code, CODES.OK, saved.message);
  assert.equal((await call(t.app, 'POST', '/attendance/absence/delete', { token: A.main, body: { id: leave.data.id } })).code, CODES.OK);
});

test(`reopening a closed period recalculates it: a punch that arrived while it was closed counts then, with progress (${DIALECT})`, async () => {
  const { person, number } = await setUp('5');
  assert.equal((await stored(person, EARLY))?.late_min, 30);
  const closed = await call(t.app, 'POST', '/attendance/period/close', { token: A.main, body: { from: '2026-10-01', to: '2026-10-31' } });
  assert.equal(closed.code, CODES.OK, closed.message);
  // A punch arrives as a terminal's would (stored, its days queued); the job works the queue.
  const row = plainPunch({ companyId: A.id, deviceId: device, personId: person, pin: number, local: `${EARLY} 08:55:00`, zone: ZONE });
  await t.app.database.db.transaction().execute(async (trx) => {
    await punchWriter().insertIgnore(trx, [row]);
    await t.app.modules.attendance.recompute.onPunches(trx, [{ companyId: A.id, personId: person, time: row.time }]);
  });
  while ((await t.app.modules.attendance.recompute.runOnce(100)).people);
  const still = await stored(person, EARLY);
  assert.deepEqual([still?.status, still?.late_min], ['late', 30], 'the closed day keeps its paid result');

  const reopened = await call(t.app, 'POST', '/attendance/period/reopen', { token: A.main, body: { id: closed.data.id } });
  assert.equal(reopened.code, CODES.OK, reopened.message);
  assert.ok(reopened.data.pending >= 1, 'the answer is the recalculation queued, as "attendance update" answers');
  const status = await call(t.app, 'GET', '/attendance/recalculate/status', { token: A.main });
  assert.equal(status.data.pending, reopened.data.pending, 'the usual progress follows it');
  const log = await logged('attendance.period.reopen');
  assert.ok(JSON.parse(log[log.length - 1]!.data).count >= 1, 'the log says how many people were queued');
  // No "attendance update": the job alone brings the day up to date.
  while ((await t.app.modules.attendance.recompute.runOnce(100)).people);
  const now = await stored(person, EARLY);
  assert.deepEqual([now?.status, now?.late_min], ['normal', 0], 'the 08:55 punch counts now');
  assert.equal((await call(t.app, 'GET', '/attendance/recalculate/status', { token: A.main })).data.pending, 0);
});

test(`a closed day's drawer explains its stored, paid result, not a recalculation from today's inputs (#28, ${DIALECT})`, async () => {
  const { person, number } = await setUp('K1');
  const other = await setUp('K2');
  // July: late 20 on Tuesday the 7th (both people), computed and stored
  const JULY_7 = '2026-07-07';
  await punch(person, number, [`${JULY_7} 09:20:00`, `${JULY_7} 18:00:00`]);
  await punch(other.person, other.number, [`${JULY_7} 09:20:00`, `${JULY_7} 18:00:00`]);
  for (const p of [person, other.person]) await t.app.modules.attendance.recompute.person(A.id, p, '2026-07-01', '2026-07-31');
  assert.equal((await stored(person, JULY_7))?.late_min, 20);
  // the other's inputs change before the close and their recalculation has not run: nothing can explain their late 20
  await punch(other.person, other.number, [`${JULY_7} 08:55:00`]);
  const close = await call(t.app, 'POST', '/attendance/period/close', { token: A.main, lang: 'en-US', body: { from: '2026-07-01', to: '2026-07-31' } });
  assert.equal(close.code, CODES.OK, close.message);
  // after the close an earlier punch arrives: a recalculation would now say "normal"
  await punch(person, number, [`${JULY_7} 08:55:00`]);
  await t.app.modules.attendance.recompute.person(A.id, person, '2026-07-01', '2026-07-31');
  assert.equal((await t.app.modules.attendance.recompute.explain(A.id, person, JULY_7))?.status, 'normal', 'what a recalculation would say');
  const info = await call(t.app, 'GET', '/attendance/day/info', { token: A.main, lang: 'en-US', query: { person_id: person, date: JULY_7 } });
  assert.equal(info.code, CODES.OK, info.message);
  assert.deepEqual([info.data.status, info.data.late_min], ['late', 20], 'the stored, paid result');
  assert.deepEqual(info.data.closed, { from: '2026-07-01', to: '2026-07-31' }, 'the day says it is closed');
  const late = info.data.why.find((w: { key: string }) => w.key === 'att.why.late');
  assert.equal(late?.params.late, 20, 'explained by the computation that produced it');
  assert.deepEqual(
    info.data.punches.filter((p: { used: boolean }) => p.used).map((p: { time: string }) => p.time),
    ['2026-07-07T01:20:00.000Z', '2026-07-07T10:00:00.000Z'],
    'the punches it used; the later one is not listed as used',
  );
  const unkept = await call(t.app, 'GET', '/attendance/day/info', { token: A.main, lang: 'en-US', query: { person_id: other.person, date: JULY_7 } });
  assert.deepEqual([unkept.data.status, unkept.data.late_min], ['late', 20], 'the stored result, not a recalculation');
  assert.deepEqual(
    unkept.data.why.map((w: { key: string }) => w.key),
    ['att.why.closedNotKept'],
    'says why it cannot explain more',
  );
  // an open day is explained live, as before
  const open = await call(t.app, 'GET', '/attendance/day/info', { token: A.main, query: { person_id: person, date: EARLY } });
  assert.equal(open.data.closed, null);
});
