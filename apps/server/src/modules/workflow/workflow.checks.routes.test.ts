import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type WorkflowApp } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, type Answer, type Company, type TestApp } from '../../../test/helpers.ts';
import { picture, upload } from '../../../test/files.ts';
import { t as tr } from '../../i18n/i18n.ts';

/**
 * Approval values and designs that cannot be right (issue #17 items 3 and 4), on SQLite and PostgreSQL: days and
 * times that do not exist are refused with the field named, and the form and process checks say which field or
 * node is wrong and why.
 */
let t: TestApp;
let A: Company;
let alice = 0;
let apps: WorkflowApp[] = [];
const ok = <T>(r: Answer<T>, what = '') => {
  assert.equal(r.code, CODES.OK, `${what} ${r.code} ${r.message}`);
  return r.data;
};
const byKind = (k: string) => apps.find((a) => a.kind === k)!.id;

before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Checks Co');
  const pic = (await upload(t, '/person/upload', A.main, { name: 'f.jpg', data: await picture() })).data.pic;
  const dept = ok(await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Staff' } })).id;
  alice = ok(
    await call(t.app, 'POST', '/person/create', { token: A.main, body: { number: '1', name: 'Alice', phone: '13900000301', organizations: [dept], pic } }),
  ).id;
  apps = ok(await call<{ items: WorkflowApp[] }>(t.app, 'GET', '/workflow/app/list', { token: A.main })).items;
});
after(() => t.close());

test(`a supplementary punch on 31 February, at 24:00 or 23:60 is refused naming the field, and nothing reaches attendance (${DIALECT})`, async () => {
  const label = tr('en-US', 'reasons.calendarDate');
  for (const punch_time of ['2026-02-31T09:00:00+08:00', '2026-02-29T09:00:00Z', '2026-04-31T09:00:00Z', '2026-03-02T24:00:00Z', '2026-03-02T23:60:00Z']) {
    const r = await call(t.app, 'POST', '/workflow/approval/create', {
      token: A.main,
      lang: 'en-US',
      body: { app_id: byKind('supplement'), person_id: alice, values: { punch_time, reason: 'Forgot' } },
    });
    assert.equal(r.code, CODES.RULE, `${punch_time}: ${r.code} ${r.message}`);
    assert.equal(r.message, `Punch time: ${label}`);
    assert.deepEqual(r.data, { field: 'punch_time' });
  }
  const r = await call(t.app, 'POST', '/workflow/approval/create', {
    token: A.main,
    lang: 'en-US',
    body: {
      app_id: byKind('trip'),
      person_id: alice,
      values: { trip_type: 'out', period: { from: '2026-02-28T09:00:00Z', to: '2026-02-30T18:00:00Z' }, reason: 'Client' },
    },
  });
  assert.equal(r.code, CODES.RULE, r.message);
  assert.deepEqual(r.data, { field: 'period' });
  const rows = await t.app.database.db.selectFrom('workflow_applications').select('id').execute();
  assert.deepEqual(rows, [], 'nothing stored');
  // A real one still goes through.
  ok(
    await call(t.app, 'POST', '/workflow/approval/create', {
      token: A.main,
      body: { app_id: byKind('supplement'), person_id: alice, values: { punch_time: '2024-02-29T09:00:00+08:00', reason: 'Forgot' } },
    }),
  );
});
