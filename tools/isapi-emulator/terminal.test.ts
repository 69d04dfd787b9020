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
import { LIST_MAX } from './searches.ts';
import { seedSite } from './site.ts';
import { createIsapiTerminal, isapiEmulatorFirmware, isapiTime, parseIsapiTime, type IsapiTerminal, type TakeOverSearch } from './terminal.ts';

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

// ---- a terminal that already holds a working site, and the searches a take-over makes of it (§12)

/** A JSON request under digest: the HTTP status and the parsed answer. */
async function json(d: IsapiTarget, method: 'GET' | 'POST', path: string, body?: unknown) {
  const r = await client.request(d, { method, path, ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }) });
  return { status: r.status, j: JSON.parse(r.text) as Record<string, any> };
}
/** Pages a search from position 0, 30 asked… or `asked`, advancing by the numOfMatches returned, as §12.1 says to. */
async function pageAll(d: IsapiTarget, path: string, cond: (pos: number) => unknown, read: (j: Record<string, any>) => Record<string, any>, asked = 30) {
  const pages: Record<string, any>[] = [];
  for (let pos = 0; pages.length < 200;) {
    const page = read((await json(d, 'POST', path, cond(pos))).j);
    assert.ok(page.numOfMatches <= 30, `a page holds at most the capability's 30, not the ${asked} asked`);
    pages.push(page);
    pos += page.numOfMatches;
    if (page.responseStatusStrg !== 'MORE' || !page.numOfMatches) break;
  }
  return pages;
}
const NOW = Date.UTC(2026, 10, 26, 4, 0, 0);

test('a seeded site is deterministic and holds every user type, several cards for some, fingerprints, and faces whose bytes differ', async () => {
  const [a, b, c] = [await terminal(), await terminal(), await terminal()];
  const sa = seedSite(a, { people: 150, events: 400, seed: 5, now: NOW });
  seedSite(b, { people: 150, events: 400, seed: 5, now: NOW });
  seedSite(c, { people: 150, events: 400, seed: 6, now: NOW });
  assert.deepEqual([...a.users.values()], [...b.users.values()]);
  assert.deepEqual([...a.cards], [...b.cards]);
  assert.deepEqual([...a.faces], [...b.faces]);
  assert.deepEqual(a.events, b.events);
  assert.notDeepEqual([...a.users.values()], [...c.users.values()], 'another seed, another site');
  assert.equal(sa.people, 150);
  assert.ok(sa.normal > 100 && sa.visitors > 0 && sa.blackList > 0 && sa.multiCard > 0 && sa.fingerprints > 0, JSON.stringify(sa));
  assert.ok(a.cardTypes.size > 0, 'some cards are not normal cards');
  assert.equal(a.users.get('2')?.userType, 'visitor');
  assert.equal(a.users.get('3')?.userType, 'blackList');
  assert.equal(new Set([...a.faces.values()].map((f) => f.toString('base64'))).size, a.faces.size, 'no two faces alike');
  for (const f of a.faces.values()) assert.deepEqual([f[0], f[1], f.at(-2), f.at(-1)], [0xff, 0xd8, 0xff, 0xd9]);
  assert.equal(a.events.length, 400);
  assert.ok(
    a.events.every((e, i) => e.serialNo === i + 1 && e.at < NOW && (i === 0 || e.at >= a.events[i - 1]!.at)),
    'the log: oldest first, in the past',
  );
  assert.ok(new Set(a.events.map((e) => e.minor)).size >= 3, 'faces, cards, strangers');
  assert.throws(() => seedSite(a, { people: 3000 }), /do not fit/);
});

test('UserInfo/Search: capped at the capability without an error, paged by numOfMatches it lists everybody once; EmployeeNoList; passwords withheld', async () => {
  const t = await terminal({ serial: 'EMU-SITE-U' });
  const d = target(t);
  seedSite(t, { people: 150, seed: 2, now: NOW });
  const caps = (await json(d, 'GET', '/ISAPI/AccessControl/UserInfo/capabilities?format=json')).j.UserInfo;
  assert.equal(caps.UserInfoSearchCond.maxResults['@max'], 30);
  assert.equal(caps.UserInfoSearchCond.EmployeeNoList.maxSize, LIST_MAX);
  const path = '/ISAPI/AccessControl/UserInfo/Search?format=json';
  const cond = (pos: number) => ({ UserInfoSearchCond: { searchID: 'take-1', searchResultPosition: pos, maxResults: 100 } });
  const pages = await pageAll(d, path, cond, (j) => j.UserInfoSearch, 100);
  assert.deepEqual(
    pages.map((p) => p.responseStatusStrg),
    ['MORE', 'MORE', 'MORE', 'MORE', 'OK'],
  );
  assert.ok(pages.every((p) => p.searchID === 'take-1' && p.totalMatches === 150));
  const people = pages.flatMap((p) => p.UserInfo as Record<string, any>[]);
  assert.deepEqual(
    people.map((u) => u.employeeNo),
    [...t.users.keys()],
    'everybody exactly once',
  );
  const cardsOf = (no: string) => [...t.cards.values()].filter((w) => w === no).length;
  for (const u of people) {
    assert.equal(u.numOfCard, cardsOf(u.employeeNo));
    assert.equal(u.numOfFP, t.fingerprints.get(u.employeeNo) ?? 0);
    assert.equal(u.numOfFace, t.faces.has(u.employeeNo) ? 1 : 0);
    assert.equal(u.password, '');
    assert.equal(u.faceURL, undefined, 'no faceURL unless the firmware gives one');
    assert.deepEqual(u.Valid, { ...t.users.get(u.employeeNo)!.valid, timeType: 'local' });
  }
  assert.ok(
    [...t.users.values()].some((u) => u.password),
    'the site has door passwords, withheld',
  );
  const chosen = await json(d, 'POST', path, {
    UserInfoSearchCond: {
      searchID: 'take-2',
      searchResultPosition: 0,
      maxResults: 30,
      EmployeeNoList: [{ employeeNo: '5' }, { employeeNo: 'nobody' }, { employeeNo: '2' }],
    },
  });
  assert.deepEqual(
    chosen.j.UserInfoSearch.UserInfo.map((u: { employeeNo: string }) => u.employeeNo),
    ['2', '5'],
  );
  assert.equal(chosen.j.UserInfoSearch.responseStatusStrg, 'OK');
  const past = (await json(d, 'POST', path, cond(150))).j.UserInfoSearch;
  assert.equal(past.responseStatusStrg, 'NO MATCH');
  assert.ok(!('UserInfo' in past), 'no list at all, not an empty one');
  const tooMany = Array.from({ length: LIST_MAX + 1 }, (_, i) => ({ employeeNo: String(i + 1) }));
  const refused = await json(d, 'POST', path, { UserInfoSearchCond: { searchID: 'x', searchResultPosition: 0, maxResults: 30, EmployeeNoList: tooMany } });
  assert.equal(refused.status, 400);
  assert.equal(refused.j.subStatusCode, 'badParameters');
});

test('CardInfo/Search: every card paged with its type; by EmployeeNoList or CardNoList; NO MATCH without a CardInfo key', async () => {
  const t = await terminal({ serial: 'EMU-SITE-C' });
  const d = target(t);
  seedSite(t, { people: 120, seed: 3, now: NOW });
  const path = '/ISAPI/AccessControl/CardInfo/Search?format=json';
  const cond = (extra: object) => (pos: number) => ({ CardInfoSearchCond: { searchID: 'cards', searchResultPosition: pos, maxResults: 30, ...extra } });
  const all = (await pageAll(d, path, cond({}), (j) => j.CardInfoSearch)).flatMap((p) => p.CardInfo as Record<string, any>[]);
  assert.deepEqual(
    all.map((c) => [c.cardNo, c.employeeNo, c.cardType]),
    [...t.cards].map(([card, who]) => [card, who, t.cardTypes.get(card) ?? 'normalCard']),
  );
  const held = new Map<string, string[]>();
  for (const [card, who] of t.cards) held.set(who, [...(held.get(who) ?? []), card]);
  const [several, theirs] = [...held].find(([, cs]) => cs.length > 1)!;
  const one = (await json(d, 'POST', path, cond({ EmployeeNoList: [{ employeeNo: several }] })(0))).j.CardInfoSearch;
  assert.deepEqual(
    one.CardInfo.map((c: { cardNo: string }) => c.cardNo),
    theirs,
  );
  assert.equal(one.responseStatusStrg, 'OK');
  const byNo = (await json(d, 'POST', path, cond({ CardNoList: [{ cardNo: theirs[1] }] })(0))).j.CardInfoSearch;
  assert.deepEqual(byNo.CardInfo, [{ employeeNo: several, cardNo: theirs[1], leaderCard: '', cardType: t.cardTypes.get(theirs[1]!) ?? 'normalCard' }]);
  const cardless = [...t.users.keys()].find((no) => !held.has(no))!;
  const none = (await json(d, 'POST', path, cond({ EmployeeNoList: [{ employeeNo: cardless }] })(0))).j.CardInfoSearch;
  assert.equal(none.responseStatusStrg, 'NO MATCH');
  assert.equal(none.numOfMatches, 0);
  assert.ok(!('CardInfo' in none));
  const both = await json(d, 'POST', path, cond({ EmployeeNoList: [{ employeeNo: several }], CardNoList: [{ cardNo: theirs[0] }] })(0));
  assert.equal(both.status, 400, 'EmployeeNoList or CardNoList, not both');
});

test("FDSearch: faceURL on the terminal's own host, fetched by path with digest; a new search retires the old token; no picture is a 404 page", async () => {
  const t = await terminal({ serial: 'EMU-SITE-F', selfAddress: '192.168.1.64', faceUrlInUserSearch: true });
  const d = target(t);
  seedSite(t, { people: 70, seed: 4, now: NOW });
  const path = '/ISAPI/Intelligent/FDLib/FDSearch?format=json';
  const cond = (pos: number, fpid?: string) => ({
    searchResultPosition: pos,
    maxResults: 30,
    faceLibType: 'blackFD',
    FDID: '1',
    ...(fpid ? { FPID: fpid } : {}),
  });
  const pages = await pageAll(
    d,
    path,
    (pos) => cond(pos),
    (j) => j,
  );
  const matches = pages.flatMap((p) => p.MatchList as { FPID: string; faceURL: string; name: string }[]);
  assert.deepEqual(
    matches.map((m) => m.FPID),
    [...t.faces.keys()],
  );
  assert.equal(pages[0]!.totalMatches, t.faces.size);
  const count = (await json(d, 'GET', '/ISAPI/Intelligent/FDLib/Count?format=json&FDID=1&faceLibType=blackFD')).j;
  assert.deepEqual(count.FDRecordDataInfo, [{ FDID: '1', faceLibType: 'blackFD', name: '', recordDataNumber: t.faces.size }]);
  const url = /^http:\/\/192\.168\.1\.64(\/LOCALS\/pic\/enrlFace\/0\/\d{10}\.jpg@WEB\d{12})$/;
  const localPath = (u: string) => url.exec(u)?.[1] ?? assert.fail(`not a face URL: ${u}`);
  const fetchPicture = (p: string) => client.request(d, { method: 'GET', path: p });

  const who = matches[3]!;
  const first = localPath(who.faceURL);
  const picture = await fetchPicture(first);
  assert.equal(picture.status, 200);
  assert.match(picture.contentType, /^image\/jpeg/);
  assert.deepEqual(picture.body, t.faces.get(who.FPID));
  const again = (await json(d, 'POST', path, cond(0, who.FPID))).j;
  assert.equal(again.numOfMatches, 1);
  const second = localPath(again.MatchList[0].faceURL);
  assert.notEqual(second, first, 'a new token at each search');
  assert.equal(second.split('@')[0], first.split('@')[0], 'the same file');
  const stale = await fetchPicture(first);
  assert.equal(stale.status, 404, 'the old token no longer opens it');
  assert.match(stale.text, /Can't locate document/);
  assert.deepEqual((await fetchPicture(second)).body, t.faces.get(who.FPID));
  const anonymous = await fetch(`${t.url}${second}`);
  assert.equal(anonymous.status, 401, 'behind digest like any request');
  await anonymous.arrayBuffer();
  // the faceURL some firmware puts in UserInfo/Search is one more listing
  const listed = (
    await json(d, 'POST', '/ISAPI/AccessControl/UserInfo/Search?format=json', {
      UserInfoSearchCond: { searchID: 'u', searchResultPosition: 0, maxResults: 30, EmployeeNoList: [{ employeeNo: who.FPID }] },
    })
  ).j;
  const third = localPath(listed.UserInfoSearch.UserInfo[0].faceURL);
  assert.equal((await fetchPicture(second)).status, 404);
  t.faces.delete(who.FPID);
  const gone = await fetchPicture(third);
  assert.equal(gone.status, 404, 'no picture any more');
  assert.match(gone.contentType, /text\/html/);
  const none = (await json(d, 'POST', path, cond(0, who.FPID))).j;
  assert.equal(none.responseStatusStrg, 'NO MATCHES');
  assert.ok(!('MatchList' in none));
  assert.equal((await json(d, 'POST', path, { ...cond(0), faceLibType: 'infraredFD', FDID: '2' })).j.totalMatches, 0);
  assert.equal((await json(d, 'POST', path, { ...cond(0), FDID: '7' })).status, 400);
});

test('AcsEvent: employeeNoString, serial bounds and timeReverseOrder; AcsEventTotalNum counts what the same condition selects', async () => {
  const t = await terminal({ serial: 'EMU-SITE-E', capturesKept: 50 });
  const d = target(t);
  seedSite(t, { people: 40, events: 600, seed: 8, now: NOW, days: 10 });
  const path = '/ISAPI/AccessControl/AcsEvent?format=json';
  const search = (c: object) =>
    pageAll(
      d,
      path,
      (pos) => ({ AcsEventCond: { searchID: 'ev', searchResultPosition: pos, maxResults: 30, ...c } }),
      (j) => j.AcsEvent,
    );
  const total = async (c: object) =>
    (await json(d, 'POST', '/ISAPI/AccessControl/AcsEventTotalNum?format=json', { AcsEventTotalNumCond: c })).j.AcsEventTotalNum.totalNum;
  const serials = (pages: Record<string, any>[]) => pages.flatMap((p) => (p.InfoList ?? []).map((e: { serialNo: number }) => e.serialNo));
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

  const bounded = { major: 0, minor: 0, beginSerialNo: 100, endSerialNo: 159 };
  assert.deepEqual(serials(await search(bounded)), range(100, 159));
  assert.equal(await total(bounded), 60);
  assert.deepEqual(serials(await search({ ...bounded, timeReverseOrder: true })), range(100, 159).reverse(), 'newest first');
  // a day of it, the way the import asks, with the offset
  const day = { major: 5, minor: 0, startTime: isapiTime(NOW - 3 * 86_400_000, 480), endTime: isapiTime(NOW - 2 * 86_400_000 - 1000, 480) };
  const expected = t.events.filter((e) => e.major === 5 && e.at >= NOW - 3 * 86_400_000 && e.at < NOW - 2 * 86_400_000).map((e) => e.serialNo);
  assert.ok(expected.length > 0);
  assert.deepEqual(serials(await search(day)), expected);
  assert.equal(await total(day), expected.length);
  const someone = t.events.find((e) => e.employeeNo)!.employeeNo;
  const theirs = await search({ major: 5, minor: 0, employeeNoString: someone });
  assert.deepEqual(
    serials(theirs),
    t.events.filter((e) => e.employeeNo === someone && e.major === 5).map((e) => e.serialNo),
  );
  assert.equal(await total({ major: 5, minor: 0, employeeNoString: someone }), serials(theirs).length);
  // capture pictures: only the newest face events still have one
  const newest = (await search({ major: 5, minor: 0, beginSerialNo: 540 })).flatMap((p) => p.InfoList as Record<string, any>[]);
  const oldest = (await search({ major: 5, minor: 0, endSerialNo: 100 })).flatMap((p) => p.InfoList as Record<string, any>[]);
  assert.ok(newest.some((e) => e.pictureURL) && newest.every((e) => !!e.pictureURL === (e.currentVerifyMode === 'face' && e.serialNo > 550)));
  assert.ok(oldest.every((e) => e.pictureURL === undefined));
  const capture = new URL(newest.find((e) => e.pictureURL)!.pictureURL as string).pathname;
  assert.match(capture, /^\/LOCALS\/pic\/acsLinkCap\/.+\.jpeg@WEB\d{12}$/);
  assert.deepEqual((await client.request(d, { method: 'GET', path: capture })).body.subarray(0, 2), Buffer.from([0xff, 0xd8]));
  assert.equal((await client.request(d, { method: 'GET', path: capture.split('@')[0]! })).status, 404, 'not without its token');
  assert.equal((await json(d, 'POST', path, { AcsEventCond: { searchID: 'x', searchResultPosition: 0, maxResults: 30, endSerialNo: 'soon' } })).status, 400);
});

test('a search the firmware lacks answers notSupport with HTTP 200 (injectable for each); the access-control face search always does', async () => {
  const t = await terminal({ serial: 'EMU-SITE-N', unsupported: ['FDLib/FDSearch'] });
  const d = target(t);
  seedSite(t, { people: 5, events: 5, seed: 9, now: NOW });
  const calls: [TakeOverSearch, 'GET' | 'POST', string, unknown][] = [
    [
      'UserInfo/Search',
      'POST',
      '/ISAPI/AccessControl/UserInfo/Search?format=json',
      { UserInfoSearchCond: { searchID: 'a', searchResultPosition: 0, maxResults: 30 } },
    ],
    [
      'CardInfo/Search',
      'POST',
      '/ISAPI/AccessControl/CardInfo/Search?format=json',
      { CardInfoSearchCond: { searchID: 'b', searchResultPosition: 0, maxResults: 30 } },
    ],
    ['FDLib/FDSearch', 'POST', '/ISAPI/Intelligent/FDLib/FDSearch?format=json', { searchResultPosition: 0, maxResults: 30, faceLibType: 'blackFD', FDID: '1' }],
    ['FDLib/Count', 'GET', '/ISAPI/Intelligent/FDLib/Count?format=json&FDID=1&faceLibType=blackFD', undefined],
    ['AcsEvent', 'POST', '/ISAPI/AccessControl/AcsEvent?format=json', { AcsEventCond: { searchID: 'c', searchResultPosition: 0, maxResults: 30 } }],
    ['AcsEventTotalNum', 'POST', '/ISAPI/AccessControl/AcsEventTotalNum?format=json', { AcsEventTotalNumCond: { major: 5, minor: 0 } }],
  ];
  const refusal = { statusCode: 4, statusString: 'Invalid Operation', subStatusCode: 'notSupport' };
  const answers = async () => Promise.all(calls.map(async ([, method, path, body]) => json(d, method, path, body)));
  const notSupport = (a: { status: number; j: Record<string, any> }) => a.status === 200 && a.j.statusCode === 4 && a.j.subStatusCode === 'notSupport';
  assert.deepEqual((await answers()).map(notSupport), [false, false, true, false, false, false], 'the option refuses FDSearch only');
  t.refuseSearches(calls.map(([name]) => name));
  for (const a of await answers()) {
    assert.equal(a.status, 200);
    assert.deepEqual({ statusCode: a.j.statusCode, statusString: a.j.statusString, subStatusCode: a.j.subStatusCode }, refusal);
  }
  t.refuseSearches([]);
  assert.ok((await answers()).every((a) => a.status === 200 && !notSupport(a)));
  const faceInfo = await json(d, 'POST', '/ISAPI/AccessControl/FaceInfo/Search?format=json', {
    FaceInfoSearchCond: { searchID: 'f', searchResultPosition: 0, maxResults: 30 },
  });
  assert.ok(notSupport(faceInfo), 'as in the capture');
});
