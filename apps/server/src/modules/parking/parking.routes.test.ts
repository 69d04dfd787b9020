import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import {
  call,
  CAPTCHA,
  captcha,
  DIALECT,
  login,
  makeApp,
  makeCompany,
  makeSub,
  nextIp,
  nextMobile,
  type Company,
  type TestApp,
} from '../../../test/helpers.ts';
import { addPersonWithFace, personWithFace, picture, upload } from '../../../test/files.ts';
import { until } from '../../../test/terminals.ts';
import { clock } from '../../lib/time.ts';
import { parkingCode } from '../../../../../tools/parking/parking-code.ts';
import { signParkingCode, type ParkingCodePayload } from './parking.code.ts';

/** A local parking operator: records every push and answers with `status`. */
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let status = 200;
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.writeHead(status).end(status === 200 ? 'ok' : 'down');
  });
});

let t: TestApp;
let A: Company;
let B: Company;
let receiverUrl: string;
const SECRET_A = 'shared-secret-of-A-0123456789';
const SECRET_B = 'shared-secret-of-B-9876543210';

before(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/faceadmin/people`;
  // the receiver is on this machine: loopback is refused unless allowed (issue #28, test/outbound.test.ts)
  t = await makeApp({ OUTBOUND_ALLOW: '127.0.0.0/8' });
  A = await makeCompany(t, 'Parking A');
  B = await makeCompany(t, 'Parking B');
  for (const [c, name, key] of [
    [A, 'Parking A', SECRET_A],
    [B, 'Parking B', SECRET_B],
  ] as const) {
    const r = await call(t.app, 'POST', '/company/update', {
      token: c.main,
      body: { name, phone: '1', options: { parking: { enabled: 1, url: receiverUrl, key } } },
    });
    assert.equal(r.code, CODES.OK, r.message);
  }
});
after(async () => {
  await t.close();
  await new Promise((r) => receiver.close(r));
});

const nowS = () => Math.floor(clock.now() / 1000);
const code = (over: Partial<ParkingCodePayload> = {}, secret = SECRET_A) =>
  signParkingCode(
    { v: 1, company_id: A.id, dzg_id: 'LOT-7', lot_name: 'North Lot', nonce: randomBytes(12).toString('base64url'), exp: nowS() + 600, ...over },
    secret,
  );
const check = (c: string) => call(t.app, 'POST', '/dzg/check', { lang: 'en-US', body: { code: c } });
const bind = (token: string, c: string, dzg_id = 'LOT-7') => call(t.app, 'POST', '/dzg/bind', { token, lang: 'en-US', body: { code: c, dzg_id } });
const bindings = (token: string) => call(t.app, 'GET', '/dzg/bindings', { token });

test(`check verifies the signature, the expiry and the company; it tells who is bound to what (${DIALECT})`, async () => {
  const good = await check(code());
  assert.equal(good.code, CODES.OK, good.message);
  assert.deepEqual(
    { ...good.data, expires_at: undefined },
    { dzg_id: 'LOT-7', lot_name: 'North Lot', company: { id: A.id, name: 'Parking A' }, bound: false, expires_at: undefined },
  );

  const valid = code();
  const [body, sig] = valid.split('.');
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), dzg_id: 'LOT-EVIL' })).toString('base64url');
  const cases: [string, string, RegExp][] = [
    ['tampered payload', `${forged}.${sig}`, /not valid/],
    ['another secret', code({}, 'not-the-secret'), /not valid/],
    ["B's secret for A", code({}, SECRET_B), /not valid/],
    ['unknown company', code({ company_id: 999_999 }), /not valid/],
    ['expired', code({ exp: nowS() - 1 }), /expired/],
    ['valid far too long', code({ exp: nowS() + 30 * 24 * 3600 }), /not valid/],
    ['not base64 json', `${Buffer.from('hello').toString('base64url')}.${sig}`, /not valid/],
  ];
  for (const [what, c, msg] of cases) {
    const r = await check(c);
    assert.equal(r.code, CODES.RULE, what);
    assert.match(r.message, msg, what);
    assert.deepEqual(r.data, { field: 'code' }, what);
  }
  // the operator's reference script (tools/parking/parking-code.ts) makes codes the server accepts
  const scripted = await check(parkingCode({ companyId: A.id, secret: SECRET_A, dzgId: 'LOT-9' }));
  assert.equal(scripted.code, CODES.OK, scripted.message);
  assert.equal(scripted.data.dzg_id, 'LOT-9');
  const shape = await check('no-dot-here');
  assert.equal(shape.code, CODES.VALIDATION);

  // parking off: the company's codes are refused
  await call(t.app, 'POST', '/company/update', { token: B.main, body: { name: 'Parking B', phone: '1', options: { parking: { enabled: 0 } } } });
  assert.equal((await check(code({ company_id: B.id }, SECRET_B))).code, CODES.RULE);
  await call(t.app, 'POST', '/company/update', { token: B.main, body: { name: 'Parking B', phone: '1', options: { parking: { enabled: 1 } } } });
  assert.equal((await check(code({ company_id: B.id }, SECRET_B))).code, CODES.OK);
});

test(`bind: main administrators of the code's company only; a code binds once (${DIALECT})`, async () => {
  const c = code();
  const sub = await makeSub(t, A, ['all']);
  assert.equal((await bind(sub.token, c)).code, CODES.NO_AUTHORITY, 'a sub-admin is refused');
  const other = await bind(B.main, c);
  assert.equal(other.code, CODES.RULE, 'another company');
  assert.match(other.message, /Parking A/);
  const mismatch = await bind(A.main, c, 'LOT-8');
  assert.equal(mismatch.code, CODES.RULE);
  assert.deepEqual(mismatch.data, { field: 'dzg_id' });
  assert.equal((await call(t.app, 'POST', '/dzg/bind', { body: { code: c, dzg_id: 'LOT-7' } })).code, CODES.ILLEGAL_TOKEN, 'no session');

  const ok = await bind(A.main, c);
  assert.equal(ok.code, CODES.OK, ok.message);
  assert.equal(ok.data.dzg_id, 'LOT-7');
  assert.equal(ok.data.lot_name, 'North Lot');
  assert.match(ok.data.bound_by, /^Admin /);
  // the code is used up: checking or binding it again is refused
  for (const r of [await check(c), await bind(A.main, c)]) {
    assert.equal(r.code, CODES.RULE);
    assert.match(r.message, /already been used/);
  }
  // a fresh code for the same account: shown as bound, binding again keeps one binding
  const again = code();
  assert.equal((await check(again)).data.bound, true);
  assert.equal((await bind(A.main, again)).code, CODES.OK);
  const list = await bindings(A.main);
  assert.equal(list.data.total, 1);
  assert.deepEqual(
    list.data.items.map((b: { dzg_id: string }) => b.dzg_id),
    ['LOT-7'],
  );
  assert.equal((await bindings(sub.token)).code, CODES.NO_AUTHORITY);
  const logs = await call(t.app, 'GET', '/log/list', { token: A.main, lang: 'en-US', query: { module: 'company', pageSize: 100 } });
  assert.ok(logs.data.items.some((l: { description: string }) => l.description === 'Bound parking account LOT-7'));
});

test(`unbind asks for this company's binding: another company's id is not found (${DIALECT})`, async () => {
  const mine = await bind(B.main, code({ company_id: B.id, dzg_id: 'B-LOT', lot_name: 'B lot' }, SECRET_B), 'B-LOT');
  assert.equal(mine.code, CODES.OK, mine.message);
  const aList = (await bindings(A.main)).data;
  assert.ok(!aList.items.some((b: { dzg_id: string }) => b.dzg_id === 'B-LOT'), "A never sees B's bindings");
  assert.equal((await call(t.app, 'POST', '/dzg/unbind', { token: A.main, body: { id: mine.data.id } })).code, CODES.NOT_FOUND);
  const sub = await makeSub(t, B, ['all']);
  assert.equal((await call(t.app, 'POST', '/dzg/unbind', { token: sub.token, body: { id: mine.data.id } })).code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'POST', '/dzg/unbind', { token: B.main, body: { id: mine.data.id } })).code, CODES.OK);
  assert.equal((await bindings(B.main)).data.total, 0);
  assert.equal((await call(t.app, 'POST', '/dzg/unbind', { token: B.main, body: { id: mine.data.id } })).code, CODES.NOT_FOUND, 'gone');
});

test(`register from the binding page needs a valid code, then works like /admin/register (${DIALECT})`, async () => {
  const ip = nextIp();
  const mobile = nextMobile();
  const s = await call(t.app, 'POST', '/user/sendsmscode', {
    ip,
    body: { phone: mobile, purpose: 'register', icode: CAPTCHA, captcha_id: await captcha(t.app, ip) },
  });
  assert.equal(s.code, CODES.OK, s.message);
  const smscode = t.sms.filter((x) => x.phone === mobile).at(-1)!.code;
  const body = async (c: string) => ({
    name: 'Park User',
    username: 'parkuser1',
    password: 'secret1',
    repassword: 'secret1',
    mobile,
    smscode,
    icode: CAPTCHA,
    captcha_id: await captcha(t.app, ip),
    code: c,
  });
  const bad = await call(t.app, 'POST', '/dzg/register', { ip, lang: 'en-US', body: await body(code({ exp: nowS() - 5 })) });
  assert.equal(bad.code, CODES.RULE);
  assert.match(bad.message, /expired/);
  const r = await call(t.app, 'POST', '/dzg/register', { ip, body: await body(code()) });
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal((await call(t.app, 'GET', '/user/info', { token: r.data.token })).data.name, 'Park User');
  assert.ok(await login(t.app, 'parkuser1', 'secret1'));
});

const verify = (r: Received, secret: string) => {
  const ts = String(r.headers['x-faceadmin-timestamp']);
  const expected = `sha256=${createHmac('sha256', secret).update(`${ts}.${r.body}`).digest('hex')}`;
  return r.headers['x-faceadmin-signature'] === expected && Math.abs(Number(ts) - nowS()) < 300;
};

test(`bound operators receive the company's people, signed, after they change; failures are retried later (${DIALECT})`, async () => {
  const C = await makeCompany(t, 'Parking C');
  const SECRET_C = 'secret-of-C-abcdefabcdef';
  await call(t.app, 'POST', '/company/update', {
    token: C.main,
    body: { name: 'Parking C', phone: '1', options: { parking: { enabled: 1, url: receiverUrl, key: SECRET_C } } },
  });
  const dept = (await call(t.app, 'POST', '/org/create', { token: C.main, body: { name: 'HQ' } })).data.id;
  const c1 = await personWithFace(t, C, {
    number: 'C1',
    name: 'Before Binding',
    phone: '13900001111',
    organizations: [dept],
    plates: ['京A·12345', 'abc-123'],
  });
  assert.deepEqual(c1.plates, ['京A·12345', 'ABC-123'], 'plates are kept upper-cased');
  const badPlate = await call(t.app, 'POST', '/person/create', {
    token: C.main,
    lang: 'en-US',
    body: {
      name: 'X',
      phone: '1',
      organizations: [dept],
      pic: (await upload(t, '/person/upload', C.main, { name: 'f.jpg', data: await picture() })).data.pic,
      plates: ['no spaces allowed'],
    },
  });
  assert.equal(badPlate.code, CODES.VALIDATION);
  assert.match(badPlate.message, /^Plate numbers/);
  const pushesOfC = () => received.filter((r) => JSON.parse(r.body).company_id === C.id);
  assert.equal(pushesOfC().length, 0, 'nothing is pushed before a binding');

  assert.equal((await bind(C.main, code({ company_id: C.id, dzg_id: 'C-LOT' }, SECRET_C), 'C-LOT')).code, CODES.OK);
  const first = (await until('the whole roster', () => pushesOfC()[0]))!;
  assert.ok(verify(first, SECRET_C), 'a valid signature');
  const roster = JSON.parse(first.body);
  assert.equal(roster.full, true);
  assert.deepEqual(roster.dzg_ids, ['C-LOT']);
  assert.deepEqual(roster.people, [{ number: 'C1', name: 'Before Binding', phone: '13900001111', plates: ['京A·12345', 'ABC-123'] }]);
  assert.ok(!first.body.includes(SECRET_C));

  // a change goes as a change; a person who leaves is removed
  const p2 = await personWithFace(t, C, { number: 'C2', name: 'New Hire', phone: '13900001111', organizations: [dept] });
  const change = (await until('the new person', () => pushesOfC().find((r) => JSON.parse(r.body).people.some((p: { number: string }) => p.number === 'C2'))))!;
  assert.equal(JSON.parse(change.body).full, false);
  assert.ok(verify(change, SECRET_C));
  const left = await call(t.app, 'POST', '/person/update', {
    token: C.main,
    body: { id: p2.id, name: 'New Hire', phone: '13900001111', organizations: [dept], pic: p2.pic, workStatus: 0 },
  });
  assert.equal(left.code, CODES.OK, left.message);
  await until('the leaver removed', () => pushesOfC().find((r) => JSON.parse(r.body).removed.includes('C2')));

  // the operator fails: the change waits, is retried after the backoff, and arrives
  status = 500;
  const before = pushesOfC().length;
  await addPersonWithFace(t, C, { number: 'C3', name: 'During Outage', phone: '13900001111', organizations: [dept] });
  await until('a failed attempt', async () => (await bindings(C.main)).data.push.last_error === 'HTTP 500');
  const state = (await bindings(C.main)).data.push;
  assert.equal(state.pending, 1);
  assert.equal(state.attempts, 1);
  const tried = pushesOfC().length;
  assert.equal(tried, before + 1);
  status = 200;
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal(pushesOfC().length, tried, 'no retry before the backoff');
  const realNow = clock.now;
  clock.now = () => realNow() + 60_000;
  try {
    await until('the retry', () => pushesOfC().find((r) => JSON.parse(r.body).people.some((p: { number: string }) => p.number === 'C3')), 10_000);
  } finally {
    clock.now = realNow;
  }
  await until('the outbox empty', async () => (await bindings(C.main)).data.push.pending === 0);
  assert.equal((await bindings(C.main)).data.push.last_error, '');

  // unbound: nothing more is sent
  const id = (await bindings(C.main)).data.items[0].id;
  assert.equal((await call(t.app, 'POST', '/dzg/unbind', { token: C.main, body: { id } })).code, CODES.OK);
  const count = pushesOfC().length;
  await addPersonWithFace(t, C, { number: 'C4', name: 'After Unbinding', phone: '13900001111', organizations: [dept] });
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal(pushesOfC().length, count, 'nothing after unbinding');
});
