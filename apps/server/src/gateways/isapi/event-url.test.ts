import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { createIsapiTerminal, type IsapiTerminal } from '../../../../../tools/isapi-emulator/terminal.ts';
import { call, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { listen, until } from '../../../test/terminals.ts';

/**
 * ISAPI_EVENT_URL: a server reached through a reverse proxy under a path prefix. The terminal is told the proxy's
 * host name, port and prefix (not this server's interface and port), and its events reach the server through it.
 */
let t: TestApp;
let A: Company;
let proxy: http.Server;
let proxied = 0;
const terminals: IsapiTerminal[] = [];

before(async () => {
  let upstream = '';
  // A reverse proxy publishing the server under /faceadmin (it strips the prefix, as nginx `proxy_pass …/;` does).
  proxy = http.createServer((req, res) => {
    if (!req.url?.startsWith('/faceadmin/')) return res.writeHead(404).end();
    proxied++;
    const fwd = http.request(`${upstream}${req.url.slice('/faceadmin'.length)}`, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    fwd.on('error', () => res.writeHead(502).end());
    req.pipe(fwd);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const proxyPort = (proxy.address() as AddressInfo).port;
  t = await makeApp(
    {},
    { isapi: { heartbeatMs: 300, backoffMs: 100, maxBackoffMs: 400, eventUrl: { protocol: 'http', host: 'localhost', port: proxyPort, path: '/faceadmin' } } },
  );
  upstream = await listen(t);
  A = await makeCompany(t, 'Proxied');
});
after(async () => {
  await Promise.all(terminals.map((x) => x.stop()));
  await t.close();
  await new Promise((r) => proxy.close(r));
});

test('behind a proxy: the terminal is told the configured host, port and prefix, and its events come through it', async () => {
  const emu = await createIsapiTerminal({ serial: 'DS-EMU-PROXY' });
  terminals.push(emu);
  const r = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Proxied', serial: 'ISAPIPX1', protocol: 'isapi', ip: '127.0.0.1', port: emu.port, account: 'admin', password: emu.options.password },
  });
  assert.equal(r.code, CODES.OK, r.message);
  const id = r.data.id as number;
  const host = (await until('told where to post', () => emu.httpHost))!;
  assert.equal(host.ip, 'localhost', 'the name from ISAPI_EVENT_URL, not an interface address');
  assert.equal(host.port, (proxy.address() as AddressInfo).port);
  assert.equal(host.protocol, 'http');
  assert.match(host.url, new RegExp(`^/faceadmin/isapi/event/${id}/[A-Za-z0-9_-]{20,}$`));
  emu.users.set('P1', { employeeNo: 'P1', name: 'Pat', userType: 'normal', valid: { enable: false, beginTime: '', endTime: '' }, password: '' });
  emu.faces.set('P1', Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
  const seen = await emu.recognize('P1');
  assert.equal(seen.pushed, true, 'the server answered the post made to the proxy');
  assert.ok(proxied >= 1);
  const punches = await t.app.database.db.selectFrom('punches').select('pin').where('device_id', '=', id).execute();
  assert.deepEqual(
    punches.map((p) => p.pin),
    ['P1'],
  );
});
