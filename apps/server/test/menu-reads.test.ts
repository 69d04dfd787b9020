import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, makeSub, type TestApp } from './helpers.ts';

// Issue #28: what a menu entry's page reads, the right that shows the entry may read. An attendance administrator's
// punch, health and alcohol pages filter by device, and its rules, results and reports pick departments and people:
// it reads names, never the device list or the people's records. A person-view administrator reads the invitations.
let t: TestApp;
before(async () => (t = await makeApp()));
after(async () => t.close());

test(`an attendance administrator reads the device names and the department and people pickers, and nothing more (${DIALECT})`, async () => {
  const A = await makeCompany(t, 'Menus A');
  const B = await makeCompany(t, 'Menus B');
  const device = await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Gate A', serial: 'MENUS0001', ip: '10.0.0.1', password: 'p' } });
  assert.equal(device.code, CODES.OK, device.message);
  await call(t.app, 'POST', '/device/create', { token: B.main, body: { name: 'Gate B', serial: 'MENUS0002', ip: '10.0.0.2', password: 'p' } });
  const dept = await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Night shift' } });
  assert.equal(dept.code, CODES.OK, dept.message);

  const hr = await makeSub(t, A, ['attendance']);
  const names = await call(t.app, 'GET', '/device/names', { token: hr.token });
  assert.equal(names.code, CODES.OK, names.message);
  assert.deepEqual(names.data, [{ id: device.data.id, name: 'Gate A' }], "the company's devices, by id and name only");
  const depts = await call(t.app, 'POST', '/person/personOrgOptions', { token: hr.token });
  assert.equal(depts.code, CODES.OK, depts.message);
  assert.ok(JSON.stringify(depts.data).includes('Night shift'));
  assert.equal((await call(t.app, 'POST', '/person/device_org_persons', { token: hr.token, body: { keyword: 'x' } })).code, CODES.OK);
  // the records themselves stay with their rights
  assert.equal((await call(t.app, 'GET', '/device/list', { token: hr.token })).code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'GET', '/person/list', { token: hr.token })).code, CODES.NO_AUTHORITY);
  // a right that has nothing to do with devices or attendance reads no names
  const logs = await makeSub(t, A, ['logView']);
  assert.equal((await call(t.app, 'GET', '/device/names', { token: logs.token })).code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'POST', '/person/personOrgOptions', { token: logs.token })).code, CODES.NO_AUTHORITY);
  const viewer = await makeSub(t, A, ['faceView']);
  assert.equal((await call(t.app, 'GET', '/device/names', { token: viewer.token })).data.length, 1);
});

test(`a person-view administrator reads the invitations but cannot invite (${DIALECT})`, async () => {
  const A = await makeCompany(t, 'Menus C');
  const guard = await makeSub(t, A, ['userView', 'faceView', 'faceEdit', 'breaker']);
  const list = await call(t.app, 'GET', '/visitor/list', { token: guard.token });
  assert.equal(list.code, CODES.OK, list.message);
  assert.equal((await call(t.app, 'POST', '/visitor/cancel', { token: guard.token, body: { id: 1 } })).code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'GET', '/visitor/doors', { token: guard.token })).code, CODES.NO_AUTHORITY);
});
