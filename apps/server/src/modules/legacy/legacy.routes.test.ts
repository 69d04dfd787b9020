import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import iconv from 'iconv-lite';
import { CODES, type LegacyImport } from '@faceadmin/shared';
import { upload } from '../../../test/files.ts';
import { applyReview, call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { listen, stopTerminals, terminal, until } from '../../../test/terminals.ts';

/**
 * Taking over a working site from the old software's files (#30): a ZKBioTime-style employee export (GBK, Chinese
 * headers) and a transaction export, previewed, mapped, run dry, then for real; again, nothing twice; a terminal
 * uploading the same punch later stores nothing.
 */
let t: TestApp;
let server: string;
let A: Company;
let B: Company;
before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  server = await listen(t);
  A = await makeCompany(t, 'Legacy A');
  B = await makeCompany(t, 'Legacy B');
});
after(async () => {
  await stopTerminals();
  await t.close();
});

// Written by hand: the columns ZKBioTime's employee export has, in Chinese, saved in GBK by a Chinese Windows.
const EMPLOYEES = [
  '工号,姓名,部门,卡号,入职日期,性别,手机',
  '1001,张伟,总部/研发部,12345678,2024-03-01,男,13800000001',
  '1002,李娜,总部/研发部,,2024/5/6,女,13800000002',
  '1003,王芳,总部/销售部,87654321,20230115,女,',
  '1001,张伟,总部/研发部,12345678,2024-03-01,男,13800000001',
  '1004,赵磊,总部,,2024-02-30,男,13800000004',
  ',无工号,总部,,,,',
  '1005,钱七,总部,,2024-02-01,未知性别,',
].join('\r\n');
const TRANSACTIONS = [
  'Employee ID,Punch Time,Device SN,Punch State',
  '1001,2026-11-02 08:59:07,LEGACY01,Check In',
  '1001,2026-11-02 18:02:11,LEGACY01,Check Out',
  '1002,2026/11/2 9:01,LEGACY01,0',
  '9999,2026-11-02 09:30:00,LEGACY01,Check In',
  '1001,2026-11-02 08:59:07,LEGACY01,Check In',
  '1003,2026-11-02 09:00:00,OLDDOOR9,Check In',
  '1003,2026-11-02 25:00:00,LEGACY01,Check In',
  '1003,2026-11-02 09:05:00,LEGACY01,Lunch',
].join('\n');

const preview = (c: Company, name: string, data: Buffer, kind: string) => upload(t, '/legacy/preview', c.main, { name, data }, { kind });
const run = (c: Company, body: Record<string, unknown>) => call(t.app, 'POST', '/legacy/run', { token: c.main, lang: 'en-US', body });
const finished = async (c: Company, id: number): Promise<LegacyImport> =>
  (await until(`import ${id} over`, async () => {
    const r = (await call(t.app, 'GET', '/legacy/info', { token: c.main, query: { id } })).data as LegacyImport;
    return r.state === 'done' || r.state === 'failed' ? r : undefined;
  }))!;
const people = async (c: Company) =>
  (await call(t.app, 'GET', '/person/list', { token: c.main, query: { pageSize: 100 } })).data.items as {
    id: number;
    number: string;
    name: string;
    rfid: string;
    organizations: { id: number; name: string }[];
  }[];

test(`an employee export in GBK: detected, its columns mapped by their headers; a dry run counts and names each refused row, writing nothing; the run writes it; again, nothing changes (${DIALECT})`, async () => {
  const p = await preview(A, 'employees.csv', iconv.encode(EMPLOYEES, 'gbk'), 'employees');
  assert.equal(p.code, CODES.OK, p.message);
  assert.equal(p.data.encoding, 'gbk');
  assert.deepEqual(p.data.headers, ['工号', '姓名', '部门', '卡号', '入职日期', '性别', '手机']);
  assert.equal(p.data.rows, 7);
  assert.deepEqual(p.data.sample[0], ['1001', '张伟', '总部/研发部', '12345678', '2024-03-01', '男', '13800000001']);
  assert.deepEqual(p.data.mapping, { number: 0, name: 1, first_name: null, last_name: null, department: 2, card: 3, hire_date: 4, gender: 5, phone: 6 });
  assert.equal(p.data.remembered, false);

  const before = (await people(A)).length;
  const dry = await run(A, { id: p.data.id, mapping: p.data.mapping, dry_run: true });
  assert.equal(dry.code, CODES.OK, dry.message);
  const counted = (await finished(A, p.data.id)).report!;
  assert.deepEqual(
    { created: counted.created, updated: counted.updated, departments: counted.departments, duplicates: counted.duplicates, failed: counted.failed },
    { created: 3, updated: 0, departments: 3, duplicates: 1, failed: 3 },
  );
  assert.deepEqual(
    counted.errors.map((e) => [e.row, e.field]),
    [
      [6, 'Hire date'],
      [7, 'Employee number'],
      [8, 'Gender'],
    ],
  );
  assert.match(counted.errors[2]!.reason, /"未知性别" is not a gender/);
  assert.match(counted.errors[0]!.reason, /"2024-02-30" is not a date/);
  assert.equal((await people(A)).length, before, 'a dry run writes nothing');

  const real = await run(A, { id: p.data.id, mapping: p.data.mapping, dry_run: false });
  assert.equal(real.code, CODES.OK, real.message);
  const report = (await finished(A, p.data.id)).report!;
  assert.deepEqual([report.created, report.departments, report.failed], [3, 3, 3]);
  const made = new Map((await people(A)).map((x) => [x.number, x]));
  assert.equal(made.get('1001')?.name, '张伟');
  assert.equal(made.get('1001')?.rfid, '12345678');
  const info = (await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: made.get('1002')!.id } })).data;
  assert.equal(info.joined_on, '2024-05-06', 'the hire date, read from 2024/5/6');
  assert.equal(info.gender, 'female', 'the gender, read from 女');
  assert.equal((await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: made.get('1001')!.id } })).data.gender, 'male');
  const tree = JSON.stringify((await call(t.app, 'GET', '/org/tree', { token: A.main })).data);
  for (const name of ['总部', '研发部', '销售部']) assert.ok(tree.includes(name), `department ${name} made`);
  const logged = await call(t.app, 'GET', '/log/list', { token: A.main, lang: 'en-US', query: { pageSize: 50 } });
  assert.ok(
    logged.data.items.some(
      (l: { action: string; description: string }) => l.action === 'person.legacyImport' && /Imported 3 employees from employees\.csv/.test(l.description),
    ),
  );

  // The file is not kept once imported (it holds phones and cards): running it again asks for it again.
  const gone = await run(A, { id: p.data.id, mapping: p.data.mapping, dry_run: true });
  assert.equal(gone.code, CODES.RULE);
  assert.match(gone.message, /no longer kept here/);

  // The same file again: its mapping remembered, nothing to write.
  const again = await preview(A, 'employees.csv', iconv.encode(EMPLOYEES, 'gbk'), 'employees');
  assert.equal(again.data.remembered, true);
  await run(A, { id: again.data.id, mapping: again.data.mapping, dry_run: false });
  const second = (await finished(A, again.data.id)).report!;
  assert.deepEqual([second.created, second.updated, second.unchanged, second.departments], [0, 0, 3, 0]);
  assert.equal((await people(A)).length, before + 3);
});

test(`a transaction export becomes punches with the terminals' own key: a later upload of the same punch by the terminal stores nothing; unknown numbers are kept as strangers; each refused row says why (${DIALECT})`, async () => {
  const d = await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Front door', serial: 'LEGACY01', ip: '10.0.0.7', password: 'pw' } });
  assert.equal(d.code, CODES.OK, d.message);
  const p = await preview(A, 'transactions.csv', Buffer.from(TRANSACTIONS), 'transactions');
  assert.equal(p.data.encoding, 'utf-8');
  assert.deepEqual(p.data.mapping, { number: 0, time: 1, date: null, clock: null, terminal: 2, state: 3 });
  await run(A, { id: p.data.id, mapping: p.data.mapping, dry_run: false });
  const report = (await finished(A, p.data.id)).report!;
  assert.deepEqual(
    { stored: report.stored, already: report.already, strangers: report.strangers, duplicates: report.duplicates, failed: report.failed },
    { stored: 4, already: 0, strangers: 1, duplicates: 1, failed: 3 },
  );
  assert.deepEqual(
    report.errors.map((e) => e.field),
    ['Terminal', 'Punch time', 'Punch state'],
  );
  assert.match(report.errors[0]!.reason, /"OLDDOOR9" is not a terminal of this company/);
  const wei = (await people(A)).find((x) => x.number === '1001')!;
  const punches = async () =>
    (await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { person_id: wei.id, pageSize: 50 } })).data.total as number;
  assert.equal(await punches(), 2);

  // The terminal itself uploads the morning punch (its log re-sent): stored once.
  const term = terminal(server, 'LEGACY01');
  await term.start();
  assert.match((await term.punch({ pin: '1001', time: '2026-11-02 08:59:07' })).reply ?? '', /^OK/);
  assert.equal(await punches(), 2, 'the same key as the file');
  // The file again, with a terminal chosen for rows naming an unknown one: the unknown terminal's row is stored now.
  const again = await preview(A, 'transactions.csv', Buffer.from(TRANSACTIONS), 'transactions');
  await run(A, { id: again.data.id, mapping: again.data.mapping, device_id: d.data.id, dry_run: false });
  const second = (await finished(A, again.data.id)).report!;
  assert.deepEqual([second.stored, second.already, second.failed], [1, 4, 2]);
});

test(`a mapping without a needed field names it; a column the file lacks is refused; another company's import is not found; a sub-admin without people editing is refused (${DIALECT})`, async () => {
  const p = await preview(A, 'transactions.csv', Buffer.from(TRANSACTIONS), 'transactions');
  const noNumber = await run(A, { id: p.data.id, mapping: { ...p.data.mapping, number: null }, dry_run: true });
  assert.equal(noNumber.code, CODES.RULE);
  assert.match(noNumber.message, /Employee number/);
  const noTime = await run(A, { id: p.data.id, mapping: { ...p.data.mapping, time: null }, dry_run: true });
  assert.match(noTime.message, /Punch time/);
  const outside = await run(A, { id: p.data.id, mapping: { ...p.data.mapping, state: 9 }, dry_run: true });
  assert.equal(outside.code, CODES.RULE);
  assert.match(outside.message, /column 10/);
  assert.equal((await call(t.app, 'GET', '/legacy/info', { token: A.main, query: { id: p.data.id } })).data.state, 'uploaded', 'nothing ran');

  assert.equal((await run(B, { id: p.data.id, mapping: p.data.mapping, dry_run: true })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'GET', '/legacy/info', { token: B.main, query: { id: p.data.id } })).code, CODES.NOT_FOUND);
  const viewer = await makeSub(t, A, ['userView']);
  assert.equal(
    (await upload(t, '/legacy/preview', viewer.token, { name: 'x.csv', data: Buffer.from(TRANSACTIONS) }, { kind: 'transactions' })).code,
    CODES.NO_AUTHORITY,
  );
  assert.equal(
    (await call(t.app, 'POST', '/legacy/run', { token: viewer.token, body: { id: p.data.id, mapping: p.data.mapping, dry_run: true } })).code,
    CODES.NO_AUTHORITY,
  );
  // not a file of such exports at all
  const pdf = await preview(A, 'report.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0)]), 'transactions');
  assert.equal(pdf.code, CODES.RULE);
});

test(`an upload never imported for real is deleted after a week; the row stays for its remembered mapping (${DIALECT})`, async () => {
  const p = await preview(A, 'old.csv', Buffer.from(TRANSACTIONS), 'transactions');
  const { db } = t.app.database;
  const key = (await db.selectFrom('legacy_imports').select('file_key').where('id', '=', p.data.id).executeTakeFirstOrThrow()).file_key;
  assert.ok(await t.app.files.head(key), 'kept while it may be run');
  assert.equal(await t.app.modules.legacy.service.sweep(), 0, 'nothing a week old yet');
  await db
    .updateTable('legacy_imports')
    .set({ updated_at: new Date(Date.now() - 8 * 86_400_000).toISOString() })
    .where('id', '=', p.data.id)
    .execute();
  assert.ok((await t.app.modules.legacy.service.sweep()) >= 1);
  assert.equal(await t.app.files.head(key), undefined);
  const row = await db.selectFrom('legacy_imports').select(['file_key', 'headers']).where('id', '=', p.data.id).executeTakeFirstOrThrow();
  assert.deepEqual([row.file_key, JSON.parse(row.headers)[0]], ['', 'Employee ID']);
  assert.match((await run(A, { id: p.data.id, mapping: p.data.mapping, dry_run: true })).message, /no longer kept here/);
});

test(`the same people from the old software's employee file and from a terminal's roster come out the same (number, name, card, department); a terminal taken over after the file's import has them matched and linked, no one made twice (${DIALECT})`, async () => {
  // A terminal in service holding three of the file's employees (written by hand, as EMPLOYEES is)
  const held = {
    users: [
      { pin: '1001', name: '张伟', card: '12345678' },
      { pin: '1002', name: '李娜' },
      { pin: '1003', name: '王芳', card: '87654321' },
    ],
    punches: [],
  };
  const FILE = ['工号,姓名,部门,卡号', '1001,张伟,总部,12345678', '1002,李娜,总部,', '1003,王芳,总部,87654321'].join('\n');
  const sameFields = async (c: Company) =>
    (await people(c))
      .map((p) => ({
        number: p.number,
        name: p.name,
        rfid: p.rfid,
        departments: p.organizations.map((o) => o.name),
      }))
      .sort((a, b) => a.number.localeCompare(b.number));
  /** A company's terminal `serial` holding `held`, its roster read. */
  const readTerminal = async (c: Company, serial: string) => {
    const d = await call(t.app, 'POST', '/device/create', { token: c.main, body: { name: `Door ${serial}`, serial, ip: '10.0.0.31', password: 'pw' } });
    assert.equal(d.code, CODES.OK, d.message);
    await terminal(server, serial, { site: held }).start();
    assert.equal((await call(t.app, 'POST', '/device/command', { token: c.main, body: { id: d.data.id, kind: 'readRoster' } })).code, CODES.OK);
    const items = await until(`${serial}'s roster read`, async () => {
      const r = await call(t.app, 'GET', '/device/roster', { token: c.main, query: { id: d.data.id, pageSize: 100 } });
      return r.data?.total === held.users.length ? (r.data.items as { pin: string; match: string; person_id: number | null }[]) : undefined;
    });
    return { id: d.data.id as number, items: items! };
  };

  // the terminal's path: company C takes the people over from the terminal into 总部
  const C = await makeCompany(t, 'Legacy C');
  const deptC = await call(t.app, 'POST', '/org/create', { token: C.main, body: { name: '总部' } });
  const termC = await readTerminal(C, 'LEGACYC1');
  const byTerminal = await applyReview(t.app, '/device/roster/apply', {
    token: C.main,
    body: { id: termC.id, department_id: deptC.data.id, rows: held.users.map((u) => ({ pin: u.pin, action: 'create' })) },
  });
  assert.equal(byTerminal.code, CODES.OK, byTerminal.message);
  assert.equal(byTerminal.data.created, 3);

  // the file's path: company D imports the employee file
  const D = await makeCompany(t, 'Legacy D');
  const p = await preview(D, 'employees.csv', Buffer.from(FILE), 'employees');
  assert.equal(p.code, CODES.OK, p.message);
  assert.equal((await run(D, { id: p.data.id, mapping: p.data.mapping, dry_run: false })).code, CODES.OK);
  assert.equal((await finished(D, p.data.id)).report!.created, 3);

  const fromTerminal = await sameFields(C);
  assert.equal(fromTerminal.length, 3);
  assert.deepEqual(await sameFields(D), fromTerminal);

  // D then takes over the terminal holding them: each user matched to the person the file made, linked, no one new
  const termD = await readTerminal(D, 'LEGACYD1');
  assert.deepEqual(
    termD.items.map((i) => i.match),
    held.users.map(() => 'matched'),
  );
  const deptD = (await people(D))[0]!;
  const linked = await applyReview(t.app, '/device/roster/apply', {
    token: D.main,
    body: { id: termD.id, department_id: deptD.organizations[0]!.id, rows: termD.items.map((i) => ({ pin: i.pin, action: 'link', person_id: i.person_id })) },
  });
  assert.equal(linked.code, CODES.OK, linked.message);
  assert.deepEqual([linked.data.created, linked.data.linked, linked.data.refused], [0, 3, []]);
  assert.deepEqual(await sameFields(D), fromTerminal);
});

// Written by hand: the columns of ZKBioTime's department export; a child before its parent, a parent by name, one
// by path, ZKTime's 0 for the top, a department its own parent, a circle, a repeated row, a row without a name and
// its child, a parent nobody knows, a code given twice, a parent name two rows share.
const DEPARTMENTS = [
  'Department Code,Department Name,Superior Department',
  '4,Firmware,2',
  '1,Head Office,',
  '2,R&D,1',
  '3,Sales,1',
  '5,East Region,Sales',
  '6,Loop A,7',
  '7,Loop B,6',
  '8,Warehouse,Operations/Logistics',
  '2,R&D,1',
  '9,,1',
  '10,Tooling,9',
  '11,Lab,Nowhere',
  '12,QA,0',
  '2,Research,1',
  '13,Desk,13',
  '14,Team,1',
  '15,Team,3',
  '16,Alpha,Team',
].join('\r\n');

test(`a department export: its parents by code, by name or as a path, in any order, made under the department chosen; a dry run counts them and names the refused rows; the run makes them, again nothing (${DIALECT})`, async () => {
  const C = await makeCompany(t, 'Legacy departments');
  const root = await call(t.app, 'POST', '/org/create', { token: C.main, body: { name: 'Group' } });
  const paths = async () => {
    const out: string[] = [];
    const walk = (nodes: { name: string; children?: unknown[] }[], up: string) => {
      for (const n of nodes) {
        const path = up ? `${up}/${n.name}` : n.name;
        out.push(path);
        walk((n.children ?? []) as typeof nodes, path);
      }
    };
    walk((await call(t.app, 'GET', '/org/tree', { token: C.main })).data, '');
    return out.sort();
  };
  const p = await preview(C, 'departments.csv', Buffer.from(DEPARTMENTS), 'departments');
  assert.equal(p.code, CODES.OK, p.message);
  assert.deepEqual(p.data.mapping, { code: 0, department: 1, parent: 2 });
  const body = { id: p.data.id, mapping: p.data.mapping, department_id: root.data.id };

  assert.equal((await run(C, { ...body, dry_run: true })).code, CODES.OK);
  const dry = (await finished(C, p.data.id)).report!;
  assert.deepEqual(
    { departments: dry.departments, unchanged: dry.unchanged, duplicates: dry.duplicates, failed: dry.failed },
    { departments: 12, unchanged: 0, duplicates: 1, failed: 7 },
  );
  assert.deepEqual(
    dry.errors.map((e) => [e.row, e.field]),
    [
      [7, 'Parent department'],
      [8, 'Parent department'],
      [11, 'Department'],
      [12, 'Parent department'],
      [13, 'Parent department'],
      [15, 'Department code'],
      [19, 'Parent department'],
    ],
  );
  assert.match(dry.errors[0]!.reason, /"7" leads round in a circle/);
  assert.match(dry.errors[3]!.reason, /"9" is a department this file could not import/);
  assert.match(dry.errors[4]!.reason, /"Nowhere" is neither a department code nor a department name/);
  assert.match(dry.errors[5]!.reason, /"2" is used by an earlier row for another department/);
  assert.match(dry.errors[6]!.reason, /"Team" names more than one department/);
  assert.deepEqual(await paths(), ['Group'], 'a dry run makes nothing');

  assert.equal((await run(C, { ...body, dry_run: false })).code, CODES.OK);
  const real = (await finished(C, p.data.id)).report!;
  assert.deepEqual([real.departments, real.failed], [12, 7]);
  assert.deepEqual(await paths(), [
    'Group',
    'Group/Desk',
    'Group/Head Office',
    'Group/Head Office/R&D',
    'Group/Head Office/R&D/Firmware',
    'Group/Head Office/Sales',
    'Group/Head Office/Sales/East Region',
    'Group/Head Office/Sales/Team',
    'Group/Head Office/Team',
    'Group/Operations',
    'Group/Operations/Logistics',
    'Group/Operations/Logistics/Warehouse',
    'Group/QA',
  ]);
  const logged = await call(t.app, 'GET', '/log/list', { token: C.main, lang: 'en-US', query: { pageSize: 10 } });
  assert.ok(logged.data.items.some((l: { description: string }) => /Imported 12 departments from departments\.csv/.test(l.description)));

  // the same file again: its mapping remembered, every department already here
  const again = await preview(C, 'departments.csv', Buffer.from(DEPARTMENTS), 'departments');
  assert.equal(again.data.remembered, true);
  await run(C, { id: again.data.id, mapping: again.data.mapping, department_id: root.data.id, dry_run: false });
  const second = (await finished(C, again.data.id)).report!;
  assert.deepEqual([second.departments, second.unchanged, second.failed], [0, 10, 7]);
  assert.equal((await paths()).length, 13);

  // a parent the file does not hold but the company does, by its name: the department goes under it
  const more = await preview(C, 'more.csv', Buffer.from('Department Code,Department Name,Superior Department\n20,Night Shift,Logistics'), 'departments');
  await run(C, { id: more.data.id, mapping: more.data.mapping, department_id: root.data.id, dry_run: false });
  assert.deepEqual([(await finished(C, more.data.id)).report!.departments], [1]);
  assert.ok((await paths()).includes('Group/Operations/Logistics/Night Shift'));

  // a departments file needs the departments' names
  const unnamed = await run(C, { id: again.data.id, mapping: { code: 0, department: null, parent: 2 }, dry_run: true });
  assert.equal(unnamed.code, CODES.RULE);
  assert.match(unnamed.message, /Choose the column that holds Department/);
});
