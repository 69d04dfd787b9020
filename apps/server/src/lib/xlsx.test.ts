import assert from 'node:assert/strict';
import { test } from 'node:test';
import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import { excel, xlsxStream, zipBacklog, zipTaken } from './xlsx.ts';

/**
 * An export's batches arrive as SQLite gives them: answered without a turn of the event loop. The workbook still
 * leaves as it is written (its first bytes before its last batch is read), and a timer set meanwhile fires: the
 * export does not hold the server (a terminal's upload, a console's request) until it ends.
 */
test('an xlsx export sends its first bytes, and lets a timer run, before it reads its last batch', async () => {
  const BATCHES = 40;
  let read = 0;
  let readWhenTimerRan = -1;
  async function* batches() {
    for (let b = 0; b < BATCHES; b++) {
      read++;
      yield Array.from({ length: 500 }, (_, i) => ({ n: b * 500 + i, text: `row ${b * 500 + i} ${'x'.repeat(40)}` }));
    }
  }
  setTimeout(() => (readWhenTimerRan = read), 0);
  const out = await xlsxStream(
    'Rows',
    [
      { key: 'n', header: 'N' },
      { key: 'text', header: 'Text' },
    ],
    batches(),
  );
  let readAtFirstBytes = -1;
  let bytes = 0;
  for await (const chunk of out) {
    if (readAtFirstBytes < 0) readAtFirstBytes = read;
    bytes += (chunk as Buffer).length;
  }
  assert.ok(bytes > 100_000, `${bytes} bytes`);
  assert.ok(readAtFirstBytes < BATCHES, `the first bytes left after ${readAtFirstBytes} of ${BATCHES} batches`);
  assert.ok(readWhenTimerRan >= 0 && readWhenTimerRan < BATCHES, `the timer ran after ${readWhenTimerRan} of ${BATCHES} batches`);
});

test("rows past a sheet's limit go on in another sheet, under the same title and header: each row once, in order", async () => {
  const LIMIT = 1_000;
  const ROWS = 2_500;
  async function* batches() {
    for (let b = 0; b < ROWS / 500; b++) yield Array.from({ length: 500 }, (_, i) => ({ n: b * 500 + i }));
  }
  const out = await xlsxStream('Punches of a very long month', [{ key: 'n', header: 'N' }], batches(), { preface: [['Title']], sheetRows: LIMIT });
  const chunks: Buffer[] = [];
  for await (const chunk of out) chunks.push(chunk as Buffer);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  // a sheet's name has at most 31 characters
  assert.deepEqual(
    wb.worksheets.map((w) => w.name),
    ['Punches of a very long month', 'Punches of a very long m (2)', 'Punches of a very long m (3)'],
  );
  const seen: number[] = [];
  for (const w of wb.worksheets) {
    assert.ok(w.rowCount <= LIMIT, `${w.name}: ${w.rowCount} rows`);
    if (w !== wb.worksheets.at(-1)) assert.equal(w.rowCount, LIMIT, `${w.name} is full before the next begins`);
    assert.deepEqual([w.getRow(1).getCell(1).value, w.getRow(2).getCell(1).value], ['Title', 'N'], w.name);
    for (let r = 3; r <= w.rowCount; r++) seen.push(Number(w.getRow(r).getCell(1).value));
  }
  assert.deepEqual(
    seen,
    Array.from({ length: ROWS }, (_, i) => i),
  );
});

test("a sheet's rows wait for the zip to take them: after zipTaken the sheet holds less than one buffer of XML", async () => {
  const { stream } = await excel();
  const out = new PassThrough();
  out.resume();
  const wb = new stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet('Rows');
  ws.columns = [{ header: 'Text', key: 'text' }];
  // written at once, faster than any zip compresses them (exceljs does not wait by itself)
  for (let i = 0; i < 20_000; i++) ws.addRow({ text: `row ${i} ${'x'.repeat(60)}` }).commit();
  const before = zipBacklog(ws);
  assert.ok(before !== undefined, "exceljs's insides changed: zipTaken no longer holds the rows back (lib/xlsx.ts)");
  assert.ok(before > 1_000_000, `${before} bytes waiting`);
  await zipTaken(ws, out);
  assert.ok(zipBacklog(ws)! < 65_536, `${zipBacklog(ws)} bytes still waiting`);
  ws.commit();
  await wb.commit();
});
