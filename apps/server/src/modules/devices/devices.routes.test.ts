import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import ExcelJS from 'exceljs';
import { call, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { personWithFace, picture } from '../../../test/files.ts';
import { listen, stopTerminals, terminal, until } from '../../../test/terminals.ts';

let t: TestApp;
let server: string;
let A: Company;
let B: Company;
let dept: number;

before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  server = await listen(t);
  A = await makeCompany(t, 'Doors A');
  B = await makeCompany(t, 'Doors B');
  dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Staff' } })).data.id;
});
after(async () => {
  await stopTerminals();
  await t.close();
});

const device = (token: string, body: Record<string, unknown>) =>
  call(t.app, 'POST', '/device/create', { token, lang: 'en-US', body: { name: 'Front door', ip: '192.168.1.20', password: 'dev-secret', ...body } });

const ledger = async (id: number, token = A.main) =>
  (await call(t.app, 'GET', '/device/persons', { token, lang: 'en-US', query: { id, pageSize: 100 } })).data.items as any[];

test('spec §5: name, serial, IP and device password are required; serials are unique; the password is never returned', async () => {
  for (const field of ['name', 'serial', 'ip', 'password']) {
    const body: Record<string, unknown> = { name: 'X', serial: 'REQ1', ip: '10.0.0.1', password: 'p' };
    delete body[field];
    const r = await call(t.app, 'POST', '/device/create', { token: A.main, body });
    assert.equal(r.code, CODES.VALIDATION, field);
  }
  // A device address is a real address: a dialled terminal would be dialled at it (#20).
  for (const ip of ['6.48.807.05', '10.0.0.256', '10.0.0.05', '10.0.0', 'gate.local']) {
    const r = await device(A.main, { serial: 'BADIP1', ip });
    assert.deepEqual([r.code, r.data?.field], [CODES.VALIDATION, 'ip'], ip);
  }
  const ok = await device(A.main, { serial: 'UNIQ1' });
  assert.equal(ok.code, CODES.OK, ok.message);
  assert.equal(ok.data.has_password, true);
  assert.doesNotMatch(JSON.stringify(ok.data), /dev-secret/);
  const dup = await device(B.main, { serial: 'UNIQ1' });
  assert.equal(dup.code, CODES.CONFLICT, 'a serial belongs to one company only');
  const list = await call(t.app, 'GET', '/device/list', { token: A.main });
  assert.doesNotMatch(JSON.stringify(list.data), /dev-secret/);
});

test('a terminal comes online, receives people with faces, opens the door, and its punches (with photo) are listed', async () => {
  const d = (await device(A.main, { serial: 'ZK0001' })).data;
  const p1 = await personWithFace(t, A, { number: '2001', name: 'Wang Fang', organizations: [dept] });
  const p2 = await personWithFace(t, A, { number: '2002', name: 'Li Qiang', organizations: [dept] });
  const term = terminal(server, 'ZK0001');
  await term.start();
  await until('online', async () => (await call(t.app, 'GET', '/device/info', { token: A.main, query: { id: d.id } })).data.online);

  const add = await call(t.app, 'POST', '/device/persons/add', { token: A.main, body: { id: d.id, person_ids: [p1.id, p2.id] } });
  assert.equal(add.data.added, 2);
  await until('both synced', async () => (await ledger(d.id)).every((r) => r.state === 'synced'));
  assert.equal(term.users.get('2001')?.name, 'Wang Fang');
  assert.ok(term.photos.get('2002')?.length, 'face photo on the terminal');
  assert.equal(term.photoTypes.get('2002'), 9, 'visible-light face');
  const info = await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: p1.id } });
  assert.equal(info.data.sync_status, 1, 'spec §3: synced');

  const open = await call(t.app, 'POST', '/device/open', { token: A.main, lang: 'en-US', body: { id: d.id } });
  assert.equal(open.data.state, 'success', open.data.message);
  assert.equal(term.doorOpenCount, 1);

  const face = await picture(320, 240);
  const punch = await term.punch({ pin: '2001', photo: face, temperature: 36.6, mask: true });
  assert.match(punch.reply ?? '', /^OK: 1/);
  await until('photo linked', async () => {
    const l = await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { device_id: d.id } });
    return l.data.items[0]?.pic_url;
  });
  const list = await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { device_id: d.id } });
  const p = list.data.items[0];
  assert.equal(p.name, 'Wang Fang');
  assert.equal(p.device, 'Front door');
  assert.equal(p.temperature, 36.6);
  assert.equal(p.mask, 1);
  const img = await t.app.inject({ method: 'GET', url: p.pic_url, headers: { cookie: `Admin-Token=${A.main}` } });
  assert.equal(img.statusCode, 200);
  assert.deepEqual(img.rawPayload, face);
});

test('replaying the same ATTLOG 100 times adds nothing; a stranger is kept as such', async () => {
  await device(A.main, { serial: 'ZK0002' });
  const term = terminal(server, 'ZK0002');
  await term.start();
  await term.punchBatch([
    { pin: '2001', time: '2026-11-20 08:59:00' },
    { pin: '99999', time: '2026-11-20 09:01:00' },
  ]);
  const count = async () => (await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { keyword: '', pageSize: 1 } })).data.total;
  const before = await count();
  const replies = await term.replay(100);
  assert.ok(
    replies.every((r) => r?.startsWith('OK')),
    'every replay acknowledged',
  );
  assert.equal(await count(), before);
  const strangers = await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { stranger: 1 } });
  assert.ok(strangers.data.items.some((x: any) => x.number === '99999' && x.stranger));
});

test('offline: the device goes offline with a message; changes made meanwhile arrive when it returns', async () => {
  const d = (await device(A.main, { serial: 'ZK0003' })).data;
  const p = await personWithFace(t, A, { number: '3001', name: 'Zhao Lei', organizations: [dept] });
  const term = terminal(server, 'ZK0003');
  await term.start();
  await call(t.app, 'POST', '/device/persons/add', { token: A.main, body: { id: d.id, person_ids: [p.id] } });
  await until('synced', async () => term.users.get('3001')?.name === 'Zhao Lei');
  await term.stop();
  // Two minutes of silence: its last contact moves back and the sweep finds it silent. (stop() finishes the exchange in
  // flight: a request it aborted instead could reach the server after the sweep and mark the terminal seen again.)
  const silent = new Date(Date.now() - 120_000).toISOString();
  await t.app.database.db.updateTable('devices').set({ last_seen_at: silent }).where('id', '=', d.id).execute();
  await t.app.modules.devices.presence.sweep();
  const info = await call(t.app, 'GET', '/device/info', { token: A.main, query: { id: d.id } });
  assert.equal(info.data.online, false);
  const msgs = await call(t.app, 'GET', '/message/list', { token: A.main, lang: 'en-US', query: { pageSize: 50 } });
  assert.ok(msgs.data.items.some((m: any) => m.title === 'Front door is offline'));

  const upd = await call(t.app, 'POST', '/person/update', {
    token: A.main,
    body: { id: p.id, name: 'Zhao Lei (new)', phone: '139', organizations: [dept], pic: p.pic },
  });
  assert.equal(upd.code, CODES.OK);
  const sync = await call(t.app, 'POST', '/person/sync', { token: A.main, body: { ids: [p.id] } });
  assert.deepEqual(
    sync.data.offline.map((x: any) => x.name),
    ['Front door'],
    'spec §8: the console asks whether to skip the offline device',
  );
  assert.equal(sync.data.devices, 0, 'nothing is queued before the answer');
  const skipped = await call(t.app, 'POST', '/person/sync', { token: A.main, body: { ids: [p.id], skip_offline: 1 } });
  assert.equal(skipped.data.devices, 0, 'skip: the offline device is left out');
  const queued = await call(t.app, 'POST', '/person/sync', { token: A.main, body: { ids: [p.id], skip_offline: 0 } });
  assert.equal(queued.data.devices, 1, 'no skip: queued for when it returns');
  assert.equal(term.users.get('3001')?.name, 'Zhao Lei');
  await term.start();
  await until('change arrives after reconnect', () => term.users.get('3001')?.name === 'Zhao Lei (new)');
  await until('synced again', async () => (await ledger(d.id))[0]?.state === 'synced');
});

test('leaving, renumbering and removal reach the device incrementally (never a wipe)', async () => {
  const d = (await device(A.main, { serial: 'ZK0004' })).data;
  const a = await personWithFace(t, A, { number: '4001', name: 'Stays', organizations: [dept] });
  const b = await personWithFace(t, A, { number: '4002', name: 'Leaves', organizations: [dept] });
  const c = await personWithFace(t, A, { number: '4003', name: 'Renumbered', organizations: [dept] });
  const term = terminal(server, 'ZK0004');
  await term.start();
  await call(t.app, 'POST', '/device/persons/add', { token: A.main, body: { id: d.id, department_ids: [dept] } });
  await until('all there', () => ['4001', '4002', '4003'].every((pin) => term.users.has(pin)));
  const log0 = term.log.length;
  const leave = await call(t.app, 'POST', '/person/update', {
    token: A.main,
    body: { id: b.id, name: b.name, phone: '139', organizations: [dept], pic: b.pic, workStatus: 0 },
  });
  assert.equal(leave.code, CODES.OK, leave.message);
  await call(t.app, 'POST', '/person/update', {
    token: A.main,
    body: { id: c.id, number: '4099', name: c.name, phone: '139', organizations: [dept], pic: c.pic },
  });
  await until('left person deleted', () => !term.users.has('4002'), 4000);
  await until('renumbered', () => term.users.has('4099') && !term.users.has('4003'));
  const sent = term.log.slice(log0).map((l) => l.name);
  assert.ok(!sent.includes('CLEAR DATA'), 'no wipe');
  assert.ok(term.users.has('4001'), 'others untouched');
  assert.ok(!term.log.slice(log0).some((l) => l.command.includes('PIN=4001')), 'unchanged people are not resent');
  await call(t.app, 'POST', '/device/persons/remove', { token: A.main, body: { id: d.id, person_ids: [a.id] } });
  await until('removed', () => !term.users.has('4001'));
  await until('ledger forgets removed people', async () => !(await ledger(d.id)).some((r) => r.number === '4001'));
});

test('capacity: the server checks it before sending, and the device answer -1001 is shown with its meaning', async () => {
  const d = (await device(A.main, { serial: 'ZK0005', capacity: 1 })).data;
  const p1 = await personWithFace(t, A, { number: '5001', name: 'First', organizations: [dept] });
  const p2 = await personWithFace(t, A, { number: '5002', name: 'Second', organizations: [dept] });
  const term = terminal(server, 'ZK0005', { capacity: 5 });
  await term.start();
  await call(t.app, 'POST', '/device/persons/add', { token: A.main, body: { id: d.id, person_ids: [p1.id, p2.id] } });
  await until('one synced, one refused', async () => {
    const rows = await ledger(d.id);
    return rows.some((r) => r.state === 'synced') && rows.some((r) => r.state === 'failed');
  });
  const failed = (await ledger(d.id)).find((r) => r.state === 'failed');
  assert.equal(failed.code, -1001);
  assert.match(failed.reason, /capacity/);
  assert.equal(term.users.size, 1, 'never sent over capacity');

  const d2 = (await device(A.main, { serial: 'ZK0006' })).data;
  const small = terminal(server, 'ZK0006', { capacity: 1 });
  await small.start();
  await call(t.app, 'POST', '/device/persons/add', { token: A.main, body: { id: d2.id, person_ids: [p1.id, p2.id] } });
  await until('device refuses the second', async () => (await ledger(d2.id)).some((r) => r.state === 'failed' && r.code === -1001));
  const info = await call(t.app, 'GET', '/person/personSelectedDevice', { token: A.main, lang: 'en-US', query: { id: p2.id } });
  assert.ok(info.data.some((x: any) => x.state === 'failed' && /capacity/.test(x.reason)));
  assert.equal((await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: p2.id } })).data.sync_status, 2, 'spec §3: sync failed');
  const xlsx = await t.app.inject({
    method: 'POST',
    url: '/api/management/device/failures/export',
    headers: { 'x-token': A.main, 'x-lang': 'en-US' },
    payload: { id: d2.id },
  });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0]!;
  assert.equal(sheet.getRow(1).getCell(5).value, 'Reason');
  assert.equal(sheet.getRow(2).getCell(2).value, '5002');
  assert.match(String(sheet.getRow(2).getCell(5).value), /capacity/);
});

test('unsupported commands come back with their meaning', async () => {
  const d = (await device(A.main, { serial: 'ZK0007' })).data;
  const term = terminal(server, 'ZK0007', { failOn: { unsupported: ['AC_UNLOCK'] } });
  await term.start();
  const open = await call(t.app, 'POST', '/device/open', { token: A.main, lang: 'en-US', body: { id: d.id } });
  assert.equal(open.data.state, 'failure');
  assert.equal(open.data.code, -1002);
  assert.match(open.data.message, /does not support/);
  assert.equal(term.doorOpenCount, 0);
});

test('an unregistered serial is answered but gets nothing, cannot upload, and is listed for administrators', async () => {
  const term = terminal(server, 'GHOST01');
  await term.start();
  const res = await fetch(`${server}/iclock/cdata?SN=GHOST01&table=ATTLOG&Stamp=1`, { method: 'POST', body: '2001\t2026-11-20 10:00:00\t0\t15\t0\t0\t0' });
  assert.equal(res.status, 403);
  assert.doesNotMatch(await res.text(), /^OK/);
  const unknown = await call(t.app, 'GET', '/device/unknown', { token: A.main });
  assert.ok(unknown.data.some((u: any) => u.serial === 'GHOST01'));
  assert.equal(term.users.size, 0);
});

test("a device of company A never reads or writes company B's data", async () => {
  const d = (await device(A.main, { serial: 'ZK0008' })).data;
  const bDept = (await call(t.app, 'POST', '/org/create', { token: B.main, body: { name: 'B staff' } })).data.id;
  const bp = await personWithFace(t, B, { number: '8001', name: 'B person', organizations: [bDept] });
  assert.equal((await call(t.app, 'POST', '/device/persons/add', { token: A.main, body: { id: d.id, person_ids: [bp.id] } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/device/persons/add', { token: B.main, body: { id: d.id, person_ids: [bp.id] } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/device/open', { token: B.main, body: { id: d.id } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'GET', '/device/persons', { token: B.main, query: { id: d.id } })).code, CODES.NOT_FOUND);
  const term = terminal(server, 'ZK0008');
  await term.start();
  await term.punch({ pin: '8001', time: '2026-11-20 11:00:00' });
  const aList = await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { device_id: d.id } });
  assert.equal(aList.data.items[0].stranger, true, "B's PIN is a stranger to A's device");
  assert.equal(aList.data.items[0].name, '');
  const bList = await call(t.app, 'GET', '/attendance/list', { token: B.main });
  assert.equal(bList.data.total, 0);
  assert.equal(term.users.size, 0);
});

test('GB2312 terminals (language 83) get Chinese names intact', async () => {
  const d = (await device(A.main, { serial: 'ZKCN01' })).data;
  const p = await personWithFace(t, A, { number: '6001', name: '张伟', organizations: [dept] });
  const term = terminal(server, 'ZKCN01', { language: 83 });
  await term.start();
  await call(t.app, 'POST', '/device/persons/add', { token: A.main, body: { id: d.id, person_ids: [p.id] } });
  await until('name arrives', () => term.users.get('6001')?.name === '张伟');
});

test('device options: ranges of spec §5/§9 enforced, changes queued as SET OPTION', async () => {
  const d = (await device(A.main, { serial: 'ZK0009' })).data;
  assert.equal(d.options.recognition_threshold, 500);
  assert.equal(d.options.sfz_recognition_threshold, 300);
  assert.equal(d.options.screen_auto_close_time, 15);
  for (const bad of [{ recognition_threshold: 1001 }, { minface: 900 }, { minface: 9000 }, { screen_auto_close_time: -1 }]) {
    const r = await call(t.app, 'POST', '/device/options', { token: A.main, lang: 'en-US', body: { id: d.id, options: bad } });
    assert.equal(r.code, CODES.VALIDATION, JSON.stringify(bad));
  }
  const term = terminal(server, 'ZK0009');
  await term.start();
  const r = await call(t.app, 'POST', '/device/options', {
    token: A.main,
    body: { id: d.id, options: { recognition_threshold: 650, minface: 910, screen_auto_close_time: 0 } },
  });
  assert.equal(r.data.queued, 2, 'only changed keys');
  await until('applied', () => term.options.recognition_threshold === '650' && term.options.screen_auto_close_time === '0');
});

test('rights: face device view may list, not change; without it nothing', async () => {
  const viewer = await makeSub(t, A, ['faceView']);
  const none = await makeSub(t, A, ['logView']);
  assert.equal((await call(t.app, 'GET', '/device/list', { token: viewer.token })).code, CODES.OK);
  assert.equal((await device(viewer.token, { serial: 'NOPE1' })).code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'GET', '/device/list', { token: none.token })).code, CODES.NO_AUTHORITY);
});

test('a punch photo that arrives before its record is linked when the record comes', async () => {
  const d = (await device(A.main, { serial: 'ZKPH01' })).data;
  await fetch(`${server}/iclock/cdata?SN=ZKPH01&options=all&language=69`);
  const face = await picture(200, 200);
  const body = Buffer.concat([Buffer.from('PIN=20261120120000-2001.jpg\nSN=ZKPH01\nsize=' + face.length + '\nCMD=uploadphoto\0'), face]);
  const photo = await fetch(`${server}/iclock/cdata?SN=ZKPH01&table=ATTPHOTO`, { method: 'POST', body });
  assert.equal(await photo.text(), 'OK');
  const rec = await fetch(`${server}/iclock/cdata?SN=ZKPH01&table=ATTLOG&Stamp=1`, { method: 'POST', body: '2001\t2026-11-20 12:00:00\t0\t15\t0\t0\t0' });
  assert.equal(await rec.text(), 'OK: 1');
  const list = await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { device_id: d.id } });
  assert.match(list.data.items[0].pic_url, /\/attendance\/photo\//);
});

test('hostile requests: bad serials, garbage and oversized bodies are refused and write nothing', async () => {
  await device(A.main, { serial: 'ZKBAD1' });
  const count = async () =>
    Number(
      (
        await t.app.database.db
          .selectFrom('punches')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const before = await count();
  const bad = [
    await fetch(`${server}/iclock/cdata?SN=../../etc&table=ATTLOG`, { method: 'POST', body: '1\t2026-11-20 12:00:00' }),
    await fetch(`${server}/iclock/cdata?table=ATTLOG`, { method: 'POST', body: '1\t2026-11-20 12:00:00' }),
    await fetch(`${server}/iclock/cdata?SN=ZKBAD1&table=ATTLOG`, { method: 'POST', body: 'DROP TABLE punches;\n\u0000\u00ff garbage' }),
    await fetch(`${server}/iclock/cdata?SN=ZKBAD1&table=ATTLOG`, { method: 'POST', body: '2001\t2026-13-45 99:99:99\t0' }),
    await fetch(`${server}/iclock/cdata?SN=ZKBAD1&table=ATTPHOTO`, { method: 'POST', body: 'PIN=x.jpg\nCMD=uploadphoto\0notajpeg' }),
    await fetch(`${server}/iclock/cdata?SN=ZKBAD1&table=ATTLOG`, { method: 'POST', body: Buffer.alloc(9 * 1024 * 1024, 0x41) }),
  ];
  assert.deepEqual(
    bad.map((r) => r.status),
    [400, 400, 400, 400, 400, 413],
  );
  for (const r of bad) assert.doesNotMatch(await r.text(), /^OK/);
  const cmd = await fetch(`${server}/iclock/devicecmd?SN=ZKBAD1`, { method: 'POST', body: 'ID=abc&Return=x\nID=999999999&Return=0&CMD=DATA\n\u00ff\u00fe' });
  assert.equal(cmd.status, 200, 'unknown or malformed results are ignored');
  assert.equal(await count(), before);
});

test('a terminal whose clock is off raises one message, and the drift is shown on the device', async () => {
  const d = (await device(A.main, { serial: 'ZKCLK1', name: 'Drifting door' })).data;
  await fetch(`${server}/iclock/cdata?SN=ZKCLK1&options=all&language=69`);
  const future = (minutes: number) => new Date(Date.now() + 8 * 3600_000 + minutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
  for (const m of [30, 31, 32]) {
    const r = await fetch(`${server}/iclock/cdata?SN=ZKCLK1&table=ATTLOG`, { method: 'POST', body: `2001\t${future(m)}\t0\t15\t0\t0\t0` });
    assert.equal(await r.text(), 'OK: 1', 'punches from a wrong clock are still kept');
  }
  const info = await call(t.app, 'GET', '/device/info', { token: A.main, query: { id: d.id } });
  assert.ok(info.data.clock_drift > 1700, `drift ${info.data.clock_drift}`);
  assert.equal(info.data.state, 'abnormal');
  const msgs = await call(t.app, 'GET', '/message/list', { token: A.main, lang: 'en-US', query: { pageSize: 100 } });
  assert.equal(msgs.data.items.filter((m: any) => m.title === 'Clock of Drifting door is off').length, 1, 'one message, not one per punch');
});

test('a backlog of 150 punches in one upload (with repeats inside it) is stored once each, people matched by PIN', async () => {
  const d = (await device(A.main, { serial: 'ZKBULK1', name: 'Bulk door' })).data;
  await personWithFace(t, A, { number: '7001', name: 'Bulk Person', organizations: [dept] });
  await fetch(`${server}/iclock/cdata?SN=ZKBULK1&options=all&language=69`);
  const line = (k: number) => `${k % 3 === 0 ? '7001' : `8${k}`}\t2026-10-0${1 + (k % 9)} 0${k % 10}:${String(k % 60).padStart(2, '0')}:00\t0\t15\t0\t0\t0`;
  const lines = Array.from({ length: 150 }, (_, k) => line(k));
  const body = [...lines, ...lines.slice(0, 10), ...lines.slice(140)].join('\n');
  const first = await fetch(`${server}/iclock/cdata?SN=ZKBULK1&table=ATTLOG&Stamp=1`, { method: 'POST', body });
  assert.equal(await first.text(), 'OK: 170');
  const again = await fetch(`${server}/iclock/cdata?SN=ZKBULK1&table=ATTLOG&Stamp=2`, { method: 'POST', body: lines.slice(0, 33).join('\n') });
  assert.equal(await again.text(), 'OK: 33');
  const list = async (query: Record<string, unknown>) =>
    (await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { device_id: d.id, pageSize: 100, ...query } })).data;
  assert.equal((await list({})).total, 150);
  const known = await list({ keyword: '7001' });
  assert.equal(known.total, 50);
  assert.ok(known.items.every((x: any) => x.name === 'Bulk Person' && !x.stranger));
  assert.equal((await list({ stranger: 1 })).total, 100);
});

test('alcohol tab: a breathalyser terminal takes the settings, its readings land on the punches, flagged against its threshold; a terminal without one refuses them with a message', async () => {
  const d = (await device(A.main, { serial: 'ZKALC1', name: 'Breath door' })).data;
  assert.deepEqual(
    [d.options.alcohol_enable, d.options.alcohol_threshold, d.options.alcohol_over_action, d.options.alcohol_unit],
    [0, 20, 'deny', 'mg100ml'],
    'defaults: off, the 20 mg/100 mL drink-driving limit, door kept shut',
  );
  for (const bad of [{ alcohol_threshold: 0 }, { alcohol_threshold: 201 }, { alcohol_timeout: 2 }, { alcohol_over_action: 'open' }, { alcohol_unit: 'ppm' }]) {
    const r = await call(t.app, 'POST', '/device/options', { token: A.main, lang: 'en-US', body: { id: d.id, options: bad } });
    assert.equal(r.code, CODES.VALIDATION, JSON.stringify(bad));
  }
  const breath = terminal(server, 'ZKALC1', { alcohol: true });
  await breath.start();
  await breath.punch({ pin: '6100', time: '2026-11-20 06:59:00', alcohol: 3 });
  const set = await call(t.app, 'POST', '/device/options', { token: A.main, body: { id: d.id, options: { alcohol_enable: 1, alcohol_threshold: 30 } } });
  assert.equal(set.data.queued, 2);
  // Checked against the threshold just set (30), not the default 20 of the row the gateway had cached a moment ago.
  await breath.punch({ pin: '6101', time: '2026-11-20 07:00:00', alcohol: 35.5 });
  await breath.punch({ pin: '6102', time: '2026-11-20 07:00:01', alcohol: 25 });
  await until('applied', () => breath.options.alcohol_enable === '1' && breath.options.alcohol_threshold === '30');
  const items = (await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { device_id: d.id } })).data.items as any[];
  assert.deepEqual(items.map((x) => [x.number, x.alcohol, x.alcohol_over]).sort(), [
    ['6100', 3, false],
    ['6101', 35.5, true],
    ['6102', 25, false],
  ]);

  const plain = (await device(A.main, { serial: 'ZKALC2', name: 'Plain door' })).data;
  const term = terminal(server, 'ZKALC2');
  await term.start();
  await call(t.app, 'POST', '/device/options', { token: A.main, body: { id: plain.id, options: { alcohol_threshold: 40, recognition_threshold: 600 } } });
  await until('other option applied', () => term.options.recognition_threshold === '600');
  const msgs = await until('refusal message', async () => {
    const list = (await call(t.app, 'GET', '/message/list', { token: A.main, lang: 'en-US', query: { pageSize: 100 } })).data.items as any[];
    return list.find((m) => m.title === 'Plain door refused a setting');
  });
  assert.equal(
    msgs.content,
    'Plain door did not take “Alcohol threshold (mg/100 mL)”: The device does not support this (-1002). The other settings were applied.',
  );
  assert.equal(term.options.alcohol_threshold, undefined);
});

test('a sync of 40,000 ids at once is answered (IN lists are cut below the databases’ variable limits); only the company’s own people count', async () => {
  const ids = Array.from({ length: 40_000 }, (_, i) => i + 1);
  const r = await call(t.app, 'POST', '/person/sync', { token: A.main, body: { ids, skip_offline: 1 } });
  assert.equal(r.code, CODES.OK, r.message);
  const own = (await call(t.app, 'GET', '/person/list', { token: A.main, query: { pageSize: 1 } })).data.total;
  assert.ok(own > 0);
  assert.equal(r.data.people, own, 'another company’s ids are not counted (#20)');
  // B's people alone: not found, nothing queued for them
  const bPerson = (await call(t.app, 'GET', '/person/list', { token: B.main, query: { pageSize: 1 } })).data.items[0];
  if (bPerson) assert.equal((await call(t.app, 'POST', '/person/sync', { token: A.main, body: { ids: [bPerson.id] } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/person/sync', { token: A.main, body: { ids: [999_999] } })).code, CODES.NOT_FOUND);
});
