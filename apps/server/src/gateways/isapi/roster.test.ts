import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { seedSite } from '../../../../../tools/isapi-emulator/site.ts';
import type { IsapiTerminal } from '../../../../../tools/isapi-emulator/terminal.ts';
import { makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { addIsapiTerminal, isapiTerminals, makeIsapiApp } from '../../../test/isapi.ts';
import { until } from '../../../test/terminals.ts';
import { ISAPI_CODES } from './codec.ts';
import { addNormalCards, faceUrlOf, listedUser, parseSearchPage, picturePath } from './roster.codec.ts';

/**
 * Reading what a terminal holds (issue #30, docs/isapi-protocol.md §12): the ISAPI emulator seeded with a working site
 * (tools/isapi-emulator/site.ts), a `readRoster` queued through the ledger, and terminal_users compared with the site.
 */
let t: TestApp;
let A: Company;
const terminals = isapiTerminals();

before(async () => {
  ({ t } = await makeIsapiApp());
  A = await makeCompany(t, 'Roster A');
});
after(async () => {
  await terminals.stop();
  await t.close();
});

/** Queues a roster read for the device (as the console's take-over will) and waits for its answer. */
async function readRoster(deviceId: number) {
  const { db } = t.app.database;
  const d = await db.selectFrom('devices').selectAll().where('id', '=', deviceId).executeTakeFirstOrThrow();
  const id = await t.app.modules.devices.sync.queue(db, d, { kind: 'readRoster' });
  return until('the roster read answered', async () => {
    const c = await db.selectFrom('device_commands').select(['state', 'return_code']).where('id', '=', id).executeTakeFirstOrThrow();
    return c.state === 'done' || c.state === 'failed' ? { state: c.state, return_code: c.return_code } : undefined;
  });
}

const rowsOf = (deviceId: number) =>
  t.app.database.db
    .selectFrom('terminal_users')
    .select(['pin', 'name', 'card', 'valid_from', 'valid_to', 'admin', 'kind', 'gender', 'face', 'face_bytes'])
    .where('device_id', '=', deviceId)
    .orderBy('pin')
    .execute();

/** What the roster must hold for a seeded terminal: every user, their first normal card, validity, kind and face. */
function expected(emu: IsapiTerminal) {
  const card = (pin: string) => [...emu.cards].find(([no, who]) => who === pin && !emu.cardTypes.has(no))?.[0] ?? '';
  const bound = (s: string) => (s === '2000-01-01T00:00:00' || s === '2037-12-31T23:59:59' ? '' : s.replace('T', ' '));
  return [...emu.users.values()]
    .map((u) => ({
      pin: u.employeeNo,
      name: u.name,
      card: card(u.employeeNo),
      valid_from: u.valid.enable ? bound(u.valid.beginTime) : '',
      valid_to: u.valid.enable ? bound(u.valid.endTime) : '',
      admin: 0,
      kind: u.userType,
      gender: u.gender === 'male' || u.gender === 'female' ? u.gender : '',
      face_bytes: emu.faces.get(u.employeeNo)?.length ?? 0,
    }))
    .sort((a, b) => (a.pin < b.pin ? -1 : a.pin > b.pin ? 1 : 0));
}

const asRead = (rows: Awaited<ReturnType<typeof rowsOf>>) =>
  rows.map(({ face: _face, ...r }) => ({ ...r, admin: Number(r.admin), face_bytes: Number(r.face_bytes) }));
const count = (emu: IsapiTerminal, tail: string) => emu.requests.filter((r) => r.endsWith(tail)).length;

test('a site of 150 people is read whole: users paged by 30, first normal cards, validity, kinds, and every face', async () => {
  const emu = await terminals.start({ serial: 'DS-ROSTER-150' });
  const site = seedSite(emu, { people: 150, seed: 30, now: Date.parse('2026-11-20T04:00:00Z') });
  assert.ok(site.visitors && site.blackList && site.multiCard && site.faces < 150, `a varied site: ${JSON.stringify(site)}`);
  const id = await addIsapiTerminal(t, A, emu, 'ROSTER150');
  const before = emu.requests.length;
  const done = await readRoster(id);
  assert.deepEqual(done, { state: 'done', return_code: 0 });

  const rows = await rowsOf(id);
  assert.equal(rows.length, 150, 'every user once');
  assert.deepEqual(asRead(rows), expected(emu));
  for (const r of rows) assert.equal(r.face !== '', r.face_bytes > 0, `user ${r.pin}: a face key with its picture`);
  const kept = await t.app.modules.devices.roster.faceFile(A.id, id, [...emu.faces.keys()][0]!);
  assert.ok(kept, 'the face is in the file store');

  const asked = emu.requests.slice(before);
  const of = (tail: string) => asked.filter((r) => r.endsWith(tail)).length;
  assert.equal(of('UserInfo/Search'), 5, '150 users, 30 a page');
  assert.equal(of('CardInfo/Search'), Math.ceil(emu.cards.size / 30));
  assert.equal(of('FDLib/FDSearch'), site.faces, 'one face search per user with a face');
  assert.equal(asked.filter((r) => r.startsWith('GET /LOCALS/pic/enrlFace/')).length, site.faces, 'each picture fetched once');

  // A second read changes nothing.
  assert.deepEqual(await readRoster(id), { state: 'done', return_code: 0 });
  assert.deepEqual(await rowsOf(id), rows);
});

test('a terminal that pages by fewer than asked, lists faceURLs in its user search and names itself by another address', async () => {
  // 25 a page: a reader advancing by the 30 it asked would skip people. The URLs name 10.255.0.1 without a port: the
  // pictures come only from the address the server dials.
  const emu = await terminals.start({ serial: 'DS-ROSTER-URL', searchPage: 25, faceUrlInUserSearch: true, selfAddress: '10.255.0.1' });
  const site = seedSite(emu, { people: 60, seed: 31 });
  const id = await addIsapiTerminal(t, A, emu, 'ROSTERURL');
  assert.deepEqual(await readRoster(id), { state: 'done', return_code: 0 });
  assert.deepEqual(asRead(await rowsOf(id)), expected(emu));
  assert.equal(count(emu, 'UserInfo/Search'), 3, '60 users, 25 a page');
  assert.equal(count(emu, 'FDLib/FDSearch'), 0, 'the URLs the user search listed are fetched as they are');
  assert.equal(emu.requests.filter((r) => r.startsWith('GET /LOCALS/pic/')).length, site.faces);
});

test('a user search refused with notSupport (HTTP 200) fails the read and records nothing; a face library refused leaves faces out', async () => {
  const emu = await terminals.start({ serial: 'DS-ROSTER-NS', unsupported: ['UserInfo/Search'] });
  const site = seedSite(emu, { people: 12, seed: 32 });
  const id = await addIsapiTerminal(t, A, emu, 'ROSTERNS');
  assert.deepEqual(await readRoster(id), { state: 'failed', return_code: ISAPI_CODES.notSupport });
  assert.equal((await rowsOf(id)).length, 0);

  // Without face searches (or cards) the people are still read: the face library is asked once, not for each of them.
  emu.refuseSearches(['FDLib/FDSearch', 'CardInfo/Search']);
  assert.deepEqual(await readRoster(id), { state: 'done', return_code: 0 });
  const rows = await rowsOf(id);
  assert.equal(rows.length, site.people);
  assert.ok(rows.every((r) => r.face === '' && r.card === ''));
  assert.equal(count(emu, 'FDLib/FDSearch'), 1);
});

test('pages and records read tolerantly', () => {
  const refusal = '{"statusCode":4,"statusString":"Invalid Operation","subStatusCode":"notSupport"}';
  assert.equal(parseSearchPage(refusal, 'UserInfoSearch', ['UserInfo']), undefined, 'a refusal with HTTP 200 is no page');
  assert.deepEqual(parseSearchPage('{"CardInfoSearch":{"responseStatusStrg":"NO MATCH","numOfMatches":0}}', 'CardInfoSearch', ['CardInfo']), {
    more: false,
    matches: 0,
    items: [],
  });
  const faces = parseSearchPage(
    '{"statusCode":1,"responseStatusStrg":"OK","numOfMatches":2,"MatchList":[{"FPID":"7","faceURL":"x"},{"FPID":"8","faceURL":"y"}]}',
    undefined,
    ['MatchList'],
  )!;
  assert.equal(faceUrlOf(faces, '8'), 'y');
  assert.equal(faceUrlOf(faces, '9'), '', "another person's face is never taken");

  const u = (v: Record<string, unknown>) => listedUser({ employeeNo: '7', name: ' Ann ', userType: 'normal', ...v }, 480)!.user;
  assert.deepEqual(
    { ...u({ Valid: { enable: true, beginTime: '2026-01-01T08:00:00', endTime: '2037-12-31T23:59:59' } }) },
    { pin: '7', name: 'Ann', card: '', validFrom: '2026-01-01 08:00:00', validTo: '', admin: false, kind: 'normal' },
  );
  const utc = u({ Valid: { enable: true, beginTime: '2026-01-01T00:00:00', endTime: '2026-02-01T00:00:00+00:00', timeType: 'UTC' } });
  assert.deepEqual([utc.validFrom, utc.validTo], ['2026-01-01 08:00:00', '2026-02-01 08:00:00'], 'UTC times in the terminal zone');
  assert.deepEqual([u({ Valid: { enable: false, beginTime: '2026-01-01T00:00:00' } }).validFrom, u({}).validTo], ['', '']);
  assert.equal(u({ userType: 'blackList' }).kind, 'blackList');
  assert.equal(u({ userType: 'patient' }).kind, 'visitor', 'an unknown type is never staff');
  assert.equal(listedUser({ employeeNo: 'a\nb' }, 0), undefined);
  assert.equal(listedUser({ employeeNo: '1', numOfFace: 0 }, 0)!.face, false);
  assert.equal(listedUser({ employeeNo: '1' }, 0)!.face, true, 'uncounted faces are searched');

  const cards = new Map<string, string>();
  addNormalCards(cards, [
    { employeeNo: '1', cardNo: '111', cardType: 'hijackCard' },
    { employeeNo: '1', cardNo: '222', cardType: 'normalCard' },
    { employeeNo: '1', cardNo: '333', cardType: 'normalCard' },
    { employeeNo: '2', cardNo: '444' },
  ]);
  assert.deepEqual(
    [...cards],
    [
      ['1', '222'],
      ['2', '444'],
    ],
  );

  // Only the path: never the host, port or scheme the terminal names.
  assert.equal(
    picturePath('http://192.168.1.64/LOCALS/pic/enrlFace/0/0000000010.jpg@WEB000000000096'),
    '/LOCALS/pic/enrlFace/0/0000000010.jpg@WEB000000000096',
  );
  assert.equal(picturePath('https://evil.example:8443/LOCALS/pic/a.jpg?x=1'), '/LOCALS/pic/a.jpg?x=1');
  assert.equal(picturePath('/LOCALS/pic/a.jpg'), '/LOCALS/pic/a.jpg');
  assert.equal(picturePath('http://h/a/../../etc/x.jpg'), '/etc/x.jpg', 'normalised as it is sent');
  for (const bad of ['', 'file:///etc/passwd', 'javascript:alert(1)', 'http://h//evil/x', 'http://h/a\r\nX: y']) assert.equal(picturePath(bad), undefined, bad);
});
