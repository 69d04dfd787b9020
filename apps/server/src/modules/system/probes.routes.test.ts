import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { addPersonWithFace } from '../../../test/files.ts';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let A: Company;
before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Probe Co', 'probeowner');
});
after(() => t.close());

const get = (url: string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') => t.app.inject({ method: 'GET', url, headers, remoteAddress });

test(`/healthz answers while the process serves, without a session (${DIALECT})`, async () => {
  const r = await get('/healthz', {}, '203.0.113.9');
  assert.equal(r.statusCode, 200);
  assert.deepEqual(r.json(), { status: 'ok' });
  assert.equal(r.headers['cache-control'], 'no-store');
});

test('/readyz is 200 with every check ok, and 503 naming the check that failed', async () => {
  const ok = await get('/readyz', {}, '203.0.113.9');
  assert.equal(ok.statusCode, 200, ok.body);
  assert.deepEqual(ok.json(), {
    status: 'ok',
    checks: { database: 'ok', migrations: 'ok', broker: 'ok', jobs: 'ok' },
    failed: [],
    // One instance (the test's only one on its database) holds the dialling role; no external broker, no subscription.
    roles: { 'isapi.dialling': true },
    bus: { listening: true, reconnects: 0 },
  });

  // A migration this build knows but the database has not run: not ready (another instance mid-upgrade).
  const db = t.app.database.db;
  const row = await db
    .selectFrom('kysely_migration' as any)
    .select(['name', 'timestamp'] as any)
    .where('name' as any, '=', '0033_firmware')
    .executeTakeFirstOrThrow();
  await db
    .deleteFrom('kysely_migration' as any)
    .where('name' as any, '=', '0033_firmware')
    .execute();
  try {
    const r = await get('/readyz');
    assert.equal(r.statusCode, 503);
    const body = r.json();
    assert.equal(body.status, 'unavailable');
    assert.deepEqual(body.failed, ['migrations']);
    assert.equal(body.checks.database, 'ok');
  } finally {
    await db
      .insertInto('kysely_migration' as any)
      .values(row as any)
      .execute();
  }
  assert.equal((await get('/readyz')).statusCode, 200);
});

test('/readyz fails the jobs check once the scheduler stops, and nothing in it names a secret', async () => {
  const t2 = await makeApp({ METRICS_TOKEN: 'a-long-metrics-token-0123' });
  try {
    await t2.app.jobs.stop();
    const r = await t2.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(r.statusCode, 503);
    assert.deepEqual(r.json().failed, ['jobs']);
    assert.ok(!r.body.includes('metrics-token') && !r.body.includes('postgres://'), r.body);
    // The breakers' broker gone as well: both named.
    await t2.app.mqtt.close();
    assert.deepEqual((await t2.app.inject({ method: 'GET', url: '/readyz' })).json().failed, ['broker', 'jobs']);
  } finally {
    await t2.close();
  }
});

test('the probes are not part of the management API: no envelope, no session, no rate limit', async () => {
  for (let i = 0; i < 40; i++) assert.equal((await get('/healthz', {}, '203.0.113.10')).statusCode, 200);
  const api = await call(t.app, 'GET', '/healthz');
  assert.equal(api.code, CODES.NOT_FOUND, 'not under /api/management');
});

test('/metrics without METRICS_TOKEN: loopback only, and never a request a proxy forwarded', async () => {
  const local = await get('/metrics');
  assert.equal(local.statusCode, 200, local.body);
  assert.match(local.headers['content-type'] as string, /^text\/plain/);
  assert.equal((await get('/metrics', {}, '203.0.113.9')).statusCode, 403);
  assert.equal((await get('/metrics', {}, '::ffff:127.0.0.1')).statusCode, 200);
  // nginx on the same host connects from loopback: what it forwards carries X-Forwarded-For and is refused.
  assert.equal((await get('/metrics', { 'x-forwarded-for': '198.51.100.7' })).statusCode, 403);
  assert.equal((await get('/metrics', { forwarded: 'for=198.51.100.7' })).statusCode, 403);
});

test('/metrics with METRICS_TOKEN: the bearer from anywhere, nothing else', async () => {
  const t2 = await makeApp({ METRICS_TOKEN: 'a-long-metrics-token-0123' });
  try {
    const scrape = (headers: Record<string, string>, remoteAddress: string) => t2.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });
    assert.equal((await scrape({}, '127.0.0.1')).statusCode, 401, 'the token is needed even from loopback');
    assert.equal((await scrape({ authorization: 'Bearer wrong-token-wrong-token' }, '203.0.113.9')).statusCode, 401);
    assert.equal((await scrape({ authorization: 'Bearer a-long-metrics-token-012' }, '203.0.113.9')).statusCode, 401);
    const ok = await scrape({ authorization: 'Bearer a-long-metrics-token-0123', 'x-forwarded-for': '198.51.100.7' }, '203.0.113.9');
    assert.equal(ok.statusCode, 200);
    assert.match(ok.body, /faceadmin_ready 1/);
  } finally {
    await t2.close();
  }
});

/** One sample's value from the exposition text. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

test('/metrics counts requests by route pattern, punches by protocol, and reads the queues and presence on scrape', async () => {
  // Requests: the route's pattern labels them, not the URL.
  for (const id of [101, 102, 103]) await call(t.app, 'GET', `/person/pic/${id}`, { token: A.main });
  const dev = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Gate', serial: 'MET0001', ip: '10.0.0.1', password: 'pw', attendance_scope: 'all' },
  });
  assert.equal(dev.code, CODES.OK, dev.message);
  await addPersonWithFace(t, A, { number: '901', name: 'Metric Person', department: 'Office' });
  const batch = await t.app.inject({
    method: 'POST',
    url: '/iclock/cdata?SN=MET0001&table=ATTLOG',
    headers: { 'content-type': 'text/plain' },
    payload: '901\t2026-03-02 08:01:00\t0\t1\t0\t0\n902\t2026-03-02 08:02:00\t0\t1\t0\t0',
  });
  assert.equal(batch.body, 'OK: 2');

  const text = (await get('/metrics')).body;
  const pattern = '/api/management/person/pic/:id';
  assert.ok((sample(text, 'faceadmin_http_request_duration_seconds_count', { method: 'GET', route: pattern }) ?? 0) >= 3, 'by pattern');
  assert.ok(!text.includes('/person/pic/101'), 'raw URLs never become labels');
  assert.equal(sample(text, 'faceadmin_punches_ingested_total', { protocol: 'zk-push' }), 2);
  assert.equal(sample(text, 'faceadmin_terminals', { protocol: 'zk-push', online: '1' }), 1, 'the terminal that just uploaded is online');
  assert.ok((sample(text, 'faceadmin_sync_queue_depth', { state: 'pending' }) ?? 0) >= 1, 'the new person waits for the terminal');
  assert.ok(sample(text, 'faceadmin_recalc_queue_depth') !== undefined);
  assert.ok(sample(text, 'faceadmin_recalc_queue_lag_seconds') !== undefined);
  assert.equal(sample(text, 'faceadmin_live_streams'), 0);
  assert.equal(sample(text, 'faceadmin_ready'), 1);
  assert.equal(sample(text, 'faceadmin_role_held', { role: 'isapi.dialling' }), 1, 'the roles this instance holds');
  assert.equal(sample(text, 'faceadmin_bus_listening'), 1);
  assert.equal(sample(text, 'faceadmin_bus_reconnects_total'), 0);
  assert.ok(text.includes('faceadmin_job_runs_total{name='), 'job runs by name');
  assert.ok(text.includes('faceadmin_job_failures_total{name='), 'job failures by name');
  // Nothing of a company in the figures.
  assert.ok(!text.includes('Probe Co') && !text.includes('Metric Person') && !text.includes('MET0001'));
});

test('probes are not logged per request at info; an API request still is', async () => {
  const lines: Record<string, any>[] = [];
  const t2 = await makeApp({}, { logger: { level: 'info', stream: { write: (s: string) => void lines.push(JSON.parse(s)) } } });
  try {
    for (const url of ['/healthz', '/readyz', '/metrics']) assert.ok((await t2.app.inject({ method: 'GET', url })).statusCode < 400, url);
    await call(t2.app, 'GET', '/system/config');
    const urls = lines.map((l) => String(l.url ?? l.req?.url ?? ''));
    assert.ok(!urls.some((u) => /^\/(healthz|readyz|metrics)/.test(u)), urls.join(', '));
    assert.ok(
      urls.some((u) => u.endsWith('/system/config')),
      'the API request is logged',
    );
  } finally {
    await t2.close();
  }
});
