import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { apiContract, CODES, requestSchema, type Endpoint } from '@faceadmin/shared';
import fc from 'fast-check';
import { t as tr } from '../src/i18n/i18n.ts';
import { validOf, type Schema } from './arbitrary.ts';
import { personSessionWithFace } from './files.ts';
import { API, call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from './helpers.ts';

/** The request policy (#9 items 1–3, 5), route by route: what the contract test checks by sampling, here for every route. */
let t: TestApp;
let A: Company;
/** The self-service routes run as a person (X-Person-Token). */
let personToken = '';
before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Requests Co');
  personToken = await personSessionWithFace(t, A, { name: 'Self Person' });
});
after(() => t.close());

const entries = Object.values(apiContract).flatMap((group) => Object.values(group) as Endpoint[]);
const writes = entries.filter((e) => e.method === 'POST' && e.body && !e.multipart);
/** Columns the server owns: a client never names them in a body (an update names its target `id`, nothing more). */
const SERVER_OWNED = [
  'company_id',
  'created_at',
  'updated_at',
  'user_count',
  'clock_drift',
  'last_seen_at',
  'online',
  'sync_status',
  'requests',
  'state',
  'sync',
];

/** Bodies that name such a column to pick rows by (a filter, the company to switch to), never to write it. */
const TARGETS: Record<string, string[]> = {
  '/admin/setDefaultCompany': ['company_id'],
  '/person/exportPerson': ['sync_status'],
  '/punch/export': ['state'],
  // spec §7: the company whose link the administrator removes
  '/person/unbind': ['company_id'],
  // which of the companies the phone belongs to a person signs in to
  '/self/login': ['company_id'],
};

test('every write route refuses an unknown key and names it; no body schema names a server-owned column', async () => {
  for (const e of writes) {
    const schema = requestSchema(e.body!) as unknown as Schema;
    for (const col of SERVER_OWNED) if (!TARGETS[e.path]?.includes(col)) assert.ok(!(col in (schema.properties ?? {})), `${e.path} takes ${col}`);
    if (schema.type !== 'object') continue;
    const body = { ...(fc.sample(validOf(schema), { numRuns: 1, seed: 7 })[0] as object), zzz: 1 };
    const r = await call(t.app, 'POST', e.path, { token: A.main, personToken, body, lang: 'en-US' });
    assert.equal(r.status, 400, `${e.path}: ${r.status} ${r.message}`);
    assert.equal(r.code, CODES.VALIDATION, e.path);
    assert.deepEqual(r.data, { field: 'zzz' }, e.path);
  }
});

test(`a device created with server-owned fields is refused and nothing is stored (${DIALECT})`, async () => {
  const good = { name: 'Front', serial: 'OWNED0001', ip: '10.0.0.9', password: 'pw' };
  for (const [key, value] of Object.entries({ id: 999, user_count: 5000, clock_drift: 77, company_id: 1, created_at: '2000-01-01', zzz: 'x' })) {
    const r = await call(t.app, 'POST', '/device/create', { token: A.main, body: { ...good, [key]: value }, lang: 'en-US' });
    assert.equal(r.code, CODES.VALIDATION, key);
    assert.deepEqual(r.data, { field: key });
    assert.ok(r.message.endsWith(tr('en-US', 'reasons.additionalProperties')), r.message);
  }
  const list = await call(t.app, 'GET', '/device/list', { token: A.main });
  assert.equal(list.data.total, 0);
  const ok = await call(t.app, 'POST', '/device/create', { token: A.main, body: good });
  assert.equal(ok.code, CODES.OK);
  assert.equal(ok.data.user_count, 0);
  assert.equal(ok.data.clock_drift, 0);
});

test('page and page size are bounded on every list: a huge page is a 400 naming the field, never a 500', async () => {
  const lists = entries.filter((e) => e.method === 'GET' && e.query && 'page' in ((requestSchema(e.query) as unknown as Schema).properties ?? {}));
  assert.ok(lists.length >= 5, `${lists.length} lists`);
  for (const e of lists) {
    for (const [key, value] of [
      ['page', '99999999999999999999'],
      ['page', '0'],
      ['pageSize', '100000'],
    ]) {
      // The list's other required filters (a date, …) get valid values, so the page is what is refused.
      const schema = requestSchema(e.query!) as unknown as Schema;
      const required = Object.fromEntries(
        (schema.required ?? []).map((k) => [k, String(fc.sample(validOf(schema.properties![k]!), { numRuns: 1, seed: 3 })[0])]),
      );
      const r = await call(t.app, 'GET', e.path, { token: A.main, personToken, query: { ...required, [key!]: value! } });
      assert.equal(r.status, 400, `${e.path}?${key}=${value}: ${r.status} ${r.message}`);
      assert.deepEqual(r.data, { field: key }, e.path);
    }
  }
});

test('NUL, escape and bidi-override characters are refused in every kind of text field; RTL marks and line breaks where allowed are kept', async () => {
  for (const bad of ['Ann\u0000', 'gnp\u202eexe', 'A\u001b[31m', 'x\u2066y', 'two\nlines']) {
    const r = await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: bad, parent_id: 0 }, lang: 'en-US' });
    assert.equal(r.code, CODES.VALIDATION, JSON.stringify(bad));
    assert.equal(r.message, tr('en-US', 'errors.validation', { field: tr('en-US', 'fields.name'), reason: tr('en-US', 'reasons.textChars') }));
  }
  const blank = await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: '   ', parent_id: 0 }, lang: 'en-US' });
  assert.equal(blank.message, tr('en-US', 'errors.validation', { field: tr('en-US', 'fields.name'), reason: tr('en-US', 'reasons.required') }));
  // Hebrew with a right-to-left mark is a name like any other.
  const hebrew = await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'מחלקה\u200f 2', parent_id: 0 } });
  assert.equal(hebrew.code, CODES.OK, hebrew.message);
  // A keyword is text too: %00 no longer matches everyone.
  for (const path of ['/person/list', '/device/list', '/log/list', '/manager/list']) {
    const r = await call(t.app, 'GET', path, { token: A.main, query: { keyword: '\u0000' } });
    assert.equal(r.code, CODES.VALIDATION, path);
  }
});

test('errors Fastify raises itself answer in the envelope, translated: 414, 405, 415, 413, 404', async () => {
  const cases: { method: string; url: string; status: number; key: string; headers?: Record<string, string>; payload?: string }[] = [
    { method: 'GET', url: `${API}/person/pic/${'9'.repeat(600)}`, status: 414, key: 'errors.uriTooLong' },
    { method: 'PUT', url: `${API}/person/list`, status: 405, key: 'errors.methodNotAllowed' },
    { method: 'DELETE', url: `${API}/person/create`, status: 405, key: 'errors.methodNotAllowed' },
    { method: 'GET', url: `${API}/user/login`, status: 405, key: 'errors.methodNotAllowed' },
    { method: 'POST', url: `${API}/user/login`, status: 415, key: 'errors.badRequest', headers: { 'content-type': 'application/xml' }, payload: '<a/>' },
    {
      method: 'POST',
      url: `${API}/user/login`,
      status: 413,
      key: 'errors.bodyTooLarge',
      headers: { 'content-type': 'application/json' },
      payload: `{"username":"${'x'.repeat(1_100_000)}"}`,
    },
    { method: 'GET', url: `${API}/no/such`, status: 404, key: 'errors.routeNotFound' },
  ];
  for (const lang of ['en-US', 'ja'] as const) {
    for (const c of cases) {
      const res = await t.app.inject({
        method: c.method as 'GET',
        url: c.url,
        headers: { 'x-lang': lang, ...c.headers },
        ...(c.payload ? { payload: c.payload } : {}),
      });
      const label = `${c.method} ${c.url.slice(0, 60)}`;
      assert.equal(res.statusCode, c.status, `${label}: ${res.body.slice(0, 100)}`);
      const env = res.json<{ code: unknown; message: string; data: unknown }>();
      assert.equal(typeof env.code, 'number', label);
      assert.equal(env.data, null, label);
      const path = c.url.split('?')[0]!;
      assert.equal(env.message, tr(lang, c.key, { method: c.method, url: path, allowed: String(res.headers.allow ?? '') }), label);
      if (c.status === 405) assert.match(String(res.headers.allow), /GET|POST/, label);
    }
  }
});
