import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { API_PREFIX, CODES, FIRMWARE_LIMITS } from '@faceadmin/shared';
import { EMULATOR_LOG_FILE, emulatorFirmware } from '../../../../../tools/zk-emulator/terminal.ts';
import { createIsapiTerminal, isapiEmulatorFirmware, type IsapiTerminal } from '../../../../../tools/isapi-emulator/terminal.ts';
import { upload } from '../../../test/files.ts';
import { call, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { listen, stopTerminals, terminal, until } from '../../../test/terminals.ts';
import type { Wire } from '../../gateways/driver.ts';

/**
 * Firmware upgrades and log capture (issue #20) through the real ZK PUSH gateway and emulated terminals:
 * UPGRADE with the file from /iclock/file, the version before and after, spec §8 messages when a terminal
 * refuses; GetFile for the terminal's log, downloadable; tenancy and rights. The same through the dialled ISAPI
 * delivery and emulated Hikvision terminals: the package uploaded to the terminal, the restart, its log search.
 */
let t: TestApp;
let server: string;
let A: Company;
let B: Company;
const hikvisions: IsapiTerminal[] = [];
before(async () => {
  t = await makeApp(
    { DEVICE_POLL_SECONDS: '1' },
    {
      isapi: {
        heartbeatMs: 300,
        backoffMs: 100,
        maxBackoffMs: 400,
        // Wide enough that a busy machine never turns a slow answer into a failed upgrade; the hung upgrade below
        // is given up after flashTimeoutMs, whatever the machine's speed.
        http: { timeoutMs: 10_000 },
        upgrade: { pollMs: 50, flashTimeoutMs: 3000, rebootWaitMs: 5000 },
      },
    },
  );
  server = await listen(t);
  A = await makeCompany(t, 'Fleet A');
  B = await makeCompany(t, 'Fleet B');
});
after(async () => {
  await stopTerminals();
  await Promise.all(hikvisions.map((h) => h.stop()));
  await t.close();
});

async function device(c: Company, serial: string) {
  const r = await call(t.app, 'POST', '/device/create', { token: c.main, body: { name: `Door ${serial}`, serial, ip: '10.0.0.5', password: 'x12345' } });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data.id as number;
}
/** An emulated Hikvision terminal added by address and password (the server dials it). */
async function isapiDevice(c: Company, serial: string, opts: Parameters<typeof createIsapiTerminal>[0] = {}) {
  const emu = await createIsapiTerminal({ serial, rebootMs: 150, upgradeMs: 200, ...opts });
  hikvisions.push(emu);
  const r = await call(t.app, 'POST', '/device/create', {
    token: c.main,
    body: { name: `Gate ${serial}`, serial, protocol: 'isapi', ip: '127.0.0.1', port: emu.port, account: 'admin', password: emu.options.password },
  });
  assert.equal(r.code, CODES.OK, r.message);
  return { emu, id: r.data.id as number };
}
const upgradeOf = async (c: Company, id: number, what: string) =>
  (await until(what, async () => {
    const u = (await upgrades(c, { device_id: id }))[0]!;
    return u.state === 'done' || u.state === 'failed' ? u : undefined;
  }))!;
const upgrades = async (c: Company, query: Record<string, number> = {}) =>
  (await call(t.app, 'GET', '/firmware/upgrades', { token: c.main, query, lang: 'en-US' })).data as {
    id: number;
    device_id: number;
    state: string;
    version_before: string;
    version_after: string | null;
    reason: string;
    code: number | null;
  }[];

test('firmware is uploaded once (hashed, listed with name and version) and checked for meaning', async () => {
  const ok = await upload(
    t,
    '/firmware/upload',
    A.main,
    { name: 'emfw.cfg', data: emulatorFirmware('Ver 2.5.0') },
    { name: 'Face terminal', version: 'Ver 2.5.0' },
  );
  assert.equal(ok.code, CODES.OK, ok.message);
  assert.equal(ok.data.version, 'Ver 2.5.0');
  assert.match(ok.data.sha256, /^[0-9a-f]{64}$/);
  assert.equal(ok.data.size, emulatorFirmware('Ver 2.5.0').length);
  const again = await upload(t, '/firmware/upload', A.main, { name: 'copy.cfg', data: emulatorFirmware('Ver 2.5.0') }, { name: 'Copy', version: 'x' });
  assert.equal(again.code, CODES.CONFLICT, 'the same bytes twice');
  assert.match(again.message, /Face terminal Ver 2\.5\.0/);
  const noVersion = await upload(t, '/firmware/upload', A.main, { name: 'a.cfg', data: Buffer.from('abc') }, { name: 'A', version: ' ' });
  assert.equal(noVersion.code, CODES.RULE);
  assert.match(noVersion.message, /Version/, 'the error names the field');
  const empty = await upload(t, '/firmware/upload', A.main, { name: 'a.cfg', data: Buffer.alloc(0) }, { name: 'A', version: '1' });
  assert.equal(empty.code, CODES.RULE);
  // Above the API's usual 10 MB upload cap, below the firmware cap of 64 MB.
  const big = await upload(t, '/firmware/upload', A.main, { name: 'big.cfg', data: Buffer.alloc(11 * 1024 * 1024, 7) }, { name: 'Big', version: '9' });
  assert.equal(big.code, CODES.OK, big.message);
  const list = await call(t.app, 'GET', '/firmware/list', { token: A.main });
  assert.deepEqual(
    (list.data as { name: string }[]).map((f) => f.name),
    ['Big', 'Face terminal'],
  );
  assert.equal((await call(t.app, 'GET', '/firmware/list', { token: B.main })).data.length, 0, 'another company sees none');
  assert.equal((await call(t.app, 'POST', '/firmware/delete', { token: B.main, body: { id: big.data.id } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/firmware/delete', { token: A.main, body: { id: big.data.id } })).code, CODES.OK);
  // Past the cap: refused, and nothing is kept (not even the first 64 MB), in any file store.
  const over = await upload(
    t,
    '/firmware/upload',
    A.main,
    { name: 'over.cfg', data: Buffer.alloc(FIRMWARE_LIMITS.maxBytes + 1, 8) },
    { name: 'Over', version: '10' },
  );
  assert.equal(over.status, 422);
  assert.match(over.message, /64 MB/);
  const names = ((await call(t.app, 'GET', '/firmware/list', { token: A.main })).data as { name: string }[]).map((f) => f.name);
  assert.deepEqual(names, ['Face terminal']);
  let stored = 0;
  for await (const f of t.app.files.list(`firmware/${A.id}/`)) if (f.key) stored++;
  assert.equal(stored, 1, 'one file for the one firmware listed');
});

test('an upgrade reaches one or many terminals: progress, the version before and after, and the §8 message when one refuses', async () => {
  const fw = await upload(
    t,
    '/firmware/upload',
    A.main,
    { name: 'emfw.cfg', data: emulatorFirmware('Ver 3.0.0', 'new') },
    { name: 'FW3', version: 'Ver 3.0.0' },
  );
  assert.equal(fw.code, CODES.OK, fw.message);
  const bad = await upload(t, '/firmware/upload', A.main, { name: 'other.bin', data: Buffer.from('not for this terminal') }, { name: 'Other', version: 'X1' });
  const d1 = await device(A, 'FLEET01');
  const d2 = await device(A, 'FLEET02');
  const t1 = terminal(server, 'FLEET01', { firmware: 'Ver 2.4.1', rebootMs: 100 });
  const t2 = terminal(server, 'FLEET02', { firmware: 'Ver 2.4.1', rebootMs: 100 });
  await Promise.all([t1.start(), t2.start()]);
  await until('both report their firmware', async () => {
    const r = await call(t.app, 'GET', '/device/list', { token: A.main, query: { page: 1, pageSize: 10 } });
    return (r.data.items as { version: string }[]).every((d) => d.version === 'Ver 2.4.1');
  });

  // The first terminal is out of reach while the upgrades are sent: its own stays queued (in flight) until it is back,
  // however long the second request takes (a terminal that fetched, flashed and restarted in between once let it pass).
  await t1.stop();
  const sent = await call(t.app, 'POST', '/firmware/upgrade', { token: A.main, body: { firmware_id: fw.data.id, device_ids: [d1, d2] } });
  assert.equal(sent.code, CODES.OK, sent.message);
  assert.deepEqual(
    (sent.data as { state: string; version_before: string }[]).map((u) => [u.state, u.version_before]),
    [
      ['queued', 'Ver 2.4.1'],
      ['queued', 'Ver 2.4.1'],
    ],
  );
  const busy = await call(t.app, 'POST', '/firmware/upgrade', { token: A.main, body: { firmware_id: fw.data.id, device_ids: [d1] } });
  assert.equal(busy.code, CODES.RULE, 'one upgrade in flight per terminal');
  await t1.start();
  const done = await until('both upgraded', async () => {
    const u = await upgrades(A, { firmware_id: fw.data.id });
    return u.every((x) => x.state === 'done') ? u : undefined;
  });
  assert.deepEqual(
    done!.map((u) => [u.version_before, u.version_after]),
    [
      ['Ver 2.4.1', 'Ver 3.0.0'],
      ['Ver 2.4.1', 'Ver 3.0.0'],
    ],
  );
  assert.equal(t1.firmware, 'Ver 3.0.0');
  assert.equal(t1.rebootCount, 1, 'the terminal restarted once');
  const info = await call(t.app, 'GET', '/device/info', { token: A.main, query: { id: d1 } });
  assert.equal(info.data.version, 'Ver 3.0.0');

  // A file that is not firmware for this terminal: refused (-1004), shown as spec §8 "upgrade unknown version".
  const refused = await call(t.app, 'POST', '/firmware/upgrade', { token: A.main, body: { firmware_id: bad.data.id, device_ids: [d2] } });
  assert.equal(refused.code, CODES.OK, refused.message);
  const failed = await until('the refusal', async () => {
    const u = (await upgrades(A, { device_id: d2 }))[0]!;
    return u.state === 'failed' ? u : undefined;
  });
  assert.equal(failed!.code, -1004);
  assert.match(failed!.reason, /Upgrade unknown version/);
  assert.equal(t2.firmware, 'Ver 3.0.0', 'the terminal kept its firmware');
  // The terminal's own refusal code otherwise (here: unsupported), with its meaning.
  t2.setFailOn({ codes: { UPGRADE: -1002 } });
  await call(t.app, 'POST', '/firmware/upgrade', { token: A.main, body: { firmware_id: fw.data.id, device_ids: [d2] } });
  const unsupported = await until('the unsupported refusal', async () => {
    const u = (await upgrades(A, { device_id: d2 }))[0]!;
    return u.state === 'failed' ? u : undefined;
  });
  assert.equal(unsupported!.code, -1002);
  assert.match(unsupported!.reason, /^Upgrade failed: /);
  t2.setFailOn({ codes: {} });
  // The firmware an upgrade in flight needs cannot be deleted; once done it can.
  assert.equal((await call(t.app, 'POST', '/firmware/delete', { token: A.main, body: { id: fw.data.id } })).code, CODES.OK);
  assert.equal((await upgrades(A, { firmware_id: fw.data.id })).length, 0, 'its upgrades go with it');
});

test('only the terminal an upgrade was sent to can download its file', async () => {
  const fw = await upload(t, '/firmware/upload', A.main, { name: 'emfw.cfg', data: emulatorFirmware('Ver 4.0.0') }, { name: 'FW4', version: 'Ver 4.0.0' });
  const d3 = await device(A, 'FLEET03');
  await device(B, 'OTHER01');
  const sent = await call(t.app, 'POST', '/firmware/upgrade', { token: A.main, body: { firmware_id: fw.data.id, device_ids: [d3] } });
  const url = `firmware/${sent.data[0].id}/emfw.cfg`;
  const get = (sn: string) => fetch(`${server}/iclock/file?SN=${sn}&url=${encodeURIComponent(url)}`);
  assert.equal((await get('OTHER01')).status, 404, "another company's terminal");
  assert.equal((await get('NOSUCH01')).status, 403, 'an unregistered serial');
  const own = await get('FLEET03');
  assert.equal(own.status, 200);
  assert.deepEqual(Buffer.from(await own.arrayBuffer()), emulatorFirmware('Ver 4.0.0'));
  assert.equal((await upgrades(A, { device_id: d3 }))[0]!.state, 'downloading');
  assert.equal((await fetch(`${server}/iclock/file?SN=FLEET03&url=${encodeURIComponent('firmware/999999/emfw.cfg')}`)).status, 404);
  // A terminal busy downloading for minutes is not given up after the usual 3 minutes, but after 20.
  const { db } = t.app.database;
  const wire: Wire<number> = { encode: (_op, id) => id, size: () => 1, maxBatchBytes: 1_000_000 };
  const row = await db.selectFrom('devices').selectAll().where('id', '=', d3).executeTakeFirstOrThrow();
  const sentAgo = (min: number) =>
    db
      .updateTable('device_commands')
      .set({ state: 'sent', sent_at: new Date(Date.now() - min * 60_000).toISOString() })
      .where('device_id', '=', d3)
      .execute();
  const commandState = async () => (await db.selectFrom('device_commands').select('state').where('device_id', '=', d3).executeTakeFirstOrThrow()).state;
  await sentAgo(5);
  await t.app.modules.devices.sync.plan(row, wire);
  assert.equal(await commandState(), 'sent');
  await sentAgo(25);
  await t.app.modules.devices.sync.plan(row, wire);
  assert.equal(await commandState(), 'failed');
  assert.equal((await upgrades(A, { device_id: d3 }))[0]!.reason, 'Upgrade failed: the device did not answer');
});

test("a terminal's log file is captured for support and downloadable; 'Log capture failed' when it cannot", async () => {
  const d4 = await device(A, 'FLEET04');
  const t4 = terminal(server, 'FLEET04');
  await t4.start();
  const cap = await call(t.app, 'POST', '/device/log/capture', { token: A.main, body: { id: d4 } });
  assert.equal(cap.code, CODES.OK, cap.message);
  assert.equal(cap.data.state, 'pending');
  type Capture = { id: number; state: string; size: number; file_name: string };
  const got = await until('the log file', async () => {
    const l = (await call(t.app, 'GET', '/device/log/list', { token: A.main, query: { id: d4 } })).data[0] as Capture;
    return l.state === 'done' ? l : undefined;
  });
  assert.equal(got!.file_name, EMULATOR_LOG_FILE);
  assert.ok(got!.size > 0);
  const file = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/device/log/file/${got!.id}`, headers: { 'x-token': A.main } });
  assert.equal(file.statusCode, 200);
  assert.match(file.headers['content-disposition'] as string, /attachment; filename="FLEET04-.*push\.log"/);
  assert.equal(file.rawPayload.length, got!.size);
  assert.match(file.payload, /handshake online/, "the terminal's own log lines");
  // Another company: not found, for the file and the device.
  assert.equal((await call(t.app, 'GET', `/device/log/file/${got!.id}`, { token: B.main })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'GET', '/device/log/list', { token: B.main, query: { id: d4 } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/device/log/capture', { token: B.main, body: { id: d4 } })).code, CODES.NOT_FOUND);

  // A terminal that cannot (GetFile unsupported): spec §8 "Log capture failed", with the reason.
  t4.setFailOn({ codes: { GETFILE: -1002 } });
  await call(t.app, 'POST', '/device/log/capture', { token: A.main, body: { id: d4 } });
  const failed = await until('the failure', async () => {
    const l = (await call(t.app, 'GET', '/device/log/list', { token: A.main, query: { id: d4 }, lang: 'en-US' })).data[0] as {
      state: string;
      reason: string;
      code: number;
    };
    return l.state === 'failed' ? l : undefined;
  });
  assert.equal(failed!.code, -1002);
  assert.match(failed!.reason, /^Log capture failed: /);
});

test('a ZK and an ISAPI terminal upgraded side by side: the package uploaded to the Hikvision one, its restart, the version before and after', async () => {
  const zkFw = await upload(t, '/firmware/upload', A.main, { name: 'emfw.cfg', data: emulatorFirmware('Ver 5.0.0') }, { name: 'ZK5', version: 'Ver 5.0.0' });
  const hikFw = await upload(
    t,
    '/firmware/upload',
    A.main,
    { name: 'digicap.dav', data: isapiEmulatorFirmware('V3.3.0', { build: 'build 250101', model: 'DS-K1T671M', language: 'English' }) },
    { name: 'DS-K1T671M', version: 'V3.3.0' },
  );
  assert.equal(hikFw.code, CODES.OK, hikFw.message);
  const zk = await device(A, 'FLEET06');
  const zkTerm = terminal(server, 'FLEET06', { firmware: 'Ver 2.4.1', rebootMs: 100 });
  await zkTerm.start();
  const hik = await isapiDevice(A, 'HIKFLEET1');
  await until('both report their firmware', async () => {
    const r = await call(t.app, 'GET', '/device/list', { token: A.main, query: { page: 1, pageSize: 50 } });
    const v = new Map((r.data.items as { id: number; version: string }[]).map((d) => [d.id, d.version]));
    return v.get(zk) === 'Ver 2.4.1' && v.get(hik.id) === 'V3.2.0 build 241120';
  });
  for (const [fw, id] of [
    [zkFw, zk],
    [hikFw, hik.id],
  ] as const) {
    const sent = await call(t.app, 'POST', '/firmware/upgrade', { token: A.main, body: { firmware_id: fw.data.id, device_ids: [id] } });
    assert.equal(sent.code, CODES.OK, sent.message);
  }
  const [zkDone, hikDone] = [await upgradeOf(A, zk, 'the ZK upgrade'), await upgradeOf(A, hik.id, 'the ISAPI upgrade')];
  assert.deepEqual([zkDone.state, zkDone.version_before, zkDone.version_after], ['done', 'Ver 2.4.1', 'Ver 5.0.0']);
  // The terminal shows its build after the version: "V3.3.0 build 250101" is firmware V3.3.0.
  assert.deepEqual([hikDone.state, hikDone.version_before, hikDone.version_after], ['done', 'V3.2.0 build 241120', 'V3.3.0 build 250101']);
  assert.equal(hik.emu.firmware, 'V3.3.0');
  assert.equal(hik.emu.rebootCount, 1, 'told to restart once');
  assert.ok(hik.emu.requests.includes('PUT /ISAPI/System/updateFirmware') && hik.emu.requests.includes('GET /ISAPI/System/upgradeStatus'));
  const info = await call(t.app, 'GET', '/device/info', { token: A.main, query: { id: hik.id } });
  assert.equal(info.data.version, 'V3.3.0 build 250101');
});

test("an ISAPI terminal's refusals: spec §8 'upgrade unknown version' for a package not for it, the meaning otherwise; a hung or garbled status ends", async () => {
  const { emu, id } = await isapiDevice(A, 'HIKFLEET2');
  await until('online', async () => (await call(t.app, 'GET', '/device/info', { token: A.main, query: { id } })).data.online);
  const fw = async (name: string, data: Buffer, version: string) => {
    const r = await upload(t, '/firmware/upload', A.main, { name, data }, { name, version });
    assert.equal(r.code, CODES.OK, r.message);
    return r.data.id as number;
  };
  const tryUpgrade = async (firmwareId: number, what: string) => {
    const sent = await call(t.app, 'POST', '/firmware/upgrade', { token: A.main, body: { firmware_id: firmwareId, device_ids: [id] } });
    assert.equal(sent.code, CODES.OK, sent.message);
    return upgradeOf(A, id, what);
  };
  const zkPackage = await tryUpgrade(await fw('emfw.cfg', emulatorFirmware('Ver 9.0.0'), 'Ver 9.0.0'), 'a ZK package refused');
  assert.deepEqual([zkPackage.state, zkPackage.code], ['failed', 620]);
  assert.match(zkPackage.reason, /^Upgrade unknown version/);
  const chinese = await tryUpgrade(await fw('cn.dav', isapiEmulatorFirmware('V3.5.0', { language: 'Chinese' }), 'V3.5.0'), 'another language');
  assert.deepEqual([chinese.code, chinese.state], [621, 'failed']);
  assert.match(chinese.reason, /^Upgrade unknown version/);
  const older = await tryUpgrade(await fw('old.dav', isapiEmulatorFirmware('V3.0.0'), 'V3.0.0'), 'an older version');
  assert.equal(older.code, 622);
  assert.equal(older.reason, 'Upgrade failed: The terminal refuses a firmware older than the one it runs');
  assert.equal(emu.firmware, 'V3.2.0', 'it kept its firmware');
  assert.equal(emu.rebootCount, 0);

  // A status that never finishes: given up after the bounded wait, not followed for ever.
  emu.setUpgradeTrouble({ stuck: true });
  const polled = () => emu.requests.filter((r) => r === 'GET /ISAPI/System/upgradeStatus').length;
  const before = polled();
  const hung = await tryUpgrade(await fw('hung.dav', isapiEmulatorFirmware('V3.6.0'), 'V3.6.0'), 'a hung upgrade');
  assert.deepEqual([hung.state, hung.code], ['failed', 903]);
  assert.match(hung.reason, /^Upgrade failed: The terminal did not answer in time/);
  // Followed at the poll interval until the deadline, then left: at most flashTimeoutMs / pollMs status reads (a busy
  // machine reads fewer, never more), and none after the upgrade ended.
  const reads = polled() - before;
  assert.ok(reads >= 1 && reads <= 3000 / 50 + 1, `${reads} status reads`);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(polled() - before, reads, 'no status read after the upgrade was given up');
  // Garbage for a status: refused as unreadable (the terminal, still busy writing, says so to the next one).
  const other = await isapiDevice(A, 'HIKFLEET3');
  other.emu.inject({ path: '/ISAPI/System/upgradeStatus', badJson: true });
  await call(t.app, 'POST', '/firmware/upgrade', {
    token: A.main,
    body: { firmware_id: await fw('g.dav', isapiEmulatorFirmware('V3.7.0'), 'V3.7.0'), device_ids: [other.id] },
  });
  const garbled = await upgradeOf(A, other.id, 'a garbled status');
  assert.deepEqual([garbled.state, garbled.code], ['failed', 904]);
  // The server is fine: the first terminal still answers.
  assert.equal((await call(t.app, 'GET', '/device/info', { token: A.main, query: { id } })).code, CODES.OK);
});

test("an ISAPI terminal's log search is captured as a text file, downloadable; 'Log capture failed' when it cannot", async () => {
  const { emu, id } = await isapiDevice(A, 'HIKFLEET4');
  await until('online', async () => (await call(t.app, 'GET', '/device/info', { token: A.main, query: { id } })).data.online);
  await call(t.app, 'POST', '/device/open', { token: A.main, body: { id } });
  type Capture = { id: number; state: string; size: number; file_name: string; reason: string; code: number | null };
  const capture = async (what: string) => {
    const cap = await call(t.app, 'POST', '/device/log/capture', { token: A.main, body: { id } });
    assert.equal(cap.code, CODES.OK, cap.message);
    return (await until(what, async () => {
      const l = (await call(t.app, 'GET', '/device/log/list', { token: A.main, query: { id }, lang: 'en-US' })).data[0] as Capture;
      return l.id === cap.data.id && l.state !== 'pending' ? l : undefined;
    }))!;
  };
  const got = await capture('the log');
  assert.equal(got.state, 'done');
  assert.equal(got.file_name, 'isapi-log.txt');
  const file = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/device/log/file/${got.id}`, headers: { 'x-token': A.main } });
  assert.equal(file.statusCode, 200);
  assert.match(file.headers['content-disposition'] as string, /attachment; filename="HIKFLEET4-.*isapi-log\.txt"/);
  const lines = file.payload.split('\n');
  assert.match(lines[0]!, /^# HIKFLEET4 .*terminal's log from/);
  assert.ok(
    lines.some((l) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \| Operation\/powerOn \|/.test(l)),
    'its boot',
  );
  assert.ok(
    lines.some((l) => /\| Operation\/remoteLogin \| admin \| /.test(l)),
    'our login',
  );
  assert.ok(
    lines.some((l) => /\| Operation\/remoteOpenDoor \|/.test(l)),
    'the door opened',
  );
  assert.equal(file.rawPayload.length, got.size);
  assert.equal((await call(t.app, 'GET', `/device/log/file/${got.id}`, { token: B.main })).code, CODES.NOT_FOUND);

  // A terminal without the log search, then one answering garbage: spec §8 "Log capture failed", with the reason.
  emu.inject({ path: '/ISAPI/ContentMgmt/logSearch', times: 1, status: { http: 404, statusCode: 4, subStatusCode: 'notSupport' } });
  const unsupported = await capture('the unsupported capture');
  assert.equal(unsupported.state, 'failed');
  assert.equal(unsupported.reason, 'Log capture failed: The terminal does not support this (notSupport)');
  emu.inject({ path: '/ISAPI/ContentMgmt/logSearch', times: 1, badJson: true });
  const garbled = await capture('the garbled capture');
  assert.equal(garbled.state, 'failed');
  assert.match(garbled.reason, /^Log capture failed: The terminal answered something unreadable/);
});

test('a sub-administrator without the face-device edit right cannot upload, upgrade or capture; with view only, reads', async () => {
  const viewer = await makeSub(t, A, ['faceView']);
  const none = await makeSub(t, A, ['logView']);
  const d5 = await device(A, 'FLEET05');
  const fw = (await call(t.app, 'GET', '/firmware/list', { token: A.main })).data[0] as { id: number } | undefined;
  for (const token of [viewer.token, none.token]) {
    assert.equal((await upload(t, '/firmware/upload', token, { name: 'x', data: Buffer.from('x') }, { name: 'x', version: '1' })).code, CODES.NO_AUTHORITY);
    assert.equal((await call(t.app, 'POST', '/firmware/upgrade', { token, body: { firmware_id: fw?.id ?? 1, device_ids: [d5] } })).code, CODES.NO_AUTHORITY);
    assert.equal((await call(t.app, 'POST', '/device/log/capture', { token, body: { id: d5 } })).code, CODES.NO_AUTHORITY);
  }
  assert.equal((await call(t.app, 'GET', '/firmware/list', { token: viewer.token })).code, CODES.OK);
  assert.equal((await call(t.app, 'GET', '/firmware/list', { token: none.token })).code, CODES.NO_AUTHORITY);
  // Another company's firmware and devices are not found.
  const fwB = await upload(t, '/firmware/upload', B.main, { name: 'b.cfg', data: emulatorFirmware('B1') }, { name: 'B', version: 'B1' });
  assert.equal((await call(t.app, 'POST', '/firmware/upgrade', { token: A.main, body: { firmware_id: fwB.data.id, device_ids: [d5] } })).code, CODES.NOT_FOUND);
  const dB = await device(B, 'OTHER02');
  if (fw)
    assert.equal((await call(t.app, 'POST', '/firmware/upgrade', { token: A.main, body: { firmware_id: fw.id, device_ids: [dB] } })).code, CODES.NOT_FOUND);
});

test('two upgrades of one terminal asked at the same moment: one is queued, the other refused as in flight', async () => {
  const C = await makeCompany(t, 'Fleet C');
  const fw = await upload(t, '/firmware/upload', C.main, { name: 'emfw.cfg', data: emulatorFirmware('Ver 5.0.0') }, { name: 'FW5', version: 'Ver 5.0.0' });
  assert.equal(fw.code, CODES.OK, fw.message);
  // a terminal that is not calling in: whatever is queued for it stays in flight
  const d = await device(C, 'FLEET09');
  const answers = await Promise.all(
    [1, 2, 3].map(() => call(t.app, 'POST', '/firmware/upgrade', { token: C.main, body: { firmware_id: fw.data.id, device_ids: [d] } })),
  );
  assert.deepEqual(answers.map((a) => a.code).sort(), [CODES.OK, CODES.RULE, CODES.RULE].sort());
  assert.equal((await upgrades(C, { device_id: d })).length, 1, 'one upgrade queued');
});
