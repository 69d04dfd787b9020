import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import ExcelJS from 'exceljs';
import { API, call, makeApp, makeCompany, makeSub, type Company, refusedCodes, type TestApp } from '../../../test/helpers.ts';
import { libreOfficeXlsx, makeZip, picture, soffice, upload } from '../../../test/files.ts';

let t: TestApp;
let A: Company;
let B: Company;
let hq: number;
let rnd: number;
let bDept: number;

before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'People A');
  B = await makeCompany(t, 'People B');
  hq = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'HQ' } })).data.id;
  rnd = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'R&D', parent_id: hq } })).data.id;
  bDept = (await call(t.app, 'POST', '/org/create', { token: B.main, body: { name: 'B HQ' } })).data.id;
});
after(() => t.close());

async function pic(token = A.main): Promise<string> {
  const r = await upload(t, '/person/upload', token, { name: 'face.jpg', data: await picture() });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data.pic;
}

const person = async (over: Record<string, unknown> = {}, token = A.main) =>
  call(t.app, 'POST', '/person/create', {
    token,
    lang: 'en-US',
    body: { name: 'Li Lei', phone: '13800000000', organizations: [rnd], pic: await pic(token), ...over },
  });

const count = async (token = A.main) => (await call(t.app, 'GET', '/person/list', { token, query: { pageSize: 1 } })).data.total as number;

test('a person is created with every field; passwords are write-only', async () => {
  const r = await person({
    number: 'E100',
    description: 'night shift',
    rfid: '12345678',
    idcard: '110101199001011234',
    address: 'Building 3',
    notify: 1,
    access: {
      from: '2026-01-01',
      to: '2026-12-31',
      periods: [
        { start: '08:00', end: '12:00' },
        { start: '13:00', end: '18:00' },
      ],
    },
    door_password: '4321',
    remote_open: 1,
    is_admin: 1,
    admin_password: '888888',
    incharges: [rnd],
    feature_rights: ['visitor'],
    user_pri: 1,
  });
  assert.equal(r.code, CODES.OK, r.message);
  const p = r.data;
  assert.equal(p.number, 'E100');
  assert.deepEqual(p.organizations, [{ id: rnd, name: 'R&D' }]);
  assert.deepEqual(p.incharges, [{ id: rnd, name: 'R&D' }]);
  assert.deepEqual(p.tags, ['admin', 'manager', 'working']);
  assert.equal(p.access.periods.length, 2);
  assert.equal(p.has_door_password, true);
  assert.equal(p.has_admin_password, true);
  assert.equal(p.user_pri, 1);
  assert.equal(p.sync_status, 0);
  const text = JSON.stringify((await call(t.app, 'GET', '/person/list', { token: A.main, query: { keyword: 'E100' } })).data);
  assert.doesNotMatch(text, /4321|888888|"door_password"|"admin_password"/);
});

test('spec §5: name, phone, face picture and departments are required, each error names its field', async () => {
  const before = await count();
  for (const [field, label] of [
    ['name', 'Name'],
    ['phone', 'Phone'],
    ['pic', 'Face picture'],
    ['organizations', 'Departments'],
  ] as const) {
    const body: Record<string, unknown> = { name: 'X', phone: '1', organizations: [rnd], pic: await pic() };
    delete body[field];
    const r = await call(t.app, 'POST', '/person/create', { token: A.main, lang: 'en-US', body });
    assert.equal(r.code, CODES.VALIDATION, field);
    assert.match(r.message, new RegExp(`^${label}`), r.message);
  }
  assert.equal((await person({ organizations: [] })).code, CODES.VALIDATION);
  assert.equal((await person({ pic: 'nonexistent.jpg' })).code, CODES.RULE);
  assert.equal((await person({ access: { periods: [{ start: '09:00', end: '08:00' }] } })).code, CODES.RULE);
  assert.equal((await person({ access: { periods: [1, 2, 3, 4].map(() => ({ start: '08:00', end: '09:00' })) } })).code, CODES.VALIDATION);
  assert.equal((await person({ access: { from: '2026-05-01', to: '2026-04-01' } })).code, CODES.RULE);
  assert.equal((await person({ is_admin: 1 })).code, CODES.RULE, 'an admin needs a management password');
  assert.equal((await person({ number: 'bad number!' })).code, CODES.VALIDATION);
  assert.equal(await count(), before, 'nothing written');
});

test('numbers are unique per company, proposed when omitted, and may repeat across companies', async () => {
  assert.equal((await person({ number: 'DUP1' })).code, CODES.OK);
  const dup = await person({ number: 'DUP1' });
  assert.equal(dup.code, CODES.CONFLICT);
  assert.match(dup.message, /DUP1/);
  assert.equal((await person({ number: 'DUP1', organizations: [bDept] }, B.main)).code, CODES.OK);
  const n1 = (await person({ number: '500' })).data.number;
  const auto = (await person()).data.number;
  assert.equal(n1, '500');
  assert.equal(auto, '501');
});

test('list: keyword, department subtree, work status, sort and paging', async () => {
  const sales = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Sales', parent_id: hq } })).data.id;
  await person({ number: 'S1', name: 'Han Meimei', organizations: [sales] });
  await person({ number: 'S2', name: 'Jim Green', organizations: [sales], workStatus: 0 });
  const east = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'East', parent_id: sales } })).data.id;
  await person({ number: 'S3', name: 'Li Lei', organizations: [sales, east] });
  const bySub = await call(t.app, 'GET', '/person/list', { token: A.main, query: { department_id: hq, pageSize: 100 } });
  assert.ok(
    bySub.data.items.some((p: any) => p.number === 'S1'),
    'HQ includes Sales below it',
  );
  const numbers = bySub.data.items.map((p: any) => p.number);
  assert.equal(numbers.filter((n: string) => n === 'S3').length, 1, 'one in two departments of the subtree is listed once');
  assert.equal(bySub.data.total, numbers.length, 'and counted once');
  const only = await call(t.app, 'GET', '/person/list', { token: A.main, query: { department_id: hq, include_sub: 0 } });
  assert.equal(only.data.total, 0);
  const kw = await call(t.app, 'GET', '/person/list', { token: A.main, query: { keyword: 'meimei' } });
  assert.deepEqual(
    kw.data.items.map((p: any) => p.number),
    ['S1'],
  );
  const left = await call(t.app, 'GET', '/person/list', { token: A.main, query: { department_id: sales, workStatus: 0 } });
  assert.deepEqual(
    left.data.items.map((p: any) => [p.number, p.tags]),
    [['S2', ['left']]],
  );
  const desc = await call(t.app, 'GET', '/person/list', { token: A.main, query: { sort: 'name', order: 'desc', pageSize: 2, page: 1 } });
  assert.equal(desc.data.items.length, 2);
  assert.ok(desc.data.items[0].name >= desc.data.items[1].name);
});

test('update changes fields, bumps the sync revision only for synced fields, and marks people as left', async () => {
  const p = (await person({ number: 'U1', door_password: '1111' })).data;
  const base = { id: p.id, name: p.name, phone: p.phone, organizations: [rnd], pic: p.pic };
  const desc = await call(t.app, 'POST', '/person/update', { token: A.main, body: { ...base, description: 'only a note' } });
  assert.equal(desc.data.pic_url, p.pic_url, 'a note is not synced: same revision');
  assert.equal(desc.data.has_door_password, true, 'omitted door password kept');
  const renamed = await call(t.app, 'POST', '/person/update', { token: A.main, body: { ...base, name: 'Li Lei II', door_password: '' } });
  const found = await call(t.app, 'GET', '/person/list', { token: A.main, query: { keyword: 'LEI II' } });
  assert.deepEqual(
    found.data.items.map((x: any) => x.number),
    ['U1'],
    'keyword search follows the rename, case-insensitively',
  );
  assert.notEqual(renamed.data.pic_url, p.pic_url, 'a synced field bumps the revision');
  assert.equal(renamed.data.has_door_password, false, "'' clears it");
  const gone = await call(t.app, 'POST', '/person/update', { token: A.main, body: { ...base, workStatus: 0 } });
  assert.deepEqual(gone.data.tags, ['left']);
  const log = await call(t.app, 'GET', '/log/list', { token: A.main, lang: 'en-US', query: { module: 'person', keyword: 'U1' } });
  assert.ok(log.data.items.some((i: any) => i.description === 'Marked U1 Li Lei as left'));
});

test('transfer moves or adds departments; delete and batch delete remove people and their photo files', async () => {
  const a = (await person({ number: 'T1' })).data;
  const b = (await person({ number: 'T2' })).data;
  const moved = await call(t.app, 'POST', '/person/transfer', { token: A.main, body: { ids: [a.id, b.id], department_id: hq } });
  assert.equal(moved.data.count, 2);
  const added = await call(t.app, 'POST', '/person/transfer', { token: A.main, body: { ids: [a.id], department_id: rnd, mode: 'add' } });
  assert.equal(added.code, CODES.OK);
  const info = await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: a.id } });
  assert.deepEqual(info.data.organizations.map((o: any) => o.id).sort(), [hq, rnd].sort());
  const del = await call(t.app, 'POST', '/person/deletes', { token: A.main, body: { ids: [a.id, b.id] } });
  assert.equal(del.data.count, 2);
  assert.equal((await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: a.id } })).code, CODES.NOT_FOUND);
  const photo = await t.app.inject({ method: 'GET', url: `${API}/person/upload/${a.pic}`, headers: { 'x-token': A.main } });
  assert.equal(photo.statusCode, 404, 'photo file removed with the person');
});

test('one upload used for several people: a face file goes only with the last person or photo holding it (#28)', async () => {
  const shared = await pic();
  const a = (await person({ number: 'SH1', pic: shared })).data;
  const b = (await person({ number: 'SH2', pic: shared })).data;
  const c = (await person({ number: 'SH3', pic: shared })).data;
  const face = (id: number) => t.app.inject({ method: 'GET', url: `${API}/person/pic/${id}`, headers: { cookie: `Admin-Token=${A.main}` } });
  const bytes = (await face(b.id)).rawPayload;
  assert.ok(bytes.length > 0);
  assert.equal((await call(t.app, 'POST', '/person/delete', { token: A.main, body: { id: a.id } })).code, CODES.OK);
  const kept = await face(b.id);
  assert.equal(kept.statusCode, 200, 'deleting one person keeps the face the others hold');
  assert.deepEqual(kept.rawPayload, bytes);
  // replacing one holder's photo keeps it for the other
  const body = { id: c.id, name: 'Li Lei', phone: '1', organizations: [rnd], pic: await pic() };
  assert.equal((await call(t.app, 'POST', '/person/update', { token: A.main, body })).code, CODES.OK);
  assert.deepEqual((await face(b.id)).rawPayload, bytes, 'a replaced photo another person holds stays');
  assert.equal((await face(c.id)).statusCode, 200);
  // the last holder goes: so does the file (no leak)
  const { photos } = t.app.modules.persons;
  assert.ok(await photos.exists(A.id, shared));
  assert.equal((await call(t.app, 'POST', '/person/delete', { token: A.main, body: { id: b.id } })).code, CODES.OK);
  assert.equal(await photos.exists(A.id, shared), false, 'the face goes with its last holder');
});

test("another company's people, departments and photos answer not found and stay untouched", async () => {
  const b = (await person({ number: 'B1', organizations: [bDept] }, B.main)).data;
  const body = { id: b.id, name: 'hijack', phone: '1', organizations: [rnd], pic: await pic() };
  assert.equal((await call(t.app, 'POST', '/person/update', { token: A.main, body })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/person/delete', { token: A.main, body: { id: b.id } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/person/deletes', { token: A.main, body: { ids: [b.id] } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: b.id } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/person/transfer', { token: A.main, body: { ids: [b.id], department_id: rnd } })).code, CODES.NOT_FOUND);
  assert.equal((await person({ organizations: [bDept] })).code, CODES.RULE, "B's department is not a valid choice for A");
  assert.equal((await person({ pic: b.pic })).code, CODES.RULE, "B's photo cannot be borrowed");
  const img = await t.app.inject({ method: 'GET', url: `${API}/person/pic/${b.id}`, headers: { cookie: `Admin-Token=${A.main}` } });
  assert.equal(img.statusCode, 404);
  assert.equal((await call(t.app, 'GET', '/person/info', { token: B.main, query: { id: b.id } })).data.name, 'Li Lei');
});

test('photos: content-checked, normalised to a terminal-sized JPEG, served by cookie to the same company only', async () => {
  const png = await upload(t, '/person/upload', A.main, { name: 'big.png', data: await picture(3000, 2000, 'png') });
  assert.equal(png.code, CODES.OK, png.message);
  assert.ok(png.data.size <= 200 * 1024, `normalised size ${png.data.size}`);
  const img = await t.app.inject({ method: 'GET', url: png.data.pic_url, headers: { cookie: `Admin-Token=${A.main}` } });
  assert.equal(img.statusCode, 200);
  assert.equal(img.headers['content-type'], 'image/jpeg');
  const meta = await (await import('sharp')).default(img.rawPayload).metadata();
  assert.equal(Math.max(meta.width, meta.height), 640);
  assert.equal((await t.app.inject({ method: 'GET', url: png.data.pic_url })).statusCode, 401, 'no session, no picture');
  assert.equal((await t.app.inject({ method: 'GET', url: png.data.pic_url, headers: { cookie: `Admin-Token=${B.main}` } })).statusCode, 404);
  const bad: [string, Buffer, RegExp][] = [
    ['notes.jpg', Buffer.from('just some text, renamed'), /JPEG or PNG/],
    ['broken.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]), /cannot be read/],
    ['tiny.jpg', await picture(50, 50), /too small/],
    ['huge.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(6 * 1024 * 1024)]), /larger than 5 MB/],
  ];
  for (const [name, data, msg] of bad) {
    const r = await upload(t, '/person/upload', A.main, { name, data });
    assert.ok(refusedCodes.includes(r.code), name);
    assert.match(r.message, msg, name);
  }
});

test('a sub-admin with user view can list but not change; without it, nothing', async () => {
  const viewer = await makeSub(t, A, ['userView']);
  const none = await makeSub(t, A, ['logView']);
  assert.equal((await call(t.app, 'GET', '/person/list', { token: viewer.token })).code, CODES.OK);
  assert.equal((await call(t.app, 'POST', '/person/deletes', { token: viewer.token, body: { ids: [1] } })).code, CODES.NO_AUTHORITY);
  assert.equal((await upload(t, '/person/upload', viewer.token, { name: 'f.jpg', data: await picture() })).code, CODES.NO_AUTHORITY);
  assert.equal((await call(t.app, 'GET', '/person/list', { token: none.token })).code, CODES.NO_AUTHORITY);
});

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('People');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const HEAD = ['Number', 'Name', 'Phone', 'Departments', 'Card number', 'Work status'];

test('import: bad rows are reported by row, field and reason; good rows are written; strict mode writes nothing', async () => {
  const file = await xlsx([
    HEAD,
    ['I1', 'Ann', '139', 'HQ/R&D', '', ''],
    ['I1', 'Ann again', '139', 'HQ', '', ''],
    ['I3', '', '139', 'Nowhere', 'x1', 'maybe'],
    ['I4', 'Dan', '139', 'R&D', '', 'Left'],
  ]);
  const before = await count();
  const strict = await upload(t, '/person/import', A.main, { name: 'p.xlsx', data: file }, { strict: '1' });
  assert.equal(strict.code, CODES.OK);
  assert.equal(strict.data.written, false);
  assert.equal(await count(), before, 'strict mode: nothing written');
  const r = await upload(t, '/person/import', A.main, { name: 'p.xlsx', data: file });
  assert.equal(r.data.written, true);
  assert.equal(r.data.created, 2);
  assert.equal(r.data.failed, 2);
  assert.deepEqual(
    r.data.errors.map((e: any) => [e.row, e.field]),
    [
      [3, 'Number'],
      [4, 'Name'],
      [4, 'Card number'],
      [4, 'Work status'],
      [4, 'Departments'],
    ],
  );
  assert.match(r.data.errors[0].reason, /row 2/);
  assert.equal(await count(), before + 2);
  const again = await upload(t, '/person/import', A.main, { name: 'p.xlsx', data: await xlsx([HEAD, ['I1', 'Ann Renamed', '139', 'HQ', '', '']]) });
  assert.equal(again.data.updated, 1, 'an existing number is updated, not duplicated');
  assert.equal(await count(), before + 2);
});

test('import refuses what is not a sound, small xlsx: renamed text, oversize, corrupt zip, zip bomb, missing columns', async () => {
  const before = await count();
  const cases: [string, Buffer, RegExp][] = [
    ['people.xlsx', Buffer.from('name,phone\nAnn,1\n'), /\.xlsx workbook/],
    ['big.xlsx', Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(2 * 1024 * 1024 + 10)]), /larger than 2 MB/],
    ['corrupt.xlsx', Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(5000, 1)]), /damaged/],
    [
      'bomb.xlsx',
      makeZip([
        { name: '[Content_Types].xml', data: Buffer.alloc(10) },
        { name: 'xl/bomb.xml', data: Buffer.alloc(80 * 1024 * 1024) },
      ]),
      /more than 60 MB/,
    ],
    [
      'liar.xlsx',
      makeZip([
        { name: '[Content_Types].xml', data: Buffer.alloc(10) },
        { name: 'xl/liar.xml', data: Buffer.alloc(3_000_000), declaredSize: 100 },
      ]),
      /damaged/,
    ],
    [
      'cols.xlsx',
      await xlsx([
        ['Foo', 'Bar'],
        ['1', '2'],
      ]),
      /lacks the columns: Name, Phone, Departments/,
    ],
  ];
  for (const [name, data, msg] of cases) {
    const r = await upload(t, '/person/import', A.main, { name, data });
    assert.ok(refusedCodes.includes(r.code), `${name}: ${r.message}`);
    assert.match(r.message, msg, name);
  }
  assert.equal(await count(), before, 'nothing written');
});

test(
  'import a LibreOffice-made workbook of 1,000 people with a few bad rows',
  { skip: !soffice() && !process.env.CI ? 'LibreOffice not installed' : false },
  async () => {
    const lines = ['编号,姓名,联系电话,部门,卡号,在职状态'];
    for (let i = 1; i <= 1000; i++) {
      const bad =
        i === 17
          ? ',,13900000000,HQ,,'
          : i === 512
            ? `L${i},Bad Card,139,HQ,12ab,`
            : i === 999
              ? `L${i},No Dept,139,Mars,,`
              : `L${i},Person ${i},139${String(i).padStart(8, '0')},HQ/R&D,${100000 + i},在职`;
      lines.push(bad);
    }
    const file = libreOfficeXlsx(lines.join('\n'));
    const r = await upload(t, '/person/import', A.main, { name: 'lo.xlsx', data: file }, {}, 'zh-CN');
    assert.equal(r.code, CODES.OK, r.message);
    assert.equal(r.data.created, 997);
    assert.deepEqual([...new Set(r.data.errors.map((e: any) => e.row))], [18, 513, 1000]);
    assert.deepEqual(
      r.data.errors.map((e: any) => e.field),
      ['姓名', '卡号', '部门'],
    );
  },
);

test('export streams an xlsx that reopens with every person of the filter', async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: `${API}/person/exportPerson`,
    headers: { 'x-token': A.main, 'x-lang': 'en-US' },
    payload: { department_id: hq },
  });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /spreadsheetml/);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  assert.equal(ws.getRow(1).getCell(1).value, 'Number');
  const listed = (await call(t.app, 'GET', '/person/list', { token: A.main, query: { department_id: hq, pageSize: 1 } })).data.total;
  assert.equal(ws.rowCount - 1, listed);
});

test('face pictures from a zip are matched by number; the rest are reported file by file', async () => {
  await person({ number: 'Z1' });
  const zip = makeZip([
    { name: 'photos/Z1.jpg', data: await picture() },
    { name: 'photos/NOPE.jpg', data: await picture() },
    { name: 'photos/readme.txt', data: Buffer.from('hi') },
    { name: '__MACOSX/._Z1.jpg', data: Buffer.from('junk') },
  ]);
  const r = await upload(t, '/person/xlsx2', A.main, { name: 'faces.zip', data: zip });
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.matched, 1);
  assert.deepEqual(r.data.errors.map((e: any) => e.file).sort(), ['NOPE', 'photos/readme.txt']);
  const bomb = await upload(t, '/person/xlsx2', A.main, { name: 'x.zip', data: Buffer.from('not a zip') });
  assert.equal(bomb.code, CODES.RULE);
});

test('the template downloads as xlsx with translated headers', async () => {
  const res = await t.app.inject({ method: 'GET', url: `${API}/person/template`, headers: { 'x-token': A.main, 'x-lang': 'ja' } });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  assert.equal(wb.worksheets[0]!.getRow(1).getCell(2).value, '名前');
  assert.ok(wb.worksheets[1]!.getColumn(1).values.includes('HQ/R&D'), 'department paths listed');
});

test('a hire date is a real calendar date, kept, cleared, and carried by import and export (#17)', async () => {
  const created = await person({ number: 'H1', joined_on: '2026-10-14' });
  assert.equal(created.code, CODES.OK, created.message);
  assert.equal(created.data.joined_on, '2026-10-14');
  const id = created.data.id as number;
  const bad = await person({ number: 'H2', joined_on: '2026-02-30' });
  assert.equal(bad.code, CODES.VALIDATION, bad.message);
  assert.match(bad.message, /^Hire date/, 'the error names the field');
  assert.deepEqual(bad.data, { field: 'joined_on' });
  assert.equal((await person({ number: 'H2', joined_on: '2026-10' })).code, CODES.VALIDATION);
  const upd = (body: Record<string, unknown>) =>
    call(t.app, 'POST', '/person/update', { token: A.main, body: { id, name: 'Li Lei', phone: '1', organizations: [rnd], pic: created.data.pic, ...body } });
  assert.equal((await upd({})).data.joined_on, '2026-10-14', 'omitted keeps it');
  assert.equal((await upd({ joined_on: '2027-02-29' })).code, CODES.VALIDATION, 'not a leap year');
  assert.equal((await upd({ joined_on: null })).data.joined_on, null, 'null clears it');

  // import: the column is read (a date cell or text), an impossible date is reported by row and field
  const date = new Date(Date.UTC(2026, 9, 20));
  const file = await xlsx([
    [...HEAD, 'Hire date'],
    ['H3', 'Hana', '139', 'HQ', '', '', '2026-10-14'],
    ['H4', 'Ivo', '139', 'HQ', '', '', date],
    ['H5', 'Jan', '139', 'HQ', '', '', '2026-04-31'],
  ]);
  const r = await upload(t, '/person/import', A.main, { name: 'p.xlsx', data: file });
  assert.equal(r.data.created, 2, JSON.stringify(r.data));
  assert.deepEqual(
    r.data.errors.map((e: any) => [e.row, e.field]),
    [[4, 'Hire date']],
  );
  const listed = (await call(t.app, 'GET', '/person/list', { token: A.main, query: { keyword: 'H', pageSize: 100 } })).data.items as any[];
  const on = (n: string) => listed.find((p) => p.number === n)?.joined_on;
  assert.equal(on('H3'), '2026-10-14');
  assert.equal(on('H4'), '2026-10-20');
  // a file without the column keeps the dates
  await upload(t, '/person/import', A.main, { name: 'p.xlsx', data: await xlsx([HEAD, ['H3', 'Hana', '139', 'HQ', '', '']]) });
  assert.equal((await call(t.app, 'GET', '/person/list', { token: A.main, query: { keyword: 'Hana' } })).data.items[0].joined_on, '2026-10-14');

  // export: a "Hire date" column that re-imports
  const res = await t.app.inject({ method: 'POST', url: `${API}/person/exportPerson`, headers: { 'x-token': A.main, 'x-lang': 'en-US' }, payload: {} });
  assert.equal(res.statusCode, 200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const head = (ws.getRow(1).values as unknown[]).slice(1);
  const col = head.indexOf('Hire date') + 1;
  assert.ok(col > 0, `headers: ${head.join(', ')}`);
  const row = Array.from({ length: ws.rowCount }, (_, i) => ws.getRow(i + 1)).find((x) => x.getCell(1).value === 'H3')!;
  assert.equal(row.getCell(col).value, '2026-10-14');
});

test('a gender is male, female or not said: kept, cleared, and carried by import (any language, M/F) and export (#30)', async () => {
  const created = await person({ number: 'G1', gender: 'female' });
  assert.equal(created.code, CODES.OK, created.message);
  assert.equal(created.data.gender, 'female');
  assert.equal((await person({ number: 'G9' })).data.gender, null, 'not said unless given');
  const bad = await person({ number: 'G2', gender: 'x' });
  assert.equal(bad.code, CODES.VALIDATION, bad.message);
  assert.match(bad.message, /^Gender/, 'the error names the field');
  const upd = (body: Record<string, unknown>) =>
    call(t.app, 'POST', '/person/update', {
      token: A.main,
      body: { id: created.data.id, name: 'Gail', phone: '1', organizations: [rnd], pic: created.data.pic, ...body },
    });
  assert.equal((await upd({})).data.gender, 'female', 'omitted keeps it');
  assert.equal((await upd({ gender: 'male' })).data.gender, 'male');
  assert.equal((await upd({ gender: null })).data.gender, null, 'null clears it');

  // import: the column under any header people write, values in any language; one that is no gender is refused by row
  const file = await xlsx([
    [...HEAD, '性别'],
    ['G3', 'Gao', '139', 'HQ', '', '', '男'],
    ['G4', 'Gina', '139', 'HQ', '', '', 'F'],
    ['G5', 'Goro', '139', 'HQ', '', '', '女性'],
    ['G6', 'Gus', '139', 'HQ', '', '', ''],
    ['G7', 'Gwen', '139', 'HQ', '', '', 'yes'],
  ]);
  const r = await upload(t, '/person/import', A.main, { name: 'p.xlsx', data: file });
  assert.equal(r.data.created, 4, JSON.stringify(r.data));
  assert.deepEqual(
    r.data.errors.map((e: any) => [e.row, e.field]),
    [[6, '性别']],
  );
  const listed = (await call(t.app, 'GET', '/person/list', { token: A.main, query: { keyword: 'G', pageSize: 100 } })).data.items as any[];
  const of = (n: string) => listed.find((p) => p.number === n)?.gender;
  assert.deepEqual(['G3', 'G4', 'G5', 'G6'].map(of), ['male', 'female', 'female', null]);
  // a file without the column keeps the genders
  await upload(t, '/person/import', A.main, { name: 'p.xlsx', data: await xlsx([HEAD, ['G3', 'Gao', '139', 'HQ', '', '']]) });
  assert.equal((await call(t.app, 'GET', '/person/list', { token: A.main, query: { keyword: 'Gao' } })).data.items[0].gender, 'male');

  // export: a translated column that re-imports
  const res = await t.app.inject({ method: 'POST', url: `${API}/person/exportPerson`, headers: { 'x-token': A.main, 'x-lang': 'ja' }, payload: {} });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const col = (ws.getRow(1).values as unknown[]).slice(1).indexOf('性別') + 1;
  assert.ok(col > 0);
  const row = (n: string) => Array.from({ length: ws.rowCount }, (_, i) => ws.getRow(i + 1)).find((x) => x.getCell(1).value === n)!;
  assert.deepEqual([row('G3').getCell(col).value, row('G4').getCell(col).value, row('G6').getCell(col).value ?? ''], ['男性', '女性', '']);
});
