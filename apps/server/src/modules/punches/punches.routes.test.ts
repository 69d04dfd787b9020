import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { newPersonRow } from '../persons/persons.repository.ts';
import { COUNT_LIMIT } from '../../db/count.ts';
import { plainPunch, punchWriter, type PunchInsert } from './punches.repository.ts';

/**
 * The punch list and exports of a big company (#32 item 3). The list counts up to 10,000 punches, then says there are
 * more. The punch and stranger exports read their rows a batch of 1,000 at a time, each after the last row of the batch
 * before (#32 item 3: by offset, a month of a big company's punches took minutes). 1,500 punches, three at each
 * second (one per PIN), so a batch ends inside a group of punches with the same time: each must be in the workbook
 * once, newest first.
 */
let t: TestApp;
let A: Company;
let B: Company;
const TIMES = 500;
const PINS = ['101', '102', '103'];

before(async () => {
  t = await makeApp();
  await t.app.jobs.stop();
  A = await makeCompany(t, 'Export A');
  B = await makeCompany(t, 'Export B');
  const device = async (c: Company, serial: string) =>
    (await call(t.app, 'POST', '/device/create', { token: c.main, body: { name: `Gate ${serial}`, serial, ip: '10.0.0.1', password: 'pw' } })).data
      .id as number;
  const gate = await device(A, 'EXP001');
  const other = await device(B, 'EXP002');
  const rows: PunchInsert[] = [];
  for (let i = 0; i < TIMES; i++) {
    const local = `2026-11-16 ${String(8 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00`;
    for (const pin of PINS) rows.push({ ...plainPunch({ companyId: A.id, deviceId: gate, personId: null, pin, local, zone: 'Asia/Shanghai' }), stranger: 1 });
    rows.push(plainPunch({ companyId: B.id, deviceId: other, personId: null, pin: '101', local, zone: 'Asia/Shanghai' }));
  }
  await t.app.database.db.transaction().execute((trx) => punchWriter().insertIgnore(trx, rows));
});
after(async () => {
  await t.close();
});

/** The first sheet's rows below the header, as 'day time number', found by the columns' English headers. */
async function exported(url: string, body: object): Promise<string[]> {
  const r = await t.app.inject({ method: 'POST', url: `/api/management${url}`, headers: { 'x-token': A.main, 'x-lang': 'en-US' }, payload: body });
  assert.equal(r.statusCode, 200, r.body.slice(0, 200));
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0]!;
  const headers = (sheet.getRow(1).values as string[]).map((h) => String(h ?? '').toLowerCase());
  const col = (name: string) => headers.indexOf(name);
  const [day, time, number] = [col('day'), col('time'), col('number')];
  assert.ok(day > 0 && time > 0 && number > 0, headers.join(', '));
  return Array.from({ length: sheet.rowCount - 1 }, (_, i) => {
    const v = sheet.getRow(i + 2).values as unknown[];
    return `${String(v[day])} ${String(v[time])} ${String(v[number])}`;
  });
}

function assertEachOnceNewestFirst(rows: string[]): void {
  assert.equal(rows.length, TIMES * PINS.length, 'every punch of the company, no more');
  assert.equal(new Set(rows).size, rows.length, 'no punch twice');
  const times = rows.map((r) => r.split(' ').slice(0, 2).join(' '));
  assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
}

test(`a punch export of more than one batch has every punch once, newest first, where a batch ends among punches of the same second (${DIALECT})`, async () => {
  assertEachOnceNewestFirst(await exported('/attendance/export', { from: '2026-11-16', to: '2026-11-16' }));
});

test(`a stranger export of more than one batch has every refused face once, newest first (${DIALECT})`, async () => {
  assertEachOnceNewestFirst(await exported('/stranger/export', { from: '2026-11-16', to: '2026-11-16' }));
});

test(`the punch list counts up to ${COUNT_LIMIT.toLocaleString('en')} punches, then says there are more; a filter under the limit counts exactly (${DIALECT})`, async () => {
  const gate = (await call(t.app, 'GET', '/device/list', { token: B.main })).data.items[0].id as number;
  const rows: PunchInsert[] = Array.from({ length: COUNT_LIMIT + 1 - TIMES }, (_, i) => {
    const local = `2026-10-${String(1 + Math.floor(i / 1000)).padStart(2, '0')} 0${Math.floor((i % 1000) / 200)}:${String(i % 60).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}`;
    return plainPunch({ companyId: B.id, deviceId: gate, personId: null, pin: String(200 + (i % 200)), local, zone: 'Asia/Shanghai' });
  });
  await t.app.database.db.transaction().execute((trx) => punchWriter().insertIgnore(trx, rows));
  const list = (query: Record<string, string>) => call(t.app, 'GET', '/attendance/list', { token: B.main, query: { pageSize: '20', ...query } });
  const all = await list({});
  assert.equal(all.data.total, COUNT_LIMIT);
  assert.equal(all.data.more, true);
  assert.equal(all.data.items.length, 20);
  const november = await list({ from: '2026-11-01', to: '2026-11-30' });
  assert.equal(november.data.total, TIMES);
  assert.equal(november.data.more, false);
  // the last page the count reaches still reads
  const last = await list({ page: String(COUNT_LIMIT / 20) });
  assert.equal(last.data.items.length, 20);
});

test(`a keyword finds a person's punches by name or number, and a stranger's by PIN, whether it finds few people or very many (${DIALECT})`, async () => {
  const db = t.app.database.db;
  const gate = (await call(t.app, 'GET', '/device/list', { token: A.main })).data.items[0].id as number;
  const now = '2026-11-01T00:00:00.000Z';
  // 201 workers (more than a keyword reads person by person) and one manager
  const people = await db
    .insertInto('persons')
    .values(
      [...Array.from({ length: 201 }, (_, i) => ({ number: `W${i}`, name: `Worker ${i}` })), { number: 'M1', name: 'Manager One' }].map((p) => ({
        ...newPersonRow({ ...p, phone: '', created_at: now }),
        company_id: A.id,
        search: `${p.name} ${p.number}`.toLowerCase(),
      })),
    )
    .returning(['id', 'number'])
    .execute();
  const id = (number: string) => people.find((p) => p.number === number)!.id;
  const punch = (personId: number | null, pin: string, local: string) =>
    plainPunch({ companyId: A.id, deviceId: gate, personId, pin, local, zone: 'Asia/Shanghai' });
  await db
    .transaction()
    .execute((trx) =>
      punchWriter().insertIgnore(trx, [
        punch(id('M1'), 'M1', '2026-11-17 08:58:00'),
        punch(id('W7'), 'W7', '2026-11-17 09:01:00'),
        punch(id('W8'), 'W8', '2026-11-17 09:02:00'),
      ]),
    );
  const found = async (keyword: string) =>
    (await call(t.app, 'GET', '/attendance/list', { token: A.main, lang: 'en-US', query: { keyword, from: '2026-11-16', to: '2026-11-17', pageSize: '100' } }))
      .data as {
      items: { number: string }[];
      total: number;
    };
  assert.deepEqual(
    (await found('manager')).items.map((p) => p.number),
    ['M1'],
    'by name (a few people)',
  );
  assert.deepEqual(
    (await found('w7')).items.map((p) => p.number),
    ['W7'],
    'by number',
  );
  assert.deepEqual(
    (await found('worker')).items.map((p) => p.number),
    ['W8', 'W7'],
    'by a name part 201 people share',
  );
  const stranger = await found('103');
  assert.equal(stranger.total, TIMES, "a stranger's PIN");
  assert.ok(stranger.items.every((p) => p.number === '103'));
});
