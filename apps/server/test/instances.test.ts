import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { transaction } from '../src/db/transaction.ts';
import { deviceCache } from '../src/modules/devices/devices.repository.ts';
import { EmulatedBreaker } from '../../../tools/breaker-emulator/breaker.ts';
import { createIsapiTerminal, type IsapiTerminal } from '../../../tools/isapi-emulator/terminal.ts';
import { addPersonWithFace, picture } from './files.ts';
import { call, DIALECT, makeApp, makeCompany, makeTwin, type Company, type TestApp } from './helpers.ts';
import { openLive, type LiveClient } from './live-client.ts';
import { listen, stopTerminals, terminal, until } from './terminals.ts';

/**
 * Two instances of the server on one PostgreSQL database, each with its own DATA_DIR, as on two machines behind a
 * load balancer (issue #21): what one instance waits for or keeps in memory is told by the other through the bus
 * (db/bus.ts, LISTEN/NOTIFY).
 */
const pgOnly = DIALECT !== 'postgres' && 'two instances share PostgreSQL only';

let A: TestApp;
let B: TestApp;
let urlA: string;
let urlB: string;
let C: Company;
const lives: LiveClient[] = [];
const breakers: EmulatedBreaker[] = [];
const hiks: IsapiTerminal[] = [];

before(async () => {
  if (DIALECT !== 'postgres') return;
  A = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  B = await makeTwin(A, { DEVICE_POLL_SECONDS: '1' });
  urlA = await listen(A);
  urlB = await listen(B);
  C = await makeCompany(A, 'Two servers Ltd');
});
after(async () => {
  for (const l of lives) l.close();
  for (const b of breakers) await b.kill().catch(() => {});
  for (const h of hiks) await h.stop();
  await stopTerminals();
  await B?.close();
  await A?.close();
});

test('a message sent in a transaction reaches the other instance at its commit, and never when it rolls back', { skip: pgOnly }, async () => {
  const heard: unknown[] = [];
  const off = B.app.bus.on('test.ping', (d, fromSelf) => heard.push({ d, fromSelf }));
  try {
    await transaction(A.app.database.db, async (trx) => {
      await A.app.bus.send(trx, 'test.ping', { n: 1 });
      await new Promise((r) => setTimeout(r, 150));
      assert.deepEqual(heard, [], 'nothing before the commit');
    });
    await until('B hears the commit', () => heard.length === 1);
    assert.deepEqual(heard[0], { d: { n: 1 }, fromSelf: false });
    await assert.rejects(
      transaction(A.app.database.db, async (trx) => {
        await A.app.bus.send(trx, 'test.ping', { n: 2 });
        throw new Error('rolled back');
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(heard.length, 1, 'a rolled-back message is never heard');
    await assert.rejects(A.app.bus.send(A.app.database.db, 'test.ping', 'x'.repeat(9000)), /too large/);
  } finally {
    off();
  }
});

async function gate(serial: string) {
  const d = await call(A.app, 'POST', '/device/create', { token: C.main, body: { name: `Gate ${serial}`, serial, ip: '10.1.1.9', password: 'x' } });
  assert.equal(d.code, CODES.OK, d.message);
  return d.data.id as number;
}

test('a door opened on A reports the terminal’s answer although the terminal polls B', { skip: pgOnly }, async () => {
  const id = await gate('TWINDOOR1');
  const term = terminal(urlB, 'TWINDOOR1');
  await term.start();
  const r = await call(A.app, 'POST', '/device/open', { token: C.main, body: { id }, lang: 'en-US' });
  assert.equal(r.code, CODES.OK, r.message);
  // the answer B took reached A's wait before it ended ("pending" after 15 s otherwise)
  assert.equal(r.data.state, 'success', `not "pending": ${r.data.message}`);
  assert.equal(term.doorOpenCount, 1);
});

test('a punch uploaded to B reaches a console listening on A', { skip: pgOnly }, async () => {
  const live = await openLive(urlA, C.main);
  lives.push(live);
  await addPersonWithFace(A, C, { name: 'Lin Mei', number: '4242', department: 'Hall' });
  const term = terminal(urlB, 'TWINPUNCH1');
  await gate('TWINPUNCH1');
  await term.start();
  const up = await term.punch({ pin: '4242' });
  assert.ok(up.uploaded);
  await live.waitFor('the punch on A', (e) => e.event === 'punch' && e.data.number === '4242');
});

test('the bus comes back after its connection is cut: a result sent meanwhile still reaches the waiting request', { skip: pgOnly }, async () => {
  const id = await gate('TWINCUT1');
  // The terminal is silent while A's listening connection is cut, so its answer comes in during the gap.
  const term = terminal(urlB, 'TWINCUT1');
  const cut = A.app.database.pgPool!.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND datname = current_database() AND pid <> pg_backend_pid()`,
  );
  const open = call(A.app, 'POST', '/device/open', { token: C.main, body: { id }, lang: 'en-US' });
  await cut;
  await term.start();
  const r = await open;
  assert.equal(r.data.state, 'success', `not "pending": ${r.data.message}`);
  assert.equal(term.doorOpenCount, 1);
  await until('A listens again', () => A.app.bus.listening, 5000);
});

test('a device deleted on A is forgotten at once by B, whose cache held it for its terminal', { skip: pgOnly }, async () => {
  const id = await gate('TWINCACHE1');
  const dbB = B.app.database.db;
  // B read the row just now (as for a terminal's poll): without a word from A it would serve it for 2 s.
  assert.ok(await deviceCache.bySerial(dbB, 'TWINCACHE1'));
  assert.ok(deviceCache.holds(dbB, 'TWINCACHE1'));
  const r = await call(A.app, 'POST', '/device/delete', { token: C.main, body: { id } });
  assert.equal(r.code, CODES.OK, r.message);
  await until('B forgot the row', () => !deviceCache.holds(dbB, 'TWINCACHE1'), 1000, 10);
  assert.equal(await deviceCache.bySerial(dbB, 'TWINCACHE1'), undefined, 'a terminal calling B is not served the deleted device');
  // and an edit on A: B reads the new row at once
  const id2 = await gate('TWINCACHE2');
  assert.equal((await deviceCache.bySerial(dbB, 'TWINCACHE2'))?.name, 'Gate TWINCACHE2');
  const u = await call(A.app, 'POST', '/device/update', { token: C.main, body: { id: id2, name: 'Renamed gate', serial: 'TWINCACHE2', ip: '10.1.1.9' } });
  assert.equal(u.code, CODES.OK, u.message);
  await until('B forgot the edited row', () => !deviceCache.holds(dbB, 'TWINCACHE2'), 1000, 10);
  assert.equal((await deviceCache.bySerial(dbB, 'TWINCACHE2'))?.name, 'Renamed gate');
});

test('a capture photo and a health record sent to A before their punch colour and picture the punch B takes', { skip: pgOnly }, async () => {
  const id = await gate('TWINEARLY1');
  for (const u of [urlA, urlB]) await fetch(`${u}/iclock/cdata?SN=TWINEARLY1&options=all&language=69`);
  const face = await picture(200, 200);
  // B hears of what awaits a punch at A's commits (before A answers the terminal, as a rule; here it is awaited).
  let hints = 0;
  const off = B.app.bus.on('punches.early', () => void hints++);
  const body = Buffer.concat([Buffer.from(`PIN=20261120120000-5150.jpg\nSN=TWINEARLY1\nsize=${face.length}\nCMD=uploadphoto\0`), face]);
  assert.equal(await (await fetch(`${urlA}/iclock/cdata?SN=TWINEARLY1&table=ATTPHOTO`, { method: 'POST', body })).text(), 'OK');
  const health = await fetch(`${urlA}/iclock/cdata?SN=TWINEARLY1&table=HEALTHLOG`, {
    method: 'POST',
    headers: { 'content-type': 'application/push;charset=UTF-8' },
    body: 'HEALTH PIN=5150\tTime=2026-11-20 12:00:00\tColor=red',
  });
  assert.equal(await health.text(), 'OK: 1');
  await until('B heard of both', () => hints === 2);
  off();
  const rec = await fetch(`${urlB}/iclock/cdata?SN=TWINEARLY1&table=ATTLOG&Stamp=1`, { method: 'POST', body: '5150\t2026-11-20 12:00:00\t0\t15\t0\t0\t0' });
  assert.equal(await rec.text(), 'OK: 1');
  const row = await A.app.database.db
    .selectFrom('punches')
    .select(['photo', 'health'])
    .where('device_id', '=', id)
    .where('pin', '=', '5150')
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { photo: '20261120120000-5150.jpg', health: 'red' }, 'B knew of both when the punch came');

  // A hint lost (B's bus was reconnecting, say): the punch comes without its photo, and A links it shortly after.
  const again = Buffer.concat([Buffer.from(`PIN=20261120120500-5151.jpg\nSN=TWINEARLY1\nsize=${face.length}\nCMD=uploadphoto\0`), face]);
  assert.equal(await (await fetch(`${urlA}/iclock/cdata?SN=TWINEARLY1&table=ATTPHOTO`, { method: 'POST', body: again })).text(), 'OK');
  await until('B heard of it', () => B.app.modules.punches.photos.claim(id, '5151', '2026-11-20 12:05:00') !== '');
  const late = await fetch(`${urlB}/iclock/cdata?SN=TWINEARLY1&table=ATTLOG&Stamp=2`, { method: 'POST', body: '5151\t2026-11-20 12:05:00\t0\t15\t0\t0\t0' });
  assert.equal(await late.text(), 'OK: 1');
  const photoOf = async () =>
    (await A.app.database.db.selectFrom('punches').select('photo').where('device_id', '=', id).where('pin', '=', '5151').executeTakeFirstOrThrow()).photo;
  assert.equal(await photoOf(), '', 'taken bare');
  await until('linked by A', async () => (await photoOf()) === '20261120120500-5151.jpg', 5000, 100);

  // The same for a health colour: lost on its way to B, set by A shortly after.
  const yellow = await fetch(`${urlA}/iclock/cdata?SN=TWINEARLY1&table=HEALTHLOG`, {
    method: 'POST',
    headers: { 'content-type': 'application/push;charset=UTF-8' },
    body: 'HEALTH PIN=5152\tTime=2026-11-20 12:10:00\tColor=yellow',
  });
  assert.equal(await yellow.text(), 'OK: 1');
  await until('B heard of it', () => B.app.modules.punches.waiting.claim(id, '5152', '2026-11-20 12:10:00') === 'yellow');
  const bare = await fetch(`${urlB}/iclock/cdata?SN=TWINEARLY1&table=ATTLOG&Stamp=3`, { method: 'POST', body: '5152\t2026-11-20 12:10:00\t0\t15\t0\t0\t0' });
  assert.equal(await bare.text(), 'OK: 1');
  const healthOf = async () =>
    (await A.app.database.db.selectFrom('punches').select('health').where('device_id', '=', id).where('pin', '=', '5152').executeTakeFirstOrThrow()).health;
  assert.equal(await healthOf(), null, 'taken without its colour');
  await until('coloured by A', async () => (await healthOf()) === 'yellow', 5000, 100);
});

test('a webhook added on A gets the punches B takes from then on (B forgets what it kept of the endpoints)', { skip: pgOnly }, async () => {
  const H = await makeCompany(A, 'Hooks Ltd');
  const on = await call(A.app, 'POST', '/company/update', { token: H.main, body: { name: 'Hooks Ltd', phone: '010-1', options: { thirdParty: 1 } } });
  assert.equal(on.code, CODES.OK, on.message);
  const d = await call(A.app, 'POST', '/device/create', { token: H.main, body: { name: 'Hook gate', serial: 'TWINHOOK1', ip: '10.1.1.9', password: 'x' } });
  assert.equal(d.code, CODES.OK, d.message);
  await fetch(`${urlB}/iclock/cdata?SN=TWINHOOK1&options=all&language=69`);
  // Recent punches (older uploads are history: no live event, no webhook), in the device's zone (UTC+8 by default).
  const local = (msAgo: number) => new Date(Date.now() - msAgo + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
  const punch = async (stamp: number, time: string) =>
    (await fetch(`${urlB}/iclock/cdata?SN=TWINHOOK1&table=ATTLOG&Stamp=${stamp}`, { method: 'POST', body: `77\t${time}\t0\t15\t0\t0\t0` })).text();
  const outbox = async () => (await A.app.database.db.selectFrom('webhook_outbox').select('type').where('company_id', '=', H.id).execute()).length;
  // B takes a punch while nobody listens: it keeps "no endpoints" for this company a while.
  assert.equal(await punch(1, local(60_000)), 'OK: 1');
  assert.equal(await outbox(), 0);
  let told = 0;
  const off = B.app.bus.on('webhooks.forget', () => void told++);
  const hook = await call(A.app, 'POST', '/integration/webhook/create', {
    token: H.main,
    body: { name: 'Payroll', url: 'https://hooks.example.com/in', events: ['punch', 'stranger'] },
  });
  assert.equal(hook.code, CODES.OK, hook.message);
  await until('B told at A’s commit', () => told > 0);
  off();
  assert.equal(await punch(2, local(30_000)), 'OK: 1');
  assert.equal(await outbox(), 1, 'the punch B took right after is queued for the new endpoint');
});

test('a terminal whose clock is off, uploading to both instances at once, raises one message', { skip: pgOnly }, async () => {
  await gate('TWINCLOCK1');
  for (const u of [urlA, urlB]) await fetch(`${u}/iclock/cdata?SN=TWINCLOCK1&options=all&language=69`);
  const future = (minutes: number) => new Date(Date.now() + 8 * 3600_000 + minutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
  const upload = (u: string, m: number) =>
    fetch(`${u}/iclock/cdata?SN=TWINCLOCK1&table=ATTLOG`, { method: 'POST', body: `2001\t${future(m)}\t0\t15\t0\t0\t0` }).then((r) => r.text());
  assert.deepEqual(await Promise.all([upload(urlA, 30), upload(urlB, 31), upload(urlA, 32), upload(urlB, 33)]), Array(4).fill('OK: 1'));
  const rows = await A.app.database.db.selectFrom('messages').select('params').where('company_id', '=', C.id).where('type', '=', 'clockDrift').execute();
  assert.equal(rows.filter((m) => m.params.includes('TWINCLOCK1')).length, 1, 'one message, not one per instance');
});

/** A breaker registered on A, connected to `to`'s embedded broker. */
async function breakerOn(to: TestApp, uuid: string) {
  const reg = await call(A.app, 'POST', '/breaker/create', { token: C.main, body: { alias: `Dorm ${uuid}`, uuid, sort: 1, linenum: 2 } });
  assert.equal(reg.code, CODES.OK, reg.message);
  const emu = new EmulatedBreaker({
    url: `mqtt://127.0.0.1:${to.app.mqtt.port}`,
    uuid,
    password: reg.data.password,
    lines: 2,
    reportMs: 150,
    tickMs: 100,
    reconnectMs: 0,
  });
  await emu.start();
  breakers.push(emu);
  const id = reg.data.breaker.id as number;
  const info = async (app: TestApp) => (await call(app.app, 'GET', '/breaker/info', { token: C.main, query: { id } })).data;
  await until('the breaker online', async () => (await info(A)).online, 10_000);
  return { id, emu, info, password: reg.data.password as string };
}

test('a breaker connected to B is switched from A, and a third instance starting does not turn it offline', { skip: pgOnly }, async () => {
  const { emu, info } = await breakerOn(B, 'TWIN-BRK-1');
  const line = (await info(A)).lines[0]!;
  await until('the line on', () => emu.lines[0]!.on);
  const off = await call(A.app, 'POST', '/breaker/line/switch', { token: C.main, body: { id: line.id, oc: 0 }, lang: 'en-US' });
  assert.equal(off.code, CODES.OK, off.message);
  assert.equal(off.data.outcome, 'success', off.data.message);
  assert.equal(emu.lines[0]!.on, false, 'the breaker on B switched the line off');
  // Another instance starts: the breaker B serves stays online.
  const third = await makeTwin(A);
  try {
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await info(A)).online, true);
    await third.app.modules.breakers.live.releaseOrphans(await runningIds());
    assert.equal((await info(A)).online, true, 'a sweep by any instance leaves it alone while B runs');
  } finally {
    await third.close();
  }
});

async function runningIds() {
  const { instancesRepository } = await import('../src/modules/cluster/cluster.module.ts');
  return instancesRepository.running(A.app.database.db);
}

test(
  'an instance that stops: its breakers turn offline at the others (with the offline alarm), and come back where they reconnect',
  { skip: pgOnly },
  async () => {
    const D = await makeTwin(A);
    const { emu, info, password } = await breakerOn(D, 'TWIN-BRK-2');
    await D.close();
    // D said goodbye (its heartbeat row is gone): the next sweep on any instance releases what it held.
    await A.app.modules.breakers.live.releaseOrphans(await runningIds());
    const d = await info(A);
    assert.equal(d.online, false);
    const alarms = await call(A.app, 'GET', '/breaker/alarm/list', { token: C.main, query: { active: 1, type: 'offline' } });
    assert.equal(alarms.code, CODES.OK, alarms.message);
    assert.equal(alarms.data.total, 1, 'the offline alarm is raised');
    // The breaker reconnects through the balancer, to A this time.
    await emu.kill();
    const again = new EmulatedBreaker({
      url: `mqtt://127.0.0.1:${A.app.mqtt.port}`,
      uuid: 'TWIN-BRK-2',
      password,
      lines: 2,
      reportMs: 150,
      tickMs: 100,
      reconnectMs: 0,
    });
    await again.start();
    breakers.push(again);
    await until('online at A', async () => (await info(A)).online, 10_000);
  },
);

test('one instance dials a Hikvision terminal; when it stops dialling, another takes over and the door still opens from either', { skip: pgOnly }, async () => {
  const hik = await createIsapiTerminal({ password: 'hik-Pass-1', serial: 'DS-TWIN-1' });
  hiks.push(hik);
  const portOf = (u: string) => Number(new URL(u).port);
  assert.equal(A.app.dialling.held, true, 'the first instance took the role');
  assert.equal(B.app.dialling.held, false);
  const r = await call(A.app, 'POST', '/device/create', {
    token: C.main,
    body: { name: 'Hik twin', serial: 'HIKTWIN1', protocol: 'isapi', ip: '127.0.0.1', port: hik.port, account: 'admin', password: 'hik-Pass-1' },
  });
  assert.equal(r.code, CODES.OK, r.message);
  const id = r.data.id as number;
  await until('A dials it (its events are posted to A)', () => hik.httpHost?.port === portOf(urlA), 10_000);
  const open = await call(B.app, 'POST', '/device/open', { token: C.main, body: { id }, lang: 'en-US' });
  assert.equal(open.data.state, 'success', `opened from B through A: ${open.data.message}`);
  assert.equal(hik.doorOpens.length, 1);

  await A.app.dialling.close();
  await until('B took the role', () => B.app.dialling.held, 10_000, 100);
  await until('B dials it now', () => hik.httpHost?.port === portOf(urlB), 10_000);
  const again = await call(A.app, 'POST', '/device/open', { token: C.main, body: { id }, lang: 'en-US' });
  assert.equal(again.data.state, 'success', `opened from A through B: ${again.data.message}`);
  assert.equal(hik.doorOpens.length, 2);
  const seen = hik.requests.length;
  await new Promise((r) => setTimeout(r, 1500));
  const calls = hik.requests.slice(seen).filter((p) => p.includes('deviceInfo')).length;
  assert.ok(calls <= 3, `one instance calls it at a heartbeat of 1 s, not two (${calls} calls in 1.5 s)`);
});
