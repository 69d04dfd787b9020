import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  encodeOp,
  firmwareRefusal,
  logSearchXml,
  parseDeviceInfo,
  parseLogSearch,
  parseStatus,
  parseUpgradeStatus,
  parseUserCount,
} from '../../apps/server/src/gateways/isapi/codec.ts';
import { eventSearchBody, parseEventSearch } from '../../apps/server/src/gateways/isapi/events.codec.ts';
import { isapiClient, IsapiTransportError, type IsapiTarget } from '../../apps/server/src/gateways/isapi/client.ts';
import { emulatorFirmware } from '../zk-emulator/terminal.ts';
import { createIsapiTerminal, isapiEmulatorFirmware, isapiTime, parseIsapiTime, type IsapiTerminal } from './terminal.ts';

const started: IsapiTerminal[] = [];
after(() => Promise.all(started.map((t) => t.stop())));
async function terminal(opts: Parameters<typeof createIsapiTerminal>[0] = {}) {
  const t = await createIsapiTerminal(opts);
  started.push(t);
  return t;
}
const target = (t: IsapiTerminal, password = t.options.password, id = t.port): IsapiTarget => ({
  id,
  host: '127.0.0.1',
  port: t.port,
  user: 'admin',
  password,
});
const client = isapiClient({ timeoutMs: 3000 });
const send = async (t: IsapiTarget, op: Parameters<typeof encodeOp>[0]) => {
  const out = [];
  for (const r of encodeOp(op)!) {
    const res = await client.request(t, r);
    let s = parseStatus(res.text);
    if (s && r.retryOn?.includes(s.subStatusCode) && r.fallback) s = parseStatus((await client.request(t, r.fallback)).text);
    out.push(s);
  }
  return out;
};

test('digest with SHA-256 or MD5: the device info is answered in XML, a wrong password is refused', async () => {
  for (const algorithms of [['SHA-256', 'MD5'], ['MD5']] as const) {
    const t = await terminal({ algorithms: [...algorithms], serial: `EMUTEST${algorithms.length}` });
    const info = parseDeviceInfo((await client.request(target(t), { method: 'GET', path: '/ISAPI/System/deviceInfo' })).text);
    assert.equal(info?.model, 'DS-K1T671M');
    assert.equal(info?.serialNo, `EMUTEST${algorithms.length}`);
    assert.equal(info?.firmware, 'V3.2.0 build 241120');
    // the session is reused: the second request needs no new challenge
    const before = t.requests.length;
    await client.request(target(t), { method: 'GET', path: '/ISAPI/AccessControl/UserInfo/Count?format=json' });
    assert.equal(t.requests.length, before + 1);
    await assert.rejects(
      client.request(target(t, 'wrong', 9999), { method: 'GET', path: '/ISAPI/System/deviceInfo' }),
      (e: unknown) => e instanceof IsapiTransportError && e.code === 900,
    );
  }
});

test('users, cards and faces: added, modified when present, counted, deleted; capacity and bad photos refused', async () => {
  const t = await terminal({ capacity: 2 });
  const d = target(t);
  const user = { kind: 'user', pin: '7', name: 'Ann', pri: 0, password: '', card: '12345', start: '2026-01-01 00:00:00', end: '2026-12-31 23:59:59' } as const;
  assert.deepEqual(
    (await send(d, user)).map((s) => s?.code),
    [0, 0, 0],
  );
  assert.deepEqual(
    (await send(d, { ...user, name: 'Ann B', card: '777' })).map((s) => s?.code),
    [0, 0, 0],
    'an existing user is modified',
  );
  assert.deepEqual([...t.cards.keys()], ['777'], 'the replaced card no longer opens the door');
  await send(d, { ...user, name: 'Ann B' });
  assert.equal(t.users.get('7')?.name, 'Ann B');
  assert.equal(t.users.get('7')?.valid.endTime, '2026-12-31T23:59:59');
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]).toString('base64');
  assert.equal((await send(d, { kind: 'photo', pin: '7', jpegBase64: jpeg }))[0]?.code, 0);
  assert.equal((await send(d, { kind: 'photo', pin: '7', jpegBase64: jpeg }))[0]?.code, 0, 'a face held is replaced');
  assert.equal((await send(d, { kind: 'photo', pin: '7', jpegBase64: Buffer.from('not a photo').toString('base64') }))[0]?.code, 614);
  assert.equal(parseUserCount((await client.request(d, { method: 'GET', path: '/ISAPI/AccessControl/UserInfo/Count?format=json' })).text), 1);
  await send(d, { ...user, pin: '8', card: '' });
  assert.equal((await send(d, { ...user, pin: '9', card: '' }))[0]?.code, 612, 'the third user is over the capacity');
  assert.equal((await send(d, { kind: 'deleteUser', pin: '7' }))[0]?.code, 0);
  assert.ok(!t.users.has('7') && !t.faces.has('7') && !t.cards.has('12345'));
});

test('recognitions honour validity; the event log is searched page by page; the door opens', async () => {
  const t = await terminal({ searchPage: 2 });
  const d = target(t);
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]).toString('base64');
  await send(d, { kind: 'user', pin: '1', name: 'In', pri: 0, password: '', card: '', start: null, end: null });
  await send(d, { kind: 'photo', pin: '1', jpegBase64: jpeg });
  await send(d, { kind: 'user', pin: '2', name: 'Expired', pri: 0, password: '', card: '', start: '2020-01-01 00:00:00', end: '2020-12-31 23:59:59' });
  await send(d, { kind: 'photo', pin: '2', jpegBase64: jpeg });
  assert.equal((await t.recognize('1')).granted, true);
  assert.equal((await t.recognize('2')).granted, false, 'outside the validity');
  assert.equal((await t.recognize('nobody')).granted, false);
  assert.equal((await t.recognize('1')).granted, true);
  const from = isapiTime(Date.now() - 60_000, 480);
  const to = isapiTime(Date.now() + 60_000, 480);
  const seen = [];
  for (let pos = 0; ;) {
    const page = parseEventSearch(
      (
        await client.request(d, {
          method: 'POST',
          path: '/ISAPI/AccessControl/AcsEvent?format=json',
          body: Buffer.from(JSON.stringify(eventSearchBody('s', pos, 30, from, to))),
        })
      ).text,
    )!;
    seen.push(...page.events);
    pos += page.events.length;
    if (!page.more) break;
  }
  assert.deepEqual(
    seen.map((e) => [e.employeeNo, e.minor]),
    [
      ['1', 75],
      ['2', 76],
      ['', 76],
      ['1', 75],
    ],
  );
  assert.ok(seen.every((e, i) => e.serialNo === i + 1));
  assert.equal((await send(d, { kind: 'unlock', seconds: 5 }))[0]?.code, 0);
  assert.equal(t.doorOpens.length, 1);
  assert.equal(parseIsapiTime('2026-11-26T08:00:00+08:00', 0), Date.UTC(2026, 10, 26, 0, 0, 0));
});

test('injected errors are answered as the terminal would; an unplugged terminal is unreachable until plugged in', async () => {
  const t = await terminal();
  const d = target(t);
  t.inject({ path: 'UserInfo/Record', times: 1, status: { statusCode: 2, subStatusCode: 'deviceBusy' } });
  assert.equal((await send(d, { kind: 'user', pin: '1', name: 'A', pri: 0, password: '', card: '', start: null, end: null }))[0]?.code, 200);
  await t.stop();
  await assert.rejects(
    client.request(d, { method: 'GET', path: '/ISAPI/System/deviceInfo' }),
    (e: unknown) => e instanceof IsapiTransportError && e.code === 902,
  );
  await t.start();
  assert.ok(parseDeviceInfo((await client.request(d, { method: 'GET', path: '/ISAPI/System/deviceInfo' })).text));
});

test('a full terminal answers deviceUserFull; face uploads are counted; an account locks after wrong passwords, with its unlock time', async () => {
  const t = await terminal({ capacity: 1, lockAfter: 2, lockSeconds: 600, serial: 'EMU-LOCK' });
  const d = target(t);
  const user = { kind: 'user', pin: '1', name: 'A', pri: 0, password: '', card: '', start: null, end: null } as const;
  assert.equal((await send(d, user))[0]?.code, 0);
  const full = await client.request(d, encodeOp({ ...user, pin: '2' })![0]!);
  assert.equal(parseStatus(full.text)?.subStatusCode, 'deviceUserFull');
  assert.equal(parseStatus(full.text)?.code, 612);
  // an injected cause, as firmware names it
  t.inject({ path: 'FDLib/FaceDataRecord', times: 1, status: { statusCode: 6, subStatusCode: 'pictureFaceDetectZero' } });
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]).toString('base64');
  assert.equal((await send(d, { kind: 'photo', pin: '1', jpegBase64: jpeg }))[0]?.code, 614);
  assert.equal((await send(d, { kind: 'photo', pin: '1', jpegBase64: jpeg }))[0]?.code, 0);
  assert.equal(t.faceUploads, 2);
  // the account's state, asked with the right password
  assert.match((await client.request(d, { method: 'GET', path: '/ISAPI/Security/userCheck' })).text, /<lockStatus>unlock<\/lockStatus>/);
  // two wrong passwords: locked, for the right one too, with the seconds left
  await assert.rejects(
    client.request(target(t, 'wrong', 501), { method: 'GET', path: '/ISAPI/System/deviceInfo' }),
    (e: unknown) => (e as IsapiTransportError).code === 900,
  );
  await assert.rejects(
    client.request(target(t, 'wrong', 502), { method: 'GET', path: '/ISAPI/System/deviceInfo' }),
    (e: unknown) => e instanceof IsapiTransportError && e.code === 901 && e.retryAfterMs! > 590_000 && e.retryAfterMs! <= 600_000,
  );
  assert.ok(t.lockedUntil > Date.now());
  await assert.rejects(
    client.request(target(t, t.options.password, 503), { method: 'GET', path: '/ISAPI/System/deviceInfo' }),
    (e: unknown) => (e as IsapiTransportError).code === 901,
  );
  t.unlock();
  assert.ok(parseDeviceInfo((await client.request(target(t, t.options.password, 504), { method: 'GET', path: '/ISAPI/System/deviceInfo' })).text));
});

test('firmware: a package for another model, language or an older version is refused; one accepted is written, then applied by the restart', async () => {
  const t = await terminal({ serial: 'EMUFW1', upgradeMs: 200, rebootMs: 100 });
  const d = target(t);
  const put = async (data: Buffer) =>
    parseStatus((await client.request(d, { method: 'PUT', path: '/ISAPI/System/updateFirmware', contentType: 'application/octet-stream', body: data })).text)!;
  const refused = async (data: Buffer) => firmwareRefusal(await put(data));
  assert.equal(await refused(emulatorFirmware('Ver 3.0.0')), 620, 'a ZK package is not for this terminal');
  assert.equal(await refused(Buffer.from('garbage')), 620);
  assert.equal(await refused(isapiEmulatorFirmware('V3.3.0', { model: 'DS-K1T341' })), 620, 'another model');
  assert.equal(await refused(isapiEmulatorFirmware('V3.3.0', { language: 'Chinese' })), 621, 'another language');
  assert.equal(await refused(isapiEmulatorFirmware('V3.1.0')), 622, 'an older version');
  assert.equal(t.firmware, 'V3.2.0');
  const status = async () => parseUpgradeStatus((await client.request(d, { method: 'GET', path: '/ISAPI/System/upgradeStatus' })).text)!;
  assert.deepEqual(await status(), { upgrading: false, percent: 0 });
  const ok = await put(isapiEmulatorFirmware('V3.3.0', { build: 'build 250101', model: 'DS-K1T671M', language: 'English' }));
  assert.equal(ok.statusCode, 7, 'accepted: a restart applies it');
  assert.equal((await status()).upgrading, true);
  assert.equal((await put(isapiEmulatorFirmware('V3.4.0'))).statusCode, 2, 'busy while writing');
  await new Promise((r) => setTimeout(r, 250));
  assert.deepEqual(await status(), { upgrading: false, percent: 100 });
  assert.equal(parseStatus((await client.request(d, { method: 'PUT', path: '/ISAPI/System/reboot' })).text)?.code, 0);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(t.online, false, 'restarting');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(t.online, true);
  assert.equal(parseDeviceInfo((await client.request(d, { method: 'GET', path: '/ISAPI/System/deviceInfo' })).text)?.firmware, 'V3.3.0 build 250101');
  assert.equal(t.rebootCount, 1);

  // Troubles: a status that never finishes; a flash that does not take (back with the old firmware).
  t.setUpgradeTrouble({ stuck: true, flashFails: true });
  await put(isapiEmulatorFirmware('V3.4.0'));
  await new Promise((r) => setTimeout(r, 250));
  assert.equal((await status()).upgrading, true, 'stuck');
  await client.request(d, { method: 'PUT', path: '/ISAPI/System/reboot' });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(t.firmware, 'V3.3.0');
});

test("the terminal's own log is searched page by page: boots, logins, door opens, upgrades", async () => {
  const t = await terminal({ serial: 'EMULOG1', logPage: 2 });
  const d = target(t);
  await send(d, { kind: 'unlock', seconds: 3 });
  const from = isapiTime(Date.now() - 3_600_000, 480);
  const to = isapiTime(Date.now() + 60_000, 480);
  const seen = [];
  for (let pos = 0, pages = 0; pages < 10; pages++) {
    const page = parseLogSearch(
      (
        await client.request(d, {
          method: 'POST',
          path: '/ISAPI/ContentMgmt/logSearch',
          contentType: 'application/xml',
          body: logSearchXml('s', pos, 100, from, to),
        })
      ).text,
    )!;
    seen.push(...page.entries);
    pos += page.entries.length;
    if (!page.more) break;
  }
  assert.deepEqual(
    seen.map((e) => `${e.major}/${e.minor}`),
    ['Operation/powerOn', 'Operation/remoteLogin', 'Operation/remoteOpenDoor'],
  );
  assert.equal(seen[1]!.user, 'admin');
  assert.match(seen[0]!.time, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  const bad = await client.request(d, { method: 'POST', path: '/ISAPI/ContentMgmt/logSearch', body: Buffer.from('<CMSearchDescription/>') });
  assert.equal(parseStatus(bad.text)?.statusCode, 6);
});
