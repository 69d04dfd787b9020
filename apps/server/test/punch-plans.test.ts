import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { CODES } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from './helpers.ts';
import { healthRepository } from '../src/modules/punches/health.repository.ts';
import { plainPunch, punchesRepository, punchWriter } from '../src/modules/punches/punches.repository.ts';
import { strangersRepository } from '../src/modules/strangers/strangers.repository.ts';

/**
 * #32 item 3: every list route's filters find punches through an index, never by reading the table through. The
 * routes are called with each filter; every statement they send that reads `punches` is explained with sequential
 * scans priced out (`enable_seqscan = off`: the planner then reads a table through only when no index can serve
 * the statement), and no plan may read `punches` through: no sequential scan, and no index scan without a condition
 * on the index (walking an index end to end reads every punch as well). PostgreSQL only: the big tenant's database,
 * whose JSON plans name each node's table (SQLite's plans name aliases).
 */
let t: TestApp;
let A: Company;
let device: number;
let person: number;
const seen: { text: string; values: unknown[]; route: string }[] = [];
let route = '';
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}
const original = pg.Client.prototype.query;

before(async () => {
  if (DIALECT !== 'postgres') return;
  t = await makeApp();
  await t.app.jobs.stop();
  A = await makeCompany(t, 'Plans');
  device = (await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Gate', serial: 'PLANS001', ip: '10.0.0.7', password: 'pw' } })).data.id;
  person = (
    await t.app.database.db
      .insertInto('persons')
      .values({
        company_id: A.id,
        number: 'P1',
        name: 'Plan Person',
        search: 'plan person p1',
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const rows = ['2026-11-16 08:55:00', '2026-11-16 18:05:00', '2026-11-17 09:10:00'].map((local) =>
    plainPunch({ companyId: A.id, deviceId: device, personId: person, pin: 'P1', local, zone: 'Asia/Shanghai' }),
  );
  await t.app.database.db.transaction().execute((trx) => punchWriter().insertIgnore(trx, rows));
  const rule = await call(t.app, 'POST', '/attendance/rule/create', {
    token: A.main,
    body: {
      name: 'Office',
      mode: 'fixed',
      shifts: [{ key: 'd', name: 'Day', start: '09:00', end: '18:00' }],
      weekdays: { 0: [], 1: ['d'], 2: ['d'], 3: ['d'], 4: ['d'], 5: ['d'], 6: [] },
      person_ids: [person],
      department_ids: [],
    },
  });
  assert.equal(rule.code, CODES.OK, rule.message);
  await t.app.modules.attendance.recompute.person(A.id, person, '2026-11-16', '2026-11-17');
  // Every statement this process sends from now on is noted (with the route that sent it) when it reads punches.
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config, values] = args as [string | { text?: string; values?: unknown[] }, unknown[] | undefined];
    const text = typeof config === 'string' ? config : config?.text;
    if (route && typeof text === 'string' && /^\s*(with|select)\b/i.test(text) && /\bpunches\b/.test(text))
      seen.push({ text, values: (typeof config === 'string' ? values : config.values) ?? [], route });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
});
after(async () => {
  pg.Client.prototype.query = original;
  await t?.close();
});

test(`the list routes read punches through an index under every filter (${DIALECT})`, { skip: DIALECT !== 'postgres' && 'PostgreSQL plans only' }, async () => {
  const range = { from: '2026-11-01', to: '2026-11-30' };
  const calls: [string, Record<string, unknown>][] = [
    ['/attendance/list', {}],
    ['/attendance/list', range],
    ['/attendance/list', { device_id: device }],
    ['/attendance/list', { person_id: person }],
    ['/attendance/list', { stranger: 1 }],
    ['/attendance/list', { stranger: 0, ...range }],
    ['/attendance/list', { keyword: 'plan', ...range }],
    ['/stranger/list', {}],
    ['/stranger/list', { device_id: device, ...range }],
    ['/attendance/health/list', range],
    ['/attendance/health/list', { color: 'green' }],
    ['/attendance/alcohol/list', { over: 1, ...range }],
    ['/visitor/log', range],
    ['/dashboard/summary', {}],
    ['/dashboard/attendance', {}],
    ['/dashboard/flow', {}],
    ['/dashboard/recognitions', {}],
    ['/dormitory/status', {}],
    ['/attendance/day/info', { person_id: person, date: '2026-11-16' }],
    ['/attendance/report/person', { person_id: person, month: '2026-11' }],
  ];
  for (const [path, query] of calls) {
    route = `${path} ${JSON.stringify(query)}`;
    const r = await call(t.app, 'GET', path, { token: A.main, query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
    assert.equal(r.code, CODES.OK, `${route}: ${r.message}`);
  }
  // the exports, which read a batch at a time after the last row of the batch before
  const exports: [string, Record<string, unknown>][] = [
    ['/attendance/export', range],
    ['/attendance/export', { device_id: device }],
    ['/stranger/export', range],
    ['/attendance/health/export', range],
    ['/attendance/alcohol/export', range],
  ];
  for (const [path, body] of exports) {
    route = `${path} ${JSON.stringify(body)}`;
    const r = await t.app.inject({ method: 'POST', url: `/api/management${path}`, headers: { 'x-token': A.main }, payload: body });
    assert.equal(r.statusCode, 200, `${route}: ${r.body.slice(0, 200)}`);
  }
  // their later batches (these few punches make one): after a row
  const before = { time: '2026-11-16T10:00:00.000Z', id: 1_000_000 };
  const window = { from: '2026-11-01T00:00:00.000Z', to: '2026-12-01T00:00:00.000Z' };
  route = 'a later batch of the punch export';
  await punchesRepository.list(t.app.database.db, A.id, { ...window, before, offset: 0, limit: 1000 }, false);
  await punchesRepository.list(t.app.database.db, A.id, { deviceId: device, before, offset: 0, limit: 1000 }, false);
  route = 'a later batch of the stranger export';
  await strangersRepository.list(t.app.database.db, A.id, { ...window, before, offset: 0, limit: 1000 }, false);
  route = 'a later batch of the alcohol export';
  await healthRepository.alcohol(t.app.database.db, A.id, { ...window, before, offset: 0, limit: 1000 }, false);
  route = '';
  // Each filter of the punch list sends its own statements: far more than one per route.
  assert.ok(seen.length >= calls.length, `${seen.length} statements read punches`);

  const client = await t.app.database.pgPool!.connect();
  const scans: string[] = [];
  try {
    await client.query('begin');
    await client.query('set local enable_seqscan = off');
    const indexes = new Set(
      (await client.query<{ indexname: string }>(`select indexname from pg_indexes where tablename = 'punches'`)).rows.map((r) => r.indexname),
    );
    assert.ok(indexes.size >= 3, [...indexes].join(', '));
    for (const s of seen) {
      const plan = (await client.query(`explain (format json) ${s.text}`, s.values)).rows[0]['QUERY PLAN'][0].Plan;
      const walk = (node: PlanNode): void => {
        // A scan of punches is read through an index only with a condition on it: an index walked end to end (what the
        // planner does when it may not scan the table) reads every punch too.
        const onPunches = node['Relation Name'] === 'punches' || (node['Index Name'] !== undefined && indexes.has(node['Index Name']));
        if (onPunches && (node['Node Type'] === 'Seq Scan' || (node['Node Type'].includes('Index') && !node['Index Cond'])))
          scans.push(`${s.route}: ${node['Node Type']} ${node['Index Name'] ?? ''} for ${s.text.slice(0, 160)}`);
        for (const child of node.Plans ?? []) walk(child);
      };
      walk(plan);
    }
  } finally {
    await client.query('rollback');
    client.release();
  }
  assert.deepEqual(scans, [], 'statements that read punches through a sequential scan');
});
