import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { CODES, type ApiKeyCreated, type ChangeItem, type ChangesPage, type WebhookSecret } from '@faceadmin/shared';
import { recordChanges } from '../../db/changes.ts';
import { transaction } from '../../db/transaction.ts';
import { clock } from '../../lib/time.ts';
import { API, call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { addPersonWithFace } from '../../../test/files.ts';
import { listen, stopTerminals, terminal, until } from '../../../test/terminals.ts';

/**
 * What an integrator's receiver ends up with (issue #28): every stored punch once, whatever its age, in each
 * terminal's order, after the terminal and the receiver were both away; and the changes feed it reconciles from.
 */
let t: TestApp;
let server: string;
let A: Company;
let B: Company;
let dept: number;
let deviceId: number;

/** The integrator's receiver: keeps what it accepted (a 2xx), answers 503 while `down`, and may lose one on purpose. */
interface Accepted {
  event: string;
  body: { id: string; type: string; data: Record<string, any> };
}
const accepted: Accepted[] = [];
let down = false;
let loseNext = false;
let receiver: http.Server;
let receiverUrl = '';

const realNow = clock.now;
const HOUR = 3600_000;
/** `YYYY-MM-DD hh:mm:ss` on the terminal's clock (UTC+8) */
const local = (ms: number) => new Date(Math.floor(ms / 1000) * 1000 + 8 * HOUR).toISOString().slice(0, 19).replace('T', ' ');

before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1', OUTBOUND_ALLOW: '127.0.0.0/8' });
  server = await listen(t);
  A = await makeCompany(t, 'Integrator A');
  B = await makeCompany(t, 'Integrator B');
  for (const c of [A, B]) {
    const r = await call(t.app, 'POST', '/company/update', { token: c.main, body: { name: 'Integrator Co', phone: '010-1', options: { thirdParty: 1 } } });
    assert.equal(r.code, CODES.OK, r.message);
  }
  dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Plant' } })).data.id;
  for (const n of ['501', '502', '503']) await addPersonWithFace(t, A, { name: `Worker ${n}`, number: n, organizations: [dept] });
  const d = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Plant gate', serial: 'INTG001', ip: '10.0.0.9', password: 'pw', attendance_scope: 'all' },
  });
  assert.equal(d.code, CODES.OK, d.message);
  deviceId = d.data.id;
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (down) return void res.writeHead(503).end('down for maintenance');
      if (loseNext) loseNext = false;
      else accepted.push({ event: String(req.headers['x-faceadmin-event']), body: JSON.parse(body) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/punches`;
});
after(async () => {
  clock.now = realNow;
  await stopTerminals();
  receiver.close();
  await t.close();
});

/** Runs the delivery job, moving the clock past retry waits, until `done` holds. */
async function deliverUntil(done: () => boolean | Promise<boolean>, what: string) {
  let skip = 0;
  try {
    for (let i = 0; i < 400; i++) {
      await t.app.jobs.runNow('webhooks.deliver');
      await t.app.modules.integrations.webhooks.idle();
      if (await done()) return;
      // a failed attempt waits 10 s, 20 s … before the next: time is moved on instead of waited for
      skip += 60_000;
      clock.now = () => realNow() + skip;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.fail(`never happened: ${what}`);
  } finally {
    clock.now = realNow;
  }
}

const storedPunches = () =>
  t.app.database.db.selectFrom('punches').select(['id', 'local_time', 'time', 'created_at']).where('device_id', '=', deviceId).orderBy('id').execute();

const changes = async (token: string, cursor?: string, limit = 7) => {
  const r = await call<ChangesPage>(t.app, 'GET', '/integration/changes', { token, query: { ...(cursor ? { cursor } : {}), limit } });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data;
};
/** Every change after `cursor`, page by page, as an integrator reads them. */
async function allChanges(read: (cursor?: string) => Promise<ChangesPage>, cursor?: string) {
  const items: ChangeItem[] = [];
  for (let page = 0; page < 1000; page++) {
    const p = await read(cursor);
    items.push(...p.items);
    cursor = p.cursor;
    if (!p.more) return { items, cursor };
  }
  throw new Error('the feed never ended');
}

test(`a receiver that was down while a terminal was offline for an hour ends with every punch exactly once, in the terminal's order, late ones flagged; a dropped one is reconciled from the changes feed (${DIALECT})`, async () => {
  const ep = await call<WebhookSecret>(t.app, 'POST', '/integration/webhook/create', {
    token: A.main,
    body: { name: 'Payroll', url: receiverUrl, events: ['punch', 'stranger'] },
  });
  assert.equal(ep.code, CODES.OK, ep.message);
  const feedStart = (await allChanges((c) => changes(A.main, c))).cursor;

  const term = terminal(server, 'INTG001');
  await term.start();
  await until('the terminal online', async () => (await call(t.app, 'GET', '/device/info', { token: A.main, query: { id: deviceId } })).data.online);
  // The receiver goes down, then the terminal loses its network for an hour: people keep passing.
  down = true;
  await term.stop();
  const now = Date.now();
  const offline = Array.from({ length: 12 }, (_, i) => ({ pin: ['501', '502', '503'][i % 3]!, time: local(now - HOUR + i * 4 * 60_000) }));
  await term.punchBatch(offline);
  await term.start();
  // back: it uploads the hour it kept; then 30 people pass at once (one upload of 30, all fresh)
  await until('the backlog stored', async () => (await storedPunches()).length === 12, 20_000);
  const fresh = Array.from({ length: 30 }, (_, i) => ({ pin: ['501', '502', '503'][i % 3]!, time: local(now - 40_000 + i * 1000) }));
  assert.match((await term.punchBatch(fresh)).reply ?? '', /^OK/);
  const stored = await storedPunches();
  assert.equal(stored.length, 42);
  // a retried upload stores and announces nothing
  await term.replay(2);
  assert.equal((await storedPunches()).length, 42);

  // The receiver comes back: every punch arrives once (the refused attempts while it was down are not "received").
  await deliverUntil(() => {
    down = false;
    return accepted.length >= 42;
  }, 'every punch delivered');
  await deliverUntil(async () => true, 'nothing more');
  const punches = accepted.filter((a) => a.event === 'punch');
  assert.equal(punches.length, 42, 'one delivery per stored punch, no more (the live screens take 20 of an upload; integrators every one)');
  assert.deepEqual(
    punches.map((p) => p.body.data.id).sort((a, b) => a - b),
    stored.map((s) => s.id),
    'exactly the stored punches',
  );
  assert.equal(new Set(punches.map((p) => p.body.id)).size, 42, 'each its own event');
  // in the terminal's order: by its clock
  const times = punches.map((p) => `${p.body.data.day} ${p.body.data.time}`);
  assert.deepEqual(times, [...times].sort(), "the terminal's order");
  const byId = new Map(punches.map((p) => [p.body.data.id as number, p.body.data]));
  for (const s of stored) {
    const d = byId.get(s.id)!;
    assert.equal(d.received_at, s.created_at);
    assert.equal(d.utc, s.time);
    assert.equal(d.late, Date.parse(s.created_at) - Date.parse(s.time) > 10 * 60_000, `${s.local_time} late flag`);
    assert.equal(d.visitor, null);
  }
  assert.equal(punches.filter((p) => p.body.data.late).length, 12, 'the backlog (16 to 60 minutes old) is flagged late, the fresh upload not');

  // One more punch, lost by the receiver (it answered 200 but never kept it): the changes feed has it.
  loseNext = true;
  const one = local(Date.now());
  assert.match((await term.punch({ pin: '502', time: one })).reply ?? '', /^OK/);
  await deliverUntil(() => !loseNext, 'the lost delivery');
  const key = await call<ApiKeyCreated>(t.app, 'POST', '/integration/key/create', { token: A.main, body: { name: 'Reconciler', scopes: ['punches:read'] } });
  const withKey = async (cursor?: string) => {
    const r = await t.app.inject({
      method: 'GET',
      url: `${API}/integration/changes`,
      headers: { 'x-api-key': key.data.key },
      query: { ...(cursor ? { cursor } : {}), limit: '5' },
    });
    const env = r.json<{ code: number; message: string; data: ChangesPage }>();
    assert.equal(env.code, CODES.OK, env.message);
    return env.data;
  };
  const feed = await allChanges(withKey, feedStart);
  const feedPunches = feed.items.filter((i) => i.kind === 'punch');
  assert.equal(feedPunches.length, 43, 'every stored punch once in the feed');
  assert.ok(
    feed.items.every((i) => i.kind === 'punch'),
    'a punches:read key sees punches only',
  );
  const seen = new Set(accepted.map((a) => a.body.data.id));
  const missing = feedPunches.filter((i) => !seen.has(i.id));
  assert.equal(missing.length, 1);
  assert.equal(`${missing[0]!.punch!.day} ${missing[0]!.punch!.time}`, one);
  assert.equal(missing[0]!.punch!.number, '502');
  // the cursors rise, and reading on from the end brings nothing new
  const seqs = feed.items.map((i) => Number(i.seq));
  assert.deepEqual(
    seqs,
    [...seqs].sort((a, b) => a - b),
  );
  assert.equal((await withKey(feed.cursor)).items.length, 0);
});

test(`the changes feed lists people changes too, is confined to the company, its main administrators and the keys' scopes, and checks its cursor (${DIALECT})`, async () => {
  const start = (await allChanges((c) => changes(A.main, c))).cursor;
  const id = await addPersonWithFace(t, A, { name: 'New Hire', number: '504', organizations: [dept] });
  assert.equal((await call(t.app, 'POST', '/person/delete', { token: A.main, body: { id } })).code, CODES.OK);
  const after = (await allChanges((c) => changes(A.main, c), start)).items.filter((i) => i.kind === 'person');
  assert.deepEqual(
    after.map((i) => [i.id, i.deleted]),
    [
      [id, true],
      [id, true],
    ],
    'the person, created then deleted: both changes, each as it is now',
  );

  // another company sees none of A's changes; a sub-administrator is refused; keys see what their scopes open
  assert.equal((await allChanges((c) => changes(B.main, c))).items.length, 0);
  const sub = await makeSub(t, A, ['all']);
  assert.equal((await call(t.app, 'GET', '/integration/changes', { token: sub.token })).code, CODES.NO_AUTHORITY);
  const people = await call<ApiKeyCreated>(t.app, 'POST', '/integration/key/create', { token: A.main, body: { name: 'HR sync', scopes: ['people:read'] } });
  const approvals = await call<ApiKeyCreated>(t.app, 'POST', '/integration/key/create', {
    token: A.main,
    body: { name: 'Approvals', scopes: ['approvals:read'] },
  });
  const byKey = (key: string, query: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `${API}/integration/changes`, headers: { 'x-api-key': key, 'x-lang': 'en-US' }, query });
  const peopleOnly = (await byKey(people.data.key, { cursor: start })).json<{ data: ChangesPage }>().data;
  assert.ok(peopleOnly.items.length >= 2 && peopleOnly.items.every((i) => i.kind === 'person'));
  const refused = (await byKey(approvals.data.key)).json<{ code: number }>();
  assert.equal(refused.code, CODES.NO_AUTHORITY, 'a key with none of the scopes the feed serves');
  for (const cursor of ['abc', '-1', '1.5', '9'.repeat(16)]) {
    const r = await call(t.app, 'GET', '/integration/changes', { token: A.main, query: { cursor }, lang: 'en-US' });
    assert.equal(r.code, CODES.VALIDATION, cursor);
    assert.equal(r.data.field, 'cursor');
  }
});

// On SQLite writers take turns on one connection (a reader waits for the writer too): the promise holds trivially there.
test(
  'a cursor never passes a change that commits later: numbers are drawn at the commit, in commit order (postgres)',
  { skip: DIALECT !== 'postgres' },
  async () => {
    const { db } = t.app.database;
    const start = (await allChanges((c) => changes(A.main, c))).cursor;
    const person = (await db.selectFrom('persons').select('id').where('company_id', '=', A.id).where('number', '=', '501').executeTakeFirstOrThrow()).id;
    let releaseFirst!: () => void;
    const held = new Promise<void>((r) => (releaseFirst = r));
    let firstNamed!: () => void;
    const named = new Promise<void>((r) => (firstNamed = r));
    // The first writer names its change early and commits late; a second writer names its own and commits meanwhile.
    const first = transaction(db, async (trx) => {
      await recordChanges(trx, A.id, 'person', [{ ref: person }]);
      firstNamed();
      await held;
    });
    await named;
    await transaction(db, (trx) => recordChanges(trx, A.id, 'day', [{ ref: person, date: '2026-11-02' }]));
    const midway = (await allChanges((c) => changes(A.main, c), start)).items;
    releaseFirst();
    await first;
    const done = (await allChanges((c) => changes(A.main, c), start)).items;
    assert.deepEqual(
      done.map((i) => i.kind),
      ['day', 'person'],
      'numbered in commit order',
    );
    // What a reader saw midway is where it stands: every change after its cursor comes later, none below it.
    assert.deepEqual(
      midway.map((i) => i.seq),
      done.slice(0, midway.length).map((i) => i.seq),
    );
    assert.equal(midway.length, 1);
  },
);
