import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type WorkflowApp } from '@faceadmin/shared';
import { addPersonWithFace } from '../../../test/files.ts';
import { API, call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { t as tr } from '../../i18n/i18n.ts';
import { plainPunch, punchWriter } from '../punches/punches.repository.ts';

/**
 * Deleting people keeps history (#17 item 8), on SQLite and PostgreSQL: someone with punches, results, absences or
 * applications is not deleted (mark them as left, or erase them); an erased person is an anonymous placeholder
 * their records stay linked to, so the month's totals and absences do not move; someone without history is deleted.
 */
let t: TestApp;
let A: Company;
let dept = 0;
let device = 0;
const ZONE = 'Asia/Shanghai';

/** What erasing a person wipes. */
const details = { phone: '13900000401', rfid: '12345', idcard: 'ID123456', address: 'Road 1' };

before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Erase Co');
  dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Staff' } })).data.id;
  const rule = await call(t.app, 'POST', '/attendance/rule/create', {
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
  assert.equal(rule.code, CODES.OK, rule.message);
  device = (await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Gate', serial: 'ERA001', ip: '10.0.0.9', password: 'pw' } })).data.id;
});
after(() => t.close());

test(`a person with history is not deleted; erased, they are anonymous and the month keeps its totals and absences (${DIALECT})`, async () => {
  const zhao = await addPersonWithFace(t, A, { number: '601', name: 'Zhao Lei', organizations: [dept], ...details });
  // Someone entered by mistake, outside any attendance rule: no results, nothing else.
  const visitors = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Visitors' } })).data.id;
  const fresh = await addPersonWithFace(t, A, { number: '602', name: 'Qian Yu', organizations: [visitors], ...details });
  // History: a week of punches (one late), a day of leave, a pending application; October computed.
  const punch = (local: string) => plainPunch({ companyId: A.id, deviceId: device, personId: zhao, pin: '601', local, zone: ZONE });
  const rows = [punch('2026-10-05 09:07:00'), punch('2026-10-05 18:02:00')];
  for (const d of ['06', '07', '08', '09']) rows.push(punch(`2026-10-${d} 08:55:00`), punch(`2026-10-${d} 18:01:00`));
  await t.app.database.db.transaction().execute((trx) => punchWriter().insertIgnore(trx, rows));
  await t.app.database.db.updateTable('punches').set({ photo: '20261005090700-601.jpg' }).where('person_id', '=', zhao).execute();
  const leave = await call(t.app, 'POST', '/attendance/absence/create', {
    token: A.main,
    body: { person_id: zhao, kind: 'leave', from: '2026-10-12T09:00:00+08:00', to: '2026-10-12T18:00:00+08:00', reason: 'Family' },
  });
  assert.equal(leave.code, CODES.OK, leave.message);
  const apps = (await call<{ items: WorkflowApp[] }>(t.app, 'GET', '/workflow/app/list', { token: A.main })).data.items;
  const applied = await call(t.app, 'POST', '/workflow/approval/create', {
    token: A.main,
    body: { app_id: apps.find((a) => a.kind === 'supplement')!.id, person_id: zhao, values: { punch_time: '2026-10-13T09:00:00+08:00', reason: 'Forgot' } },
  });
  assert.equal(applied.code, CODES.OK, applied.message);
  await t.app.modules.attendance.recompute.person(A.id, zhao, '2026-10-01', '2026-10-31');
  const month = async () => (await call(t.app, 'GET', '/attendance/report/person', { token: A.main, query: { person_id: zhao, month: '2026-10' } })).data;
  const before = await month();
  assert.equal(before.totals.late_count, 1);
  assert.ok(before.totals.present_days >= 5);
  // The terminal holds them (a ledger row it applied).
  const put = await call(t.app, 'POST', '/device/persons/add', { token: A.main, body: { id: device, person_ids: [zhao] } });
  assert.equal(put.code, CODES.OK, put.message);
  await t.app.database.db.updateTable('device_persons').set({ applied_rev: 1 }).where('person_id', '=', zhao).execute();

  // Delete: refused, translated, naming them; a batch with someone without history deletes nobody.
  const refused = await call(t.app, 'POST', '/person/delete', { token: A.main, lang: 'en-US', body: { id: zhao } });
  assert.equal(refused.code, CODES.CONFLICT, refused.message);
  assert.equal(refused.message, tr('en-US', 'errors.personHasHistory', { names: '601 Zhao Lei' }));
  assert.deepEqual(refused.data, { ids: [zhao] });
  const zh = await call(t.app, 'POST', '/person/deletes', { token: A.main, lang: 'zh-CN', body: { ids: [fresh, zhao] } });
  assert.equal(zh.code, CODES.CONFLICT);
  assert.match(zh.message, /离职/);
  assert.equal((await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: fresh } })).code, CODES.OK, 'nobody deleted');

  // Erase: an anonymous placeholder, left, without face, phone, card, ids; signed out of terminals.
  const erased = await call(t.app, 'POST', '/person/erase', { token: A.main, lang: 'en-US', body: { id: zhao } });
  assert.equal(erased.code, CODES.OK, erased.message);
  assert.equal(erased.data.name, `Erased #${zhao}`);
  assert.deepEqual([erased.data.phone, erased.data.rfid, erased.data.idcard, erased.data.address, erased.data.workStatus], ['', '', '', '', 0]);
  assert.notEqual(erased.data.number, '601');
  const row = await t.app.database.db.selectFrom('persons').selectAll().where('id', '=', zhao).executeTakeFirstOrThrow();
  assert.equal(row.photo, '');
  const img = await t.app.inject({ method: 'GET', url: `${API}/person/pic/${zhao}`, headers: { 'x-token': A.main } });
  assert.equal(img.statusCode, 404, 'no face');
  const photos = await t.app.database.db.selectFrom('punches').select('photo').where('person_id', '=', zhao).execute();
  assert.equal(photos.length, 10, 'punches stay');
  assert.ok(
    photos.every((p) => p.photo === ''),
    'no punch photos',
  );
  const ledger = await t.app.database.db.selectFrom('device_persons').select(['desired_rev', 'pin']).where('person_id', '=', zhao).execute();
  assert.deepEqual(
    ledger.map((r) => [Number(r.desired_rev), r.pin]),
    [[0, '601']],
    'the terminal is told to forget PIN 601',
  );

  // The month keeps its totals; the absence and the application stay.
  const after = await month();
  assert.equal(after.name, `Erased #${zhao}`);
  assert.deepEqual({ ...after.totals, number: '', name: '' }, { ...before.totals, number: '', name: '' });
  assert.equal(before.totals.leave_days, 1);
  assert.deepEqual(after.days, before.days);
  const absences = await call(t.app, 'GET', '/attendance/absence/list', { token: A.main, query: { person_id: zhao, from: '2026-10-01', to: '2026-10-31' } });
  assert.equal(absences.code, CODES.OK, absences.message);
  assert.deepEqual(
    absences.data.items.map((x: { kind: string; name: string }) => [x.kind, x.name]),
    [['leave', `Erased #${zhao}`]],
  );
  const kept = await t.app.database.db.selectFrom('workflow_applications').select('id').where('person_id', '=', zhao).execute();
  assert.equal(kept.length, 1);

  // Someone without history is deleted as before.
  const gone = await call(t.app, 'POST', '/person/delete', { token: A.main, body: { id: fresh } });
  assert.equal(gone.code, CODES.OK, gone.message);
  assert.equal((await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: fresh } })).code, CODES.NOT_FOUND);
  // Another company's person is not found.
  const B = await makeCompany(t, 'Other Co');
  assert.equal((await call(t.app, 'POST', '/person/erase', { token: B.main, body: { id: zhao } })).code, CODES.NOT_FOUND);
});

test(`someone entered by mistake, with only computed absent days, is deleted; a day set by hand is history (${DIALECT})`, async () => {
  const mistake = await addPersonWithFace(t, A, { number: '611', name: 'Entered by mistake', organizations: [dept], ...details });
  const kept = await addPersonWithFace(t, A, { number: '612', name: 'Has a hand-set day', organizations: [dept], ...details });
  const recompute = t.app.modules.attendance.recompute;
  for (const id of [mistake, kept]) await recompute.person(A.id, id, '2026-11-16', '2026-11-20');
  // The week asked for (the recalculation job may also reach the rest of the month meanwhile: not this test's subject).
  const days = (id: number) =>
    t.app.database.db
      .selectFrom('attendance_days')
      .select('date')
      .where('person_id', '=', id)
      .where('date', '>=', '2026-11-16')
      .where('date', '<=', '2026-11-20')
      .execute();
  const all = (id: number) => t.app.database.db.selectFrom('attendance_days').select('date').where('person_id', '=', id).execute();
  assert.equal((await days(mistake)).length, 5, 'the engine computed a week of absent days');
  const manual = await call(t.app, 'POST', '/attendance/day/manual', {
    token: A.main,
    body: { person_id: kept, date: '2026-11-16', status: 'leave', reason: 'Agreed by phone' },
  });
  assert.equal(manual.code, CODES.OK, manual.message);
  const gone = await call(t.app, 'POST', '/person/delete', { token: A.main, body: { id: mistake } });
  assert.equal(gone.code, CODES.OK, gone.message);
  assert.equal((await all(mistake)).length, 0, 'the computed days went with them');
  const refused = await call(t.app, 'POST', '/person/delete', { token: A.main, lang: 'en-US', body: { id: kept } });
  assert.notEqual(refused.code, CODES.OK, 'a result set by hand is history');
  assert.equal((await days(kept)).length, 5);
});
