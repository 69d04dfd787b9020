import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { createIsapiTerminal, type IsapiTerminal } from '../../../../../tools/isapi-emulator/terminal.ts';
import { t as tr } from '../../i18n/i18n.ts';
import { call, DIALECT, makeApp, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { until } from '../../../test/terminals.ts';
import { parseRange } from './scan.service.ts';

/**
 * POST /device/scan (docs/lan-mode.md): emulated ISAPI terminals on 127.0.0.2–4 (one port), found with their model and
 * serial when the password fits, "wrong password" when it does not, a bare digest challenge without one; addresses
 * that never answer cost one timeout together.
 */
let t: TestApp;
let A: Company;
let B: Company;
const terminals: IsapiTerminal[] = [];
let port: number;
const hung: net.Server[] = [];
const sockets = new Set<net.Socket>();
/**
 * What the silent addresses saw, in order: `ask 127.0.0.6` when a request came, `give up 127.0.0.6` when its
 * connection closed (a connection with no request, as the HTTP client may open after an abort, is not counted).
 */
const silent: string[] = [];

before(async () => {
  t = await makeApp({ RUN_MODE: 'lan', ADMIN_USERNAME: 'scanadmin', ADMIN_PASSWORD: 'secret1' });
  A = await lanCompany('scanadmin', 'Scan A');
  const first = await createIsapiTerminal({ host: '127.0.0.2', serial: 'DS-K1T671M0120261126V030200ENEMU00002', model: 'DS-K1T671M' });
  port = first.port;
  terminals.push(
    first,
    await createIsapiTerminal({ host: '127.0.0.3', port, serial: 'DS-K1T341AM20261126V030200ENEMU00003', model: 'DS-K1T341AM' }),
    await createIsapiTerminal({ host: '127.0.0.4', port, password: 'other54321', serial: 'DS-K1T671M0120261126V030200ENEMU00004' }),
  );
  // 127.0.0.6 and 127.0.0.7 take the connection and never answer
  for (const host of ['127.0.0.6', '127.0.0.7']) {
    const server = net.createServer((s) => {
      sockets.add(s);
      let asked = false;
      s.once('data', () => {
        asked = true;
        silent.push(`ask ${host}`);
      });
      s.on('close', () => {
        sockets.delete(s);
        if (asked) silent.push(`give up ${host}`);
      });
    });
    hung.push(server);
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
  }
});
after(async () => {
  for (const s of sockets) s.destroy();
  for (const server of hung) server.close();
  await Promise.all(terminals.map((x) => x.stop()));
  await t.close();
});

/** LAN mode has no registration: the first administrator comes from ADMIN_USERNAME, the next from the managers page's peers. */
async function lanCompany(username: string, name: string): Promise<Company> {
  const login = await call(t.app, 'POST', '/user/login', { body: { username, password: 'secret1' } });
  assert.equal(login.code, CODES.OK, login.message);
  const token = login.data.token as string;
  const r = await call(t.app, 'POST', '/company/create', { token, body: { name, phone: '010-1234567' } });
  assert.equal(r.code, CODES.OK, r.message);
  const info = await call(t.app, 'GET', '/user/info', { token });
  return { id: r.data.id, main: token, mainId: info.data.id };
}

const scan = (c: Company, body: Record<string, unknown>) => call(t.app, 'POST', '/device/scan', { token: c.main, lang: 'en-US', body });

test(`ranges: dashes, a short end, /24 and one address; at most 256 private addresses (${DIALECT})`, () => {
  assert.deepEqual(parseRange('192.168.1.10-192.168.1.12'), ['192.168.1.10', '192.168.1.11', '192.168.1.12']);
  assert.deepEqual(parseRange(' 192.168.1.10 – 12 '), ['192.168.1.10', '192.168.1.11', '192.168.1.12']);
  assert.equal(parseRange('192.168.1.77/24').length, 254);
  assert.equal(parseRange('192.168.1.77/24')[0], '192.168.1.1');
  assert.deepEqual(parseRange('10.0.0.5'), ['10.0.0.5']);
  assert.equal(parseRange('10.0.0.0-10.0.0.255').length, 256);
});

test(`a scan finds the terminals of the range, with model and serial when the password fits (${DIALECT})`, async () => {
  const r = await scan(A, { range: '127.0.0.1-127.0.0.7', port, account: 'admin', password: 'admin12345' });
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.scanned, 7);
  const byIp = new Map((r.data.found as { ip: string }[]).map((h) => [h.ip, h as Record<string, unknown>]));
  assert.deepEqual([...byIp.keys()], ['127.0.0.2', '127.0.0.3', '127.0.0.4']);
  assert.deepEqual(byIp.get('127.0.0.2'), {
    ip: '127.0.0.2',
    port,
    protocol: 'isapi',
    auth: 'ok',
    model: 'DS-K1T671M',
    serial: 'T671M0120261126V030200ENEMU00002',
    firmware: 'V3.2.0 build 241120',
    device_name: 'Access Controller',
    device_id: 0,
  });
  assert.equal(byIp.get('127.0.0.3')?.model, 'DS-K1T341AM');
  // the third terminal has another password: found, said so, nothing read
  assert.equal(byIp.get('127.0.0.4')?.auth, 'wrongPassword');
  assert.equal(byIp.get('127.0.0.4')?.model, '');
  // The silent addresses cost one timeout together, not one each: each asked once, and both waited on at once (both
  // asked before either was given up).
  await until('both silent addresses given up', () => silent.filter((e) => e.startsWith('give up')).length >= 2);
  assert.deepEqual(silent.slice(0, 2).sort(), ['ask 127.0.0.6', 'ask 127.0.0.7'], silent.join(', '));
  assert.deepEqual(silent.slice(2).sort(), ['give up 127.0.0.6', 'give up 127.0.0.7'], silent.join(', '));
});

test(`without a password a digest challenge still proves a terminal; a device already added is named (${DIALECT})`, async () => {
  const add = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Hall', serial: 'T671M0120261126V030200ENEMU00002', protocol: 'isapi', ip: '127.0.0.2', port, account: 'admin', password: 'admin12345' },
  });
  assert.equal(add.code, CODES.OK, add.message);
  const r = await scan(A, { range: '127.0.0.2-3', port });
  assert.equal(r.code, CODES.OK, r.message);
  assert.deepEqual(
    r.data.found.map((h: Record<string, unknown>) => [h.ip, h.auth, h.model, h.device_id]),
    [
      ['127.0.0.2', 'noPassword', '', add.data.id],
      ['127.0.0.3', 'noPassword', '', 0],
    ],
  );
  // another company's scan does not see A's device
  B = await makeCompany2();
  const other = await scan(B, { range: '127.0.0.2', port });
  assert.equal(other.data.found[0].device_id, 0);
});

/** A second company of another administrator (a peer the first adds through the managers page would share A). */
async function makeCompany2(): Promise<Company> {
  const r = await call(t.app, 'POST', '/company/create', { token: A.main, body: { name: 'Scan B', phone: '010-1234567' } });
  assert.equal(r.code, CODES.OK, r.message);
  const sw = await call(t.app, 'POST', '/admin/setDefaultCompany', { token: A.main, body: { company_id: r.data.id } });
  assert.equal(sw.code, CODES.OK, sw.message);
  return { id: r.data.id, main: A.main, mainId: A.mainId };
}

test(`ranges are checked: the field is named, public and oversized ranges refused (${DIALECT})`, async () => {
  const cases: [string, string, Record<string, number>][] = [
    ['8.8.8.8', 'reasons.scanPrivate', {}],
    ['169.254.169.254', 'reasons.scanPrivate', {}],
    ['10.0.0.0/16', 'reasons.scanTooMany', { count: 65536, limit: 256 }],
    ['192.168.1.1-192.168.2.10', 'reasons.scanTooMany', { count: 266, limit: 256 }],
    ['192.168.1.60-192.168.1.10', 'reasons.scanOrder', {}],
    ['192.168.1.300', 'reasons.scanRange', {}],
    ['printers', 'reasons.scanRange', {}],
  ];
  for (const [range, reason, params] of cases) {
    const r = await scan(A, { range });
    assert.equal(r.code, CODES.RULE, range);
    assert.equal(r.message, tr('en-US', 'errors.validation', { field: tr('en-US', 'fields.range'), reason: tr('en-US', reason, params) }), range);
  }
});

test(`scanning needs face-device edit (${DIALECT})`, async () => {
  const viewer = await makeSub(t, { id: B.id, main: B.main, mainId: B.mainId }, ['faceView']);
  const r = await call(t.app, 'POST', '/device/scan', { token: viewer.token, body: { range: '127.0.0.2', port } });
  assert.equal(r.code, CODES.NO_AUTHORITY);
});

test(`outside LAN mode the scan is refused, saying why (${DIALECT})`, async () => {
  const cloud = await makeApp({ ADMIN_USERNAME: 'cloudadmin', ADMIN_PASSWORD: 'secret1' });
  try {
    const token = (await call(cloud.app, 'POST', '/user/login', { body: { username: 'cloudadmin', password: 'secret1' } })).data.token as string;
    assert.equal((await call(cloud.app, 'POST', '/company/create', { token, body: { name: 'Cloud', phone: '010-1234567' } })).code, CODES.OK);
    const before = terminals[0]!.requests.length;
    const r = await call(cloud.app, 'POST', '/device/scan', { token, lang: 'en-US', body: { range: '127.0.0.2', port } });
    assert.equal(r.code, CODES.UNAVAILABLE);
    assert.equal(r.message, tr('en-US', 'errors.scanLanOnly'));
    assert.equal(terminals[0]!.requests.length, before, 'nothing was asked');
  } finally {
    await cloud.close();
  }
});
