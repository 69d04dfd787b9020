import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { COUNT_LIMIT } from '../../db/count.ts';
import { chunks } from '../../lib/chunks.ts';
import { newPersonRow } from '../persons/persons.repository.ts';

/**
 * The day results and the month report of a big company (#32 item 3): they count people up to 10,000, then say there
 * are more (counting 100,000 exactly took most of the page's time on PostgreSQL); a filter under the limit counts
 * exactly, and the page is still the first by number. 10,001 people, each with a result on one day; every hundredth
 * absent.
 */
let t: TestApp;
let A: Company;
const DAY = '2026-10-14';
const PEOPLE = COUNT_LIMIT + 1;

before(async () => {
  t = await makeApp();
  await t.app.jobs.stop();
  A = await makeCompany(t, 'Big counts');
  const db = t.app.database.db;
  const now = '2026-10-01T00:00:00.000Z';
  const ids: number[] = [];
  await db.transaction().execute(async (trx) => {
    for (const part of chunks(Array.from({ length: PEOPLE }, (_, i) => i))) {
      const rows = part.map((i) => {
        const p = { number: `N${String(i).padStart(5, '0')}`, name: `Person ${i}` };
        return { ...newPersonRow({ ...p, phone: '', created_at: now }), company_id: A.id, search: `${p.name} ${p.number}`.toLowerCase() };
      });
      ids.push(...(await trx.insertInto('persons').values(rows).returning('id').execute()).map((r) => r.id));
    }
    for (const part of chunks(ids.map((id, i) => ({ id, i }))))
      await trx
        .insertInto('attendance_days')
        .values(part.map(({ id, i }) => ({ company_id: A.id, person_id: id, date: DAY, status: i % 100 ? 'normal' : 'absent', computed_at: now })))
        .execute();
  });
});
after(async () => {
  await t.close();
});

test(`the day results count up to ${COUNT_LIMIT.toLocaleString('en')} people, then say there are more; a status under the limit counts exactly (${DIALECT})`, async () => {
  const list = (query: Record<string, string>) => call(t.app, 'GET', '/attendance/day/list', { token: A.main, query: { date: DAY, pageSize: '20', ...query } });
  const all = await list({});
  assert.equal(all.code, 20000, all.message);
  assert.deepEqual([all.data.total, all.data.more], [COUNT_LIMIT, true]);
  assert.deepEqual(
    all.data.items.map((r: { number: string }) => r.number),
    Array.from({ length: 20 }, (_, i) => `N${String(i).padStart(5, '0')}`),
  );
  const absent = await list({ status: 'absent' });
  assert.deepEqual([absent.data.total, absent.data.more], [Math.ceil(PEOPLE / 100), false]);
  assert.equal(absent.data.items[1].number, 'N00100');
});

test(`the month report counts up to ${COUNT_LIMIT.toLocaleString('en')} people, then says there are more; a keyword counts exactly; the last page it counts and the one after it read (${DIALECT})`, async () => {
  const report = (query: Record<string, string>) =>
    call(t.app, 'GET', '/attendance/report/month', { token: A.main, query: { month: DAY.slice(0, 7), pageSize: '20', ...query } });
  const all = await report({});
  assert.equal(all.code, 20000, all.message);
  assert.deepEqual([all.data.total, all.data.more], [COUNT_LIMIT, true]);
  assert.equal(all.data.items[0].number, 'N00000');
  assert.equal(all.data.items[0].work_days, 1);
  const found = await report({ keyword: 'person 1000' });
  assert.deepEqual([found.data.total, found.data.more], [2, false]); // Person 1000 and Person 10000
  const last = await report({ page: String(COUNT_LIMIT / 20) });
  assert.equal(last.data.items.length, 20);
  assert.equal(last.data.items[19].number, `N0${COUNT_LIMIT - 1}`);
  // and the page after it, which the console's pager offers when there are more
  const past = await report({ page: String(COUNT_LIMIT / 20 + 1) });
  assert.deepEqual(
    past.data.items.map((r: { number: string }) => r.number),
    [`N${COUNT_LIMIT}`],
  );
  assert.equal(past.data.more, true);
});

test(`the day-results export reads a big day a batch at a time: every one of 10,001 people once, by number (${DIALECT})`, async () => {
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/management/attendance/day/export',
    headers: { 'x-token': A.main, 'x-lang': 'en-US' },
    payload: { from: DAY, to: DAY },
  });
  assert.equal(r.statusCode, 200, r.body.slice(0, 200));
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0]!;
  const number = (sheet.getRow(1).values as string[]).indexOf('Number');
  assert.ok(number > 0);
  const numbers = Array.from({ length: sheet.rowCount - 1 }, (_, i) => String(sheet.getRow(i + 2).getCell(number).value));
  assert.deepEqual(
    numbers,
    Array.from({ length: PEOPLE }, (_, i) => `N${String(i).padStart(5, '0')}`),
  );
});
