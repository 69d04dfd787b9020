import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { API, makeApp, type TestApp } from '../../test/helpers.ts';

// Issue #28: every answer carries nosniff and the console's CSP (no inline script, no plugins, never framed).
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-web-'));
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html><head><script type="module" src="/assets/index-Ab12.js"></script></head><body></body></html>',
);
fs.writeFileSync(path.join(dist, 'assets', 'index-Ab12.js'), 'export const x = 1;\n');

let t: TestApp;
let proxied: TestApp;
before(async () => {
  t = await makeApp({ WEB_DIST: dist, ADMIN_USERNAME: 'headers', ADMIN_PASSWORD: 'secret1' });
  proxied = await makeApp({ WEB_DIST: dist, ADMIN_USERNAME: 'headers', ADMIN_PASSWORD: 'secret1', TRUST_PROXY: '10.0.0.1' });
});
after(async () => {
  await t.close();
  await proxied.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

/** The CSP's directives by name. */
function cspOf(res: LightMyRequestResponse): Map<string, string[]> {
  const header = String(res.headers['content-security-policy'] ?? '');
  assert.ok(header, `a CSP on ${res.statusCode} ${String(res.headers['content-type'])}`);
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

function assertHeaders(res: LightMyRequestResponse, what: string) {
  assert.equal(res.headers['x-content-type-options'], 'nosniff', `${what}: nosniff`);
  assert.equal(res.headers['x-frame-options'], 'DENY', `${what}: X-Frame-Options`);
  const csp = cspOf(res);
  assert.deepEqual(csp.get('frame-ancestors'), ["'none'"], `${what}: frame-ancestors`);
  assert.deepEqual(csp.get('object-src'), ["'none'"], `${what}: object-src`);
  assert.equal(csp.has('upgrade-insecure-requests'), false, `${what}: LAN deployments serve plain http`);
}

test('every kind of answer carries nosniff, no framing and the CSP: the envelope, the console, an asset, the probes, the terminals', async () => {
  const answers: [string, LightMyRequestResponse][] = [
    ['the API envelope', await t.app.inject({ method: 'GET', url: `${API}/system/config` })],
    ['a refused API call', await t.app.inject({ method: 'GET', url: `${API}/person/list` })],
    ['an unknown API path', await t.app.inject({ method: 'GET', url: `${API}/no/such/path` })],
    ["the console's index.html", await t.app.inject({ method: 'GET', url: '/' })],
    ['a console path (SPA fallback)', await t.app.inject({ method: 'GET', url: '/dashboard' })],
    ['a static asset', await t.app.inject({ method: 'GET', url: '/assets/index-Ab12.js' })],
    ['/healthz', await t.app.inject({ method: 'GET', url: '/healthz' })],
    ['the ZK terminal gateway', await t.app.inject({ method: 'GET', url: '/iclock/cdata?SN=UNKNOWN1&options=all' })],
    ['the ISAPI event gateway', await t.app.inject({ method: 'POST', url: '/isapi/event/999/nope', payload: 'x', headers: { 'content-type': 'text/plain' } })],
  ];
  for (const [what, res] of answers) assertHeaders(res, what);
  const html = answers[3]![1];
  assert.match(String(html.headers['content-type']), /text\/html/);
  const csp = cspOf(html);
  // the console's own files only: no inline script, no eval, no foreign script
  assert.deepEqual(csp.get('script-src'), ["'self'"]);
  assert.deepEqual(csp.get('script-src-attr'), ["'none'"]);
  assert.deepEqual(csp.get('connect-src'), ["'self'"]);
  assert.equal(html.headers['referrer-policy'], 'no-referrer');
});

test('the terminals keep working under the headers: an unknown ZK serial is still told ERROR in plain text', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/iclock/cdata?SN=UNKNOWN2&options=all' });
  assert.match(String(res.headers['content-type']), /text\/plain/);
  assert.match(res.body, /ERROR|OK|GET OPTION/);
});

test('the OpenAPI page lives under the same CSP: swagger-ui loads only its own script files', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
  assert.equal(res.statusCode, 200);
  assertHeaders(res, 'the OpenAPI page');
  assert.deepEqual(cspOf(res).get('script-src'), ["'self'"]);
  assert.doesNotMatch(res.body, /<script>|<script(?![^>]*\ssrc=)[^>]*>/, 'no inline script');
});

test('the device cookie of a sign-in is Secure over https (behind the trusted proxy), and only then', async () => {
  const signIn = (app: TestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'POST', url: `${API}/user/login`, remoteAddress, headers, payload: { username: 'headers', password: 'secret1' } });
  const cookie = (res: LightMyRequestResponse) => String(res.headers['set-cookie'] ?? '');
  const https = await signIn(proxied, '10.0.0.1', { 'x-forwarded-proto': 'https' });
  assert.equal(https.json<{ code: number }>().code, 20000);
  assert.match(cookie(https), /; Secure/);
  assert.match(cookie(https), /HttpOnly/);
  assert.doesNotMatch(cookie(await signIn(proxied, '10.0.0.1')), /Secure/, 'plain http through the proxy');
  // an untrusted peer cannot claim https
  assert.doesNotMatch(cookie(await signIn(t, '203.0.113.9', { 'x-forwarded-proto': 'https' })), /Secure/);
});
