import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { addPersonWithFace } from '../../../test/files.ts';
import { API, call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';

/**
 * One identity for a manager who is also an employee (spec §7 /person/bindAdmin, /person/fetchAdmin, /person/unbind),
 * on SQLite and PostgreSQL: a main administrator links a person to an administrator account of the company; the
 * account then opens self-service as that person without an SMS code; the account unlinks itself or a main
 * administrator unlinks it; another company's ids are not found and a sub-account cannot link anyone.
 */
let t: TestApp;
let A: Company;
let B: Company;
let dept = 0;

before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Link Co');
  B = await makeCompany(t, 'Other Co');
  dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Office' } })).data.id;
});
after(() => t.close());

test(`a main administrator links a person to an account, which opens self-service as them and unlinks itself (${DIALECT})`, async () => {
  const wang = await addPersonWithFace(t, A, { number: '701', name: 'Wang Fang', organizations: [dept] });
  const li = await addPersonWithFace(t, A, { number: '702', name: 'Li Na', organizations: [dept] });
  const manager = await makeSub(t, A, ['userView'], 'mgr_link1');
  // Before the link: no person behind the account, and self-service from it is refused.
  assert.equal((await call(t.app, 'GET', '/user/info', { token: manager.token })).data.person_id, 0);
  const refused = await call(t.app, 'POST', '/self/fromAdmin', { token: manager.token, lang: 'en-US' });
  assert.equal(refused.code, CODES.NOT_FOUND);
  assert.match(refused.message, /not linked/);

  const before = await call(t.app, 'POST', '/person/fetchAdmin', { token: A.main, body: {} });
  assert.equal(before.code, CODES.OK, before.message);
  assert.ok(before.data.candidates.some((c: { id: number }) => c.id === manager.id));
  const linked = await call(t.app, 'POST', '/person/bindAdmin', { token: A.main, body: { person_id: wang, admin_id: manager.id } });
  assert.equal(linked.code, CODES.OK, linked.message);
  assert.deepEqual(
    { person: linked.data.person_id, admin: linked.data.admin_id, username: linked.data.username, name: linked.data.person_name },
    { person: wang, admin: manager.id, username: 'mgr_link1', name: 'Wang Fang' },
  );
  // Linking again is harmless; the account cannot be a second person, nor the person a second account.
  assert.equal((await call(t.app, 'POST', '/person/bindAdmin', { token: A.main, body: { person_id: wang, admin_id: manager.id } })).code, CODES.OK);
  const twice = await call(t.app, 'POST', '/person/bindAdmin', { token: A.main, lang: 'en-US', body: { person_id: li, admin_id: manager.id } });
  assert.equal(twice.code, CODES.RULE);
  assert.match(twice.message, /Wang Fang/);
  const other = await call(t.app, 'POST', '/person/bindAdmin', { token: A.main, body: { person_id: wang, admin_id: A.mainId } });
  assert.equal(other.code, CODES.RULE);
  assert.equal(other.data.field, 'person_id');

  const listed = await call(t.app, 'POST', '/person/fetchAdmin', { token: A.main, body: { person_id: wang } });
  assert.deepEqual(
    listed.data.items.map((i: { person_id: number; admin_id: number }) => [i.person_id, i.admin_id]),
    [[wang, manager.id]],
  );
  assert.ok(!listed.data.candidates.some((c: { id: number }) => c.id === manager.id), 'a linked account is no candidate');

  // One identity: the account's profile names the person, and it opens self-service as them without SMS.
  assert.equal((await call(t.app, 'GET', '/user/info', { token: manager.token })).data.person_id, wang);
  const self = await call(t.app, 'POST', '/self/fromAdmin', { token: manager.token });
  assert.equal(self.code, CODES.OK, self.message);
  assert.equal(self.data.person.id, wang);
  const me = await t.app.inject({ method: 'GET', url: `${API}/self/info`, headers: { 'x-person-token': self.data.token } });
  assert.equal(me.json().data.name, 'Wang Fang');

  // Unlinking one's own account (spec: company_id), written to the operation log.
  const gone = await call(t.app, 'POST', '/person/unbind', { token: manager.token, body: { company_id: A.id } });
  assert.deepEqual([gone.code, gone.data.count], [CODES.OK, 1]);
  assert.equal((await call(t.app, 'GET', '/user/info', { token: manager.token })).data.person_id, 0);
  assert.equal((await call(t.app, 'POST', '/self/fromAdmin', { token: manager.token })).code, CODES.NOT_FOUND);
  const log = await call(t.app, 'GET', '/log/list', { token: A.main, query: { pageSize: 5 } });
  const actions = log.data.items.map((i: { action?: string; description?: string }) => i.action ?? i.description);
  assert.ok(
    actions.some((a: string) => /unbindAdmin|Unlinked|解除/.test(a)),
    JSON.stringify(actions),
  );
});

test(`a person who left cannot be linked; removing the account from the company unlinks it (${DIALECT})`, async () => {
  const zhou = await addPersonWithFace(t, A, { number: '711', name: 'Zhou Min', organizations: [dept] });
  const acct = await makeSub(t, A, ['userView'], 'mgr_link2');
  assert.equal((await call(t.app, 'POST', '/person/bindAdmin', { token: A.main, body: { person_id: zhou, admin_id: acct.id } })).code, CODES.OK);
  assert.equal((await call(t.app, 'POST', '/manager/delete', { token: A.main, body: { id: acct.id } })).code, CODES.OK);
  const after = await call(t.app, 'POST', '/person/fetchAdmin', { token: A.main, body: { person_id: zhou } });
  assert.deepEqual(after.data.items, []);

  const left = await addPersonWithFace(t, A, { number: '712', name: 'Sun Li', organizations: [dept] });
  const info = (await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: left } })).data;
  const update = await call(t.app, 'POST', '/person/update', {
    token: A.main,
    body: { id: left, number: info.number, name: info.name, phone: info.phone, organizations: [dept], pic: info.pic, workStatus: 0 },
  });
  assert.equal(update.code, CODES.OK, update.message);
  const acct3 = await makeSub(t, A, ['userView'], 'mgr_link3');
  const refused = await call(t.app, 'POST', '/person/bindAdmin', { token: A.main, body: { person_id: left, admin_id: acct3.id } });
  assert.equal(refused.code, CODES.RULE);
  assert.equal(refused.data.field, 'person_id');
});

test(`another company's people and accounts are not found; a sub-account links and lists nobody (${DIALECT})`, async () => {
  const chen = await addPersonWithFace(t, A, { number: '721', name: 'Chen Jie', organizations: [dept] });
  const bDept = (await call(t.app, 'POST', '/org/create', { token: B.main, body: { name: 'B Office' } })).data.id;
  const bPerson = await addPersonWithFace(t, B, { number: '901', name: 'B Person', organizations: [bDept] });
  const acct = await makeSub(t, A, ['userView', 'userEdit'], 'mgr_link4');
  // B's person with A's account, and A's person with B's account: not found.
  assert.equal((await call(t.app, 'POST', '/person/bindAdmin', { token: A.main, body: { person_id: bPerson, admin_id: acct.id } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/person/bindAdmin', { token: A.main, body: { person_id: chen, admin_id: B.mainId } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/person/bindAdmin', { token: B.main, body: { person_id: chen, admin_id: B.mainId } })).code, CODES.NOT_FOUND);
  // A sub-account with every person right still cannot link (it could become anyone) nor list, nor unlink others.
  assert.equal((await call(t.app, 'POST', '/person/bindAdmin', { token: acct.token, body: { person_id: chen, admin_id: acct.id } })).code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'POST', '/person/fetchAdmin', { token: acct.token, body: {} })).code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'POST', '/person/bindAdmin', { token: A.main, body: { person_id: chen, admin_id: acct.id } })).code, CODES.OK);
  assert.equal((await call(t.app, 'POST', '/person/unbind', { token: acct.token, body: { company_id: A.id, person_id: chen } })).code, CODES.NO_AUTHORITY);
  // Unlinking in a company that is not the current one is not found; B's main cannot unlink A's person.
  assert.equal((await call(t.app, 'POST', '/person/unbind', { token: acct.token, body: { company_id: B.id } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/person/unbind', { token: B.main, body: { company_id: B.id, person_id: chen } })).code, CODES.NOT_FOUND);
  // A main administrator unlinks someone else's account.
  const done = await call(t.app, 'POST', '/person/unbind', { token: A.main, body: { company_id: A.id, person_id: chen } });
  assert.deepEqual([done.code, done.data.count], [CODES.OK, 1]);
});
