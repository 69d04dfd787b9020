import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import ExcelJS from 'exceljs';
import { STRANGER_JPEG } from '../../../../../tools/zk-emulator/protocol.ts';
import { call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { addPersonWithFace } from '../../../test/files.ts';
import { listen, stopTerminals, terminal } from '../../../test/terminals.ts';

let t: TestApp;
let server: string;
let A: Company;
let B: Company;
let deviceA: number;
let deviceA2: number;
let deviceB: number;
let personId: number;

const device = async (token: string, serial: string, name: string) => {
  const r = await call(t.app, 'POST', '/device/create', { token, body: { name, serial, ip: '192.168.1.30', password: 'dev-secret' } });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data.id as number;
};
const list = async (query: Record<string, string | number> = {}, token = A.main) => call(t.app, 'GET', '/stranger/list', { token, lang: 'en-US', query });
/** A terminal's ATTPHOTO as it is sent, straight to the gateway (what the emulator does, byte for byte). */
const rawPhoto = (serial: string, name: string, jpeg: Buffer = STRANGER_JPEG, path = 'cdata') =>
  fetch(`${server}/iclock/${path}?SN=${serial}&table=ATTPHOTO`, {
    method: 'POST',
    body: Buffer.concat([Buffer.from(`PIN=${name}\nSN=${serial}\nsize=${jpeg.length}\nCMD=uploadphoto\0`, 'latin1'), jpeg]),
  }).then((r) => r.text());

before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  server = await listen(t);
  A = await makeCompany(t, 'Strangers A');
  B = await makeCompany(t, 'Strangers B');
  deviceA = await device(A.main, 'STRA01', 'Front door');
  deviceA2 = await device(A.main, 'STRA02', 'Back door');
  deviceB = await device(B.main, 'STRB01', 'B gate');
  personId = await addPersonWithFace(t, A, { number: '5001', name: 'Known Person', department: 'Staff' });
});
after(async () => {
  await stopTerminals();
  await t.close();
});

test(`a terminal that refuses an unknown face uploads its capture (§11.8 ATTPHOTO, no ATTLOG): listed as a stranger with its photo (${DIALECT})`, async () => {
  const term = terminal(server, 'STRA01');
  await term.start();
  const sent = await term.stranger({ time: '2026-11-20 09:00:00' });
  assert.equal(sent.name, '20261120090000-1-0.jpg');
  assert.match(sent.reply ?? '', /^OK/);
  const r = await list();
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.total, 1);
  const s = r.data.items[0];
  assert.deepEqual(
    { device: s.device, device_id: s.device_id, day: s.day, time: s.time, kind: s.kind, name: s.name, number: s.number, person_id: s.person_id },
    { device: 'Front door', device_id: deviceA, day: '2026-11-20', time: '09:00:00', kind: 'unknown', name: '', number: '', person_id: null },
  );
  assert.equal(s.utc, '2026-11-20T01:00:00.000Z', "the terminal's clock (UTC+8)");
  const img = await t.app.inject({ method: 'GET', url: s.pic_url, headers: { cookie: `Admin-Token=${A.main}` } });
  assert.equal(img.statusCode, 200);
  assert.equal(img.headers['content-type'], 'image/jpeg');
  assert.deepEqual(img.rawPayload, STRANGER_JPEG);
  // Not an attendance punch of anyone: the punch list shows it as a stranger only.
  const punches = await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { device_id: deviceA } });
  assert.ok(punches.data.items.every((p: any) => p.stranger && p.person_id === null));
  // PIN 0 is the terminal's "no one": the record shows no number (it once read "0")
  assert.ok(punches.data.items.length > 0);
  assert.deepEqual(
    punches.data.items.map((p: any) => p.number),
    punches.data.items.map(() => ''),
  );
});

test(`a retried upload adds nothing: the same photo resent is acknowledged again and stored once (${DIALECT})`, async () => {
  const before = (await list()).data.total;
  for (let i = 0; i < 5; i++) assert.match(await rawPhoto('STRA01', '20261120090000-1-0.jpg'), /^OK/);
  // The empty-PIN spelling of an unknown face is the same face: also a resend.
  assert.match(await rawPhoto('STRA01', '20261120090000-1-.jpg', STRANGER_JPEG, 'fdata'), /^OK/);
  assert.equal((await list()).data.total, before);
  // Another second is another stranger.
  assert.match(await rawPhoto('STRA01', '20261120090005-4-.jpg'), /^OK/);
  assert.equal((await list()).data.total, before + 1);
  // What is not a JPEG, or not a time, is refused and never acknowledged.
  assert.doesNotMatch(await rawPhoto('STRA01', '20261120090006-1-0.jpg', Buffer.from('not a jpeg')), /^OK/);
  assert.doesNotMatch(await rawPhoto('STRA01', '20261131090006-1-0.jpg'), /^OK/);
  assert.equal((await list()).data.total, before + 1);
});

test(`a registered person the terminal refused keeps their name and is no punch of theirs (${DIALECT})`, async () => {
  const term = terminal(server, 'STRA02');
  await term.start();
  assert.match((await term.stranger({ time: '2026-11-21 08:30:00', pin: '5001', type: 4 })).reply ?? '', /^OK/);
  assert.match((await term.stranger({ time: '2026-11-21 08:31:00', pin: '5001', type: 2 })).reply ?? '', /^OK/);
  const r = await list({ device_id: deviceA2 });
  assert.equal(r.data.total, 2);
  for (const s of r.data.items) {
    assert.equal(s.kind, 'refused');
    assert.equal(s.person_id, personId);
    assert.equal(s.name, 'Known Person');
    assert.equal(s.number, '5001');
    assert.ok(s.pic_url);
  }
  const theirs = await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { person_id: personId } });
  assert.equal(theirs.data.total, 0, 'a refusal is not an attendance record of the person');
  const flagged = await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { device_id: deviceA2, stranger: 1 } });
  assert.equal(flagged.data.total, 2, "the punch list's strangers filter shows refusals too");
  assert.ok(flagged.data.items.every((p: any) => p.stranger && p.number === '5001'));
  assert.equal((await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { device_id: deviceA2, stranger: 0 } })).data.total, 0);
  // A plain (§11.3) or accepted (§11.8 type 0/3) photo is a punch's photo, never a stranger.
  const before = (await list()).data.total;
  assert.match(await rawPhoto('STRA02', '20261121083200-0-5001.jpg'), /^OK/);
  assert.match(await rawPhoto('STRA02', '20261121083300-5001.jpg'), /^OK/);
  assert.equal((await list()).data.total, before);
});

test(`filters: device, days of the company's zone; impossible dates and a backward range are refused naming the field (${DIALECT})`, async () => {
  assert.equal((await list({ device_id: deviceA })).data.total, 2);
  assert.equal((await list({ device_id: deviceA2 })).data.total, 2);
  assert.equal((await list({ from: '2026-11-21', to: '2026-11-21' })).data.total, 2);
  assert.equal((await list({ from: '2026-11-20', to: '2026-11-20' })).data.total, 2);
  assert.equal((await list({ from: '2026-11-20' })).data.total, 4);
  assert.equal((await list({ to: '2026-11-19' })).data.total, 0);
  const newest = (await list()).data.items[0];
  assert.equal(newest.day, '2026-11-21', 'newest first');
  const paged = await list({ page: 2, pageSize: 3 });
  assert.equal(paged.data.items.length, 1);
  assert.equal(paged.data.total, 4);

  const impossible = await list({ from: '2026-02-30' });
  assert.equal(impossible.code, CODES.VALIDATION);
  assert.match(JSON.stringify(impossible.data), /from/);
  const backward = await list({ from: '2026-11-21', to: '2026-11-20' });
  assert.equal(backward.code, CODES.RULE);
  assert.equal(backward.data.field, 'to');
  const exportBackward = await call(t.app, 'POST', '/stranger/export', { token: A.main, body: { from: '2026-11-21', to: '2026-11-20' } });
  assert.equal(exportBackward.code, CODES.RULE);
});

test(`another company's terminal's strangers are never listed, its device and photos are not found (${DIALECT})`, async () => {
  const term = terminal(server, 'STRB01');
  await term.start();
  assert.match((await term.stranger({ time: '2026-11-20 10:00:00' })).reply ?? '', /^OK/);
  const b = await list({}, B.main);
  assert.equal(b.data.total, 1);
  assert.equal(b.data.items[0].device_id, deviceB);
  const a = await list();
  assert.ok(a.data.items.every((s: any) => s.device_id !== deviceB));
  assert.equal((await list({ device_id: deviceB })).code, CODES.NOT_FOUND);
  const img = await t.app.inject({ method: 'GET', url: b.data.items[0].pic_url, headers: { 'x-token': A.main } });
  assert.equal(img.statusCode, 404);
  assert.equal((await call(t.app, 'POST', '/stranger/export', { token: A.main, body: { device_id: deviceB } })).code, CODES.NOT_FOUND);
});

test(`export: a workbook of the filtered strangers with a link to each photo (${DIALECT})`, async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/management/stranger/export',
    headers: { 'x-token': A.main, 'x-lang': 'en-US' },
    payload: { from: '2026-11-21', to: '2026-11-21' },
  });
  assert.equal(res.statusCode, 200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  assert.deepEqual(header, ['Device', 'Day', 'Time', 'Kind', 'Name', 'Number', 'Temperature', 'Photo']);
  assert.equal(sheet.actualRowCount, 3);
  const row = sheet.getRow(2);
  assert.equal(row.getCell(1).value, 'Back door');
  assert.equal(row.getCell(4).value, 'Person refused');
  assert.equal(row.getCell(5).value, 'Known Person');
  const link = row.getCell(8).value as { hyperlink?: string };
  assert.match(link.hyperlink ?? '', /\/api\/management\/stranger\/photo\/\d+$/);
});

test(`access: attendance or face view sees strangers; a sub-admin with neither is refused (${DIALECT})`, async () => {
  const none = await makeSub(t, A, ['logView', 'userView']);
  assert.equal((await list({}, none.token)).code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'POST', '/stranger/export', { token: none.token, body: {} })).code, CODES.NO_AUTHORITY);
  const id = (await list()).data.items[0].id;
  const img = await t.app.inject({ method: 'GET', url: `/api/management/stranger/photo/${id}`, headers: { 'x-token': none.token } });
  assert.notEqual(img.statusCode, 200);
  for (const rights of [['attendance'], ['faceView']] as const) {
    const sub = await makeSub(t, A, [...rights]);
    const r = await list({}, sub.token);
    assert.equal(r.code, CODES.OK, `${rights[0]}: ${r.message}`);
    assert.equal(r.data.total, 4);
  }
});
