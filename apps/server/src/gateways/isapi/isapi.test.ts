import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import type { IsapiTerminal } from '../../../../../tools/isapi-emulator/terminal.ts';
import { addPersonWithFace, picture } from '../../../test/files.ts';
import { call, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { addIsapiTerminal, isapiTerminals, makeIsapiApp } from '../../../test/isapi.ts';
import { until } from '../../../test/terminals.ts';

/**
 * Hikvision ISAPI end to end: an emulated terminal (tools/isapi-emulator) added by address and password,
 * dialled by the server through the sync ledger, posting its events back; hostile and slow terminals.
 */
let t: TestApp;
let server: string;
let A: Company;
let B: Company;
const terminals = isapiTerminals();
const terminal = terminals.start;

before(async () => {
  ({ t, server } = await makeIsapiApp());
  A = await makeCompany(t, 'Isapi A');
  B = await makeCompany(t, 'Isapi B');
});
after(async () => {
  await terminals.stop();
  await t.close();
});

const en = { lang: 'en-US' as const };
const addTerminal = (c: Company, emu: IsapiTerminal, serial: string, extra: Record<string, unknown> = {}) => addIsapiTerminal(t, c, emu, serial, extra);
const info = async (c: Company, id: number) => (await call(t.app, 'GET', '/device/info', { token: c.main, query: { id }, ...en })).data;
const punchesOf = (id: number) =>
  t.app.database.db.selectFrom('punches').select(['pin', 'local_time', 'stranger']).where('device_id', '=', id).orderBy('local_time').execute();

let emu: IsapiTerminal;
let deviceId: number;

test('a terminal added by address and password goes online with its model and firmware, and people with faces reach it, with their gender when said', async () => {
  const dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Hall' } })).data.id as number;
  for (const n of ['1', '2']) {
    await addPersonWithFace(t, A, {
      name: `Person ${n}`,
      number: `H${n}`,
      organizations: [dept],
      picture: await picture(200, 250),
      ...(n === '1' ? { gender: 'female' as const } : {}),
    });
  }
  emu = await terminal({ serial: 'DS-K1T671M-EMU-A' });
  deviceId = await addTerminal(A, emu, 'ISAPIA1');
  const d = await until('the terminal online with its model and firmware', async () => {
    const x = await info(A, deviceId);
    return x.online && x.model && x.version ? x : undefined;
  });
  assert.equal(d.model, 'DS-K1T671M');
  assert.equal(d.version, 'V3.2.0 build 241120');
  assert.equal(d.protocol, 'isapi');
  assert.equal(d.port, emu.port);
  assert.equal(d.problem, '');
  assert.equal('password' in d || 'event_secret' in d, false, 'secrets never leave');
  await until('both people with faces on the terminal', () => emu.users.size === 2 && emu.faces.size === 2);
  const ledger = await until('the ledger synced', async () => {
    const rows = await t.app.database.db.selectFrom('device_persons').select('state').where('device_id', '=', deviceId).execute();
    return rows.length === 2 && rows.every((r) => r.state === 'synced') ? rows : undefined;
  });
  assert.ok(ledger);
  assert.equal(ledger.length, 2);
  assert.equal(emu.users.get('H1')?.name, 'Person 1');
  assert.equal(emu.users.get('H1')?.gender, 'female');
  assert.equal(emu.users.get('H2')?.gender, undefined, 'not said: left out, the terminal keeps its own');
  assert.match(emu.httpHost?.url ?? '', new RegExp(`^/isapi/event/${deviceId}/[A-Za-z0-9_-]{20,}$`), 'the terminal posts its events to this server');
  await until('the user count read back', async () => (await info(A, deviceId)).user_count === 2);
});

test("the door opens through the existing flow, with the terminal's answer; the door column follows the terminal's door", async () => {
  await until('the door read closed', async () => (await info(A, deviceId)).open_status === 'close');
  const open = await call(t.app, 'POST', '/device/open', { token: A.main, body: { id: deviceId }, ...en });
  assert.equal(open.code, CODES.OK, open.message);
  assert.equal(open.data.state, 'success');
  assert.equal(emu.doorOpens.length, 1);
  assert.ok(emu.unlocked);
  await until('the door read open while the lock is open', async () => (await info(A, deviceId)).open_status === 'open');
  await until('closed again after the unlock time', async () => (await info(A, deviceId)).open_status === 'close', 8000);
  // someone holds the door open (the contact reports it) and lets it close
  emu.setDoorContact('open');
  await until('the held door read open', async () => (await info(A, deviceId)).open_status === 'open');
  emu.setDoorContact('closed');
  await until('and closed', async () => (await info(A, deviceId)).open_status === 'close');
});

test('live recognitions arrive as punches; after an outage the backlog arrives without duplicates', async () => {
  // one instant for the recognition and the check (two clock readings may fall in different seconds under load)
  const at = Date.now() - 20_000;
  const r1 = await emu.recognize('H1', at);
  assert.equal(r1.granted && r1.pushed, true);
  await emu.recognize('stranger', Date.now() - 19_000);
  let rows = (await until('the punch', async () => ((await punchesOf(deviceId)).length === 1 ? punchesOf(deviceId) : undefined)))!;
  assert.equal(rows[0]!.pin, 'H1');
  assert.equal(rows[0]!.local_time, emu.localTime(at).replace('T', ' '));

  // Unplugged: recognitions stay in the terminal's log; back online, the search from the last kept event brings them once.
  await emu.stop();
  await until('the delivery noticed', async () => (await info(A, deviceId)).problem !== '', 5000);
  await emu.recognize('H2', Date.now() - 10_000);
  const during = await emu.recognize('H1', Date.now() - 9_000);
  await emu.start();
  rows = (await until('the backlog', async () => ((await punchesOf(deviceId)).length === 3 ? punchesOf(deviceId) : undefined), 8000))!;
  assert.deepEqual(
    rows.map((r) => r.pin),
    ['H1', 'H2', 'H1'],
  );
  assert.equal((await info(A, deviceId)).problem, '');
  // A live push of an event the backlog already brought, and a second backlog pass, add nothing.
  const again = await fetch(`${server}/isapi/event/${deviceId}/${await secretOf(deviceId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      dateTime: `${emu.localTime(during.event.at)}+08:00`,
      eventType: 'AccessControllerEvent',
      AccessControllerEvent: { majorEventType: 5, subEventType: 75, employeeNoString: 'H1', serialNo: 5 },
    }),
  });
  assert.equal(again.status, 200);
  await emu.stop();
  await emu.start();
  await new Promise((r) => setTimeout(r, 1200));
  assert.equal((await punchesOf(deviceId)).length, 3);
});

const secretOf = async (id: number) =>
  (await t.app.database.db.selectFrom('devices').select('event_secret').where('id', '=', id).executeTakeFirstOrThrow()).event_secret;

test("event posts need the device's own secret: another device's id, a wrong secret or junk never land", async () => {
  const other = await terminal({ serial: 'DS-EMU-B' });
  const bId = await addTerminal(B, other, 'ISAPIB1', { attendance_scope: 'selected' });
  const post = (id: number, secret: string, body: string | Buffer, type = 'application/json') =>
    fetch(`${server}/isapi/event/${id}/${secret}`, { method: 'POST', headers: { 'content-type': type }, body });
  const event = JSON.stringify({
    dateTime: '2026-01-01T08:00:00+08:00',
    eventType: 'AccessControllerEvent',
    AccessControllerEvent: { majorEventType: 5, subEventType: 75, employeeNoString: 'H1', serialNo: 1 },
  });
  assert.equal((await post(bId, await secretOf(deviceId), event)).status, 404, "company A's secret for company B's device");
  assert.equal((await post(deviceId, 'x'.repeat(24), event)).status, 404);
  assert.equal((await post(999_999, await secretOf(deviceId), event)).status, 404);
  assert.equal((await punchesOf(bId)).length, 0);
  for (const junk of [
    '{',
    '[]',
    'null',
    '\u0000\u0001',
    JSON.stringify({ eventType: 'AccessControllerEvent', AccessControllerEvent: { majorEventType: 'x' } }),
  ])
    assert.equal((await post(deviceId, await secretOf(deviceId), junk)).status, 200, 'acknowledged and dropped');
  assert.equal((await post(deviceId, await secretOf(deviceId), Buffer.alloc(3 * 1024 * 1024, 0x20))).status, 413);
  assert.equal((await post(deviceId, await secretOf(deviceId), Buffer.from('--X\r\nbroken'), 'multipart/form-data; boundary=X')).status, 200);
});

test('a wrong password is shown with its meaning, and a corrected one brings the terminal online', async () => {
  const locked = await terminal({ serial: 'DS-EMU-PW', password: 'right12345' });
  const id = await addTerminal(A, locked, 'ISAPIPW1', { password: 'wrong-one', attendance_scope: 'selected' });
  const d = await until('the refusal shown', async () => {
    const x = await info(A, id);
    return x.problem ? x : undefined;
  });
  assert.match(d.problem, /refused the account or password/);
  assert.equal(d.state, 'abnormal');
  assert.equal(d.online, false);
  const zh = (await call(t.app, 'GET', '/device/info', { token: A.main, query: { id }, lang: 'zh-CN' })).data.problem as string;
  assert.match(zh, /密码/);
  const failures = locked.authFailures;
  await new Promise((r) => setTimeout(r, 600));
  assert.ok(locked.authFailures - failures <= 3, 'a refused password is not hammered (the terminal would lock the account)');
  const fixed = await call(t.app, 'POST', '/device/update', {
    token: A.main,
    body: { id, name: 'ISAPIPW1', serial: 'ISAPIPW1', protocol: 'isapi', ip: '127.0.0.1', port: locked.port, account: 'admin', password: 'right12345' },
  });
  assert.equal(fixed.code, CODES.OK, fixed.message);
  const ok = await until('online once corrected', async () => {
    const x = await info(A, id);
    return x.online && x.problem === '' ? x : undefined;
  });
  assert.equal(ok.state, 'normal');
  assert.equal(ok.model, 'DS-K1T671M', 'what the connection learnt is kept');
});

test('hostile answers (huge, malformed, slow) never crash the server, and a slow terminal does not hold up another', async () => {
  const hostile = await terminal({ serial: 'DS-EMU-HOSTILE' });
  hostile.inject({ path: '/ISAPI/System/deviceInfo', huge: 8 * 1024 * 1024 });
  const hId = await addTerminal(A, hostile, 'ISAPIH1', { attendance_scope: 'selected' });
  await until('the huge answer refused with its meaning', async () => /unreadable or too large/.test((await info(A, hId)).problem));
  hostile.clearInjections();
  hostile.inject({ path: '/ISAPI/AccessControl/UserInfo/Count', badJson: true });
  await until('malformed JSON is survived (the terminal still comes online)', async () => (await info(A, hId)).online);

  // One terminal answers everything after 8 s (over the 1.5 s deadline); the door of another opens meanwhile.
  hostile.clearInjections();
  const slowMs = 8000;
  const slowSince = Date.now();
  hostile.inject({ path: '/ISAPI', slowMs });
  for (let i = 0; i < 4; i++) await call(t.app, 'POST', '/device/command', { token: A.main, body: { id: hId, kind: 'info' } });
  const open = await call(t.app, 'POST', '/device/open', { token: A.main, body: { id: deviceId }, ...en });
  assert.equal(open.data.state, 'success');
  // A comparison within this run, not a bound on the machine's speed: the door opened before the slow terminal's
  // first answer would have come, so nothing of the other door waited on it.
  assert.ok(Date.now() - slowSince < slowMs, `the door opened only after the slow terminal's answers (${Date.now() - slowSince} ms)`);
  await until('the slow terminal shown as not answering in time', async () => /did not answer in time/.test((await info(A, hId)).problem));
  const health = await call(t.app, 'GET', '/device/info', { token: A.main, query: { id: deviceId } });
  assert.equal(health.code, CODES.OK);
  hostile.clearInjections();
});

test('a terminal that refuses the host notification has its events searched at every heartbeat instead', async () => {
  const quiet = await terminal({ serial: 'DS-EMU-NOPUSH', algorithms: ['MD5'] });
  quiet.inject({ path: '/ISAPI/Event/notification/httpHosts', status: { statusCode: 4, subStatusCode: 'notSupport' } });
  // nor the alertStream (alert-stream.test.ts has the terminals that stream)
  quiet.inject({ path: '/ISAPI/Event/notification/alertStream', status: { http: 404, statusCode: 4, subStatusCode: 'notSupport' } });
  const id = await addTerminal(A, quiet, 'ISAPINP1', { attendance_scope: 'selected' });
  await until('online', async () => (await info(A, id)).online);
  quiet.users.set('H1', { employeeNo: 'H1', name: 'Person 1', userType: 'normal', valid: { enable: false, beginTime: '', endTime: '' }, password: '' });
  quiet.faces.set('H1', Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
  const r = await quiet.recognize('H1');
  assert.equal(r.pushed, false);
  await until('the searched punch', async () => (await punchesOf(id)).length === 1);
  const facts = JSON.parse((await t.app.database.db.selectFrom('devices').select('info').where('id', '=', id).executeTakeFirstOrThrow()).info) as {
    isapi: { events: string };
  };
  assert.equal(facts.isapi.events, 'search');
});

test('a refused face with its picture lands among the strangers when the device uploads strangers', async () => {
  const gate = await terminal({ serial: 'DS-EMU-STRANGER' });
  const id = await addTerminal(A, gate, 'ISAPIST1', { attendance_scope: 'selected', upload_strangers: 1 });
  await until('told where to post', () => !!gate.httpHost);
  const r = await gate.recognize('someone-unknown');
  assert.equal(r.granted, false);
  assert.equal(r.pushed, true);
  const rows = (await until('the stranger', async () => ((await punchesOf(id)).length === 1 ? punchesOf(id) : undefined)))!;
  assert.equal(rows[0]!.pin, '0');
  assert.equal(rows[0]!.stranger, 1);
});

test("the device's capacity follows the terminal's own user capacity, so the ledger refuses only what it cannot hold", async () => {
  const small = await terminal({ serial: 'DS-EMU-SMALL', capacity: 1 });
  // Typed 500 in the form: the terminal says it holds 1, and that is what it will take.
  const id = await addTerminal(A, small, 'ISAPICAP1', { capacity: 500 });
  const d = await until('the capacity read from the terminal', async () => {
    const x = await info(A, id);
    return x.capacity === 1 ? x : undefined;
  });
  assert.equal(d.capacity, 1);
  const rows = await until('one synced, one refused for capacity without asking the terminal', async () => {
    const r = await t.app.database.db.selectFrom('device_persons').select(['state', 'last_error']).where('device_id', '=', id).execute();
    return r.filter((x) => x.state === 'synced').length === 1 && r.some((x) => x.state === 'failed') ? r : undefined;
  });
  assert.equal(rows!.find((x) => x.state === 'failed')?.last_error, 'device.codes.capacity');
  assert.equal(small.users.size, 1);
  const list = await call(t.app, 'GET', '/device/list', { token: A.main, query: { page: 1, pageSize: 50 } });
  assert.equal((list.data.items as { id: number; capacity: number }[]).find((x) => x.id === id)?.capacity, 1, 'the list shows users / 1');

  // A terminal that does not say its capacity keeps the figure typed for it.
  const mute = await terminal({ serial: 'DS-EMU-MUTE' });
  mute.inject({ path: '/ISAPI/AccessControl/UserInfo/capabilities', status: { http: 404, statusCode: 4, subStatusCode: 'notSupport' } });
  const muteId = await addTerminal(A, mute, 'ISAPICAP2', { capacity: 700, attendance_scope: 'selected' });
  await until('online', async () => (await info(A, muteId)).online);
  assert.equal((await info(A, muteId)).capacity, 700);
});

const ledgerOf = (id: number) =>
  t.app.database.db.selectFrom('device_persons').select(['person_id', 'state', 'last_error']).where('device_id', '=', id).orderBy('person_id').execute();

test("a terminal's refusals show with their meaning (full, no face in the photo), and a refused person's face is never sent", async () => {
  // A company of its own with two people with faces, on a terminal that is full of locally enrolled users: it
  // refuses every new person record.
  const C = await makeCompany(t, 'Isapi Full');
  for (const n of ['1', '2']) await addPersonWithFace(t, C, { name: `Full ${n}`, number: `F${n}` });
  const full = await terminal({ serial: 'DS-EMU-FULL' });
  full.inject({ path: '/ISAPI/AccessControl/UserInfo/Record', status: { statusCode: 6, subStatusCode: 'deviceUserFull', statusString: 'Invalid Content' } });
  const id = await addTerminal(C, full, 'ISAPIFULL1');
  const rows = await until('both people refused', async () => {
    const r = await ledgerOf(id);
    return r.length === 2 && r.every((x) => x.state === 'failed') ? r : undefined;
  });
  assert.deepEqual(
    rows!.map((r) => r.last_error),
    ['device.isapi.capacity', 'device.isapi.capacity'],
  );
  assert.equal(full.users.size, 0);
  assert.equal(full.faceUploads, 0, 'no face follows a refused person record');
  // What the console shows: the device's people and a person's devices.
  const page = await call(t.app, 'GET', '/device/persons', { token: C.main, query: { id, page: 1, pageSize: 50 }, ...en });
  assert.equal(page.code, CODES.OK, page.message);
  const items = page.data.items as { person_id: number; reason: string }[];
  assert.ok(items.length === 2 && items.every((x) => /terminal is full/.test(x.reason)), JSON.stringify(items));
  const mine = await call(t.app, 'GET', '/person/personSelectedDevice', { token: C.main, query: { id: items[0]!.person_id }, ...en });
  assert.match((mine.data as { id: number; reason: string }[]).find((x) => x.id === id)?.reason ?? '', /terminal is full/);
  const zh = await call(t.app, 'GET', '/device/persons', { token: C.main, query: { id, page: 1, pageSize: 50 }, lang: 'zh-CN' });
  assert.match((zh.data.items as { reason: string }[])[0]!.reason, /终端已满/);

  // Room again, but the terminal finds no face in the photos: the people are on it, their faces refused.
  full.clearInjections();
  full.inject({ path: '/ISAPI/Intelligent/FDLib/FaceDataRecord', status: { statusCode: 6, subStatusCode: 'pictureFaceDetectZero' } });
  await call(t.app, 'POST', '/device/persons/retry', { token: C.main, body: { id } });
  const faceless = await until('the faces refused with their meaning', async () => {
    const r = await ledgerOf(id);
    return r.length === 2 && r.every((x) => x.last_error === 'device.isapi.noFace') ? r : undefined;
  });
  assert.ok(faceless!.every((r) => r.state === 'failed'));
  assert.equal(full.users.size, 2);
  assert.ok(full.faceUploads >= 2);
  const again = await call(t.app, 'GET', '/device/persons', { token: C.main, query: { id, page: 1, pageSize: 50 }, ...en });
  assert.match((again.data.items as { reason: string }[])[0]!.reason, /no usable face/);
});

test('an account the terminal locked after wrong passwords is shown locked with the time it unlocks, and left alone until then', async () => {
  const guarded = await terminal({ serial: 'DS-EMU-LOCK', password: 'right12345', lockAfter: 2, lockSeconds: 3600 });
  const id = await addTerminal(A, guarded, 'ISAPILOCK1', { password: 'wrong-one', attendance_scope: 'selected' });
  const d = await until('the lock shown', async () => {
    const x = await info(A, id);
    return /locked/.test(x.problem) ? x : undefined;
  });
  assert.ok(guarded.lockedUntil > Date.now(), 'the terminal locked the account');
  // the terminal's clock: the device's zone
  const tz = (await t.app.database.db.selectFrom('devices').select('tz_offset').where('id', '=', id).executeTakeFirstOrThrow()).tz_offset;
  const unlocks = new Date(guarded.lockedUntil + tz * 60_000).toISOString().slice(0, 16).replace('T', ' ');
  const shown = /until (\d{4}-\d{2}-\d{2} \d{2}:\d{2})/.exec(d.problem)?.[1];
  assert.ok(shown, d.problem);
  assert.ok(Math.abs(Date.parse(`${shown}Z`) - Date.parse(`${unlocks}Z`)) <= 60_000, `${d.problem} (unlocks ${unlocks})`);
  assert.doesNotMatch(d.problem, /refused the account or password/);
  assert.equal(d.state, 'abnormal');
  const zh = (await call(t.app, 'GET', '/device/info', { token: A.main, query: { id }, lang: 'zh-CN' })).data.problem as string;
  assert.match(zh, /锁定/);
  // While locked, no attempt is made (each would prolong the lock); heartbeats come every 300 ms meanwhile.
  const attempts = guarded.authFailures;
  await new Promise((r) => setTimeout(r, 1200));
  assert.equal(guarded.authFailures, attempts, 'nothing sent to a locked account');
});

test('a terminal that stops answering half-way through a reconnection is shown as not answering, even after the same problem before', async () => {
  const flaky = await terminal({ serial: 'DS-EMU-FLAKY' });
  const id = await addTerminal(A, flaky, 'ISAPIFLAKY1', { attendance_scope: 'selected' });
  await until('online', async () => (await info(A, id)).online && (await info(A, id)).problem === '');
  // It stops answering: shown.
  flaky.inject({ path: '/ISAPI', slowMs: 3000 });
  await until('not answering in time', async () => /did not answer in time/.test((await info(A, id)).problem));
  // Back, but its event search (the last step of a reconnection) hangs: the reconnection's facts said "no problem"
  // for a moment, and the same "did not answer" must be told again.
  flaky.clearInjections();
  flaky.inject({ path: '/ISAPI/AccessControl/AcsEvent', slowMs: 3000 });
  const searches = () => flaky.requests.filter((r) => r === 'POST /ISAPI/AccessControl/AcsEvent').length;
  const before = searches();
  await until('a reconnection reached the event search', () => searches() > before);
  await until('still shown as not answering', async () => /did not answer in time/.test((await info(A, id)).problem));
  flaky.clearInjections();
});
