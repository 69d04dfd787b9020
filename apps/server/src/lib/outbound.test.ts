import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { AppError } from './errors.ts';
import { classify, httpUrl, outboundGuard, OutboundRefused, parseCidrList, refusalOf, type LookupAll, type OutboundPolicy } from './outbound.ts';

const NONE: OutboundPolicy = { allow: [], privateAllowed: false };
const LOOPBACK: OutboundPolicy = { allow: parseCidrList('127.0.0.0/8,::1/128'), privateAllowed: false };

/** A receiver on `host` counting what reaches it. */
async function receiver(host = '127.0.0.1', port = 0, answer = 'ok') {
  const got: { host: string | undefined; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push({ host: req.headers.host, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end(answer);
    });
  });
  await new Promise<void>((r) => server.listen(port, host, r));
  return { got, server, port: (server.address() as AddressInfo).port };
}

let local: Awaited<ReturnType<typeof receiver>>;
before(async () => {
  local = await receiver('127.0.0.1', 0, 'x'.repeat(5000));
});
after(() => local.server.close());

const post = (policy: OutboundPolicy, url: string, lookup?: LookupAll) =>
  outboundGuard(policy, lookup).post(url, {
    headers: { 'content-type': 'application/json' },
    body: '{"a":1}',
    excerptMax: 200,
    signal: AbortSignal.timeout(5000),
  });

/** The validation error a save-time check raised: its field and reason key. */
async function refusedAt(p: Promise<unknown>): Promise<{ field: unknown; reason: unknown; address: unknown }> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof AppError, String(e));
    return { field: e.params.field, reason: e.params.reason, address: e.params.address };
  }
  assert.fail('accepted');
}

test('the classifier: loopback, link-local, unique-local, unspecified, private, multicast; IPv4 inside IPv6 counts as itself', () => {
  const cases: [string, string | null][] = [
    ['8.8.8.8', null],
    ['203.0.113.7', null],
    ['172.32.0.1', null],
    ['2001:4860:4860::8888', null],
    ['::ffff:8.8.8.8', null],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['169.254.169.254', 'linkLocal'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['febf:ffff::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fec0::1', 'reserved'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['not an address', 'reserved'],
  ];
  for (const [address, kind] of cases) assert.equal(classify(address), kind, address);
});

test('URLs: http(s) only, no account; decimal, hex and octal IPv4 hosts are read as the address they mean', async () => {
  for (const bad of ['javascript:alert(1)', 'ftp://example.com/x', 'http://user:pw@example.com/', 'not a url', 'http:// example.com/', 'file:///etc/passwd'])
    assert.equal(httpUrl(bad), null, bad);
  assert.equal(httpUrl(' https://hooks.example.com/in#x ')?.toString(), 'https://hooks.example.com/in');
  const guard = outboundGuard(NONE, async () => [{ address: '93.184.215.14', family: 4 }]);
  for (const url of [
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::1]:8080/',
  ])
    assert.deepEqual((await refusedAt(guard.checkUrl(url, 'url'))).reason, 'reasons.outbound.loopback', url);
  assert.deepEqual(await refusedAt(guard.checkUrl('http://2130706433/', 'url')), { field: 'url', reason: 'reasons.outbound.loopback', address: '127.0.0.1' });
  assert.equal((await refusedAt(guard.checkUrl('http://169.254.169.254/latest/meta-data/', 'url'))).reason, 'reasons.outbound.linkLocal');
  assert.equal((await refusedAt(guard.checkUrl('http://[fd00::1]/', 'url'))).reason, 'reasons.outbound.uniqueLocal');
  assert.equal((await refusedAt(guard.checkUrl('http://[fe80::1]/', 'url'))).reason, 'reasons.outbound.linkLocal');
  assert.equal((await refusedAt(guard.checkUrl('http://0.0.0.0:8080/', 'url'))).reason, 'reasons.outbound.unspecified');
  assert.equal((await refusedAt(guard.checkUrl('http://[::]/', 'url'))).reason, 'reasons.outbound.unspecified');
  assert.equal((await refusedAt(guard.checkUrl('http://10.0.0.5/', 'url'))).reason, 'reasons.outbound.private');
  assert.deepEqual(await refusedAt(guard.checkUrl('javascript:alert(1)', 'options.parking.url')), {
    field: 'options.parking.url',
    reason: 'reasons.outboundUrl',
    address: undefined,
  });
  assert.equal(await guard.checkUrl('https://hooks.example.com/in#frag', 'url'), 'https://hooks.example.com/in');
  assert.equal(await guard.checkUrl('http://8.8.8.8:81/x', 'url'), 'http://8.8.8.8:81/x');
});

test('save time: a name is resolved, and refused when it points inside; one that does not resolve is saved (each request checks it)', async () => {
  const to =
    (address: string): LookupAll =>
    async () => [{ address, family: address.includes(':') ? 6 : 4 }];
  assert.deepEqual(await refusedAt(outboundGuard(NONE, to('127.0.0.1')).checkUrl('http://hooks.test/', 'url')), {
    field: 'url',
    reason: 'reasons.outbound.loopback',
    address: 'hooks.test → 127.0.0.1',
  });
  assert.equal((await refusedAt(outboundGuard(NONE).checkUrl('http://localhost:8080/', 'url'))).reason, 'reasons.outbound.loopback');
  const nowhere: LookupAll = async () => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
  };
  assert.equal(await outboundGuard(NONE, nowhere).checkUrl('http://later.test/', 'url'), 'http://later.test/');
  assert.equal(await outboundGuard(LOOPBACK, to('127.0.0.1')).checkUrl('http://hooks.test/', 'url'), 'http://hooks.test/');
});

test('the allow list (OUTBOUND_ALLOW) and LAN mode: what they open and what stays shut', () => {
  assert.equal(refusalOf('127.0.0.1', LOOPBACK), null);
  assert.equal(refusalOf('::ffff:127.0.0.1', LOOPBACK), null, 'an IPv4-mapped address matches its IPv4 range');
  assert.equal(refusalOf('::1', LOOPBACK), null);
  assert.equal(refusalOf('169.254.169.254', LOOPBACK), 'linkLocal');
  assert.equal(refusalOf('10.0.0.1', LOOPBACK), 'private');
  const lan: OutboundPolicy = { allow: [], privateAllowed: true };
  for (const a of ['10.0.0.1', '172.20.1.1', '192.168.1.20', '100.64.1.1', '::ffff:192.168.1.20']) assert.equal(refusalOf(a, lan), null, a);
  for (const a of ['127.0.0.1', '169.254.169.254', 'fd00::1', '0.0.0.0']) assert.notEqual(refusalOf(a, lan), null, a);
  const narrow: OutboundPolicy = { allow: parseCidrList('192.168.7.0/24, fd12:3456::/32, ::ffff:10.9.0.0/112'), privateAllowed: false };
  assert.equal(refusalOf('192.168.7.200', narrow), null);
  assert.equal(refusalOf('192.168.8.1', narrow), 'private');
  assert.equal(refusalOf('fd12:3456::1', narrow), null);
  assert.equal(refusalOf('fd12:3457::1', narrow), 'uniqueLocal');
  assert.equal(refusalOf('10.9.1.2', narrow), null, 'an IPv4 range written in IPv6');
  assert.equal(refusalOf('8.8.8.8', NONE), null);
  assert.deepEqual(parseCidrList(' 127.0.0.1 , '), [{ v6: false, base: 0x7f000001n, bits: 32 }], 'one address is a range of one');
  for (const bad of ['localhost', '10.0.0.0/33', '::1/129', '10.0.0.0/8/8', '300.1.1.1/8', '10.0.0.0/-1', 'fe80::1::2/64'])
    assert.throws(() => parseCidrList(bad), new RegExp(`"${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"`), bad);
});

test('a request to a refused address is refused before connecting: nothing reaches the receiver, the error says why', async () => {
  const before = local.got.length;
  await assert.rejects(post(NONE, `http://127.0.0.1:${local.port}/hook`), (e: unknown) => {
    assert.ok(e instanceof OutboundRefused);
    assert.equal(e.message, 'refused: 127.0.0.1 is a loopback address');
    return true;
  });
  await assert.rejects(post(NONE, `http://2130706433:${local.port}/hook`), /^OutboundRefused: refused: 127\.0\.0\.1 is a loopback address$/);
  // localhost through the system's resolver (127.0.0.1, ::1)
  await assert.rejects(post(NONE, `http://localhost:${local.port}/hook`), /refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
  // one refused address among several refuses the name: the connection could pick it
  const mixed: LookupAll = async () => [
    { address: '93.184.215.14', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ];
  await assert.rejects(post(NONE, `http://mixed.test:${local.port}/hook`, mixed), /refused: mixed\.test resolves to 127\.0\.0\.1, a loopback address/);
  await assert.rejects(post(NONE, 'javascript:alert(1)'), /refused: not an http\(s\) address/);
  assert.equal(local.got.length, before, 'no request reached the receiver');

  // allowed explicitly: delivered, and only the start of the answer is kept
  const ok = await post(LOOPBACK, `http://127.0.0.1:${local.port}/hook`);
  assert.equal(ok.status, 200);
  assert.equal(ok.excerpt, 'x'.repeat(200));
  assert.equal(local.got.length, before + 1);
  assert.equal(local.got.at(-1)!.body, '{"a":1}');
});

test('DNS rebinding: the connection goes to the address checked, never to what the name answers next', async () => {
  // 127.0.0.2 (allowed) answers first, 127.0.0.1 (refused) afterwards: both listen on the same port
  const inside = await receiver('127.0.0.1');
  const outside = await receiver('127.0.0.2', inside.port);
  try {
    let asked = 0;
    const rebinding: LookupAll = async () => [{ address: asked++ === 0 ? '127.0.0.2' : '127.0.0.1', family: 4 }];
    const policy: OutboundPolicy = { allow: parseCidrList('127.0.0.2/32'), privateAllowed: false };
    const r = await post(policy, `http://rebind.test:${inside.port}/hook`, rebinding);
    assert.equal(r.status, 200);
    assert.equal(outside.got.length, 1, 'the checked address got the request');
    assert.equal(outside.got[0]!.host, `rebind.test:${inside.port}`, 'the Host header still names the host');
    assert.equal(inside.got.length, 0, 'nothing reached 127.0.0.1');
    assert.equal(asked, 1, 'the name was resolved once, for the check');
    // the next request resolves again, gets 127.0.0.1 and is refused
    await assert.rejects(post(policy, `http://rebind.test:${inside.port}/hook`, rebinding), /refused: rebind\.test resolves to 127\.0\.0\.1/);
    assert.equal(inside.got.length, 0);
  } finally {
    inside.server.close();
    outside.server.close();
  }
});

test('https: the connection to the checked address still names the host (SNI) and verifies its certificate', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-outbound-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=hooks.test',
        '-addext',
        'subjectAltName=DNS:hooks.test',
      ].concat(['-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')]),
      { stdio: 'ignore' },
    );
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return t.skip('openssl is not available');
  }
  const names: string[] = [];
  const server = https.createServer(
    {
      key: fs.readFileSync(path.join(dir, 'key.pem')),
      cert: fs.readFileSync(path.join(dir, 'cert.pem')),
      SNICallback: (name, cb) => {
        names.push(name);
        cb(null);
      },
    },
    (_req, res) => res.end('ok'),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const lookup: LookupAll = async () => [{ address: '127.0.0.1', family: 4 }];
    const port = (server.address() as AddressInfo).port;
    // a self-signed certificate: refused by the client, which shows it was verified for hooks.test
    await assert.rejects(post(LOOPBACK, `https://hooks.test:${port}/in`, lookup), (e: NodeJS.ErrnoException) =>
      /SELF_SIGNED|self-signed/i.test(`${e.code} ${e.message}`),
    );
    assert.deepEqual(names, ['hooks.test']);
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
