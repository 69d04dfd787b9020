import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import ExcelJS from 'exceljs';
import { API, call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { addPersonWithFace, picture, upload } from '../../../test/files.ts';
import { listen, stopTerminals, terminal, until } from '../../../test/terminals.ts';

/** spec §3 Company options rfid / idcard / number: shown and required with the option on, hidden and free off. */
let t: TestApp;
let server: string;
let A: Company;
let dept: number;
before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  server = await listen(t);
  A = await makeCompany(t, 'Options People');
  dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'HQ' } })).data.id;
});
after(async () => {
  await stopTerminals();
  await t.close();
});

const setOptions = (options: Record<string, number>) =>
  call(t.app, 'POST', '/company/update', { token: A.main, body: { name: 'Options People', phone: '1', options } });
async function pic(): Promise<string> {
  return (await upload(t, '/person/upload', A.main, { name: 'face.jpg', data: await picture() })).data.pic;
}
const create = async (over: Record<string, unknown>) =>
  call(t.app, 'POST', '/person/create', {
    token: A.main,
    lang: 'en-US',
    body: { name: 'Opt Person', phone: '139', organizations: [dept], pic: await pic(), ...over },
  });
async function sheet(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('People');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
async function headers(url: string, method: 'GET' | 'POST'): Promise<string[]> {
  const res = await t.app.inject({
    method,
    url: `${API}${url}`,
    headers: { 'x-token': A.main, 'x-lang': 'en-US' },
    ...(method === 'POST' ? { payload: {} } : {}),
  });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return (wb.worksheets[0]!.getRow(1).values as unknown[]).filter(Boolean).map(String);
}

test(`with the options off the card and ID-card numbers are not asked for; on, each is required and named; a number is always given (${DIALECT})`, async () => {
  await setOptions({ rfid: 0, idcard: 0, number: 0 });
  const free = await create({});
  assert.equal(free.code, CODES.OK, free.message);
  assert.match(free.data.number, /^\d+$/, 'a number is given');

  await setOptions({ rfid: 1, idcard: 1, number: 1 });
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [{ idcard: 'AB123456', number: 'N1' }, 'rfid', /^Card number/],
    [{ rfid: '', idcard: 'AB123456', number: 'N1' }, 'rfid', /^Card number/],
    [{ rfid: '123', number: 'N1' }, 'idcard', /^ID number/],
  ];
  for (const [body, field, msg] of cases) {
    const r = await create(body);
    assert.equal(r.code, CODES.RULE, `${field}: ${r.message}`);
    assert.deepEqual(r.data, { field });
    assert.match(r.message, msg);
  }
  const zh = await call(t.app, 'POST', '/person/create', {
    token: A.main,
    lang: 'zh-CN',
    body: { name: 'Opt', phone: '1', organizations: [dept], pic: await pic(), idcard: 'AB123456', number: 'N1' },
  });
  assert.match(zh.message, /^卡号/, 'translated');
  const ok = await create({ rfid: '123', idcard: 'AB123456' });
  assert.match(ok.data.number, /^\d+$/, 'the person number is proposed whatever the option (it is the terminal PIN)');
  assert.equal(ok.code, CODES.OK, ok.message);
  // update may not blank a required value
  const upd = await call(t.app, 'POST', '/person/update', {
    token: A.main,
    body: { id: ok.data.id, name: 'Opt Person', phone: '139', organizations: [dept], pic: ok.data.pic, rfid: '' },
  });
  assert.equal(upd.code, CODES.RULE);
  assert.deepEqual(upd.data, { field: 'rfid' });
  // …and an untouched person keeps passing (the stored values count)
  const keep = await call(t.app, 'POST', '/person/update', {
    token: A.main,
    body: { id: ok.data.id, name: 'Opt Renamed', phone: '139', organizations: [dept], pic: ok.data.pic },
  });
  assert.equal(keep.code, CODES.OK, keep.message);
  await setOptions({ rfid: 0, idcard: 0, number: 1 });
});

test(`template, import and export carry the card and ID-card columns only with the options on, and the import requires them (${DIALECT})`, async () => {
  await setOptions({ rfid: 0, idcard: 0 });
  const off = await headers('/person/template', 'GET');
  assert.ok(!off.includes('Card number') && !off.includes('ID number'), off.join());
  assert.ok(!(await headers('/person/exportPerson', 'POST')).includes('Card number'));
  const plain = await upload(t, '/person/import', A.main, {
    name: 'p.xlsx',
    data: await sheet([
      ['Number', 'Name', 'Phone', 'Departments'],
      ['X1', 'Xi', '139', 'HQ'],
    ]),
  });
  assert.equal(plain.data.created, 1, JSON.stringify(plain.data));

  await setOptions({ rfid: 1, idcard: 1 });
  const on = await headers('/person/template', 'GET');
  assert.ok(on.includes('Card number') && on.includes('ID number'), on.join());
  assert.ok((await headers('/person/exportPerson', 'POST')).includes('Card number'));
  const noColumn = await upload(
    t,
    '/person/import',
    A.main,
    {
      name: 'p.xlsx',
      data: await sheet([
        ['Number', 'Name', 'Phone', 'Departments'],
        ['X2', 'Yu', '139', 'HQ'],
      ]),
    },
    {},
    'en-US',
  );
  assert.equal(noColumn.code, CODES.RULE);
  assert.match(noColumn.message, /Card number/);
  const r = await upload(t, '/person/import', A.main, {
    name: 'p.xlsx',
    data: await sheet([
      ['Number', 'Name', 'Phone', 'Departments', 'Card number', 'ID number'],
      ['X3', 'Zoe', '139', 'HQ', '', 'AB123456'],
      ['X4', 'Zed', '139', 'HQ', '777', 'AB123457'],
    ]),
  });
  assert.equal(r.data.created, 1);
  assert.deepEqual(
    r.data.errors.map((e: { row: number; field: string }) => [e.row, e.field]),
    [[2, 'Card number']],
  );
  await setOptions({ rfid: 0, idcard: 0 });
});

test(`cards reach terminals only while the rfid option is on; switching it re-sends the card holders (${DIALECT})`, async () => {
  await setOptions({ rfid: 0, idcard: 0, number: 1 });
  const dev = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Card Gate', serial: 'CARD0001', ip: '10.0.0.7', password: 'x', attendance_scope: 'all' },
  });
  assert.equal(dev.code, CODES.OK, dev.message);
  await addPersonWithFace(t, A, { name: 'Opt Person', number: 'C100', rfid: '55667788', organizations: [dept] });
  const term = terminal(server, 'CARD0001');
  await term.start();
  await until('the holder on the terminal', () => term.users.get('C100'));
  assert.equal(term.users.get('C100')!.card, '', 'rfid off: no card sent');
  await setOptions({ rfid: 1 });
  await until('the card on the terminal', () => term.users.get('C100')?.card === '55667788');
  await setOptions({ rfid: 0 });
  await until('the card gone again', () => term.users.get('C100')?.card === '');
});
