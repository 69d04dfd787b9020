import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type FunctionRight } from '@faceadmin/shared';
import { call, DIALECT, login, makeApp, makeCompany, makeSub, nextIp, type Company, refusedCodes, type TestApp } from '../../../test/helpers.ts';
import { t as tr } from '../../i18n/i18n.ts';

let t: TestApp;
let A: Company;
let B: Company;
before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Company A', 'owner_a');
  B = await makeCompany(t, 'Company B', 'owner_b');
});
after(() => t.close());

const en = (key: string, params: Record<string, string | number> = {}) => tr('en-US', key, params);
const v = (field: string, reason: string, limit = 0) => en('errors.validation', { field: en(`fields.${field}`), reason: en(`reasons.${reason}`, { limit }) });
const adminRow = (username: string) => t.app.database.db.selectFrom('admins').selectAll().where('username', '=', username).executeTakeFirst();
const signIn = (username: string, password: string) => call(t.app, 'POST', '/user/login', { ip: nextIp(), lang: 'en-US', body: { username, password } });
const create = (token: string, body: Record<string, unknown>) => call(t.app, 'POST', '/manager/create', { token, lang: 'en-US', body });
const update = (token: string, body: Record<string, unknown>) => call(t.app, 'POST', '/manager/update', { token, lang: 'en-US', body });
const list = async (token: string, query: Record<string, string | number> = {}) =>
  (await call(t.app, 'GET', '/manager/list', { token, query: { pageSize: 100, ...query } })).data;
let n = 0;
const uname = (p = 'm') => `${p}${++n}${DIALECT[0]}`;

test(`create validates spec §5 and creates nothing on refusal (${DIALECT})`, async () => {
  const ok = { name: 'Valid Name', username: 'willnotexist', password: 'secret1', repassword: 'secret1' };
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['name missing', { ...ok, name: undefined }, 'name', v('name', 'required')],
    ['name blank', { ...ok, name: '   ' }, 'name', v('name', 'required')],
    ['account missing', { ...ok, username: undefined }, 'username', v('username', 'required')],
    ['account 21 chars', { ...ok, username: 'x'.repeat(21) }, 'username', v('username', 'maxLength', 20)],
    ['password missing', { ...ok, password: undefined }, 'password', v('password', 'required')],
    ['password 5 chars', { ...ok, password: '12345', repassword: '12345' }, 'password', v('password', 'minLength', 6)],
    ['repeat differs', { ...ok, repassword: 'secret2' }, 'repassword', en('errors.passwordMismatch')],
    ['repeat missing', { ...ok, repassword: undefined }, 'repassword', v('repassword', 'required')],
    ['mobile invalid', { ...ok, mobile: 'phone' }, 'mobile', v('mobile', 'enum')],
    ['unknown right', { ...ok, rights: ['godMode'] }, 'rights', v('rights', 'enum')],
    ['unknown role', { ...ok, role: 'owner' }, 'role', v('role', 'enum')],
    ['unknown status', { ...ok, status: 'sleeping' }, 'status', v('status', 'enum')],
  ];
  const before = await list(A.main);
  for (const [label, body, field, message] of cases) {
    const r = await create(A.main, JSON.parse(JSON.stringify(body)));
    assert.ok(refusedCodes.includes(r.code), label);
    assert.deepEqual(r.data, { field }, label);
    assert.equal(r.message, message, label);
  }
  assert.equal(await adminRow('willnotexist'), undefined);
  assert.deepEqual(await list(A.main), before);
  // Exactly 20 characters and a 6-character password are fine; the account is trimmed of nothing but must match the pattern.
  const edge = await create(A.main, { ...ok, username: 'y'.repeat(20), password: '123456', repassword: '123456' });
  assert.equal(edge.code, CODES.OK, edge.message);
  assert.equal(edge.data.role, 'sub', 'role defaults to sub');
  assert.equal(edge.data.status, 'normal');
  assert.deepEqual(edge.data.rights, []);
  assert.equal(edge.data.is_init, 0);
  assert.equal((await signIn('y'.repeat(20), '123456')).code, CODES.OK);
});

test('a duplicate account answers 40009, also across companies, and creates nothing', async () => {
  const u = uname('dup');
  assert.equal((await create(A.main, { name: 'First', username: u, password: 'secret1', repassword: 'secret1' })).code, CODES.OK);
  for (const token of [A.main, B.main]) {
    const r = await create(token, { name: 'Second', username: u, password: 'secret2', repassword: 'secret2' });
    assert.equal(r.status, 409);
    assert.equal(r.code, CODES.CONFLICT);
    assert.equal(r.message, en('errors.accountTaken', { username: u }));
  }
  const taken = await create(B.main, { name: 'Owner clash', username: 'owner_a', password: 'secret2', repassword: 'secret2' });
  assert.equal(taken.code, CODES.CONFLICT);
  assert.equal((await adminRow(u))!.name, 'First');
  assert.equal((await signIn(u, 'secret2')).code, CODES.BAD_CREDENTIALS);
  assert.ok(!(await list(B.main)).items.some((m: { username: string }) => m.username === u));
});

test('update: a blank password keeps the old one and the sessions; a new one ends the sessions', async () => {
  const sub = await makeSub(t, A, ['logView'], uname('keep'));
  const kept = await update(A.main, { id: sub.id, name: 'Renamed Keep', password: '', repassword: '' });
  assert.equal(kept.code, CODES.OK);
  assert.equal(kept.data.name, 'Renamed Keep');
  assert.deepEqual(kept.data.rights, ['logView'], 'rights kept when not sent');
  assert.equal((await call(t.app, 'GET', '/user/info', { token: sub.token })).code, CODES.OK, 'session kept');
  assert.equal((await signIn(sub.username, 'secret1')).code, CODES.OK, 'old password still signs in');
  assert.equal((await update(A.main, { id: sub.id, name: 'No Pw Field' })).code, CODES.OK);
  assert.equal((await signIn(sub.username, 'secret1')).code, CODES.OK);

  const hash = (await adminRow(sub.username))!.password_hash;
  const mismatch = await update(A.main, { id: sub.id, name: 'X Y', password: 'newpass1', repassword: 'newpass2' });
  assert.equal(mismatch.code, CODES.RULE);
  assert.equal(mismatch.data.field, 'repassword');
  const short = await update(A.main, { id: sub.id, name: 'X Y', password: '123', repassword: '123' });
  assert.equal(short.code, CODES.VALIDATION);
  assert.equal(short.data.field, 'password');
  const row = (await adminRow(sub.username))!;
  assert.equal(row.password_hash, hash);
  assert.equal(row.name, 'No Pw Field', 'refused updates change nothing');

  const other = await login(t.app, sub.username, 'secret1');
  const changed = await update(A.main, { id: sub.id, name: 'Changed Pw', password: 'newpass1', repassword: 'newpass1' });
  assert.equal(changed.code, CODES.OK);
  for (const token of [sub.token, other]) assert.equal((await call(t.app, 'GET', '/user/info', { token })).code, CODES.ILLEGAL_TOKEN);
  assert.equal((await signIn(sub.username, 'secret1')).code, CODES.BAD_CREDENTIALS);
  assert.equal((await signIn(sub.username, 'newpass1')).code, CODES.OK);
});

test('disabling ends the sessions and sign-in then answers 40011; enabling again lets them in', async () => {
  const sub = await makeSub(t, A, ['logView'], uname('dis'));
  const r = await update(A.main, { id: sub.id, name: 'Disabled One', status: 'disabled' });
  assert.equal(r.code, CODES.OK);
  assert.equal(r.data.status, 'disabled');
  assert.equal((await call(t.app, 'GET', '/user/info', { token: sub.token })).code, CODES.ILLEGAL_TOKEN);
  const s = await signIn(sub.username, 'secret1');
  assert.equal(s.code, CODES.DISABLED);
  assert.equal(s.status, 403);
  assert.equal(s.message, en('errors.disabled'));
  assert.equal(s.data?.token, undefined);
  assert.equal((await list(A.main, { status: 'disabled' })).items.filter((m: { id: number }) => m.id === sub.id).length, 1, 'status filter');
  assert.equal((await update(A.main, { id: sub.id, name: 'Enabled One', status: 'enabled' })).code, CODES.OK);
  assert.equal((await signIn(sub.username, 'secret1')).code, CODES.OK);
  // Nobody changes their own role or status.
  const self = await update(A.main, { id: A.mainId, name: 'Owner A', status: 'disabled' });
  assert.equal(self.code, CODES.RULE);
  assert.equal(self.message, en('errors.cannotChangeSelf'));
  assert.equal((await signIn('owner_a', 'secret1')).code, CODES.OK);
});

test('delete: not yourself, not the initial admin; a deleted account can no longer sign in', async () => {
  const main2 = await makeSub(t, A, [], uname('main'), 'main');
  const self = await call(t.app, 'POST', '/manager/delete', { token: A.main, lang: 'en-US', body: { id: A.mainId } });
  assert.equal(self.code, CODES.RULE);
  assert.equal(self.message, en('errors.cannotDeleteSelf'));
  const init = await call(t.app, 'POST', '/manager/delete', { token: main2.token, lang: 'en-US', body: { id: A.mainId } });
  assert.equal(init.code, CODES.NO_AUTHORITY);
  assert.equal(init.message, en('errors.cannotChangeInit'));
  const initUpd = await update(main2.token, { id: A.mainId, name: 'Demoted', role: 'sub' });
  assert.equal(initUpd.code, CODES.NO_AUTHORITY);
  assert.equal((await signIn('owner_a', 'secret1')).code, CODES.OK, 'the initial admin is untouched');
  assert.equal((await adminRow('owner_a'))!.name, 'Admin owner_a');

  const victim = await makeSub(t, A, ['logView'], uname('del'));
  const d = await call(t.app, 'POST', '/manager/delete', { token: A.main, body: { id: victim.id } });
  assert.equal(d.code, CODES.OK);
  assert.equal((await call(t.app, 'GET', '/user/info', { token: victim.token })).code, CODES.ILLEGAL_TOKEN);
  assert.equal((await signIn(victim.username, 'secret1')).code, CODES.BAD_CREDENTIALS);
  assert.equal(await adminRow(victim.username), undefined);
  assert.ok(!(await list(A.main)).items.some((m: { id: number }) => m.id === victim.id));
  const again = await call(t.app, 'POST', '/manager/delete', { token: A.main, body: { id: victim.id } });
  assert.equal(again.code, CODES.NOT_FOUND);
  // Deleting the manager removes the sub's sign-in for the company, though its own company survives.
  const multi = await makeSub(t, A, ['all'], uname('multi'));
  const own = await call(t.app, 'POST', '/company/create', { token: multi.token, body: { name: 'Multi Own', phone: '1' } });
  assert.equal(own.code, CODES.OK);
  assert.equal((await call(t.app, 'POST', '/manager/delete', { token: A.main, body: { id: multi.id } })).code, CODES.OK);
  assert.equal((await call(t.app, 'GET', '/user/info', { token: multi.token })).code, CODES.ILLEGAL_TOKEN, 'sessions ended');
  const back = await login(t.app, multi.username, 'secret1');
  const info = await call(t.app, 'GET', '/user/info', { token: back });
  assert.deepEqual(info.data.companys, [{ id: own.data.id, name: 'Multi Own' }]);
});

test("cross-tenant: company B's manager ids are not found for company A, and B is unchanged", async () => {
  const bSub = await makeSub(t, B, ['logView'], uname('bsub'));
  const bBefore = await list(B.main);
  for (const id of [B.mainId, bSub.id]) {
    const u = await update(A.main, { id, name: 'Hijacked', status: 'disabled', password: 'hijack99', repassword: 'hijack99' });
    assert.equal(u.code, CODES.NOT_FOUND, `update ${id}`);
    assert.equal(u.status, 404);
    const d = await call(t.app, 'POST', '/manager/delete', { token: A.main, body: { id } });
    assert.equal(d.code, CODES.NOT_FOUND, `delete ${id}`);
    const tr2 = await call(t.app, 'POST', '/admin/transfer', { token: A.main, body: { admin_id: id } });
    assert.equal(tr2.code, CODES.NOT_FOUND, `transfer ${id}`);
  }
  assert.deepEqual(await list(B.main), bBefore);
  assert.equal((await call(t.app, 'GET', '/user/info', { token: bSub.token })).code, CODES.OK, "B's sessions live on");
  assert.equal((await signIn(bSub.username, 'secret1')).code, CODES.OK);
  assert.equal((await signIn(bSub.username, 'hijack99')).code, CODES.BAD_CREDENTIALS);
  const bInfo = await call(t.app, 'GET', '/user/info', { token: B.main });
  assert.equal(bInfo.data.is_init, 1);
  const aList = await list(A.main);
  assert.ok(!aList.items.some((m: { id: number }) => m.id === bSub.id || m.id === B.mainId), "A's list never shows B's managers");
  const search = await call(t.app, 'GET', '/admin/transfer/search', { token: A.main, query: { keyword: bSub.username } });
  assert.deepEqual(search.data, { items: [], total: 0 });
});

test('a sub with rightsSetting cannot create main accounts nor grant rights it lacks', async () => {
  const setter = await makeSub(t, A, ['rightsSetting', 'userView'], uname('setter'));
  const u1 = uname('esc');
  const asMain = await create(setter.token, { name: 'Escalate', username: u1, password: 'secret1', repassword: 'secret1', role: 'main' });
  assert.equal(asMain.code, CODES.NO_AUTHORITY);
  assert.equal(asMain.message, en('errors.mainOnly'));
  for (const rights of [['logView'], ['all'], ['userEdit'], ['rightsSetting', 'faceView']] as FunctionRight[][]) {
    const r = await create(setter.token, { name: 'Escalate', username: u1, password: 'secret1', repassword: 'secret1', rights });
    assert.equal(r.code, CODES.NO_AUTHORITY, rights.join());
    assert.equal(r.message, en('errors.noAuthority'));
  }
  assert.equal(await adminRow(u1), undefined, 'nothing created');
  const fine = await create(setter.token, {
    name: 'Allowed Sub',
    username: uname('fine'),
    password: 'secret1',
    repassword: 'secret1',
    rights: ['userView', 'rightsSetting'],
  });
  assert.equal(fine.code, CODES.OK);
  assert.deepEqual(fine.data.rights, ['userView', 'rightsSetting']);
  // Nor raise an existing sub's rights, nor promote it, nor touch a main account.
  const raise = await update(setter.token, { id: fine.data.id, name: 'Allowed Sub', rights: ['logView'] });
  assert.equal(raise.code, CODES.NO_AUTHORITY);
  const promote = await update(setter.token, { id: fine.data.id, name: 'Allowed Sub', role: 'main' });
  assert.equal(promote.code, CODES.NO_AUTHORITY);
  const main2 = await makeSub(t, A, [], uname('m2'), 'main');
  const touchMain = await update(setter.token, { id: main2.id, name: 'Touched', role: 'sub', rights: [] });
  assert.equal(touchMain.code, CODES.NO_AUTHORITY);
  const delMain = await call(t.app, 'POST', '/manager/delete', { token: setter.token, body: { id: main2.id } });
  assert.equal(delMain.code, CODES.NO_AUTHORITY);
  const rows = await list(A.main);
  assert.deepEqual(rows.items.find((m: { id: number }) => m.id === fine.data.id).rights, ['userView', 'rightsSetting']);
  assert.equal(rows.items.find((m: { id: number }) => m.id === main2.id).role, 'main');
  // Nor change its own rights.
  const selfRaise = await update(setter.token, { id: setter.id, name: 'Setter', rights: ['all'] });
  assert.equal(selfRaise.code, CODES.RULE);
  assert.deepEqual((await call(t.app, 'GET', '/admin/get_adminright', { token: setter.token })).data.functions, ['userView', 'rightsSetting']);
});

test('get_adminright reports role, is_init, rights and function rights', async () => {
  const main = await call(t.app, 'GET', '/admin/get_adminright', { token: A.main });
  assert.equal(main.code, CODES.OK);
  assert.equal(main.data.role, 'main');
  assert.equal(main.data.is_init, 1);
  assert.deepEqual(main.data.functions, ['all']);
  assert.deepEqual(main.data.rights, { is_admin: 1, person: 2, attendance: 1, face: 2, breaker: 1, log: 1, workflow: 1, manager: 1 });
  const sub = await makeSub(t, A, ['logView', 'faceView'], uname('right'));
  const s = await call(t.app, 'GET', '/admin/get_adminright', { token: sub.token });
  assert.equal(s.data.role, 'sub');
  assert.equal(s.data.is_init, 0);
  assert.deepEqual(s.data.functions, ['faceView', 'logView']);
  assert.deepEqual(s.data.rights, { is_admin: 1, person: 0, attendance: 0, face: 1, breaker: 0, log: 1, workflow: 0, manager: 0 });
});

test('manager list: pagination, keyword (case-insensitive) and status filters', async () => {
  const c = await makeCompany(t, 'List Co');
  for (let i = 0; i < 5; i++) await makeSub(t, c, [], `Lister${i}${DIALECT[0]}`);
  const p1 = await call(t.app, 'GET', '/manager/list', { token: c.main, query: { page: 1, pageSize: 2 } });
  assert.equal(p1.data.total, 6);
  assert.equal(p1.data.items.length, 2);
  assert.equal(p1.data.page, 1);
  assert.equal(p1.data.pageSize, 2);
  assert.equal(p1.data.items[0].is_init, 1, 'the initial admin first');
  const p3 = await call(t.app, 'GET', '/manager/list', { token: c.main, query: { page: 3, pageSize: 2 } });
  assert.equal(p3.data.items.length, 2);
  const p4 = await call(t.app, 'GET', '/manager/list', { token: c.main, query: { page: 4, pageSize: 2 } });
  assert.deepEqual(p4.data.items, []);
  assert.equal(p4.data.total, 6);
  const ids = new Set([...p1.data.items, ...p3.data.items].map((m: { id: number }) => m.id));
  assert.equal(ids.size, 4, 'pages do not overlap');
  assert.equal((await list(c.main, { keyword: 'lister' })).total, 5, 'lower-case keyword finds "Lister"');
  assert.equal((await list(c.main, { keyword: 'LISTER3' })).total, 1);
  assert.equal((await list(c.main, { keyword: '%' })).total, 0, 'LIKE wildcards match literally');
  assert.equal((await list(c.main, { status: 'disabled' })).total, 0);
  const big = await call(t.app, 'GET', '/manager/list', { token: c.main, query: { pageSize: 101 } });
  assert.equal(big.code, CODES.VALIDATION);
  assert.equal(big.data.field, 'pageSize');
});

test('transfer search is for the initial admin only', async () => {
  const c = await makeCompany(t, 'Transfer Search Co');
  const s1 = await makeSub(t, c, [], uname('ts'));
  const s2 = await makeSub(t, c, [], uname('ts'));
  const main2 = await makeSub(t, c, [], uname('tsm'), 'main');
  await update(c.main, { id: s2.id, name: `Sub ${s2.username}`, status: 'disabled' });
  const r = await call(t.app, 'GET', '/admin/transfer/search', { token: c.main });
  assert.equal(r.code, CODES.OK);
  assert.deepEqual(
    r.data.items.map((i: { id: number }) => i.id).sort((x: number, y: number) => x - y),
    [s1.id, main2.id].sort((x, y) => x - y),
    'everyone but yourself and the disabled',
  );
  assert.equal(r.data.total, 2);
  assert.ok(r.data.items.some((i: { name: string }) => i.name === `Sub ${s1.username} (${s1.username})`));
  const k = await call(t.app, 'GET', '/admin/transfer/search', { token: c.main, query: { keyword: s1.username } });
  assert.deepEqual(
    k.data.items.map((i: { id: number }) => i.id),
    [s1.id],
  );
  for (const token of [main2.token, s1.token]) {
    const refused = await call(t.app, 'GET', '/admin/transfer/search', { token, lang: 'en-US' });
    assert.equal(refused.code, CODES.NO_AUTHORITY);
    assert.equal(refused.message, en('errors.initOnly'));
  }
});

test('transfer is irreversible: the target becomes initial admin, the old one loses transfer, everyone is told', async () => {
  const c = await makeCompany(t, 'Handover Co', uname('hand'));
  const target = await makeSub(t, c, ['logView'], uname('heir'));
  const bystander = await makeSub(t, c, [], uname('by'));
  const disabled = await makeSub(t, c, [], uname('off'));
  await update(c.main, { id: disabled.id, name: 'Off', status: 'disabled' });
  const toSelf = await call(t.app, 'POST', '/admin/transfer', { token: c.main, body: { admin_id: c.mainId } });
  assert.equal(toSelf.code, CODES.RULE);
  const toDisabled = await call(t.app, 'POST', '/admin/transfer', { token: c.main, body: { admin_id: disabled.id } });
  assert.equal(toDisabled.code, CODES.RULE);
  const byMainSub = await call(t.app, 'POST', '/admin/transfer', { token: target.token, body: { admin_id: target.id } });
  assert.equal(byMainSub.code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'GET', '/user/info', { token: c.main })).data.is_init, 1, 'refusals changed nothing');

  const r = await call(t.app, 'POST', '/admin/transfer', { token: c.main, body: { admin_id: target.id } });
  assert.equal(r.code, CODES.OK);
  const heir = await call(t.app, 'GET', '/user/info', { token: target.token });
  assert.equal(heir.data.is_init, 1);
  assert.deepEqual(heir.data.roles, ['main']);
  assert.deepEqual((await call(t.app, 'GET', '/admin/get_adminright', { token: target.token })).data.functions, ['all']);
  const old = await call(t.app, 'GET', '/user/info', { token: c.main });
  assert.equal(old.data.is_init, 0);
  assert.deepEqual(old.data.roles, ['main'], 'the old initial admin stays a main account');
  for (const [method, url, extra] of [
    ['POST', '/admin/transfer', { body: { admin_id: target.id } }],
    ['GET', '/admin/transfer/search', {}],
  ] as const) {
    const refused = await call(t.app, method, url, { token: c.main, lang: 'en-US', ...extra });
    assert.equal(refused.code, CODES.NO_AUTHORITY, url);
    assert.equal(refused.message, en('errors.initOnly'));
  }
  // The new initial admin cannot be deleted by the old one.
  assert.equal((await call(t.app, 'POST', '/manager/delete', { token: c.main, body: { id: target.id } })).code, CODES.NO_AUTHORITY);
  for (const token of [c.main, target.token, bystander.token]) {
    const msgs = await call(t.app, 'GET', '/message/list', { token, lang: 'en-US' });
    const m = msgs.data.items.find((x: { type: string }) => x.type === 'transfer');
    assert.ok(m, 'a transfer message for every admin of the company');
    assert.equal(m.title, en('messages.transfer.title'));
    assert.equal(
      m.content,
      en('messages.transfer.content', {
        from: `Admin ${(await call(t.app, 'GET', '/user/info', { token: c.main })).data.username}`,
        to: `Sub ${target.username}`,
        company: 'Handover Co',
      }),
    );
  }
  const otherCompany = await call(t.app, 'GET', '/message/list', { token: A.main });
  assert.ok(!otherCompany.data.items.some((x: { type: string }) => x.type === 'transfer'), 'other companies are not told');
  const logs = await call(t.app, 'GET', '/log/list', { token: target.token, query: { module: 'manager' } });
  assert.equal(logs.data.items[0].action, 'manager.transfer');
});
