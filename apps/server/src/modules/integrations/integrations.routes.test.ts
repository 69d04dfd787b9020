import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { CODES, INTEGRATION_LIMITS, type ApiKeyCreated, type DeliveryItem, type WebhookSecret } from '@faceadmin/shared';
import { API, call, DIALECT, makeApp, makeCompany, makeSub, raw, type Company, type TestApp } from '../../../test/helpers.ts';
import { addPersonWithFace, picture, upload } from '../../../test/files.ts';
import { t as tr } from '../../i18n/i18n.ts';
import { clock } from '../../lib/time.ts';
import { signatureOf, verifySignature } from './signature.ts';
import { retryDelay, WEBHOOK_TUNING, webhookEventOf } from './webhooks.service.ts';

let t: TestApp;
let A: Company;
let B: Company;
let deptA: number;
let deptB: number;
const en = (key: string, params: Record<string, string | number> = {}) => tr('en-US', key, params);
const realNow = clock.now;
/** Moves the server clock by `ms` (cumulative); restored after each test that uses it. */
const travel = (ms: number) => {
  const base = clock.now;
  clock.now = () => base() + ms;
};
const restore = () => void (clock.now = realNow);
/**
 * Moves the server clock to a second past the next minute, running on from there: the key's usage log counts one row
 * per route and minute, so a test that asserts those rows must not straddle a minute (CI once did, on PostgreSQL).
 */
const startOfMinute = () => {
  const at = realNow();
  const shift = Math.floor(at / 60_000) * 60_000 + 61_000 - at;
  clock.now = () => realNow() + shift;
};

/** A receiver like a customer's: records every request; answers with what `answer` says (status, delay). */
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let answer: () => { status: number; delayMs?: number } = () => ({ status: 200 });
let server: http.Server;
let receiverUrl = '';

before(async () => {
  // the receiver below is on this machine: loopback is refused unless allowed (issue #28, test/outbound.test.ts)
  t = await makeApp({ OUTBOUND_ALLOW: '127.0.0.0/8' });
  A = await makeCompany(t, 'Integrations A');
  B = await makeCompany(t, 'Integrations B');
  deptA = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Ops A' } })).data.id;
  deptB = (await call(t.app, 'POST', '/org/create', { token: B.main, body: { name: 'Ops B' } })).data.id;
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const a = answer();
      setTimeout(() => res.writeHead(a.status, { 'content-type': 'text/plain' }).end(`answer ${a.status}`), a.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
after(async () => {
  restore();
  server.close();
  await t.close();
});

const thirdParty = async (c: Company, on: 0 | 1, name = 'Integrations Co') => {
  const r = await call(t.app, 'POST', '/company/update', { token: c.main, body: { name, phone: '010-1', options: { thirdParty: on } } });
  assert.equal(r.code, CODES.OK, r.message);
};
const createKey = async (c: Company, body: Record<string, unknown>) => {
  const r = await call<ApiKeyCreated>(t.app, 'POST', '/integration/key/create', { token: c.main, body });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data;
};
/** A call as curl would make it: only the key, no session. */
const withKey = (key: string, method: 'GET' | 'POST', url: string, o: { query?: Record<string, string>; body?: unknown } = {}) =>
  t.app.inject({
    method,
    url: API + url,
    headers: { 'x-api-key': key, 'x-lang': 'en-US' },
    ...(o.query ? { query: o.query } : {}),
    ...(o.body !== undefined ? { payload: o.body as object } : {}),
  });
const envelope = (r: Awaited<ReturnType<typeof withKey>>) => ({ ...r.json<{ code: number; message: string; data: any }>(), status: r.statusCode });
/** Runs the delivery job until `done` holds (the scheduler's own ticks may take some of the turns). */
async function deliverUntil(done: () => Promise<boolean> | boolean, what: string) {
  for (let i = 0; i < 100; i++) {
    await t.app.jobs.runNow('webhooks.deliver');
    await t.app.modules.integrations.webhooks.idle();
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`never happened: ${what}`);
}
const deliveries = async (c: Company, endpointId: number) => {
  const r = await call<{ items: DeliveryItem[]; total: number }>(t.app, 'GET', '/integration/webhook/deliveries', {
    token: c.main,
    query: { endpoint_id: endpointId, pageSize: 100 },
  });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data.items;
};

test(`with thirdParty off the screens and keys are refused (${DIALECT})`, async () => {
  for (const [method, url] of [
    ['GET', '/integration/key/list'],
    ['GET', '/integration/webhook/list'],
  ] as const) {
    const r = await call(t.app, method, url, { token: A.main, lang: 'en-US' });
    assert.equal(r.code, CODES.NO_AUTHORITY, url);
    assert.equal(r.message, en('errors.thirdPartyOff'));
  }
  const r = await call(t.app, 'POST', '/integration/key/create', { token: A.main, body: { name: 'k', scopes: ['people:read'] } });
  assert.equal(r.code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'GET', '/user/info', { token: A.main })).data.third_party, 0);
  // A key made while it was on stops working when it is turned off.
  await thirdParty(A, 1);
  assert.equal((await call(t.app, 'GET', '/user/info', { token: A.main })).data.third_party, 1);
  const k = await createKey(A, { name: 'Payroll', scopes: ['people:read'] });
  assert.equal(envelope(await withKey(k.key, 'GET', '/person/list')).code, CODES.OK);
  await thirdParty(A, 0);
  const off = envelope(await withKey(k.key, 'GET', '/person/list'));
  assert.equal(off.code, CODES.NO_AUTHORITY);
  assert.equal(off.message, en('errors.thirdPartyOff'));
  await thirdParty(A, 1);
  await thirdParty(B, 1, 'Integrations B');
});

test('a key is shown once, stored hashed, and works on its scoped routes as curl would call them', async (ctx) => {
  startOfMinute();
  ctx.after(restore);
  const k = await createKey(A, { name: 'HR sync', scopes: ['people:read', 'people:write'], expires_on: '2099-12-31' });
  assert.match(k.key, /^fa_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
  assert.equal(k.prefix, k.key.slice(0, 11));
  assert.deepEqual(k.scopes, ['people:read', 'people:write']);
  const list = await raw(t.app, 'GET', '/integration/key/list', { token: A.main });
  assert.ok(!list.text.includes(k.key.slice(12)), 'the list never holds the key');
  assert.ok(list.text.includes(k.prefix));
  const row = await t.app.database.db.selectFrom('api_keys').selectAll().where('id', '=', k.id).executeTakeFirstOrThrow();
  assert.ok(row.key_hash.startsWith('hmac-sha256$'));
  assert.ok(!row.key_hash.includes(k.key.slice(12)));
  assert.ok(!JSON.stringify(row).includes(k.key.slice(12)), 'the key itself is not stored');

  const id = await addPersonWithFace(t, A, { name: 'Key Reader', organizations: [deptA] });
  const listed = envelope(await withKey(k.key, 'GET', '/person/list', { query: { pageSize: '100' } }));
  assert.equal(listed.code, CODES.OK, listed.message);
  assert.ok(listed.data.items.some((p: { id: number }) => p.id === id));
  assert.equal(envelope(await withKey(k.key, 'GET', '/person/info', { query: { id: String(id) } })).data.name, 'Key Reader');
  // people:write: upload a face and create someone, both as the key
  const pic = (await upload(t, '/person/upload', A.main, { name: 'face.jpg', data: await picture() })).data.pic;
  const made = envelope(await withKey(k.key, 'POST', '/person/create', { body: { name: 'Made By Key', phone: '13800000001', organizations: [deptA], pic } }));
  assert.equal(made.code, CODES.OK, made.message);
  // every use is in the operation log under the key's name: one row per route and minute
  for (let i = 0; i < 3; i++) await withKey(k.key, 'GET', '/person/list');
  const logs = await t.app.database.db.selectFrom('operation_logs').selectAll().where('company_id', '=', A.id).where('admin_name', '=', 'HR sync').execute();
  const uses = logs.filter((l) => l.action === 'integration.key.use');
  assert.deepEqual(uses.map((l) => JSON.parse(l.data).route).sort(), [
    'GET /api/management/person/info',
    'GET /api/management/person/list',
    'POST /api/management/person/create',
  ]);
  assert.ok(
    logs.some((l) => l.action === 'person.create'),
    "the key's writes are logged under its name too",
  );
  const log = await call(t.app, 'GET', '/log/list', { token: A.main, lang: 'en-US', query: { module: 'integration' } });
  assert.ok(log.data.items.some((l: { description: string }) => l.description === 'API key HR sync called GET /api/management/person/list'));
  const listedAfter = (await call(t.app, 'GET', '/integration/key/list', { token: A.main })).data.items.find((x: { id: number }) => x.id === k.id);
  assert.ok(listedAfter.last_used_at);
});

test('keys are refused out of scope, on unscoped routes, revoked, expired, unknown, and on another company', async () => {
  const k = await createKey(A, { name: 'Narrow', scopes: ['punches:read'], expires_on: '2099-01-01' });
  const scope = envelope(await withKey(k.key, 'GET', '/person/list'));
  assert.equal(scope.code, CODES.NO_AUTHORITY);
  assert.equal(scope.message, en('errors.apiKeyScope', { name: 'Narrow', scope: 'people:read' }));
  assert.equal(envelope(await withKey(k.key, 'GET', '/attendance/list')).code, CODES.OK);
  for (const [method, url] of [
    ['GET', '/company/info'],
    ['GET', '/integration/key/list'],
    ['POST', '/person/delete'],
  ] as const) {
    const r = envelope(await withKey(k.key, method, url, method === 'POST' ? { body: { id: 1 } } : {}));
    assert.equal(r.code, CODES.NO_AUTHORITY, url);
    assert.equal(r.message, en('errors.apiKeyRoute'));
  }
  const bad = envelope(await withKey(`${k.key.slice(0, -1)}${k.key.endsWith('A') ? 'B' : 'A'}`, 'GET', '/attendance/list'));
  assert.equal(bad.code, CODES.ILLEGAL_TOKEN);
  assert.equal(bad.message, en('errors.apiKeyInvalid'));
  assert.equal(envelope(await withKey('nonsense', 'GET', '/attendance/list')).code, CODES.ILLEGAL_TOKEN);

  // another company's ids are not found through A's key
  const reader = await createKey(A, { name: 'Reader', scopes: ['people:read'] });
  const bPerson = await addPersonWithFace(t, B, { name: 'B Person', organizations: [deptB] });
  assert.equal(envelope(await withKey(reader.key, 'GET', '/person/info', { query: { id: String(bPerson) } })).code, CODES.NOT_FOUND);
  assert.ok(
    !envelope(await withKey(reader.key, 'GET', '/person/list', { query: { pageSize: '100' } })).data.items.some((p: { id: number }) => p.id === bPerson),
  );

  // expired: the day after its last day
  const short = await createKey(A, { name: 'Short', scopes: ['punches:read'], expires_on: new Date(clock.now() + 86400_000).toISOString().slice(0, 10) });
  assert.equal(envelope(await withKey(short.key, 'GET', '/attendance/list')).code, CODES.OK);
  try {
    travel(3 * 86400_000);
    const exp = envelope(await withKey(short.key, 'GET', '/attendance/list'));
    assert.equal(exp.code, CODES.NO_AUTHORITY);
    assert.equal(exp.message, en('errors.apiKeyExpired', { name: 'Short', date: short.expires_on! }));
  } finally {
    restore();
  }
  const past = await call(t.app, 'POST', '/integration/key/create', {
    token: A.main,
    lang: 'en-US',
    body: { name: 'Old', scopes: ['people:read'], expires_on: '2020-01-01' },
  });
  assert.equal(past.code, CODES.RULE);
  assert.match(past.message, /^Expiry date/);

  // revoked
  const rev = await call(t.app, 'POST', '/integration/key/revoke', { token: A.main, body: { id: k.id } });
  assert.equal(rev.code, CODES.OK);
  assert.ok(rev.data.revoked_at);
  const revoked = envelope(await withKey(k.key, 'GET', '/attendance/list'));
  assert.equal(revoked.code, CODES.NO_AUTHORITY);
  assert.equal(revoked.message, en('errors.apiKeyRevoked', { name: 'Narrow' }));

  // tenancy of the keys themselves
  assert.equal((await call(t.app, 'POST', '/integration/key/revoke', { token: B.main, body: { id: reader.id } })).code, CODES.NOT_FOUND);
  assert.ok(!(await call(t.app, 'GET', '/integration/key/list', { token: B.main })).data.items.some((x: { id: number }) => x.id === reader.id));
  assert.equal(envelope(await withKey(reader.key, 'GET', '/person/list')).code, CODES.OK, 'still works: B could not revoke it');
});

test(`a key's expiry is an instant: changing the company's zone does not move it (#28, ${DIALECT})`, async () => {
  const c = await makeCompany(t, 'Zones Co');
  const company = async (time_zone: string) => {
    const r = await call(t.app, 'POST', '/company/update', {
      token: c.main,
      body: { name: 'Zones Co', phone: '010-1', time_zone, options: { thirdParty: 1 } },
    });
    assert.equal(r.code, CODES.OK, r.message);
  };
  await company('Asia/Shanghai');
  const k = await createKey(c, { name: 'Year end', scopes: ['punches:read'], expires_on: '2026-12-31' });
  // the end of 31 December in Shanghai
  assert.equal(k.expires_at, '2026-12-31T16:00:00.000Z');
  await company('America/New_York');
  const listed = (await call(t.app, 'GET', '/integration/key/list', { token: c.main })).data.items.find((x: { id: number }) => x.id === k.id);
  assert.deepEqual([listed.expires_on, listed.expires_at], ['2026-12-31', '2026-12-31T16:00:00.000Z'], 'the date as chosen, the instant as fixed');
  try {
    clock.now = () => Date.parse('2026-12-31T15:59:59.000Z');
    assert.equal(envelope(await withKey(k.key, 'GET', '/attendance/list')).code, CODES.OK, 'a second before: accepted');
    // 11:00 on 31 December in New York: still the key's last day there, but past the instant it was given
    clock.now = () => Date.parse('2026-12-31T16:00:00.000Z');
    const refused = envelope(await withKey(k.key, 'GET', '/attendance/list'));
    assert.equal(refused.code, CODES.NO_AUTHORITY);
    assert.equal(refused.message, en('errors.apiKeyExpired', { name: 'Year end', date: '2026-12-31' }));
  } finally {
    restore();
  }
});

test('a sub-administrator, even with every right, cannot manage integrations', async () => {
  const sub = await makeSub(t, A, ['all']);
  for (const [method, url, body] of [
    ['GET', '/integration/key/list', undefined],
    ['POST', '/integration/key/create', { name: 'x', scopes: ['people:read'] }],
    ['GET', '/integration/webhook/list', undefined],
    ['POST', '/integration/webhook/create', { name: 'x', url: receiverUrl, events: ['punch'] }],
  ] as const) {
    const r = await call(t.app, method, url, { token: sub.token, lang: 'en-US', ...(body ? { body } : {}) });
    assert.equal(r.code, CODES.NO_AUTHORITY, url);
    assert.equal(r.message, en('errors.mainOnly'));
  }
});

test('each key has a budget per minute, kept in the database', async () => {
  const k = await createKey(A, { name: 'Busy', scopes: ['punches:read'] });
  // start at the beginning of a minute, so the budget is not split by a minute turning during the test
  const start = Math.ceil(clock.now() / 60_000) * 60_000 + 1000;
  clock.now = () => start;
  try {
    for (let i = 0; i < INTEGRATION_LIMITS.keyPerMinute; i++)
      assert.equal(envelope(await withKey(k.key, 'GET', '/attendance/list')).code, CODES.OK, `call ${i}`);
    const r = envelope(await withKey(k.key, 'GET', '/attendance/list'));
    assert.equal(r.status, 429);
    assert.equal(r.code, CODES.TOO_MANY);
    assert.equal(r.message, en('errors.apiKeyThrottled', { name: 'Busy', max: INTEGRATION_LIMITS.keyPerMinute, seconds: 59 }));
    const counted = await t.app.database.db
      .selectFrom('api_key_uses')
      .selectAll()
      .where('key_id', '=', k.id)
      .where('route', '=', '*')
      .executeTakeFirstOrThrow();
    assert.equal(counted.count, INTEGRATION_LIMITS.keyPerMinute + 1);
    // another key of the company is not held back
    const other = await createKey(A, { name: 'Calm', scopes: ['punches:read'] });
    assert.equal(envelope(await withKey(other.key, 'GET', '/attendance/list')).code, CODES.OK);
    clock.now = () => start + 60_000;
    assert.equal(envelope(await withKey(k.key, 'GET', '/attendance/list')).code, CODES.OK, 'a new minute, a new budget');
  } finally {
    restore();
  }
});

test('webhooks: signed deliveries of person changes, retried after a 500, a test event and a redelivery', async () => {
  const bad = async (url: string) =>
    (await call(t.app, 'POST', '/integration/webhook/create', { token: A.main, lang: 'en-US', body: { name: 'x', url, events: ['punch'] } })).code;
  for (const url of ['ftp://example.com/x', 'http://user:pw@example.com/', 'not a url', 'javascript:alert(1)']) assert.equal(await bad(url), CODES.RULE, url);

  // nobody listens yet: a change writes nothing to the outbox
  await addPersonWithFace(t, A, { name: 'Unheard Person', organizations: [deptA] });
  const outbox = async () => (await t.app.database.db.selectFrom('webhook_outbox').selectAll().execute()).length;
  assert.equal(await outbox(), 0);

  const c = await call<WebhookSecret>(t.app, 'POST', '/integration/webhook/create', {
    token: A.main,
    body: { name: 'CRM', url: receiverUrl, events: ['person.changed', 'punch'] },
  });
  assert.equal(c.code, CODES.OK, c.message);
  const ep = c.data;
  assert.match(ep.secret, /^whsec_/);
  assert.ok(!(await raw(t.app, 'GET', '/integration/webhook/list', { token: A.main })).text.includes(ep.secret), 'the secret is shown once');

  received.length = 0;
  answer = () => ({ status: 200 });
  const id = await addPersonWithFace(t, A, { name: 'Hooked Person', organizations: [deptA] });
  await deliverUntil(() => received.length > 0, 'the person.changed delivery');
  const got = received[0]!;
  const body = JSON.parse(got.body);
  assert.equal(body.type, 'person.changed');
  assert.deepEqual(body.data, { person_ids: [id], kind: 'saved' });
  assert.equal(got.headers['x-faceadmin-event-id'], body.id);
  assert.equal(got.headers['x-faceadmin-event'], 'person.changed');
  // what a receiver does (docs/api-integrations.md)
  const ts = Number(got.headers['x-faceadmin-timestamp']);
  assert.ok(verifySignature(ep.secret, String(got.headers['x-faceadmin-signature']), got.body, Math.floor(Date.now() / 1000)));
  assert.equal(got.headers['x-faceadmin-signature'], `t=${ts},v1=${signatureOf(ep.secret, ts, got.body)}`);
  assert.ok(!verifySignature('whsec_wrong', String(got.headers['x-faceadmin-signature']), got.body, Math.floor(Date.now() / 1000)));
  assert.ok(!verifySignature(ep.secret, String(got.headers['x-faceadmin-signature']), `${got.body} `, Math.floor(Date.now() / 1000)), 'a changed body fails');
  assert.ok(!verifySignature(ep.secret, String(got.headers['x-faceadmin-signature']), got.body, ts + 3600), 'a replay an hour later fails');
  const listed = await deliveries(A, ep.id);
  assert.equal(listed[0]!.status, 'succeeded');
  assert.equal(listed[0]!.response_code, 200);
  assert.equal(listed[0]!.response_body, 'answer 200');
  assert.ok(listed[0]!.duration_ms! >= 0);

  // a 500, then success after the backoff
  received.length = 0;
  let calls = 0;
  answer = () => ({ status: ++calls === 1 ? 500 : 200 });
  await addPersonWithFace(t, A, { name: 'Retried Person', organizations: [deptA] });
  await deliverUntil(() => received.length === 1, 'the first attempt');
  let d = (await deliveries(A, ep.id))[0]!;
  assert.equal(d.status, 'pending');
  assert.equal(d.attempts, 1);
  assert.equal(d.response_code, 500);
  assert.equal(Date.parse(d.next_attempt_at!) - Date.parse(d.last_attempt_at!), retryDelay(1));
  const endpoint = async () =>
    (await call(t.app, 'GET', '/integration/webhook/list', { token: A.main })).data.items.find((x: { id: number }) => x.id === ep.id);
  assert.ok((await endpoint()).failing_since, 'failing since the 500');
  try {
    travel(retryDelay(1) + 1000);
    await deliverUntil(() => received.length === 2, 'the retry');
  } finally {
    restore();
  }
  d = (await deliveries(A, ep.id))[0]!;
  assert.equal(d.status, 'succeeded');
  assert.equal(d.attempts, 2);
  assert.equal(received[0]!.headers['x-faceadmin-event-id'], received[1]!.headers['x-faceadmin-event-id'], 'a retry is the same event');
  assert.equal((await endpoint()).failing_since, null);

  // send a test event
  received.length = 0;
  const test = await call<DeliveryItem>(t.app, 'POST', '/integration/webhook/test', { token: A.main, body: { id: ep.id } });
  assert.equal(test.code, CODES.OK, test.message);
  assert.equal(test.data.type, 'test');
  await deliverUntil(() => received.length === 1, 'the test event');
  assert.equal(JSON.parse(received[0]!.body).type, 'test');

  // redeliver: the same event id and body, a new delivery
  received.length = 0;
  const again = await call<DeliveryItem>(t.app, 'POST', '/integration/webhook/redeliver', { token: A.main, body: { id: d.id } });
  assert.equal(again.code, CODES.OK, again.message);
  assert.notEqual(again.data.id, d.id);
  assert.equal(again.data.event_id, d.event_id);
  await deliverUntil(() => received.length === 1, 'the redelivery');
  assert.equal(received[0]!.body, d.payload);

  // tenancy: B sees none of it
  for (const [method, url, o] of [
    ['GET', '/integration/webhook/deliveries', { query: { endpoint_id: ep.id } }],
    ['POST', '/integration/webhook/redeliver', { body: { id: d.id } }],
    ['POST', '/integration/webhook/test', { body: { id: ep.id } }],
    ['POST', '/integration/webhook/resume', { body: { id: ep.id } }],
    ['POST', '/integration/webhook/secret', { body: { id: ep.id } }],
    ['POST', '/integration/webhook/delete', { body: { id: ep.id } }],
    ['POST', '/integration/webhook/update', { body: { id: ep.id, name: 'x', url: receiverUrl, events: ['punch'] } }],
  ] as const)
    assert.equal((await call(t.app, method, url, { token: B.main, ...o })).code, CODES.NOT_FOUND, url);
  assert.equal((await call(t.app, 'GET', '/integration/webhook/list', { token: B.main })).data.total, 0);

  // a new secret signs what follows
  const rotated = await call<WebhookSecret>(t.app, 'POST', '/integration/webhook/secret', { token: A.main, body: { id: ep.id } });
  assert.notEqual(rotated.data.secret, ep.secret);
  received.length = 0;
  await call(t.app, 'POST', '/integration/webhook/test', { token: A.main, body: { id: ep.id } });
  await deliverUntil(() => received.length === 1, 'the test event after the new secret');
  const r0 = received[0]!;
  assert.ok(verifySignature(rotated.data.secret, String(r0.headers['x-faceadmin-signature']), r0.body, Math.floor(Date.now() / 1000)));
  assert.equal((await call(t.app, 'POST', '/integration/webhook/delete', { token: A.main, body: { id: ep.id } })).code, CODES.OK);
});

test('an endpoint failing for a day is paused, its administrators are told, and it resumes', async () => {
  const c = await call<WebhookSecret>(t.app, 'POST', '/integration/webhook/create', {
    token: A.main,
    body: { name: 'Flaky', url: receiverUrl, events: ['person.changed'] },
  });
  const ep = c.data;
  received.length = 0;
  answer = () => ({ status: 503 });
  await addPersonWithFace(t, A, { name: 'Paused Person', organizations: [deptA] });
  await deliverUntil(() => received.length === 1, 'the first failure');
  const status = async () => (await call(t.app, 'GET', '/integration/webhook/list', { token: A.main })).data.items.find((x: { id: number }) => x.id === ep.id);
  assert.equal((await status()).status, 'active');
  try {
    // retries keep failing; a day after the first failure the next one pauses it
    travel(WEBHOOK_TUNING.pauseAfterMs + 1000);
    await deliverUntil(async () => (await status()).status === 'paused', 'the pause');
    const paused = await status();
    assert.ok(paused.paused_at);
    const msgs = await call(t.app, 'GET', '/message/list', { token: A.main, lang: 'en-US' });
    const m = msgs.data.items.find((x: { type: string }) => x.type === 'webhookPaused');
    assert.ok(m, 'the administrators got a message');
    assert.equal(m.title, en('messages.webhookPaused.title', { name: 'Flaky' }));
    // paused: nothing more is attempted, and new events are not queued for it
    const n = received.length;
    travel(WEBHOOK_TUNING.maxRetryMs * 2);
    await t.app.jobs.runNow('webhooks.deliver');
    await t.app.modules.integrations.webhooks.idle();
    assert.equal(received.length, n);
    answer = () => ({ status: 200 });
    const resumed = await call(t.app, 'POST', '/integration/webhook/resume', { token: A.main, body: { id: ep.id } });
    assert.equal(resumed.code, CODES.OK);
    assert.equal(resumed.data.status, 'active');
    assert.equal(resumed.data.failing_since, null);
    await deliverUntil(async () => (await deliveries(A, ep.id))[0]!.status === 'succeeded', 'the pending delivery after resuming');
  } finally {
    restore();
  }
});

test('a backlog larger than the posts in flight drains: each finished post starts the next', async () => {
  const c = await call<WebhookSecret>(t.app, 'POST', '/integration/webhook/create', {
    token: A.main,
    body: { name: 'Backlog', url: receiverUrl, events: ['alarm'] },
  });
  answer = () => ({ status: 200, delayMs: 20 });
  received.length = 0;
  const at = new Date(clock.now()).toISOString();
  const n = WEBHOOK_TUNING.concurrency * 3;
  await t.app.database.db
    .insertInto('webhook_deliveries')
    .values(
      Array.from({ length: n }, (_, i) => ({
        company_id: A.id,
        endpoint_id: c.data.id,
        event_id: `backlog-${i}`,
        type: 'test',
        payload: JSON.stringify({ i }),
        status: 'pending',
        next_attempt_at: at,
        created_at: at,
      })),
    )
    .execute();
  // one tick of the job: the rest start as posts finish, without waiting for further ticks
  await t.app.jobs.runNow('webhooks.deliver');
  for (let i = 0; i < 200 && received.length < n; i++) await new Promise((r) => setTimeout(r, 25));
  await t.app.modules.integrations.webhooks.idle();
  assert.equal(received.length, n);
  assert.ok((await deliveries(A, c.data.id)).every((d) => d.status === 'succeeded'));
});

test('which published events are webhook events', () => {
  const punch = { id: 1, stranger: false, face_url: '/x.jpg', name: 'A', device_id: 7 } as never;
  const ev = (type: string, data: unknown) => webhookEventOf({ companyId: 1, type: type as never, data: data as never, rights: [] });
  assert.deepEqual(
    ev('punch', punch),
    { type: 'punch', data: { id: 1, stranger: false, name: 'A', device_id: 7 }, order: 'device:7' },
    "the face link stays inside; the terminal's punches go out in its order",
  );
  assert.equal(ev('punch', { ...(punch as object), stranger: true })?.type, 'stranger');
  assert.equal(ev('day', { days: null })?.type, 'day.changed');
  assert.equal(ev('approval', { id: 3, status: 1 })?.type, 'approval.decided');
  assert.equal(ev('approval', { id: 3, status: -1 })?.type, 'approval.decided');
  assert.equal(ev('approval', { id: 3, status: 0 }), null, 'applied, not decided');
  assert.equal(ev('alarm', { source: 'temperature' })?.type, 'alarm');
  assert.equal(ev('device', { id: 1, online: false })?.type, 'device.offline');
  assert.equal(ev('device', { id: 1, online: true }), null);
  for (const other of ['photo', 'command', 'sync', 'breaker', 'figures', 'messages']) assert.equal(ev(other, {}), null, other);
});
