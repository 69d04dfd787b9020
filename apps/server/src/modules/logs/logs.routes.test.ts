import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, LANGUAGES, type LogItem } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, makeSub, raw, type Company, type TestApp } from '../../../test/helpers.ts';
import { t as tr } from '../../i18n/i18n.ts';
import { clock } from '../../lib/time.ts';

let t: TestApp;
let A: Company;
let B: Company;
before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Log Co A', 'logowner_a');
  B = await makeCompany(t, 'Log Co B', 'logowner_b');
});
after(() => t.close());

const realNow = clock.now;
const en = (key: string, params: Record<string, string | number> = {}) => tr('en-US', key, params);
const logs = async (token: string, query: Record<string, string | number> = {}, lang = 'en-US') => {
  const r = await call<{ items: LogItem[]; total: number; page: number; pageSize: number }>(t.app, 'GET', '/log/list', {
    token,
    lang,
    query: { pageSize: 100, ...query },
  });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data;
};
const addManager = (c: Company, name: string, username: string, password = 'secret1') =>
  call(t.app, 'POST', '/manager/create', { token: c.main, body: { name, username, password, repassword: password } });

/** Runs `fn` with the server clock fixed at `iso`. */
async function at<T>(iso: string, fn: () => Promise<T>): Promise<T> {
  clock.now = () => Date.parse(iso);
  try {
    return await fn();
  } finally {
    clock.now = realNow;
  }
}

test(`module and keyword filters; keyword is case-insensitive and literal (${DIALECT})`, async () => {
  assert.equal((await addManager(A, 'Zebra Keeper', 'zebra1')).code, CODES.OK);
  assert.equal((await addManager(A, 'Lion Tamer', 'lion1')).code, CODES.OK);
  const all = await logs(A.main);
  assert.deepEqual(
    all.items.map((l) => l.action),
    ['manager.create', 'manager.create', 'company.create'],
  );
  assert.equal(all.total, 3);
  const manager = await logs(A.main, { module: 'manager' });
  assert.equal(manager.total, 2);
  assert.ok(manager.items.every((l) => l.module === 'manager' && l.action === 'manager.create'));
  const company = await logs(A.main, { module: 'company' });
  assert.deepEqual(
    company.items.map((l) => l.action),
    ['company.create'],
  );
  assert.equal((await logs(A.main, { module: 'nothing' })).total, 0);
  for (const keyword of ['Zebra', 'zebra', 'ZEBRA1', 'ebra Kee']) {
    const r = await logs(A.main, { keyword });
    assert.deepEqual(
      r.items.map((l) => (l.data as { username: string }).username),
      ['zebra1'],
      keyword,
    );
  }
  // The keyword also matches the acting administrator's name and the action.
  assert.ok((await logs(A.main, { keyword: 'admin logowner_a' })).total >= 3);
  assert.equal((await logs(A.main, { keyword: 'manager.create' })).total, 2);
  assert.equal((await logs(A.main, { keyword: '%' })).total, 0, 'LIKE wildcards match literally');
  assert.equal((await logs(A.main, { keyword: 'zebr_' })).total, 0, '_ is not a wildcard');
  assert.equal((await logs(A.main, { keyword: 'owner_a' })).total, 3, 'but matches a literal _');
  const modules = await call(t.app, 'GET', '/log/modules', { token: A.main });
  assert.deepEqual(modules.data, ['company', 'manager']);
});

test('from/to filters: ISO date-times (from inclusive, to exclusive) and whole days', async () => {
  const c = await makeCompany(t, 'Dated Co');
  // Whole days are the company's days: this one keeps UTC's (time-zone.test.ts covers another zone).
  await call(t.app, 'POST', '/company/update', { token: c.main, body: { name: 'Dated Co', phone: '010-1234567', time_zone: 'UTC' } });
  const stamps = ['2020-03-01T10:00:00.000Z', '2020-03-02T10:00:00.000Z', '2020-03-02T23:30:00.000Z', '2020-03-03T10:00:00.000Z'];
  for (const [i, iso] of stamps.entries()) await at(iso, () => addManager(c, `Dated ${i}`, `dated${i}${DIALECT[0]}`));
  const when = async (query: Record<string, string>) => (await logs(c.main, { module: 'manager', ...query })).items.map((l) => l.created_at);
  assert.deepEqual(await when({}), [...stamps].reverse());
  assert.deepEqual(await when({ from: '2020-03-02T00:00:00Z', to: '2020-03-03T00:00:00Z' }), [stamps[2], stamps[1]]);
  assert.deepEqual(await when({ from: '2020-03-02T10:00:00.000Z' }), [stamps[3], stamps[2], stamps[1]], 'from is inclusive');
  assert.deepEqual(await when({ to: '2020-03-02T10:00:00.000Z' }), [stamps[0]], 'to is exclusive');
  assert.deepEqual(await when({ from: '2020-03-02T12:00:00+02:00' }), [stamps[3], stamps[2], stamps[1]], 'offsets are honoured');
  // The console's date picker sends plain dates (YYYY-MM-DD): "to" includes that whole day.
  assert.deepEqual(await when({ from: '2020-03-02', to: '2020-03-02' }), [stamps[2], stamps[1]]);
  assert.deepEqual(await when({ from: '2020-03-03' }), [stamps[3]]);
  assert.deepEqual(await when({ to: '2020-03-01' }), [stamps[0]]);
  for (const [field, value] of [
    ['from', 'yesterday'],
    ['to', '2020-13-45'],
    ['from', '2020-03-02T25:00:00Z'],
    ['to', '2020-02-30'],
  ] as [string, string][]) {
    const r = await call(t.app, 'GET', '/log/list', { token: c.main, lang: 'en-US', query: { [field]: value } });
    assert.equal(r.code, CODES.VALIDATION, `${field}=${value}`);
    assert.equal(r.status, 400);
    assert.deepEqual(r.data, { field });
  }
});

test('pagination totals and order', async () => {
  const c = await makeCompany(t, 'Paged Co');
  for (let i = 0; i < 7; i++) assert.equal((await addManager(c, `Paged ${i}`, `paged${i}${DIALECT[0]}`)).code, CODES.OK);
  const p1 = await logs(c.main, { module: 'manager', page: 1, pageSize: 3 });
  const p2 = await logs(c.main, { module: 'manager', page: 2, pageSize: 3 });
  const p3 = await logs(c.main, { module: 'manager', page: 3, pageSize: 3 });
  assert.deepEqual([p1.total, p2.total, p3.total], [7, 7, 7]);
  assert.deepEqual([p1.items.length, p2.items.length, p3.items.length], [3, 3, 1]);
  assert.deepEqual([p1.page, p1.pageSize, p3.page], [1, 3, 3]);
  const names = [...p1.items, ...p2.items, ...p3.items].map((l) => (l.data as { name: string }).name);
  assert.deepEqual(names, ['Paged 6', 'Paged 5', 'Paged 4', 'Paged 3', 'Paged 2', 'Paged 1', 'Paged 0'], 'newest first, no overlap');
  assert.deepEqual((await logs(c.main, { module: 'manager', page: 9, pageSize: 3 })).items, []);
  for (const query of [{ page: 0 }, { pageSize: 0 }, { pageSize: 101 }, { page: 'x' }] as Record<string, string | number>[]) {
    const r = await call(t.app, 'GET', '/log/list', { token: c.main, query });
    assert.equal(r.code, CODES.VALIDATION, JSON.stringify(query));
  }
});

test('descriptions are translated per X-Lang', async () => {
  const c = await makeCompany(t, 'Lingua Co');
  await addManager(c, 'Polyglot', `poly${DIALECT[0]}`);
  const seen = new Set<string>();
  for (const lang of LANGUAGES) {
    const item = (await logs(c.main, { module: 'manager' }, lang)).items[0]!;
    assert.equal(item.description, tr(lang, 'log.actions.manager.create', { name: 'Polyglot', username: `poly${DIALECT[0]}` }), lang);
    assert.ok(item.description.includes('Polyglot'), 'parameters are filled in');
    assert.ok(!item.description.includes('{'), 'no placeholder left');
    seen.add(item.description);
  }
  assert.equal(seen.size, 4);
  const en1 = (await logs(c.main, { module: 'company' })).items[0]!;
  assert.equal(en1.description, 'Created company Lingua Co');
  assert.equal(en1.admin_name, `Admin ${(await call(t.app, 'GET', '/user/info', { token: c.main })).data.username}`);
  assert.equal(typeof en1.ip, 'string');
});

test('no secrets in logged data', async () => {
  const c = await makeCompany(t, 'Secretive Co');
  const pw = 'Very-Secret-77';
  const m = await addManager(c, 'Quiet One', `quiet${DIALECT[0]}`, pw);
  assert.equal(m.code, CODES.OK);
  await call(t.app, 'POST', '/manager/update', { token: c.main, body: { id: m.data.id, name: 'Quiet One', password: `${pw}x`, repassword: `${pw}x` } });
  await call(t.app, 'POST', '/user/changepwd', { token: c.main, body: { orig: 'secret1', new: `${pw}y`, renew: `${pw}y` } });
  const rows = await t.app.database.db.selectFrom('operation_logs').selectAll().where('company_id', '=', c.id).execute();
  assert.ok(rows.length >= 4);
  for (const r of rows) {
    for (const s of [pw, 'password', 'repassword', 'scrypt$', 'token'])
      assert.ok(!r.data.toLowerCase().includes(s.toLowerCase()), `${r.action} stores ${s}: ${r.data}`);
  }
  const created = rows.find((r) => r.action === 'manager.create')!;
  assert.equal(JSON.parse(created.data).username, `quiet${DIALECT[0]}`, 'useful data is kept');
  const token = (
    await call(t.app, 'POST', '/user/login', {
      body: {
        username: (await t.app.database.db.selectFrom('admins').select('username').where('id', '=', c.mainId).executeTakeFirstOrThrow()).username,
        password: `${pw}y`,
      },
    })
  ).data.token;
  const text = (await raw(t.app, 'GET', '/log/list', { token, query: { pageSize: 100 } })).text;
  assert.ok(!text.includes(pw));
  assert.ok(!/"[a-z_]*pass[a-z_]*"\s*:/i.test(text), 'no password-like keys in the answer');
});

test('tenant isolation: a company never sees another company’s logs', async () => {
  await addManager(B, 'Bee Keeper', `bee${DIALECT[0]}`);
  const a = await logs(A.main);
  const b = await logs(B.main);
  const aIds = new Set(a.items.map((l) => l.id));
  assert.ok(b.items.length > 0 && a.items.length > 0);
  assert.ok(b.items.every((l) => !aIds.has(l.id)));
  assert.ok(!a.items.some((l) => JSON.stringify(l.data).includes('Bee Keeper')));
  assert.equal((await logs(A.main, { keyword: 'Bee Keeper' })).total, 0);
  assert.ok(
    a.items.every((l) => l.admin_id === A.mainId),
    "only A's administrator acted in A",
  );
  assert.ok(b.items.every((l) => l.admin_id === B.mainId));
  // A sub with logView reads its own company's logs only; the totals agree with the main admin's view.
  const viewer = await makeSub(t, A, ['logView']);
  const v = await logs(viewer.token);
  assert.ok(v.items.every((l) => !b.items.some((x) => x.id === l.id)));
  assert.equal(v.total, (await logs(A.main)).total);
  const none = await makeSub(t, A, ['userView']);
  const refused = await call(t.app, 'GET', '/log/list', { token: none.token, lang: 'en-US' });
  assert.equal(refused.code, CODES.NO_AUTHORITY);
  assert.equal(refused.message, en('errors.noAuthority'));
});
