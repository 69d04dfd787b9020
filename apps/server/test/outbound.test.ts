// Issue #28: nothing reaches where it must not. A server with the default outbound policy (no OUTBOUND_ALLOW, not in
// LAN mode) refuses internal addresses for webhooks and the parking operator when they are saved, and again at every
// delivery, where a refused one sends nothing: a receiver on 127.0.0.1 counts what reaches it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { CODES, type DeliveryItem } from '@faceadmin/shared';
import { clock } from '../src/lib/time.ts';
import { signParkingCode } from '../src/modules/parking/parking.code.ts';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from './helpers.ts';
import { until } from './terminals.ts';

let t: TestApp;
let A: Company;
let received = 0;
let port = 0;
const server = http.createServer((req, res) => {
  received++;
  req.resume();
  req.on('end', () => res.writeHead(200).end('internal secrets'));
});

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  t = await makeApp();
  A = await makeCompany(t, 'Outbound A');
  const on = await call(t.app, 'POST', '/company/update', { token: A.main, body: { name: 'Outbound A', phone: '1', options: { thirdParty: 1 } } });
  assert.equal(on.code, CODES.OK, on.message);
});
after(async () => {
  await t.close();
  await new Promise((r) => server.close(r));
});

const endpoints = async () => (await call(t.app, 'GET', '/integration/webhook/list', { token: A.main })).data.items as { id: number; url: string }[];

test(`saving a webhook that points inside is refused with the field and why, in the reader's language; nothing is saved (${DIALECT})`, async () => {
  const create = (url: string, lang = 'en-US') =>
    call(t.app, 'POST', '/integration/webhook/create', { token: A.main, lang, body: { name: 'Inside', url, events: ['punch'] } });
  const cases: [string, string][] = [
    [`http://127.0.0.1:${port}/hook`, 'URL: points at an internal address (127.0.0.1: loopback)'],
    [`http://2130706433:${port}/hook`, 'URL: points at an internal address (127.0.0.1: loopback)'],
    [`http://[::ffff:127.0.0.1]:${port}/hook`, 'URL: points at an internal address (::ffff:7f00:1: loopback)'],
    [`http://localhost:${port}/hook`, 'URL: points at an internal address (localhost → '],
    ['http://169.254.169.254/latest/meta-data/', 'URL: points at an internal address (169.254.169.254: link-local, such as cloud metadata)'],
    ['http://[fd00::1]/', 'URL: points at an internal address (fd00::1: IPv6 unique-local)'],
    ['http://0.0.0.0/', 'URL: points at an internal address (0.0.0.0: unspecified)'],
    ['http://192.168.1.20/', 'URL: points at a private network address (192.168.1.20)'],
  ];
  for (const [url, message] of cases) {
    const r = await create(url);
    assert.equal(r.code, CODES.RULE, url);
    assert.equal(r.status, 422);
    assert.deepEqual(r.data, { field: 'url' });
    assert.ok(r.message.startsWith(message), `${url}: ${r.message}`);
  }
  const zh = await create(`http://127.0.0.1:${port}/hook`, 'zh-CN');
  assert.match(zh.message, /指向内部地址（127\.0\.0\.1：环回地址）/);
  assert.deepEqual(await endpoints(), [], 'nothing saved');

  // an endpoint saved with a public address cannot be moved inside
  const ok = await create('https://hooks.example.com/in');
  assert.equal(ok.code, CODES.OK, ok.message);
  const moved = await call(t.app, 'POST', '/integration/webhook/update', {
    token: A.main,
    lang: 'en-US',
    body: { id: ok.data.id, name: 'Inside', url: `http://127.0.0.1:${port}/hook`, events: ['punch'] },
  });
  assert.equal(moved.code, CODES.RULE);
  assert.deepEqual(moved.data, { field: 'url' });
  assert.deepEqual(
    (await endpoints()).map((e) => e.url),
    ['https://hooks.example.com/in'],
  );
  await call(t.app, 'POST', '/integration/webhook/delete', { token: A.main, body: { id: ok.data.id } });
});

test(`a webhook whose address turned internal after it was saved fails its delivery with the reason; no request leaves (${DIALECT})`, async () => {
  const made = await call(t.app, 'POST', '/integration/webhook/create', {
    token: A.main,
    body: { name: 'Rebound', url: 'https://hooks.example.com/rebound', events: ['punch'] },
  });
  assert.equal(made.code, CODES.OK, made.message);
  const id = made.data.id as number;
  const deliveries = async () =>
    (await call<{ items: DeliveryItem[] }>(t.app, 'GET', '/integration/webhook/deliveries', { token: A.main, query: { endpoint_id: id } })).data.items;
  // the record changes behind the check (an old row, a restore, a name that now resolves inside)
  for (const [url, why] of [
    [`http://localhost:${port}/hook`, /^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/],
    [`http://127.0.0.1:${port}/hook`, /^refused: 127\.0\.0\.1 is a loopback address$/],
    ['http://[::ffff:169.254.169.254]/latest/meta-data/', /^refused: ::ffff:a9fe:a9fe is a link-local address$/],
  ] as const) {
    await t.app.database.db.updateTable('webhook_endpoints').set({ url }).where('id', '=', id).execute();
    const sent = await call(t.app, 'POST', '/integration/webhook/test', { token: A.main, body: { id } });
    assert.equal(sent.code, CODES.OK, sent.message);
    let d: DeliveryItem | undefined;
    for (let i = 0; i < 100 && !d; i++) {
      await t.app.jobs.runNow('webhooks.deliver');
      await t.app.modules.integrations.webhooks.idle();
      d = (await deliveries()).find((x) => x.id === sent.data.id && x.attempts > 0);
      if (!d) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(d, 'attempted');
    assert.equal(d.response_code, null);
    assert.match(d.response_body, why);
    assert.equal(d.status, 'pending', 'retried later: the address may be put right');
  }
  assert.equal(received, 0, 'no request reached the receiver');
});

test(`the parking operator URL: one check with webhooks when saved, and again at every push (${DIALECT})`, async () => {
  const C = await makeCompany(t, 'Outbound Parking');
  const update = (parking: Record<string, unknown>, lang = 'en-US') =>
    call(t.app, 'POST', '/company/update', { token: C.main, lang, body: { name: 'Outbound Parking', phone: '1', options: { parking } } });
  const secret = 'parking-secret-0123456789';
  assert.equal((await update({ enabled: 1, url: 'https://park.example/people', key: secret })).code, CODES.OK);
  const refusals: [string, string][] = [
    ['javascript:alert(1)', 'Parking service URL: must be an http:// or https:// address without a user name or password'],
    ['ftp://park.example/x', 'Parking service URL: must be an http:// or https:// address without a user name or password'],
    [`http://127.0.0.1:${port}/people`, 'Parking service URL: points at an internal address (127.0.0.1: loopback)'],
    ['http://169.254.169.254/', 'Parking service URL: points at an internal address (169.254.169.254: link-local, such as cloud metadata)'],
  ];
  for (const [url, message] of refusals) {
    const r = await update({ url });
    assert.equal(r.code, CODES.RULE, url);
    assert.deepEqual(r.data, { field: 'options.parking.url' });
    assert.equal(r.message, message);
  }
  const ja = await update({ url: `http://127.0.0.1:${port}/people` }, 'ja');
  assert.equal(ja.message, '駐車場サービス URL：内部アドレスを指しています（127.0.0.1：ループバック）');
  const info = await call(t.app, 'GET', '/company/info', { token: C.main });
  assert.equal(info.data.options.parking.url, 'https://park.example/people', 'unchanged');
  // saving the company with its stored URL unchanged needs no new check
  assert.equal((await update({ url: 'https://park.example/people' })).code, CODES.OK);

  // stored inside behind the check, then bound: the push is refused with the reason, nothing sent
  const row = await t.app.database.db.selectFrom('companies').select('options').where('id', '=', C.id).executeTakeFirstOrThrow();
  const options = JSON.parse(row.options);
  options.parking.url = `http://127.0.0.1:${port}/people`;
  await t.app.database.db
    .updateTable('companies')
    .set({ options: JSON.stringify(options) })
    .where('id', '=', C.id)
    .execute();
  const code = signParkingCode(
    { v: 1, company_id: C.id, dzg_id: 'IN-LOT', lot_name: 'Inside', nonce: randomBytes(12).toString('base64url'), exp: Math.floor(clock.now() / 1000) + 600 },
    secret,
  );
  const bound = await call(t.app, 'POST', '/dzg/bind', { token: C.main, body: { code, dzg_id: 'IN-LOT' } });
  assert.equal(bound.code, CODES.OK, bound.message);
  const push = await until('a refused push', async () => {
    const p = (await call(t.app, 'GET', '/dzg/bindings', { token: C.main })).data.push;
    return p.last_error ? p : undefined;
  });
  assert.equal(push!.last_error, 'refused: 127.0.0.1 is a loopback address');
  assert.equal(push!.pending, 1, 'the change waits for a URL that may be reached');
  assert.equal(received, 0, 'no request reached the receiver');
});
