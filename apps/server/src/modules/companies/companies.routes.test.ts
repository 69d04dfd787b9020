import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, makeSub, register, refusedCodes, type TestApp } from '../../../test/helpers.ts';
import { t as tr } from '../../i18n/i18n.ts';

let t: TestApp;
before(async () => (t = await makeApp()));
after(() => t.close());

const en = (key: string, params: Record<string, string | number> = {}) => tr('en-US', key, params);
const v = (field: string, reason: string, limit = 0) => en('errors.validation', { field: en(`fields.${field}`), reason: en(`reasons.${reason}`, { limit }) });
const countCompanies = async () =>
  Number(
    (
      await t.app.database.db
        .selectFrom('companies')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const companyLogs = async (token: string) =>
  (await call(t.app, 'GET', '/log/list', { token, lang: 'en-US', query: { module: 'company', pageSize: 100 } })).data;

test(`create validates name, phone, location and filter_seconds (${DIALECT})`, async () => {
  const token = await register(t, 'cvalid');
  const good = { name: 'Valid Co', phone: '010-1234567' };
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['name missing', { phone: '123' }, 'name', v('name', 'required')],
    ['phone missing', { name: 'X Co' }, 'phone', v('phone', 'required')],
    ['name empty', { ...good, name: '' }, 'name', v('name', 'minLength', 1)],
    ['name only spaces', { ...good, name: '   ' }, 'name', v('name', 'required')],
    ['phone only spaces', { ...good, phone: '   ' }, 'phone', v('phone', 'required')],
    ['phone letters', { ...good, phone: 'call me' }, 'phone', v('phone', 'pattern')],
    ['name too long', { ...good, name: 'n'.repeat(101) }, 'name', v('name', 'maxLength', 100)],
    ['location not lng,lat', { ...good, location: 'Beijing' }, 'location', v('location', 'pattern')],
    ['location one number', { ...good, location: '116.4' }, 'location', v('location', 'pattern')],
    ['filter_seconds negative', { ...good, filter_seconds: -1 }, 'filter_seconds', v('filter_seconds', 'minimum', 0)],
    ['filter_seconds too big', { ...good, filter_seconds: 3601 }, 'filter_seconds', v('filter_seconds', 'maximum', 3600)],
    ['filter_seconds not a number', { ...good, filter_seconds: 'soon' }, 'filter_seconds', v('filter_seconds', 'type')],
    // a nested field: its full path, after its label (#28)
    [
      'option flag out of range',
      { ...good, options: { rfid: 2 } },
      'options.rfid',
      en('errors.validation', { field: `${en('fields.rfid')} (options.rfid)`, reason: en('reasons.maximum', { limit: 1 }) }),
    ],
  ];
  const before = await countCompanies();
  for (const [label, body, field, message] of cases) {
    const r = await call(t.app, 'POST', '/company/create', { token, lang: 'en-US', body });
    assert.ok(refusedCodes.includes(r.code), label);
    assert.ok([400, 422].includes(r.status), label);
    assert.deepEqual(r.data, { field }, label);
    assert.equal(r.message, message, label);
  }
  assert.equal(await countCompanies(), before, 'nothing was created');
  assert.equal((await call(t.app, 'GET', '/user/info', { token })).data.company, 0);
  // The message names the field in the caller's language.
  const ja = await call(t.app, 'POST', '/company/create', { token, lang: 'ja', body: { name: 'X' } });
  assert.ok(ja.message.includes(tr('ja', 'fields.phone')), ja.message);
  // Boundaries are accepted.
  for (const body of [
    { ...good, name: 'Edge Zero', filter_seconds: 0, location: '116.397,39.908' },
    { ...good, name: 'Edge Max', filter_seconds: 3600, location: '-73.98,40.75' },
    { ...good, name: 'Edge Empty Location', location: '' },
  ] as { name: string; phone: string; location: string; filter_seconds?: number }[]) {
    const r = await call(t.app, 'POST', '/company/create', { token, body });
    assert.equal(r.code, CODES.OK, `${body.name}: ${r.message}`);
    assert.equal(r.data.filter_seconds, body.filter_seconds ?? 60);
    assert.equal(r.data.location, body.location);
  }
});

test('an admin with company 0 is refused company routes with the noCompany message, but may list and create', async () => {
  const token = await register(t, 'nocompany');
  for (const [method, url] of [
    ['GET', '/company/info'],
    ['GET', '/log/list'],
    ['GET', '/log/modules'],
    ['GET', '/manager/list'],
    ['GET', '/message/count'],
    ['GET', '/message/list'],
    ['GET', '/dashboard/summary'],
    ['GET', '/admin/get_adminright'],
    ['POST', '/company/update'],
  ] as const) {
    const r = await call(t.app, method, url, { token, lang: 'en-US', ...(method === 'POST' ? { body: { name: 'Sneaky', phone: '1' } } : {}) });
    assert.equal(r.code, CODES.NO_AUTHORITY, url);
    assert.equal(r.status, 403, url);
    assert.equal(r.message, en('errors.noCompany'), url);
  }
  const list = await call(t.app, 'GET', '/company/list', { token });
  assert.equal(list.code, CODES.OK);
  assert.deepEqual(list.data, { items: [], total: 0 });
  const created = await call(t.app, 'POST', '/company/create', { token, body: { name: '  First Co  ', phone: ' 123 ', address: ' Main St 1 ' } });
  assert.equal(created.code, CODES.OK);
  assert.equal(created.data.name, 'First Co', 'trimmed');
  assert.equal(created.data.phone, '123');
  assert.equal(created.data.address, 'Main St 1');
  assert.equal(created.data.filter_seconds, 60, 'default filter seconds');
  assert.equal(created.data.options.number, 1, 'default options');
  assert.deepEqual(created.data.options.parking, { enabled: 0, url: '', key_set: false });
  assert.equal((await call(t.app, 'GET', '/company/info', { token })).data.id, created.data.id, 'company routes now work');
});

test('create switches the current company; the list shows only own companies', async () => {
  const a = await makeCompany(t, 'Alpha');
  const other = await makeCompany(t, 'Other Tenant');
  const second = await call(t.app, 'POST', '/company/create', { token: a.main, body: { name: 'Alpha Two', phone: '555' } });
  assert.equal(second.code, CODES.OK);
  const info = await call(t.app, 'GET', '/user/info', { token: a.main });
  assert.equal(info.data.company, second.data.id);
  assert.deepEqual(info.data.companys, [
    { id: a.id, name: 'Alpha' },
    { id: second.data.id, name: 'Alpha Two' },
  ]);
  assert.equal((await call(t.app, 'GET', '/company/info', { token: a.main })).data.name, 'Alpha Two');
  const list = await call(t.app, 'GET', '/company/list', { token: a.main });
  assert.equal(list.data.total, 2);
  assert.deepEqual(
    list.data.items.map((c: { id: number; current: boolean; role: string; is_init: number }) => [c.id, c.current, c.role, c.is_init]),
    [
      [a.id, false, 'main', 1],
      [second.data.id, true, 'main', 1],
    ],
  );
  assert.ok(!list.data.items.some((c: { id: number }) => c.id === other.id), 'never another tenant');
  const otherList = await call(t.app, 'GET', '/company/list', { token: other.main });
  assert.deepEqual(
    otherList.data.items.map((c: { id: number }) => c.id),
    [other.id],
  );
  // Switching back to an own company works.
  const sw = await call(t.app, 'POST', '/admin/setDefaultCompany', { token: a.main, body: { company_id: a.id } });
  assert.equal(sw.code, CODES.OK);
  assert.equal((await call(t.app, 'GET', '/company/info', { token: a.main })).data.name, 'Alpha');
});

test("setDefaultCompany with another tenant's company answers 40004 and changes nothing", async () => {
  const a = await makeCompany(t, 'Mine');
  const b = await makeCompany(t, 'Theirs');
  const sub = await makeSub(t, a, ['all']);
  for (const [token, label] of [
    [a.main, 'main'],
    [sub.token, 'sub'],
  ] as const) {
    for (const company_id of [b.id, 999_999]) {
      const r = await call(t.app, 'POST', '/admin/setDefaultCompany', { token, lang: 'en-US', body: { company_id } });
      assert.equal(r.code, CODES.NOT_FOUND, `${label} ${company_id}`);
      assert.equal(r.status, 404);
      assert.equal(r.message, en('errors.notFound'));
      const info = await call(t.app, 'GET', '/user/info', { token });
      assert.equal(info.data.company, a.id, `${label} still in own company`);
      assert.equal((await call(t.app, 'GET', '/company/info', { token })).data.name, 'Mine');
    }
  }
  const row = await t.app.database.db.selectFrom('admins').select('current_company_id').where('id', '=', a.mainId).executeTakeFirstOrThrow();
  assert.equal(row.current_company_id, a.id);
  const bad = await call(t.app, 'POST', '/admin/setDefaultCompany', { token: a.main, body: { company_id: 0 } });
  assert.equal(bad.code, CODES.VALIDATION);
  assert.equal(bad.data.field, 'company_id');
});

test('update is main-only: a sub with every right is refused and nothing changes; a second main may update', async () => {
  const a = await makeCompany(t, 'Guarded');
  const sub = await makeSub(t, a, ['all']);
  const subRights = await call(t.app, 'GET', '/admin/get_adminright', { token: sub.token });
  assert.deepEqual(subRights.data.functions, ['all'], 'the sub really holds every function right');
  const before = (await call(t.app, 'GET', '/company/info', { token: a.main })).data;
  const r = await call(t.app, 'POST', '/company/update', { token: sub.token, lang: 'en-US', body: { name: 'Hijacked', phone: '1', options: { rfid: 1 } } });
  assert.equal(r.code, CODES.NO_AUTHORITY);
  assert.equal(r.status, 403);
  assert.equal(r.message, en('errors.mainOnly'));
  assert.deepEqual((await call(t.app, 'GET', '/company/info', { token: sub.token })).data, before, 'unchanged, and readable by the sub');
  const main2 = await makeSub(t, a, [], undefined, 'main');
  const ok = await call(t.app, 'POST', '/company/update', { token: main2.token, body: { name: 'Guarded Renamed', phone: '2' } });
  assert.equal(ok.code, CODES.OK);
  assert.equal(ok.data.name, 'Guarded Renamed');
});

test('update merges options, keeps unspecified fields, and validates like create', async () => {
  const a = await makeCompany(t, 'Options Co');
  const base = { name: 'Options Co', phone: '010-1234567' };
  const first = await call(t.app, 'POST', '/company/update', {
    token: a.main,
    body: { ...base, address: 'Road 5', location: '116.4,39.9', filter_seconds: 30, options: { rfid: 1 } },
  });
  assert.equal(first.code, CODES.OK);
  await call(t.app, 'POST', '/company/update', { token: a.main, body: { ...base, options: { parking: { enabled: 1, url: 'https://park.example' } } } });
  await call(t.app, 'POST', '/company/update', { token: a.main, body: { ...base, options: { idcard: 1, parking: { key: 'k1' } } } });
  const last = await call(t.app, 'POST', '/company/update', { token: a.main, body: base });
  assert.equal(last.code, CODES.OK);
  const info = (await call(t.app, 'GET', '/company/info', { token: a.main })).data;
  assert.deepEqual(info, last.data);
  assert.equal(info.options.rfid, 1);
  assert.equal(info.options.idcard, 1);
  assert.equal(info.options.number, 1, 'default kept');
  assert.deepEqual(info.options.parking, { enabled: 1, url: 'https://park.example', key_set: true });
  assert.equal(info.address, 'Road 5');
  assert.equal(info.location, '116.4,39.9');
  assert.equal(info.filter_seconds, 30);
  const bad = await call(t.app, 'POST', '/company/update', { token: a.main, body: { ...base, name: '   ' } });
  assert.equal(bad.code, CODES.VALIDATION);
  assert.equal(bad.data.field, 'name');
  const bad2 = await call(t.app, 'POST', '/company/update', { token: a.main, body: { ...base, filter_seconds: 4000 } });
  assert.equal(bad2.code, CODES.VALIDATION);
  // a nested field is named by its full path (#28)
  const nested = await call(t.app, 'POST', '/company/update', { token: a.main, lang: 'en-US', body: { ...base, options: { parking: { url: 5 } } } });
  assert.equal(nested.code, CODES.VALIDATION);
  assert.equal(nested.data.field, 'options.parking.url');
  assert.equal(nested.message, 'Parking service URL: wrong type', 'the label of the full path');
  const missing = await call(t.app, 'POST', '/company/update', { token: a.main, lang: 'en-US', body: { ...base, options: { parking: { enabled: 'on' } } } });
  assert.equal(missing.data.field, 'options.parking.enabled');
  assert.deepEqual((await call(t.app, 'GET', '/company/info', { token: a.main })).data, info, 'refused updates change nothing');
});

test('each company change is in the operation log, translated', async () => {
  const a = await makeCompany(t, 'Logged Co');
  const before = await companyLogs(a.main);
  assert.equal(before.total, 1);
  assert.equal(before.items[0].action, 'company.create');
  assert.equal(before.items[0].description, en('log.actions.company.create', { name: 'Logged Co' }));
  await call(t.app, 'POST', '/company/update', { token: a.main, body: { name: 'Logged Co 2', phone: '1', options: { alarmRing: 1 } } });
  await call(t.app, 'POST', '/company/update', { token: a.main, body: { name: 'Logged Co 3', phone: '1' } });
  const after = await companyLogs(a.main);
  assert.equal(after.total, 3);
  assert.deepEqual(
    after.items.map((l: { action: string }) => l.action),
    ['company.update', 'company.update', 'company.create'],
  );
  assert.equal(after.items[0].description, 'Updated company Logged Co 3');
  assert.deepEqual(after.items[1].data, { id: a.id, name: 'Logged Co 2', options: { alarmRing: 1 } });
  assert.equal(after.items[1].admin_id, a.mainId);
  // A refused update leaves no entry.
  const sub = await makeSub(t, a, ['all']);
  await call(t.app, 'POST', '/company/update', { token: sub.token, body: { name: 'Nope', phone: '1' } });
  assert.equal((await companyLogs(a.main)).total, 3);
  // alarmRing reaches the session user.
  assert.equal((await call(t.app, 'GET', '/user/info', { token: a.main })).data.alarm_ring, 1);
});

test(`the parking secret never leaves the server: shown as set, kept when the form sends it blank, not logged (${DIALECT})`, async () => {
  const a = await makeCompany(t, 'Secret Co');
  const base = { name: 'Secret Co', phone: '1' };
  const secret = 'pk-very-secret-123456';
  const set = await call(t.app, 'POST', '/company/update', {
    token: a.main,
    body: { ...base, options: { parking: { enabled: 1, url: 'https://park.example/hook', key: secret } } },
  });
  assert.equal(set.code, CODES.OK);
  assert.deepEqual(set.data.options.parking, { enabled: 1, url: 'https://park.example/hook', key_set: true });
  // The console sends the field back blank: the stored secret stays.
  await call(t.app, 'POST', '/company/update', {
    token: a.main,
    body: { ...base, options: { parking: { enabled: 1, url: 'https://park.example/hook', key: '' } } },
  });
  const row = await t.app.database.db.selectFrom('companies').select('options').where('id', '=', a.id).executeTakeFirstOrThrow();
  assert.equal(JSON.parse(row.options).parking.key, secret, 'kept');
  // Nowhere in what the API answers: info, list, user info, the operation log.
  for (const [path, query] of [
    ['/company/info', {}],
    ['/company/list', {}],
    ['/user/info', {}],
    ['/log/list', { module: 'company', pageSize: 100 }],
  ] as const) {
    const r = await call(t.app, 'GET', path, { token: a.main, query });
    assert.equal(r.code, CODES.OK, path);
    assert.ok(!JSON.stringify(r.data).includes(secret), `${path} leaks the secret`);
  }
  const logs = await companyLogs(a.main);
  assert.deepEqual(logs.items[1].data.options.parking, { enabled: 1, url: 'https://park.example/hook', key_set: true });
  // A new secret replaces it.
  await call(t.app, 'POST', '/company/update', { token: a.main, body: { ...base, options: { parking: { key: 'other-secret' } } } });
  const row2 = await t.app.database.db.selectFrom('companies').select('options').where('id', '=', a.id).executeTakeFirstOrThrow();
  assert.equal(JSON.parse(row2.options).parking.key, 'other-secret');
});

test(`internal testing (spec §6): diagnostic details only with the option on, for main administrators (${DIALECT})`, async () => {
  const a = await makeCompany(t, 'Testing Co');
  const off = await call(t.app, 'GET', '/company/diagnostics', { token: a.main, lang: 'en-US' });
  assert.equal(off.code, CODES.RULE);
  assert.match(off.message, /internal testing/);
  assert.equal((await call(t.app, 'GET', '/user/info', { token: a.main })).data.debug, 0, 'off by default');
  await call(t.app, 'POST', '/company/update', { token: a.main, body: { name: 'Testing Co', phone: '1', options: { internalTesting: 1 } } });
  assert.equal((await call(t.app, 'GET', '/user/info', { token: a.main })).data.debug, 1);
  const on = await call(t.app, 'GET', '/company/diagnostics', { token: a.main });
  assert.equal(on.code, CODES.OK, on.message);
  assert.equal(on.data.database, DIALECT);
  const names = on.data.jobs.map((j: { name: string }) => j.name);
  for (const job of ['parking.push', 'punches.dualAuth', 'devices.presence']) assert.ok(names.includes(job), job);
  const sub = await makeSub(t, a, ['all']);
  assert.equal((await call(t.app, 'GET', '/company/diagnostics', { token: sub.token })).code, CODES.NO_AUTHORITY, 'main administrators only');
});
