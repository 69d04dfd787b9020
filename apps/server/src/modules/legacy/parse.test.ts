import assert from 'node:assert/strict';
import { test } from 'node:test';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { AppError } from '../../lib/errors.ts';
import { detectEncoding, KNOWN_HEADERS, LEGACY_ENCODINGS, readLegacyFile as readWithLines, type LegacyEncoding } from './parse.ts';

/** The table as read, without its rows' line numbers (the test of title lines checks those). */
async function readLegacyFile(...args: Parameters<typeof readWithLines>) {
  const { lines: _lines, ...sheet } = await readWithLines(...args);
  return sheet;
}

/** Every sample here is written by hand, in the shape the old systems export. */

const refused = (key: string) => (e: unknown) => e instanceof AppError && e.key === key && (e.data as { field?: string } | null)?.field === 'file';

/** Joins rows into CSV lines (cells already quoted where needed). */
const csv = (rows: string[][], eol = '\r\n', delimiter = ',') => rows.map((r) => r.join(delimiter)).join(eol) + eol;

const EMPLOYEES: Record<Exclude<LegacyEncoding, 'utf-8'>, { headers: string[]; rows: string[][] }> = {
  // ZKBioTime personnel export, Simplified Chinese.
  gbk: {
    headers: ['工号', '姓名', '部门', '卡号', '入职日期', '性别', '手机'],
    rows: [
      ['1001', '张伟', '研发部', '0012345678', '2019-03-01', '男', '13800138000'],
      ['1002', '李静', '人事行政部', '', '2021-11-15', '女', '13912345678'],
      ['1003', '欧阳晓燕', '财务部/会计组', '0087654321', '2023-07-03', '女', ''],
    ],
  },
  // The same, Traditional Chinese (Taiwan, Hong Kong).
  big5: {
    headers: ['工號', '姓名', '部門', '卡號', '到職日期', '性別', '手機'],
    rows: [
      ['1001', '陳美玲', '業務部', '0012345678', '2018-09-10', '女', '0912345678'],
      ['1002', '林志豪', '資訊部', '', '2022-01-03', '男', '0987654321'],
    ],
  },
  // The same, Japanese, with full- and half-width katakana.
  shift_jis: {
    headers: ['社員番号', '氏名', '部署', 'カード番号', '入社日', '性別', '携帯番号'],
    rows: [
      ['1001', '山田太郎', '営業部', '0012345678', '2020-04-01', '男', '090-1234-5678'],
      ['1002', 'ヤマダ ﾊﾅｺ', '総務部', '', '2021-04-01', '女', '080-8765-4321'],
      ['1003', '佐藤　花子', '経理課', '0011112222', '2015-10-01', '女', ''],
    ],
  },
};

for (const encoding of ['gbk', 'big5', 'shift_jis'] as const) {
  test(`a ${encoding} employee export is detected as ${encoding} and decoded exactly`, async () => {
    const { headers, rows } = EMPLOYEES[encoding];
    const bytes = iconv.encode(csv([headers, ...rows]), encoding);
    assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes), 'the sample is not valid UTF-8');
    assert.equal(detectEncoding(bytes), encoding);
    assert.deepEqual(await readLegacyFile('people.csv', bytes), { encoding, headers, rows });
  });
}

test('detection without a known header word: fewest replacement characters, then common characters, then kana', async () => {
  assert.equal(detectEncoding(iconv.encode('备注,说明\n这是一段中文说明文字,另外一些备注内容\n', 'gbk')), 'gbk');
  assert.equal(detectEncoding(iconv.encode('備註,說明\n這是一段中文說明文字,另外一些備註內容\n', 'big5')), 'big5');
  // GBK reads these Shift-JIS bytes without a single U+FFFD, as rare ideographs: only the kana tell.
  assert.equal(detectEncoding(iconv.encode('写真の説明,備考\nこれは日本語の説明です,ほかのメモ\n', 'shift_jis')), 'shift_jis');
  assert.equal(detectEncoding(Buffer.from('No,Name\n1,Ann\n')), 'utf-8', 'ASCII is UTF-8');
  assert.equal(detectEncoding(Buffer.from('工号,姓名\n1,张伟\n')), 'utf-8');
  // The sample is cut at a byte no character continues with: a long file is read the same.
  const long = iconv.encode(csv([EMPLOYEES.big5.headers, ...Array.from({ length: 3000 }, () => EMPLOYEES.big5.rows[0]!)]), 'big5');
  assert.ok(long.length > 64 * 1024);
  assert.equal(detectEncoding(long), 'big5');
});

test('KNOWN_HEADERS covers the four languages and is compared normalised', async () => {
  for (const h of [
    'Employee ID',
    'Personnel ID',
    'Card No',
    'Punch Time',
    'Device SN',
    'Check Type',
    '工号',
    '考勤时间',
    '工號',
    '設備序號',
    '社員番号',
    '打刻時刻',
    '端末シリアル',
  ])
    assert.ok(KNOWN_HEADERS.includes(h), h);
  assert.equal(new Set(KNOWN_HEADERS).size, KNOWN_HEADERS.length, 'no duplicates');
  assert.deepEqual([...LEGACY_ENCODINGS], ['utf-8', 'gbk', 'big5', 'shift_jis']);
});

test('a known header word is decisive, compared trimmed and without spaces', async () => {
  // Kanji only, no kana: GBK reads every pair of these Shift-JIS bytes as some ideograph, no U+FFFD, all in the
  // common ranges; only the header words read right tell (" 社員 番号 " is 社員番号).
  const text = ' 社員 番号 ,氏名,所属,入社日,性別\r\n1001,山田太郎,営業部,2020-04-01,男\r\n1002,佐藤花子,経理課,2015-10-01,女\r\n';
  const bytes = iconv.encode(text, 'shift_jis');
  assert.ok(!iconv.decode(bytes, 'gbk').includes('\ufffd'), 'GBK reads it without a flaw');
  assert.equal(detectEncoding(bytes), 'shift_jis');
  const sheet = await readLegacyFile('a.csv', bytes);
  assert.deepEqual(sheet.headers, ['社員 番号', '氏名', '所属', '入社日', '性別']);
  assert.deepEqual(sheet.rows[1], ['1002', '佐藤花子', '経理課', '2015-10-01', '女']);
  // One header word, found only once normalised, is enough.
  assert.equal(detectEncoding(iconv.encode('備品,\u3000社員 番号\u3000\r\n机,1001\r\n', 'shift_jis')), 'shift_jis');
});

test('a UTF-8 file with a BOM: the BOM is dropped, and it wins over a forced encoding', async () => {
  const text = 'Employee ID,First Name,Last Name,Department\n1001,Zoë,Müller,Ventes\n';
  const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
  const want = { encoding: 'utf-8', headers: ['Employee ID', 'First Name', 'Last Name', 'Department'], rows: [['1001', 'Zoë', 'Müller', 'Ventes']] };
  assert.deepEqual(await readLegacyFile('a.csv', bytes), want);
  assert.deepEqual(await readLegacyFile('a.csv', bytes, 'gbk'), want);
  assert.equal(detectEncoding(bytes), 'utf-8');
});

test('UTF-16 with a BOM (Windows "Unicode text"): decoded, tab-separated', async () => {
  const text = '人员编号\t姓名\t打卡时间\t设备序列号\r\n1001\t张伟\t2024-03-05 08:59:12\tCQUJ230260001\r\n';
  const want = { encoding: 'utf-8', headers: ['人员编号', '姓名', '打卡时间', '设备序列号'], rows: [['1001', '张伟', '2024-03-05 08:59:12', 'CQUJ230260001']] };
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  assert.deepEqual(await readLegacyFile('a.txt', le), want);
  const be = Buffer.from(le);
  be.swap16(); // the BOM swaps to FE FF with the text
  assert.deepEqual(await readLegacyFile('a.txt', be), want);
});

test('RFC 4180 quoting: delimiters, doubled quotes and line breaks inside quotes; cells trimmed', async () => {
  const text =
    'Employee ID,Name,Department,Remark\r\n' +
    '1001,"Smith, John","R&D, Hardware","He said ""hi""\r\nthen left"\r\n' +
    ' 1002 , Ann ,  "Sales" , ""\r\n' +
    '1003,"""Quoted""",Ops,a "quote" inside\r\n';
  const sheet = await readLegacyFile('a.csv', Buffer.from(text));
  assert.deepEqual(sheet.headers, ['Employee ID', 'Name', 'Department', 'Remark']);
  assert.deepEqual(sheet.rows, [
    ['1001', 'Smith, John', 'R&D, Hardware', 'He said "hi"\r\nthen left'],
    ['1002', 'Ann', 'Sales', ''],
    ['1003', '"Quoted"', 'Ops', 'a "quote" inside'],
  ]);
});

test('line ends: LF, CR alone, none at the end', async () => {
  const want = {
    encoding: 'utf-8',
    headers: ['Date', 'Time'],
    rows: [
      ['2024-01-02', '08:00:00'],
      ['2024-01-02', '17:30:00'],
    ],
  };
  for (const eol of ['\n', '\r', '\r\n']) {
    assert.deepEqual(
      await readLegacyFile('a.csv', Buffer.from(['Date,Time', '2024-01-02,08:00:00', '2024-01-02,17:30:00'].join(eol))),
      want,
      JSON.stringify(eol),
    );
  }
});

test('the delimiter: tab, semicolon or pipe when the header line splits into the most fields consistently', async () => {
  // Tab-separated, with commas in the names: the comma would split only some lines.
  const tab = 'AC-No.\tName\tDepartment\tTime\n1\tSmith, John\tR&D\t2024-01-02 08:01:07\n2\tDoe, Jane\tOps\t2024-01-02 08:03:41\n';
  const t = await readLegacyFile('a.txt', Buffer.from(tab));
  assert.deepEqual(t.headers, ['AC-No.', 'Name', 'Department', 'Time']);
  assert.deepEqual(t.rows[0], ['1', 'Smith, John', 'R&D', '2024-01-02 08:01:07']);
  // Semicolons (a European Excel), decimal commas inside.
  const semi = await readLegacyFile('a.csv', Buffer.from('Employee ID;Name;Hours\n7;Ann;7,5\n8;Bob;8,25\n'));
  assert.deepEqual(semi, {
    encoding: 'utf-8',
    headers: ['Employee ID', 'Name', 'Hours'],
    rows: [
      ['7', 'Ann', '7,5'],
      ['8', 'Bob', '8,25'],
    ],
  });
  const pipe = await readLegacyFile('a.txt', Buffer.from('ID|Name|Card No\n7|Ann|123\n'));
  assert.deepEqual(pipe.rows, [['7', 'Ann', '123']]);
});

test('title lines above the header are skipped; rows padded or cut to the header; empty rows dropped', async () => {
  const text = csv([
    ['Attendance transactions 2024-01-01 - 2024-01-31'],
    [''],
    ['Personnel ID', 'First Name', 'Last Name', 'Punch Time', 'Punch State', '', ''],
    ['1001', 'Wei', 'Zhang', '2024-01-02 08:59:12', 'Check In', 'extra', 'more'],
    [',,,'],
    ['1002', 'Jing'],
    [],
  ]);
  const sheet = await readWithLines('transactions.csv', Buffer.from(text));
  assert.deepEqual(sheet.headers, ['Personnel ID', 'First Name', 'Last Name', 'Punch Time', 'Punch State'], 'trailing empty header cells are no columns');
  // each row's number as a spreadsheet counts it (the title, a blank line and the header come first; row 5 is empty)
  assert.deepEqual(sheet.lines, [4, 6]);
  assert.deepEqual(sheet.rows, [
    ['1001', 'Wei', 'Zhang', '2024-01-02 08:59:12', 'Check In'],
    ['1002', 'Jing', '', '', ''],
  ]);
  // An empty header cell inside the header stays, as ''.
  const gap = await readLegacyFile('a.csv', Buffer.from('ID,,Name\n1,x,Ann\n'));
  assert.deepEqual(gap, { encoding: 'utf-8', headers: ['ID', '', 'Name'], rows: [['1', 'x', 'Ann']] });
  // A header and no data is a table with no rows, not a refusal.
  assert.deepEqual((await readLegacyFile('a.csv', Buffer.from('ID,Name\n'))).rows, []);
});

test('a forced encoding is used as given, detected or not', async () => {
  const { headers, rows } = EMPLOYEES.gbk;
  const bytes = iconv.encode(csv([headers, ...rows]), 'gbk');
  const asBig5 = await readLegacyFile('a.csv', bytes, 'big5');
  assert.equal(asBig5.encoding, 'big5');
  assert.deepEqual(asBig5.headers, iconv.decode(bytes, 'big5').split('\r\n')[0]!.split(','));
  assert.notDeepEqual(asBig5.headers, headers);
  assert.deepEqual(await readLegacyFile('a.csv', bytes, 'gbk'), { encoding: 'gbk', headers, rows });
  // UTF-8 forced onto GBK bytes: replacement characters, no refusal.
  const asUtf8 = await readLegacyFile('a.csv', bytes, 'utf-8');
  assert.equal(asUtf8.encoding, 'utf-8');
  assert.ok(asUtf8.headers.join('').includes('\ufffd'));
  // ASCII is the same in all of them: forcing only changes what is reported.
  assert.deepEqual(await readLegacyFile('a.csv', Buffer.from('ID,Name\n1,Ann\n'), 'shift_jis'), {
    encoding: 'shift_jis',
    headers: ['ID', 'Name'],
    rows: [['1', 'Ann']],
  });
});

test('xlsx: the first sheet with a header row, a merged title skipped, dates to the second, numbers as written', async () => {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Empty');
  wb.addWorksheet('Notes').getCell('A1').value = 'Exported by ZKBioTime';
  const ws = wb.addWorksheet('Transactions');
  ws.getCell('A1').value = 'Attendance transactions';
  ws.mergeCells('A1:G1');
  ws.addRow(['Employee ID', 'Name', 'Hire Date', 'Punch Time', 'Time', 'Hours', 'Card No']);
  // exceljs writes a Date as the wall-clock time of its UTC fields, and reads it back the same way.
  ws.addRow([
    1001,
    { richText: [{ text: 'Zhang ' }, { text: 'Wei' }] },
    new Date(Date.UTC(2019, 2, 1)),
    new Date(Date.UTC(2024, 0, 15, 8, 30, 15)),
    new Date(Date.UTC(1899, 11, 30, 17, 5, 9)),
    7.5,
    '0012345678',
  ]);
  ws.addRow([]);
  ws.addRow([
    1002,
    'Li Jing',
    new Date(Date.UTC(2021, 10, 15)),
    new Date(Date.UTC(2024, 0, 15, 23, 59, 59)),
    null,
    { formula: 'F3*2', result: 15 },
    { formula: 'NA()', result: { error: '#N/A' } },
  ]);
  ws.addRow([1003, '', '', '', '', '', '', 'beyond the header']);
  const buf = Buffer.from(await wb.xlsx.writeBuffer());
  assert.deepEqual(await readLegacyFile('export.csv', buf), {
    encoding: 'xlsx',
    headers: ['Employee ID', 'Name', 'Hire Date', 'Punch Time', 'Time', 'Hours', 'Card No'],
    rows: [
      ['1001', 'Zhang Wei', '2019-03-01', '2024-01-15 08:30:15', '17:05:09', '7.5', '0012345678'],
      ['1002', 'Li Jing', '2021-11-15', '2024-01-15 23:59:59', '', '15', '#N/A'],
      ['1003', '', '', '', '', '', ''],
    ],
  });
});

test('xlsx: a workbook without a header row is empty', async () => {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Only a title').getCell('A1').value = 'Nothing here';
  await assert.rejects(readLegacyFile('a.xlsx', Buffer.from(await wb.xlsx.writeBuffer())), refused('errors.legacyEmpty'));
});

test('refusals: too large, too many rows', async () => {
  await assert.rejects(readLegacyFile('a.csv', Buffer.alloc(40 * 1024 * 1024 + 1, 0x61)), (e: unknown) => {
    assert.ok(refused('errors.legacyTooLarge')(e));
    assert.deepEqual((e as AppError).params, { mb: 40, max: 300_000 });
    return true;
  });
  const rows = (n: number) => Buffer.from('ID,Name\n' + '1,Ann\n'.repeat(n));
  assert.equal((await readLegacyFile('a.csv', rows(300_000))).rows.length, 300_000);
  await assert.rejects(readLegacyFile('a.csv', rows(300_001)), refused('errors.legacyTooLarge'));
});

test('refusals: an empty file, or one without a header row', async () => {
  for (const bytes of [
    Buffer.alloc(0),
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from([0xff, 0xfe]),
    Buffer.from(' \r\n\r\n'),
    Buffer.from('a title\nsome line\nanother\n'),
    Buffer.from(',,\n,,\n'),
  ])
    await assert.rejects(readLegacyFile('a.csv', bytes), refused('errors.legacyEmpty'), JSON.stringify(bytes.toString()));
});

test('refusals: a file that is neither xlsx nor text', async () => {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1')]);
  const ole2 = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
  const utf16NoBom = Buffer.from('ID,Name\r\n1,Ann\r\n', 'utf16le');
  const binary = Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 37) % 256));
  for (const bytes of [pdf, ole2, utf16NoBom, binary]) await assert.rejects(readLegacyFile('a.csv', bytes), refused('errors.legacyType'));
  // Text that merely starts like a magic number is still text.
  assert.deepEqual((await readLegacyFile('a.csv', Buffer.from('PKID,Name\n1,Ann\n'))).headers, ['PKID', 'Name']);
});

test('a header wider than 200 columns is refused (a hostile file would pad every row to it); past it, xlsx cells are not read', async () => {
  const wide = `ID,Name${','.repeat(300)}z\n1,Ann\n`;
  await assert.rejects(readLegacyFile('wide.csv', Buffer.from(wide)), (e: AppError) => e.key === 'errors.legacyTooWide');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Punches');
  ws.addRow(['ID', 'Punch Time']);
  const row = ws.addRow(['1001', new Date(Date.UTC(2026, 10, 2, 0, 0, 0))]);
  row.getCell(2).numFmt = 'yyyy-mm-dd hh:mm:ss';
  ws.getCell('XFD2').value = 'far away';
  const sheet = await readLegacyFile('w.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
  assert.deepEqual(sheet.headers, ['ID', 'Punch Time']);
  // a punch at midnight keeps its time: the cell's format shows one
  assert.deepEqual(sheet.rows, [['1001', '2026-11-02 00:00:00']]);
});
