import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type RuleInput } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { addPersonWithFace } from '../../../test/files.ts';
import { listen, stopTerminals, terminal, until } from '../../../test/terminals.ts';

/** From a terminal's punches to an explained day result, on its own (#10): late, a leave, a grace change, "attendance update". */
let t: TestApp;
let server: string;
let A: Company;
let B: Company;
let person: number;
let ruleId: number;
let staff: number;
const DAY = '2026-11-16'; // a Monday, in the past

const rule = (grace: number): RuleInput => ({
  name: 'Office',
  mode: 'fixed',
  shifts: [{ key: 'd', name: 'Day', start: '09:00', end: '18:00', late_grace_min: grace, early_grace_min: 0 }],
  weekdays: { 0: [], 1: ['d'], 2: ['d'], 3: ['d'], 4: ['d'], 5: ['d'], 6: [] },
  person_ids: [],
  department_ids: [],
});

before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  server = await listen(t);
  A = await makeCompany(t, 'Days A');
  B = await makeCompany(t, 'Days B');
  const dept = (staff = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Staff' } })).data.id);
  person = await addPersonWithFace(t, A, { number: '501', name: 'Zhao Lei', organizations: [dept] });
  const r = await call(t.app, 'POST', '/attendance/rule/create', { token: A.main, body: { ...rule(5), department_ids: [dept] } });
  assert.equal(r.code, CODES.OK, r.message);
  ruleId = r.data.id;
  const d = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Gate', serial: 'DAYS001', ip: '10.0.0.1', password: 'pw', attendance_scope: 'all' },
  });
  assert.equal(d.code, CODES.OK);
});
after(async () => {
  await stopTerminals();
  await t.close();
});

const day = () => call(t.app, 'GET', '/attendance/day/info', { token: A.main, query: { person_id: person, date: DAY } });
/** Waits until the day's result satisfies `ok` (the recompute job runs every second). */
const dayWhen = (what: string, ok: (d: any) => boolean) =>
  until(what, async () => {
    const r = await day();
    return r.code === CODES.OK && ok(r.data) ? r.data : undefined;
  });

test(`punches from a terminal become a day result that explains itself: late 7 min with grace 5 (${DIALECT})`, async () => {
  const term = terminal(server, 'DAYS001');
  await term.start();
  await until('person on the terminal', () => term.users.has('501'));
  // The terminal's clock is UTC+8, like the company's zone.
  assert.match((await term.punch({ pin: '501', time: `${DAY} 09:07:00` })).reply ?? '', /^OK/);
  assert.match((await term.punch({ pin: '501', time: `${DAY} 18:02:00` })).reply ?? '', /^OK/);
  const d = await dayWhen('late computed', (x) => x.status === 'late');
  assert.equal(d.late_min, 7, 'late minutes count from the shift start');
  assert.equal(d.rule, 'Office');
  assert.equal(d.shifts.length, 1);
  assert.equal(d.shifts[0].name, 'Day');
  assert.equal(d.shifts[0].check_in, `${DAY}T01:07:00.000Z`);
  assert.equal(d.punches.length, 2);
  assert.ok(d.punches.every((p: { used: boolean; device: string }) => p.used && p.device === 'Gate'));
  const late = d.why.find((w: { key: string }) => w.key === 'att.why.late');
  assert.ok(late, JSON.stringify(d.why));
  // /day/info explains from a fresh computation; the list reads the stored result, which the job writes within a second
  const list = await until('the stored result listed as late', async () => {
    const r = await call(t.app, 'GET', '/attendance/day/list', { token: A.main, query: { date: DAY } });
    return r.data.items.some((x: { status: string }) => x.status === 'late') ? r : undefined;
  });
  assert.deepEqual(
    list!.data.items.map((r: { number: string; status: string }) => [r.number, r.status]),
    [['501', 'late']],
  );
  assert.equal((await call(t.app, 'GET', '/attendance/day/list', { token: A.main, query: { date: DAY, status: 'normal' } })).data.total, 0);
  // The month report counts it: one late day of 7 minutes, the day present, worked time from the punches.
  const month = await call(t.app, 'GET', '/attendance/report/month', { token: A.main, query: { month: DAY.slice(0, 7) } });
  assert.equal(month.code, CODES.OK, month.message);
  const row = month.data.items.find((r: { person_id: number }) => r.person_id === person);
  assert.equal(row.late_count, 1);
  assert.equal(row.late_min, 7);
  assert.ok(row.present_days >= 1);
  assert.ok(row.work_days >= row.present_days + row.absent_days);
  assert.equal(row.worked_min, d.worked_min);
  // The count is everyone with results this month, on any page, and past the last one too (no row there to carry it).
  const total = month.data.total as number;
  assert.ok(total >= 1 && total >= month.data.items.length);
  for (const page of [2, 99]) {
    const later = await call(t.app, 'GET', '/attendance/report/month', { token: A.main, query: { month: DAY.slice(0, 7), page, pageSize: 1 } });
    assert.equal(later.data.total, total, `page ${page}`);
    assert.equal(later.data.items.length, page <= total ? 1 : 0);
  }
  assert.equal((await call(t.app, 'GET', '/attendance/report/month', { token: B.main, query: { month: DAY.slice(0, 7) } })).data.total, 0);
});

test(`a leave recorded for the morning moves the expected start; removing it brings the lateness back (${DIALECT})`, async () => {
  const leave = await call(t.app, 'POST', '/attendance/absence/create', {
    token: A.main,
    body: { person_id: person, kind: 'leave', from: `${DAY}T09:00:00+08:00`, to: `${DAY}T12:00:00+08:00`, reason: 'Dentist' },
  });
  assert.equal(leave.code, CODES.OK, leave.message);
  await dayWhen('no longer late', (x) => x.status !== 'late' && x.late_min === 0);
  assert.equal((await call(t.app, 'POST', '/attendance/absence/delete', { token: A.main, body: { id: leave.data.id } })).code, CODES.OK);
  await dayWhen('late again', (x) => x.status === 'late');
});

test(`changing the rule's grace changes the result, with no button pressed (${DIALECT})`, async () => {
  const current = (await call(t.app, 'GET', '/attendance/rule/info', { token: A.main, query: { id: ruleId } })).data;
  const shift = { ...current.shifts[0], late_grace_min: 10 };
  delete shift.id;
  const r = await call(t.app, 'POST', '/attendance/rule/update', {
    token: A.main,
    body: {
      ...rule(10),
      id: ruleId,
      shifts: [shift],
      weekdays: { 0: [], 1: [shift.key], 2: [], 3: [], 4: [], 5: [], 6: [] },
      department_ids: current.departments.map((x: { id: number }) => x.id),
      // an edit applies from its date (#17; default today): from the month of the punched days on
      effective_from: '2026-11-01',
    },
  });
  assert.equal(r.code, CODES.OK, r.message);
  // The rule change queues this month so far; the punched day is older, so "attendance update" asks for it.
  const none = await call(t.app, 'POST', '/attendance/recalculate', { token: A.main, lang: 'en-US', body: {} });
  assert.equal(none.code, CODES.RULE);
  assert.equal(none.message, 'Choose the dates to update attendance for');
  const queued = await call(t.app, 'POST', '/attendance/recalculate', { token: A.main, body: { from: DAY, to: DAY } });
  assert.equal(queued.code, CODES.OK, queued.message);
  await dayWhen('on time with grace 10', (x) => x.status === 'normal' && x.late_min === 0);
  await until('queue drained', async () => (await call(t.app, 'GET', '/attendance/recalculate/status', { token: A.main })).data.pending === 0);
});

test(`another company's person-days and absences are not found (${DIALECT})`, async () => {
  assert.equal((await call(t.app, 'GET', '/attendance/day/info', { token: B.main, query: { person_id: person, date: DAY } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'GET', '/attendance/day/list', { token: B.main, query: { date: DAY } })).data.total, 0);
  const leave = await call(t.app, 'POST', '/attendance/absence/create', {
    token: B.main,
    body: { person_id: person, kind: 'leave', from: `${DAY}T09:00:00+08:00`, to: `${DAY}T10:00:00+08:00`, reason: 'x' },
  });
  assert.equal(leave.code, CODES.NOT_FOUND);
  const mine = await call(t.app, 'POST', '/attendance/absence/create', {
    token: A.main,
    body: { person_id: person, kind: 'out', from: '2026-11-17T14:00:00+08:00', to: '2026-11-17T16:00:00+08:00', reason: 'Client visit' },
  });
  assert.equal((await call(t.app, 'POST', '/attendance/absence/delete', { token: B.main, body: { id: mine.data.id } })).code, CODES.NOT_FOUND);
  const listed = await call(t.app, 'GET', '/attendance/absence/list', { token: A.main, query: { from: '2026-11-17', to: '2026-11-17' } });
  assert.deepEqual(
    listed.data.items.map((a: { kind: string; name: string }) => [a.kind, a.name]),
    [['out', 'Zhao Lei']],
  );
});

test(`the punch records show the result of the day that used each punch (${DIALECT})`, async () => {
  const list = await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { from: DAY, to: DAY } });
  assert.equal(list.code, CODES.OK);
  const mine = list.data.items.filter((p: { person_id: number }) => p.person_id === person);
  assert.equal(mine.length, 2);
  // After the grace change the day is normal: both punches show it.
  assert.deepEqual(
    mine.map((p: { result: string | null }) => p.result),
    ['normal', 'normal'],
  );
});

test(`an administrator's result for a day stands until removed, recalculation leaves it, the log says who and why (${DIALECT})`, async () => {
  const set = await call(t.app, 'POST', '/attendance/day/manual', {
    token: A.main,
    lang: 'en-US',
    body: { person_id: person, date: DAY, status: 'leave', reason: 'Sick note handed in late' },
  });
  assert.equal(set.code, CODES.OK, set.message);
  assert.equal(set.data.status, 'leave');
  assert.equal(set.data.manual, true);
  assert.equal(set.data.computed_status, 'normal');
  await call(t.app, 'POST', '/attendance/recalculate', { token: A.main, body: { from: DAY, to: DAY } });
  await until('recomputed', async () => (await call(t.app, 'GET', '/attendance/recalculate/status', { token: A.main })).data.pending === 0);
  const after = (await day()).data;
  assert.equal(after.status, 'leave', 'the manual result stands');
  assert.equal(after.manual_reason, 'Sick note handed in late');
  assert.ok(after.punches.length > 0, 'the punches are shown beside it');
  const log = await call(t.app, 'GET', '/log/list', { token: A.main, query: { module: 'attendance' }, lang: 'en-US' });
  assert.ok(log.data.items.some((i: { description: string }) => i.description === `Set the result of Zhao Lei on ${DAY} by hand: Sick note handed in late`));
  const noReason = await call(t.app, 'POST', '/attendance/day/manual', {
    token: A.main,
    body: { person_id: person, date: DAY, status: 'absent', reason: ' ' },
  });
  assert.equal(noReason.code, CODES.RULE);
  assert.equal(
    (await call(t.app, 'POST', '/attendance/day/manual', { token: B.main, body: { person_id: person, date: DAY, status: 'absent', reason: 'x' } })).code,
    CODES.NOT_FOUND,
  );
  const removed = await call(t.app, 'POST', '/attendance/day/manual', { token: A.main, body: { person_id: person, date: DAY, status: null, reason: '' } });
  assert.equal(removed.data.status, 'normal');
  assert.equal(removed.data.manual, false);
});

test(`a result set by hand on a day not computed yet creates the day; the computed figures follow; no rule is accepted too (${DIALECT})`, async () => {
  const EARLY = '2026-10-12'; // a Monday (a working day under the rule) of last month: saving the rule queued this month only
  const listed = async (date: string, who: number) =>
    (await call(t.app, 'GET', '/attendance/day/list', { token: A.main, query: { date } })).data.items.find((i: { person_id: number }) => i.person_id === who);
  assert.equal(await listed(EARLY, person), undefined, 'no stored result yet');
  const set = await call(t.app, 'POST', '/attendance/day/manual', {
    token: A.main,
    body: { person_id: person, date: EARLY, status: 'leave', reason: 'Paper form' },
  });
  assert.equal(set.code, CODES.OK, set.message);
  assert.equal(set.data.status, 'leave');
  assert.equal(set.data.manual, true);
  const computed = await until('the computed status follows', async () => {
    const r = await listed(EARLY, person);
    return r && r.computed_status !== 'pending' ? r : undefined;
  });
  assert.equal(computed.status, 'leave', 'the manual status stays shown');
  assert.equal(computed.computed_status, 'absent', 'no punches on a working day');
  assert.equal(computed.rule, 'Office');
  // another company's person: not found, and nothing is created
  assert.equal(
    (await call(t.app, 'POST', '/attendance/day/manual', { token: B.main, body: { person_id: person, date: '2026-10-14', status: 'absent', reason: 'x' } }))
      .code,
    CODES.NOT_FOUND,
  );
  assert.notEqual((await listed('2026-10-14', person))?.manual, true, 'nothing set by the other company');
  // a person no rule covers: the manual result is kept (as it is when a person leaves a rule); the computed one stays pending
  const loner = await addPersonWithFace(t, A, { number: '502', name: 'Qian Yu', department: 'Visitors' });
  const free = await call(t.app, 'POST', '/attendance/day/manual', {
    token: A.main,
    body: { person_id: loner, date: EARLY, status: 'out', reason: 'Client visit' },
  });
  assert.equal(free.code, CODES.OK, free.message);
  assert.equal(free.data.status, 'out');
  assert.equal(free.data.computed_status, 'pending');
  assert.equal(free.data.rule, null);
  // removing a result that does not exist: not found
  assert.equal(
    (await call(t.app, 'POST', '/attendance/day/manual', { token: A.main, body: { person_id: loner, date: '2026-10-15', status: null, reason: '' } })).code,
    CODES.NOT_FOUND,
  );
  await until('recomputed', async () => (await call(t.app, 'GET', '/attendance/recalculate/status', { token: A.main })).data.pending === 0);
  assert.equal((await listed(EARLY, loner))?.status, 'out', 'the recompute leaves it');
});

test(`the day view opens on the latest day up to today that has results; a company with none gets null (${DIALECT})`, async () => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  // a result set by hand in the future does not count
  const future = `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`;
  assert.equal(
    (await call(t.app, 'POST', '/attendance/day/manual', { token: A.main, body: { person_id: person, date: future, status: 'leave', reason: 'Planned' } }))
      .code,
    CODES.OK,
  );
  const a = await call(t.app, 'GET', '/attendance/day/latest', { token: A.main });
  assert.equal(a.code, CODES.OK, a.message);
  assert.ok(a.data.date >= DAY && a.data.date <= today, `latest ${a.data.date}`);
  const listed = await call(t.app, 'GET', '/attendance/day/list', { token: A.main, query: { date: a.data.date } });
  assert.ok(listed.data.total > 0, 'that day has results');
  const b = await call(t.app, 'GET', '/attendance/day/latest', { token: B.main });
  assert.equal(b.code, CODES.OK);
  assert.equal(b.data.date, null);
});

test(`under the temperature model a punch at or above the rule's alarm is refused and explained, the next one counts, the day is flagged (${DIALECT})`, async () => {
  const HOT = '2026-11-09'; // a Monday (the rule's working day by now)
  const current = (await call(t.app, 'GET', '/attendance/rule/info', { token: A.main, query: { id: ruleId } })).data;
  assert.equal(current.alarm_temp, 37.3, "the device's default alarm");
  const shift = { ...current.shifts[0] };
  delete shift.id;
  const r = await call(t.app, 'POST', '/attendance/rule/update', {
    token: A.main,
    body: {
      ...rule(10),
      id: ruleId,
      model: 'temperature',
      alarm_temp: 37.3,
      shifts: [shift],
      weekdays: { 0: [], 1: [shift.key], 2: [], 3: [], 4: [], 5: [], 6: [] },
      department_ids: current.departments.map((x: { id: number }) => x.id),
      // an edit applies from its date (#17; default today): from the month of the punched days on
      effective_from: '2026-11-01',
    },
  });
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.alarm_temp, 37.3);
  const gate = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Gate 2', serial: 'DAYS002', ip: '10.0.0.2', password: 'pw', attendance_scope: 'all' },
  });
  assert.equal(gate.code, CODES.OK, gate.message);
  const term = terminal(server, 'DAYS002');
  await term.start();
  await until('person on the terminal', () => term.users.has('501'));
  assert.match((await term.punch({ pin: '501', time: `${HOT} 08:50:00`, temperature: 37.8 })).reply ?? '', /^OK/);
  assert.match((await term.punch({ pin: '501', time: `${HOT} 08:55:00`, temperature: 36.5 })).reply ?? '', /^OK/);
  assert.match((await term.punch({ pin: '501', time: `${HOT} 18:05:00`, temperature: 36.6 })).reply ?? '', /^OK/);
  await call(t.app, 'POST', '/attendance/recalculate', { token: A.main, body: { from: HOT, to: HOT } });
  const d = await until('the day computed', async () => {
    const x = await call(t.app, 'GET', '/attendance/day/info', { token: A.main, lang: 'en-US', query: { person_id: person, date: HOT } });
    return x.code === CODES.OK && x.data.punches.length === 3 ? x.data : undefined;
  });
  assert.equal(d.status, 'normal', JSON.stringify(d.why));
  assert.equal(d.temperature_alarm, true);
  assert.equal(d.shifts[0].check_in, `${HOT}T00:55:00.000Z`, 'the next normal punch is the check-in');
  const hot = d.punches.find((p: { time: string }) => p.time === `${HOT}T00:50:00.000Z`);
  assert.equal(hot.used, false);
  assert.equal(hot.ignored, 'invalidModel');
  assert.equal(hot.detail.key, 'att.why.ignored.temperature');
  assert.equal(hot.detail.params.temperature, 37.8);
  assert.equal(hot.detail.params.alarm, 37.3);
  // a day without a hot punch is not flagged
  assert.equal((await call(t.app, 'GET', '/attendance/day/info', { token: A.main, query: { person_id: person, date: DAY } })).data.temperature_alarm, false);
});

test(`a terminal's punches under a number nobody has yet wait as a stranger's; the person saved with it takes them and their days compute, a closed period's stay and the administrators are told, a refusal stays a refusal (#30, ${DIALECT})`, async () => {
  const d = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Old gate', serial: 'DAYS777', ip: '10.0.0.2', password: 'pw', attendance_scope: 'all' },
  });
  assert.equal(d.code, CODES.OK, d.message);
  const term = terminal(server, 'DAYS777');
  await term.start();
  // The terminal's log from before this server: user 777, whom the company does not know yet, punched and was refused once.
  for (const time of [`${DAY} 09:12:00`, `${DAY} 18:05:00`, '2026-09-14 09:00:00']) assert.match((await term.punch({ pin: '777', time })).reply ?? '', /^OK/);
  assert.match((await term.stranger({ pin: '777', time: `${DAY} 12:30:00` })).reply ?? '', /^OK/);
  const close = await call(t.app, 'POST', '/attendance/period/close', { token: A.main, body: { from: '2026-09-01', to: '2026-09-30' } });
  assert.equal(close.code, CODES.OK, close.message);
  const strangers = async () =>
    (await call(t.app, 'GET', '/stranger/list', { token: A.main, lang: 'en-US', query: { device_id: d.data.id, pageSize: 50 } })).data.items.map(
      (s: { time: string; kind: string; name: string }) => `${s.time} ${s.kind} ${s.name}`,
    );
  assert.deepEqual(await strangers(), ['18:05:00 unknown ', '12:30:00 unknown ', '09:12:00 unknown ', '09:00:00 unknown ']);

  const dept = staff;
  const qian = await addPersonWithFace(t, A, { number: '777', name: 'Qian Yu', organizations: [dept] });
  const at = (date: string) => call(t.app, 'GET', '/attendance/day/info', { token: A.main, query: { person_id: qian, date } });
  const late = await until('the taken-over punches computed as a late day', async () => {
    const r = await at(DAY);
    return r.code === CODES.OK && r.data.status === 'late' ? r.data : undefined;
  });
  assert.equal(late.late_min, 12);
  assert.deepEqual(
    late.punches.map((p: { time: string; used: boolean }) => [p.time, p.used]),
    [
      [`${DAY}T01:12:00.000Z`, true],
      [`${DAY}T10:05:00.000Z`, true],
    ],
    'the refusal at 12:30 is no punch of theirs',
  );
  // Their punches left the strangers list; the refusal stays one, now shown with their name.
  assert.deepEqual(await strangers(), ['12:30:00 refused Qian Yu']);
  const records = await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { person_id: qian, pageSize: 50 } });
  assert.equal(records.data.total, 3, 'the closed month keeps its punch, now theirs');
  // The closed September: no result written there, and one message says why.
  const messages = async () =>
    (await call(t.app, 'GET', '/message/list', { token: A.main, lang: 'en-US', query: { pageSize: 50 } })).data.items.filter(
      (m: { type: string }) => m.type === 'claimedInClosed',
    );
  const said = await messages();
  assert.equal(said.length, 1);
  assert.match(said[0].content, /1 punch .* on 2026-09-14\. That day lies in a closed period/);
  const september = await call(t.app, 'GET', '/attendance/day/list', { token: A.main, query: { date: '2026-09-14' } });
  assert.equal(september.data.items.filter((x: { number: string }) => x.number === '777').length, 0);

  // Saved again: nothing left to take, nothing said twice.
  const pic = (await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: qian } })).data.pic;
  const again = await call(t.app, 'POST', '/person/update', {
    token: A.main,
    body: { id: qian, name: 'Qian Yu', phone: '13800000777', organizations: [dept], pic },
  });
  assert.equal(again.code, CODES.OK, again.message);
  assert.equal((await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { person_id: qian, pageSize: 50 } })).data.total, 3);
  assert.equal((await messages()).length, 1);
  // Another company never sees them.
  assert.equal((await call(t.app, 'GET', '/attendance/day/info', { token: B.main, query: { person_id: qian, date: DAY } })).code, CODES.NOT_FOUND);
});
