import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CLIENT_ERROR_LIMITS, CODES, FUNCTION_RIGHT_KEYS, type ClientErrorItem } from '@faceadmin/shared';
import { API, call, DIALECT, makeApp, makeCompany, makeSub, nextIp, type Company, type TestApp } from '../../../test/helpers.ts';
import { fingerprintOf, topFrame } from './client-errors.service.ts';

let t: TestApp;
let A: Company;
let B: Company;
before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Err Co A', 'errowner_a');
  B = await makeCompany(t, 'Err Co B', 'errowner_b');
});
after(() => t.close());

const CHROME_STACK =
  "TypeError: Cannot read properties of undefined (reading 'name')\n    at PersonCard (https://fa.example/assets/index-abc.js:12:345)\n    at renderWithHooks (https://fa.example/assets/index-abc.js:1:2)";
const report = (body: Record<string, unknown>, o: { token?: string; ip?: string } = {}) =>
  call<{ stored: boolean }>(t.app, 'POST', '/system/clientError', {
    body: { kind: 'error', url: 'https://fa.example/person', ...body },
    ip: o.ip ?? nextIp(),
    token: o.token,
  });
const list = async (token: string) => {
  const r = await call<{ items: ClientErrorItem[]; total: number }>(t.app, 'GET', '/system/clientError/list', { token, query: { pageSize: 100 } });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data;
};
const find = async (token: string, message: string) => (await list(token)).items.find((e) => e.message === message);

test(`the top frame and the fingerprint: message + first code location, whatever the browser (${DIALECT})`, () => {
  assert.equal(topFrame(CHROME_STACK), 'at PersonCard (https://fa.example/assets/index-abc.js:12:345)');
  assert.equal(topFrame('Error: x\nPersonCard@https://fa.example/assets/index-abc.js:12:345\n'), 'PersonCard@https://fa.example/assets/index-abc.js:12:345');
  const a = fingerprintOf({ kind: 'error', message: 'boom', stack: CHROME_STACK });
  assert.equal(a, fingerprintOf({ kind: 'rejection', message: ' boom ', stack: `${CHROME_STACK}\n    at other (x.js:1:1)` }));
  assert.notEqual(a, fingerprintOf({ kind: 'error', message: 'boom', stack: 'Error\n    at Elsewhere (https://fa.example/assets/index-abc.js:99:1)' }));
  assert.notEqual(a, fingerprintOf({ kind: 'error', message: 'bang', stack: CHROME_STACK }));
});

test('a signed-out report is stored once and counted again, with first and last seen; every main administrator sees it', async () => {
  const first = await report({ message: 'Anon boom', stack: CHROME_STACK, release: '0.1.0+abc' });
  assert.equal(first.code, CODES.OK, first.message);
  assert.deepEqual(first.data, { stored: true });
  await new Promise((r) => setTimeout(r, 5));
  const again = await t.app.inject({
    method: 'POST',
    url: `${API}/system/clientError`,
    headers: { 'user-agent': 'Mozilla/5.0 Test' },
    payload: { kind: 'error', message: 'Anon boom', stack: CHROME_STACK, url: 'https://fa.example/other', release: '0.1.1' },
    remoteAddress: nextIp(),
  });
  assert.equal(again.json().data.stored, true);
  const e = await find(A.main, 'Anon boom');
  assert.ok(e);
  assert.equal(e.count, 2);
  assert.ok(e.first_seen < e.last_seen, `${e.first_seen} < ${e.last_seen}`);
  assert.deepEqual([e.kind, e.url, e.release, e.user_agent, e.stack], ['error', 'https://fa.example/other', '0.1.1', 'Mozilla/5.0 Test', CHROME_STACK]);
  assert.ok(await find(B.main, 'Anon boom'), "a company-less error is every main administrator's");
  assert.ok(!('fingerprint' in e) && !('company_id' in e), 'internal columns stay inside');
});

test("a signed-in report is its company's: the other company's main administrator never sees it", async () => {
  const r = await report({ kind: 'render', message: 'A render failed', component_stack: '\n    at PersonTable\n    at Page' }, { token: A.main });
  assert.equal(r.code, CODES.OK, r.message);
  const e = await find(A.main, 'A render failed');
  assert.equal(e?.kind, 'render');
  assert.equal(e?.component_stack, '\n    at PersonTable\n    at Page');
  assert.equal(await find(B.main, 'A render failed'), undefined);
  // B cannot delete it either: not found, so nothing is deleted.
  const d = await call(t.app, 'POST', '/system/clientError/delete', { token: B.main, body: { ids: [e.id] } });
  assert.deepEqual([d.code, d.data], [CODES.OK, { deleted: 0 }]);
  assert.ok(await find(A.main, 'A render failed'));
  // An invalid token does not stop a report (the console may be signed out): it counts as company-less.
  const anon = await report({ message: 'Stale token boom' }, { token: 'not-a-token' });
  assert.equal(anon.code, CODES.OK);
  assert.ok(await find(B.main, 'Stale token boom'));
});

test('only main administrators read and delete the list', async () => {
  const sub = await makeSub(t, A, FUNCTION_RIGHT_KEYS);
  const r = await call(t.app, 'GET', '/system/clientError/list', { token: sub.token });
  assert.equal(r.code, CODES.NO_AUTHORITY);
  const d = await call(t.app, 'POST', '/system/clientError/delete', { token: sub.token, body: { ids: [1] } });
  assert.equal(d.code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'GET', '/system/clientError/list', {})).code, CODES.ILLEGAL_TOKEN);
});

test('a main administrator deletes entries', async () => {
  await report({ message: 'Delete me' }, { token: A.main });
  const e = (await find(A.main, 'Delete me'))!;
  const d = await call(t.app, 'POST', '/system/clientError/delete', { token: A.main, body: { ids: [e.id, e.id] } });
  assert.deepEqual(d.data, { deleted: 1 });
  assert.equal(await find(A.main, 'Delete me'), undefined);
  // the operation log says who deleted what (a deletion that found nothing, as B's above, writes nothing)
  const log = await call(t.app, 'GET', '/log/list', { token: A.main, query: { module: 'system' }, lang: 'en-US' });
  assert.equal(log.code, CODES.OK, log.message);
  assert.deepEqual(
    log.data.items.map((l: { action: string; description: string; data: unknown }) => [l.action, l.description, l.data]),
    [['system.clientErrors.delete', 'Deleted client errors (1)', { count: 1, ids: [e.id] }]],
  );
  const logB = await call(t.app, 'GET', '/log/list', { token: B.main, query: { module: 'system' } });
  assert.equal(logB.data.total, 0);
  const none = await call(t.app, 'POST', '/system/clientError/delete', { token: A.main, body: { ids: [] } });
  assert.equal(none.code, CODES.VALIDATION);
});

test('reports are capped in size and shape', async () => {
  const long = await report({ message: 'x'.repeat(CLIENT_ERROR_LIMITS.messageMax + 1) });
  assert.equal(long.code, CODES.VALIDATION);
  const huge = await t.app.inject({
    method: 'POST',
    url: `${API}/system/clientError`,
    payload: { kind: 'error', message: 'big', url: '', stack: 'y'.repeat(CLIENT_ERROR_LIMITS.bodyMax) },
    remoteAddress: nextIp(),
  });
  assert.equal(huge.statusCode, 413);
  assert.equal((await report({ message: 'ctl', stack: 'a\u0000b' })).code, CODES.VALIDATION);
  assert.equal((await report({ message: 'kind', kind: 'fatal' })).code, CODES.VALIDATION);
  assert.equal((await report({ message: '   ' })).code, CODES.OK, 'a blank message is still a report (multi-line text)');
});

test('each address (signed out) or session may send a limited number of reports per window, shared in the database', async () => {
  const ip = nextIp();
  for (let i = 0; i < CLIENT_ERROR_LIMITS.perWindow; i++) assert.equal((await report({ message: `Flood ${i % 3}` }, { ip })).data.stored, true, `report ${i}`);
  const over = await report({ message: 'Flood over' }, { ip });
  assert.deepEqual([over.code, over.data], [CODES.OK, { stored: false }]);
  assert.equal(await find(A.main, 'Flood over'), undefined);
  // Another address is not held back; nor is a session from the same address.
  assert.equal((await report({ message: 'Other address' })).data.stored, true);
  assert.equal((await report({ message: 'Signed in, same address' }, { ip, token: B.main })).data.stored, true);
  const quota = await t.app.database.db.selectFrom('client_error_quota').selectAll().execute();
  assert.ok(quota.some((q) => q.count > CLIENT_ERROR_LIMITS.perWindow));
});

test('the cleanup job removes entries not seen for 30 days, and past quota windows', async () => {
  await report({ message: 'Old boom' });
  await report({ message: 'Fresh boom' });
  const db = t.app.database.db;
  const old = new Date(Date.now() - (CLIENT_ERROR_LIMITS.keepDays + 1) * 86_400_000).toISOString();
  await db.updateTable('client_errors').set({ last_seen: old, first_seen: old }).where('message', '=', 'Old boom').execute();
  await db.insertInto('client_error_quota').values({ key: 'a:old', slot: 1, count: 3 }).execute();
  assert.equal(await t.app.jobs.runNow('client-errors-cleanup'), 'ran');
  assert.equal(await find(A.main, 'Old boom'), undefined);
  assert.ok(await find(A.main, 'Fresh boom'));
  assert.equal((await db.selectFrom('client_error_quota').selectAll().where('key', '=', 'a:old').execute()).length, 0);
});
