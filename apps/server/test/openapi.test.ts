import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { apiContract, CODES, LANGUAGES, type Endpoint } from '@faceadmin/shared';
import { t as tr } from '../src/i18n/i18n.ts';
import { API, apiRoutes, DIALECT, makeApp, register, type TestApp } from './helpers.ts';

let t: TestApp;
before(async () => (t = await makeApp()));
after(() => t.close());

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: { type?: string; properties?: Record<string, unknown>; required?: string[] } }> }>;
  tags?: string[];
}

async function inject(method: string, url: string, opts: { headers?: Record<string, string>; payload?: string | Buffer } = {}) {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: opts.headers ?? {},
    ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
  });
  return {
    status: res.statusCode,
    type: String(res.headers['content-type'] ?? ''),
    body: res.body,
    json: () => res.json<{ code: number; message: string; data: unknown }>(),
  };
}

test(`GET /api/docs/json is an OpenAPI 3 document with every route and its response schema (${DIALECT})`, async () => {
  const r = await inject('GET', '/api/docs/json');
  assert.equal(r.status, 200);
  assert.match(r.type, /application\/json/);
  const doc = JSON.parse(r.body) as {
    openapi: string;
    info: { title: string; version: string };
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, { in: string; name: string }> };
  };
  assert.match(doc.openapi, /^3\.\d+\.\d+$/);
  assert.ok(doc.info.title.length > 0);
  assert.equal(doc.info.version, t.app.appVersion);
  assert.deepEqual(doc.components.securitySchemes.token, { type: 'apiKey', in: 'header', name: 'X-Token' });
  const live = apiRoutes(t.app);
  assert.ok(live.length >= 27);
  const documented: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    assert.ok(path.startsWith(`${API}/`), `only API routes are documented: ${path}`);
    for (const [method, op] of Object.entries(ops)) {
      const label = `${method.toUpperCase()} ${path}`;
      documented.push(`${method.toUpperCase()} ${path.slice(API.length).replace(/\{(\w+)\}/g, ':$1')}`);
      const ok = op.responses['200']?.content?.['application/json']?.schema;
      const file = Object.entries(op.responses['200']?.content ?? {}).find(([mime]) => !mime.includes('json'));
      if (file) {
        // A download (xlsx, image): a binary body on success, the envelope on errors.
        assert.equal((file[1] as { schema?: { format?: string } }).schema?.format, 'binary', `${label} documents its file`);
      } else {
        assert.ok(ok, `${label} has a 200 response schema`);
        assert.equal(ok.type, 'object', label);
        assert.deepEqual(Object.keys(ok.properties ?? {}).sort(), ['code', 'data', 'message', 'refreshToken'], `${label}: the envelope`);
        assert.deepEqual([...(ok.required ?? [])].sort(), ['code', 'data', 'message'], label);
      }
      for (const status of ['4XX', '5XX']) {
        const err = op.responses[status]?.content?.['application/json']?.schema;
        assert.ok(err?.properties?.code && err.properties.message, `${label} documents the ${status} envelope`);
      }
      assert.ok(op.tags && op.tags.length > 0, `${label} is tagged`);
    }
  }
  assert.deepEqual(documented.sort(), live, 'every served API route is documented');
});

test('the shared contract and the served API agree: every entry is served with its method, every API route has an entry', () => {
  const entries = Object.values(apiContract).flatMap((group) => Object.values<Endpoint>(group));
  assert.deepEqual(entries.map((e) => `${e.method} ${e.path}`).sort(), apiRoutes(t.app));
});

test('GET /api/docs answers the browsable HTML page', async () => {
  const r = await inject('GET', '/api/docs');
  assert.equal(r.status, 200);
  assert.match(r.type, /text\/html/);
  assert.match(r.body, /<html/i);
  assert.match(r.body, /swagger/i);
});

test('an unknown /api path answers the 40004 envelope in the requested language, never HTML', async () => {
  const seen = new Set<string>();
  for (const lang of LANGUAGES) {
    for (const [method, url] of [
      ['GET', `${API}/no/such/route?x=1`],
      ['POST', `${API}/person/lists`],
      ['GET', '/api/elsewhere'],
      ['GET', `${API}/user/logins`],
    ] as const) {
      const r = await inject(method, url, { headers: { 'x-lang': lang } });
      assert.equal(r.status, 404, `${method} ${url}`);
      assert.match(r.type, /application\/json/, `${method} ${url} is not HTML`);
      const env = r.json();
      assert.equal(env.code, CODES.NOT_FOUND);
      assert.equal(env.data, null);
      assert.equal(env.message, tr(lang, 'errors.routeNotFound', { method, url: url.split('?')[0]! }));
      seen.add(env.message.replace(/：|: /, ':').split(':')[0]!);
    }
  }
  assert.equal(seen.size, 4, 'four languages');
});

test('malformed, mistyped and oversized bodies answer 400/413/415 envelopes, never 500', async () => {
  const token = await register(t, 'bodies1');
  const cases: [string, string, Record<string, string>, string | Buffer, number][] = [
    ['broken JSON', '/user/login', { 'content-type': 'application/json' }, '{"username": "a", ', 400],
    ['empty JSON body', '/user/login', { 'content-type': 'application/json' }, '', 400],
    ['JSON null', '/user/login', { 'content-type': 'application/json' }, 'null', 400],
    ['JSON array', '/user/login', { 'content-type': 'application/json' }, '[1,2]', 400],
    ['JSON string', '/company/create', { 'content-type': 'application/json', 'x-token': token }, '"name"', 400],
    ['text body', '/user/login', { 'content-type': 'text/plain' }, 'username=a', 400],
    ['prototype pollution', '/user/login', { 'content-type': 'application/json' }, '{"__proto__": {"admin": true}, "username": "a", "password": "b"}', 400],
    ['unknown media type', '/user/login', { 'content-type': 'application/xml' }, '<a/>', 415],
    ['missing body', '/user/changepwd', { 'x-token': token }, '', 400],
    ['oversized body', '/user/login', { 'content-type': 'application/json' }, JSON.stringify({ username: 'a', password: 'x'.repeat(1024 * 1024 + 10) }), 413],
  ];
  for (const [label, path, headers, payload, status] of cases) {
    const r = await inject('POST', API + path, { headers: { ...headers, 'x-lang': 'en-US' }, payload });
    assert.equal(r.status, status, `${label}: ${r.body.slice(0, 120)}`);
    assert.match(r.type, /application\/json/, label);
    const env = r.json();
    assert.equal(env.code, CODES.VALIDATION, label);
    const want = status === 413 ? 'errors.bodyTooLarge' : 'errors.badRequest';
    assert.equal(env.message, tr('en-US', want), `${label}: ${env.message}`);
  }
  // The message follows X-Lang here too.
  const zh = await inject('POST', `${API}/user/login`, { headers: { 'content-type': 'application/json', 'x-lang': 'ja' }, payload: '{' });
  assert.equal(zh.json().message, tr('ja', 'errors.badRequest'));
  // And the server is still fine afterwards.
  assert.equal((await inject('GET', `${API}/system/config`)).json().code, CODES.OK);
});

test('the document says which operations need no X-Token: exactly the public ones', async () => {
  const doc = JSON.parse((await inject('GET', '/api/docs/json')).body) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
  const open: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops))
      if (Array.isArray(op.security) && op.security.length === 0) open.push(`${method.toUpperCase()} ${path.slice(API.length)}`);
  for (const route of ['GET /system/config', 'GET /user/captcha', 'POST /user/login', 'POST /admin/register'])
    assert.ok(open.includes(route), `${route} is public`);
  // And each of them really answers without a token; every other documented operation refuses one.
  for (const route of open) {
    const [method, path] = route.split(' ') as ['GET' | 'POST', string];
    const r = await inject(method, API + path, { headers: { 'content-type': 'application/json' }, payload: method === 'POST' ? '{}' : undefined });
    assert.notEqual(r.json().code, CODES.ILLEGAL_TOKEN, route);
  }
  const closed = await inject('GET', `${API}/person/list`);
  assert.equal(closed.json().code, CODES.ILLEGAL_TOKEN);
  assert.ok(!open.includes('GET /person/list'));
});
