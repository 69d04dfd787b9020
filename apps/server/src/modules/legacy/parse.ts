import type ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { AppError, badInput } from '../../lib/errors.ts';
import { cellText, excel } from '../../lib/xlsx.ts';
import { checkXlsx } from '../../lib/zip.ts';

/**
 * Export files of the attendance software a customer used before ours (ZKBioTime, ZKTime, HikCentral-style
 * employee and transaction exports), read into a plain table of text. What the columns mean is the mapping
 * module's business; this only gets the cells right: the workbook's dates, the CSV's encoding and delimiter.
 */

export const LEGACY_ENCODINGS = ['utf-8', 'gbk', 'big5', 'shift_jis'] as const;
export type LegacyEncoding = (typeof LEGACY_ENCODINGS)[number];

export interface LegacySheet {
  /** how the text was read: a CSV's encoding, or 'xlsx' */
  encoding: LegacyEncoding | 'xlsx';
  /** the header row's cells, trimmed ('' for an empty header cell) */
  headers: string[];
  /** the data rows after the header, each as long as `headers` (padded with '' or cut), fully empty rows dropped */
  rows: string[][];
  /** each data row's number in the file as a spreadsheet counts it (the header's is smaller), for the report */
  lines: number[];
}

const MAX_BYTES = 40 * 1024 * 1024;
const MAX_ROWS = 300_000;
/** Columns a header may have: the mapping reads at most 200, and a hostile header 100,000 wide would pad every row. */
const MAX_COLUMNS = 200;
const FIELD = 'file';

/**
 * Header words of employee and transaction exports, in English, Simplified and Traditional Chinese and Japanese.
 * The encoding detection trusts them (a header word decoded right is decisive); the mapping module reuses them.
 * Compared normalised: see normHeader.
 */
export const KNOWN_HEADERS: readonly string[] = [
  ...new Set([
    // English (ZKBioTime, ZKTime "AC-No.", HikCentral)
    'Employee ID',
    'Employee No',
    'Employee No.',
    'Emp No',
    'Emp No.',
    'Personnel ID',
    'Person ID',
    'User ID',
    'ID',
    'No.',
    'AC-No.',
    'PIN',
    'Name',
    'Full Name',
    'Employee Name',
    'Person Name',
    'First Name',
    'Last Name',
    'Department',
    'Department Name',
    'Dept',
    'Card No',
    'Card No.',
    'Card Number',
    'Hire Date',
    'Date of Joining',
    'Gender',
    'Sex',
    'Phone',
    'Mobile',
    'Mobile Phone',
    'Telephone',
    'Punch Time',
    'Check Time',
    'Attendance Time',
    'Date',
    'Time',
    'Date Time',
    'Device SN',
    'Device Serial No',
    'Device Serial No.',
    'Serial Number',
    'Device Name',
    'Device',
    'Terminal',
    'Terminal Alias',
    'Punch State',
    'Check Type',
    'Attendance Status',
    'Verify Type',
    'Verify Mode',
    'Authentication Result',
    // Simplified Chinese
    '工号',
    '人员编号',
    '员工编号',
    '编号',
    '姓名',
    '名',
    '姓',
    '部门',
    '部门名称',
    '所属部门',
    '卡号',
    '入职日期',
    '入职时间',
    '性别',
    '手机',
    '手机号',
    '手机号码',
    '电话',
    '联系电话',
    '打卡时间',
    '考勤时间',
    '签到时间',
    '日期',
    '时间',
    '日期时间',
    '设备序列号',
    '序列号',
    '设备名称',
    '设备',
    '终端',
    '考勤状态',
    '打卡状态',
    '验证方式',
    // Traditional Chinese
    '工號',
    '人員編號',
    '員工編號',
    '編號',
    '部門',
    '部門名稱',
    '所屬部門',
    '卡號',
    '到職日期',
    '入職日期',
    '性別',
    '手機',
    '手機號碼',
    '電話',
    '聯絡電話',
    '打卡時間',
    '考勤時間',
    '時間',
    '日期時間',
    '設備序號',
    '設備序列號',
    '設備名稱',
    '設備',
    '終端',
    '考勤狀態',
    '打卡狀態',
    '驗證方式',
    // Japanese
    '社員番号',
    '従業員番号',
    '社員ID',
    '氏名',
    '名前',
    '部署',
    '所属',
    'カード番号',
    '入社日',
    '入社年月日',
    '携帯番号',
    '携帯電話',
    '電話番号',
    '打刻時刻',
    '打刻日時',
    '日付',
    '時刻',
    '日時',
    '端末',
    '端末名',
    '端末シリアル',
    'シリアル番号',
    '打刻区分',
    '勤怠区分',
    '認証方式',
  ]),
];

/** trim, lower-case, spaces (also ideographic ones) removed */
const normHeader = (s: string) => s.trim().toLowerCase().replace(/\s+/g, '');
const KNOWN = new Set(KNOWN_HEADERS.map(normHeader));

/** Reads an .xlsx (first worksheet that has data) or a CSV/TXT file. `encoding` forces a CSV's encoding; otherwise it is detected. */
export async function readLegacyFile(fileName: string, data: Buffer, encoding?: LegacyEncoding): Promise<LegacySheet> {
  // `fileName` is not consulted: exports get renamed (an .xls that is a CSV, a .txt that is tab-separated); the bytes decide.
  if (data.length > MAX_BYTES) throw tooLarge();
  if (data.length === 0) throw badInput('errors.legacyEmpty', FIELD);
  if (startsWith(data, ZIP)) return readXlsx(data);
  const decoded = decodeText(data, encoding);
  return { ...tableOf(csvRecords(decoded.text)), encoding: decoded.encoding };
}

// ---------------------------------------------------------------------------------------------------------------
// Limits and refusals

const tooLarge = () => badInput('errors.legacyTooLarge', FIELD, { mb: MAX_BYTES / 1024 / 1024, max: MAX_ROWS });

/**
 * The header and data rows of a stream of records: the header is the first record with at least two non-empty
 * cells (exports often put a title line or two above it); trailing empty header cells are dropped, data rows padded
 * or cut to the header, fully empty ones dropped.
 */
function tableOf(records: Iterable<string[]>, numberOf: (index: number) => number = (i) => i + 1): Omit<LegacySheet, 'encoding'> {
  let headers: string[] | undefined;
  const rows: string[][] = [];
  const lines: number[] = [];
  let index = -1;
  for (const cells of records) {
    index++;
    if (!headers) {
      if (filled(cells) >= 2) headers = cells.slice(0, lastFilled(cells) + 1);
      if (headers && headers.length > MAX_COLUMNS) throw badInput('errors.legacyTooWide', FIELD, { max: MAX_COLUMNS });
      continue;
    }
    const width = headers.length;
    if (cells.length > width) cells.length = width;
    if (filled(cells) === 0) continue;
    while (cells.length < width) cells.push('');
    lines.push(numberOf(index));
    if (rows.push(cells) > MAX_ROWS) throw tooLarge();
  }
  if (!headers) throw badInput('errors.legacyEmpty', FIELD);
  return { headers, rows, lines };
}

function filled(cells: string[]): number {
  let n = 0;
  for (const c of cells) if (c !== '') n++;
  return n;
}

function lastFilled(cells: string[]): number {
  let i = cells.length - 1;
  while (i >= 0 && cells[i] === '') i--;
  return i;
}

// ---------------------------------------------------------------------------------------------------------------
// xlsx

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const DAY_MS = 86_400_000;

async function readXlsx(data: Buffer): Promise<LegacySheet> {
  try {
    await checkXlsx(data, FIELD);
  } catch (e) {
    // A zip that is no workbook is, for this upload, simply not a file we read.
    if (e instanceof AppError && e.key === 'errors.xlsxType') throw badInput('errors.legacyType', FIELD);
    throw e;
  }
  const { Workbook, ValueType } = await excel();
  const wb = new Workbook();
  try {
    await wb.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw badInput('errors.xlsxCorrupt', FIELD);
  }
  // exceljs turns serials into UTC instants counted from this epoch; a value inside its first day is a time alone.
  const epoch = wb.properties?.date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  for (const ws of wb.worksheets) {
    const records: string[][] = [];
    const numbers: number[] = [];
    ws.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: false }, (cell, col) => {
        // A merged range's other cells echo its first one: a title merged over the columns would pass for a header.
        if (cell.type === ValueType.Merge) return;
        // past what a header may hold: not padded up to (a cell at column XFD on every row would be 16,384 each)
        if (col > MAX_COLUMNS + 1) return;
        while (cells.length < col - 1) cells.push('');
        cells[col - 1] = sheetText(cell.value, epoch, /[hs]/i.test((cell.numFmt ?? '').replace(/"[^"]*"|\[[^\]]*\]/g, '')));
      });
      records.push(cells);
      numbers.push(row.number);
    });
    // The first sheet with a header row: a cover or notes sheet before the data is passed over.
    if (records.some((r) => filled(r) >= 2)) return { ...tableOf(records, (i) => numbers[i]!), encoding: 'xlsx' };
  }
  throw badInput('errors.legacyEmpty', FIELD);
}

/** A cell as text: dates to the second (transactions need them), formulas by their result, errors as Excel shows them. */
function sheetText(v: ExcelJS.CellValue, epoch: number, timed: boolean): string {
  if (v instanceof Date) return dateText(v, epoch, timed);
  if (v && typeof v === 'object') {
    if ('error' in v) return String(v.error);
    if ('formula' in v || 'sharedFormula' in v) return sheetText(v.result ?? null, epoch, timed);
  }
  return cellText(v);
}

/**
 * exceljs gives a date cell as the UTC instant of the wall-clock time written in the sheet, so the UTC fields are
 * that wall clock (cellText stops at the minute). Serials are floats: rounded to the second first.
 */
function dateText(d: Date, epoch: number, timed: boolean): string {
  const ms = Math.round(d.getTime() / 1000) * 1000;
  if (!Number.isFinite(ms)) return '';
  const iso = new Date(ms).toISOString();
  const time = iso.slice(11, 19);
  if (ms >= epoch && ms - epoch < DAY_MS) return time; // a time-of-day cell (ZKTime's separate Date and Time columns)
  // a day alone, unless the cell's format shows a time (a punch at midnight is 00:00:00, not a date)
  if (ms % DAY_MS === 0 && !timed) return iso.slice(0, 10);
  return `${iso.slice(0, 10)} ${time}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Text files: bytes to text

function startsWith(data: Buffer, magic: readonly number[]): boolean {
  return data.length >= magic.length && magic.every((b, i) => data[i] === b);
}

/** Formats that are certainly not text: PDF, OLE2 (old .xls, encrypted .xlsx), gzip, images, other archives. */
const BINARY_MAGIC: readonly (readonly number[])[] = [
  [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
  [0x1f, 0x8b],
  [0x89, 0x50, 0x4e, 0x47],
  [0xff, 0xd8, 0xff],
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0x37, 0x7a, 0xbc, 0xaf], // 7z
  [0x52, 0x61, 0x72, 0x21], // Rar!
  [0x50, 0x4b, 0x05, 0x06], // an empty zip
  [0x50, 0x4b, 0x07, 0x08], // a spanned zip
];

/**
 * Binary: a known magic number, or more than 2% NUL and other C0 control bytes in the first 4 KB. Text in the
 * encodings read here has none (their multi-byte sequences are all ≥ 0x40); UTF-16 without a BOM is refused too.
 */
function looksBinary(data: Buffer): boolean {
  if (BINARY_MAGIC.some((m) => startsWith(data, m))) return true;
  const n = Math.min(data.length, 4096);
  let odd = 0;
  for (let i = 0; i < n; i++) {
    const b = data[i]!;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1a && b !== 0x1b) odd++;
  }
  return odd * 50 > n;
}

function decodeText(data: Buffer, forced: LegacyEncoding | undefined): { text: string; encoding: LegacyEncoding } {
  // A BOM is unambiguous, so it wins over a forced encoding. UTF-16 is reported as 'utf-8': Unicode, no code page.
  if (startsWith(data, [0xff, 0xfe])) return { text: iconv.decode(data, 'utf-16le'), encoding: 'utf-8' };
  if (startsWith(data, [0xfe, 0xff])) return { text: iconv.decode(data, 'utf-16be'), encoding: 'utf-8' };
  if (looksBinary(data)) throw badInput('errors.legacyType', FIELD);
  if (startsWith(data, [0xef, 0xbb, 0xbf])) return { text: new TextDecoder('utf-8').decode(data.subarray(3)), encoding: 'utf-8' };
  if (!forced) {
    const utf8 = strictUtf8(data);
    if (utf8 !== undefined) return { text: utf8, encoding: 'utf-8' };
  }
  const encoding = forced ?? likeliestCodePage(data);
  return { text: encoding === 'utf-8' ? new TextDecoder('utf-8').decode(data) : iconv.decode(data, encoding), encoding };
}

function strictUtf8(data: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    return undefined;
  }
}

const SAMPLE_BYTES = 64 * 1024;
const SAMPLE_LINES = 10;

/** The encoding a CSV's bytes are most likely in (exported for tests and for the preview). */
export function detectEncoding(data: Buffer): LegacyEncoding {
  if (startsWith(data, [0xef, 0xbb, 0xbf]) || startsWith(data, [0xff, 0xfe]) || startsWith(data, [0xfe, 0xff])) return 'utf-8';
  return strictUtf8(data) !== undefined ? 'utf-8' : likeliestCodePage(data);
}

/** Bytes that are not UTF-8: the code page whose reading of them scores best. */
function likeliestCodePage(data: Buffer): LegacyEncoding {
  const sample = sampleOf(data);
  let best: { encoding: LegacyEncoding; score: Score } | undefined;
  // Candidates in a fixed order, and a later one must beat the best strictly: the answer is deterministic.
  for (const encoding of ['gbk', 'big5', 'shift_jis'] as const) {
    const score = scoreOf(iconv.decode(sample, encoding));
    if (!best || better(score, best.score)) best = { encoding, score };
  }
  return best!.encoding;
}

/** The first 64 KB, cut after the last byte below 0x40 so no multi-byte character is split (no trail byte is that low). */
function sampleOf(data: Buffer): Buffer {
  if (data.length <= SAMPLE_BYTES) return data;
  let end = SAMPLE_BYTES;
  while (end > 0 && data[end - 1]! >= 0x40) end--;
  return data.subarray(0, end || SAMPLE_BYTES);
}

interface Score {
  /** most known header words in one of the first lines */
  known: number;
  /** U+FFFD: bytes the encoding has no character for */
  replaced: number;
  /** share of characters in the ranges real text of these languages uses */
  common: number;
  /**
   * hiragana and katakana: the last word, for a tie. GBK reads nearly every Shift-JIS pair as some rare ideograph
   * (no U+FFFD, all "common"), but never as kana; Chinese text read as Shift-JIS gives half-width katakana, not these.
   */
  kana: number;
}

function better(a: Score, b: Score): boolean {
  if (a.known !== b.known) return a.known > b.known;
  if (a.replaced !== b.replaced) return a.replaced < b.replaced;
  if (a.common !== b.common) return a.common > b.common;
  return a.kana > b.kana;
}

function scoreOf(text: string): Score {
  let known = 0;
  let lines = 0;
  let start = 0;
  while (start < text.length && lines < SAMPLE_LINES) {
    let end = start;
    while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
    const line = text.slice(start, end);
    start = end + 1;
    if (!line.trim()) continue;
    lines++;
    // Any of the delimiters splits well enough here: no header word contains one.
    let hits = 0;
    for (const cell of line.split(/[,\t;|]/)) if (KNOWN.has(normHeader(cell.replace(/"/g, '')))) hits++;
    known = Math.max(known, hits);
  }
  let replaced = 0;
  let common = 0;
  let kana = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x3040 && c <= 0x30ff) kana++;
    if (c === 0xfffd) replaced++;
    else if (
      (c >= 0x20 && c <= 0x7e) ||
      c === 9 ||
      c === 10 ||
      c === 13 ||
      (c >= 0x4e00 && c <= 0x9fff) || // CJK Unified Ideographs
      (c >= 0x3040 && c <= 0x30ff) || // hiragana, katakana
      (c >= 0x3000 && c <= 0x303f) || // CJK punctuation
      (c >= 0xff00 && c <= 0xffef) // fullwidth and half-width forms
    )
      common++;
  }
  return { known, replaced, common: text.length ? common / text.length : 0, kana };
}

// ---------------------------------------------------------------------------------------------------------------
// Text files: text to records

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const DELIMITERS = [0x2c, TAB, 0x3b, 0x7c] as const; // , \t ; |
const DELIMITER_SAMPLE = 30;

/** Records are handed on as they are parsed, so the row limit stops a huge file early. */
function* csvRecords(text: string): Generator<string[]> {
  const delimiter = delimiterOf(text);
  const at = { i: 0 };
  while (at.i < text.length) yield parseRecord(text, at, delimiter);
}

/**
 * The delimiter that gives the header line the most fields consistently: over the first records, the candidate
 * whose header (first record with two non-empty cells) has as many fields as the most records after it, then the
 * one with the most header fields, then the first in the order , \t ; |.
 */
function delimiterOf(text: string): number {
  let best = { delimiter: DELIMITERS[0] as number, agree: -1, fields: 0 };
  for (const delimiter of DELIMITERS) {
    const records: string[][] = [];
    for (const at = { i: 0 }; at.i < text.length && records.length < DELIMITER_SAMPLE;) records.push(parseRecord(text, at, delimiter));
    const h = records.findIndex((r) => filled(r) >= 2);
    if (h < 0) continue;
    const fields = records[h]!.length;
    let agree = 0;
    for (const r of records.slice(h + 1)) if (filled(r) > 0 && r.length === fields) agree++;
    if (agree > best.agree || (agree === best.agree && fields > best.fields)) best = { delimiter, agree, fields };
  }
  return best.delimiter;
}

/**
 * Parses the record starting at `at.i` (RFC 4180: quoted fields with delimiters, doubled quotes and line breaks;
 * CRLF, LF or CR line ends) into trimmed cells, and moves `at.i` to the next record. One pass with charCodeAt and
 * indexOf: no per-character regex, no string building for unquoted fields.
 */
function parseRecord(text: string, at: { i: number }, delimiter: number): string[] {
  const n = text.length;
  let i = at.i;
  const cells: string[] = [];
  for (;;) {
    // Blanks before an opening quote are allowed (`a, "b"`); a quote later in a field is a plain character.
    let j = i;
    while (j < n) {
      const c = text.charCodeAt(j);
      if ((c === SPACE || c === TAB) && c !== delimiter) j++;
      else break;
    }
    let value: string;
    if (j < n && text.charCodeAt(j) === QUOTE) {
      value = '';
      let from = j + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) {
          // An unterminated quote runs to the end of the file, as spreadsheet programs read it.
          value += text.slice(from);
          i = n;
          break;
        }
        if (text.charCodeAt(q + 1) === QUOTE) {
          value += text.slice(from, q + 1);
          from = q + 2;
          continue;
        }
        value += text.slice(from, q);
        i = q + 1;
        break;
      }
      // Anything between the closing quote and the delimiter is kept (lenient, like Excel).
      let e = i;
      while (e < n) {
        const c = text.charCodeAt(e);
        if (c === delimiter || c === LF || c === CR) break;
        e++;
      }
      if (e > i) value += text.slice(i, e);
      i = e;
    } else {
      let e = i;
      while (e < n) {
        const c = text.charCodeAt(e);
        if (c === delimiter || c === LF || c === CR) break;
        e++;
      }
      value = text.slice(i, e);
      i = e;
    }
    cells.push(value.trim());
    if (i >= n) break;
    const c = text.charCodeAt(i);
    if (c === delimiter) {
      i++;
      if (i < n) continue;
      cells.push(''); // a delimiter at the very end: one more, empty, field
      break;
    }
    i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
    break;
  }
  at.i = i;
  return cells;
}
