import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { setImmediate as turn } from 'node:timers/promises';
import type ExcelJS from 'exceljs';
import { sql, type SqlBool } from 'kysely';
import { XLSX_TYPE } from '@faceadmin/shared';
import type { FastifyReply } from 'fastify';

let loaded: Promise<typeof ExcelJS> | undefined;
/**
 * exceljs, loaded on the first workbook read or written: it costs about 0.5 s of CPU to load, and most server
 * starts (a restart, a journey's, a test file's) never touch a workbook.
 */
export function excel(): Promise<typeof ExcelJS> {
  loaded ??= import('exceljs').then(
    (m) => m.default,
    (e: unknown) => {
      loaded = undefined; // tried again next time
      throw e;
    },
  );
  return loaded;
}

export interface XlsxColumn {
  key: string;
  header: string;
  width?: number;
}

/**
 * The sheet's XML written but not yet taken by the zip, in bytes (undefined if exceljs's insides changed). exceljs
 * hands a sheet's XML to its zip without waiting for it (its StreamBuf writes to the pipe and drops the answer), so
 * rows written faster than they are compressed pile up in memory: a million rows held ~720 MB.
 */
export function zipBacklog(ws: ExcelJS.Worksheet): number | undefined {
  return sheetSink(ws)?._writableState?.length;
}
type Sink = NodeJS.EventEmitter & { _writableState?: { length?: number; needDrain?: boolean } };
const sheetSink = (ws: ExcelJS.Worksheet) => (ws as unknown as { _stream?: { pipes?: Sink[] } })._stream?.pipes?.[0];

/** Waits until the zip has taken the sheet's XML written so far (or `out` is gone: a client that left). */
export async function zipTaken(ws: ExcelJS.Worksheet, out: PassThrough): Promise<void> {
  const sink = sheetSink(ws);
  if (sink?._writableState?.needDrain) await drainedOrGone(sink, out);
}

/** Until `stream` drains or `out` closes, whichever comes first; the other's listener goes with it. */
async function drainedOrGone(stream: NodeJS.EventEmitter, out: PassThrough): Promise<void> {
  if (out.destroyed) return;
  const done = new AbortController();
  await Promise.race([once(stream, 'drain', { signal: done.signal }), once(out, 'close', { signal: done.signal })]).finally(() => done.abort());
}

/** The most rows one sheet holds (Excel's limit; a file with more does not open). */
export const SHEET_ROWS = 1_048_576;

/**
 * A sheet written as a stream: rows are committed to the zip as each batch arrives, so an export of 2 M rows never
 * sits in memory as one workbook and the download starts at once (bench/big-tenant.bench.ts); the next batch waits
 * until the zip has taken the last (zipTaken). Past `sheetRows` rows
 * (Excel's limit) the rows go on in another sheet ("Punches (2)", …) under the same preface and header: a big
 * company's month of punches (4.4 M rows) is one file that opens. The first batch is read before the answer starts,
 * so what refuses the whole export (an unknown id, a missing right) is an error envelope, not a broken download. A
 * failure later destroys the stream (the client sees a broken download, never a truncated file that looks whole).
 */
export async function xlsxStream(
  sheet: string,
  columns: XlsxColumn[],
  batches: AsyncIterable<Record<string, ExcelJS.CellValue>[]>,
  /**
   * rows written above the header (a report's title and legend), leading columns kept in view when scrolling, and
   * the rows a sheet holds (SHEET_ROWS; fewer only in tests)
   */
  layout: { preface?: ExcelJS.CellValue[][]; freezeColumns?: number; sheetRows?: number } = {},
): Promise<PassThrough> {
  const preface = layout.preface ?? [];
  const sheetRows = layout.sheetRows ?? SHEET_ROWS;
  const it = batches[Symbol.asyncIterator]();
  const first = await it.next();
  const out = new PassThrough();
  const { stream } = await excel();
  (async () => {
    const wb = new stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    let part = 0;
    let used = 0;
    const open = () => {
      part++;
      // a sheet's name has at most 31 characters
      const name = part === 1 ? sheet : `${sheet.slice(0, 24)} (${part})`;
      const ws = layout.freezeColumns
        ? wb.addWorksheet(name, { views: [{ state: 'frozen', xSplit: layout.freezeColumns, ySplit: preface.length + 1 }] })
        : wb.addWorksheet(name);
      if (preface.length) {
        ws.columns = columns.map((c) => ({ key: c.key, width: c.width ?? 18 }));
        for (const line of preface) ws.addRow(line).commit();
        ws.addRow(columns.map((c) => c.header)).commit();
      } else ws.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 18 }));
      used = preface.length + 1;
      return ws;
    };
    let ws = open();
    for (let next = first; !next.done; next = await it.next()) {
      for (const r of next.value) {
        if (used >= sheetRows) {
          ws.commit();
          ws = open();
        }
        ws.addRow(r).commit();
        used++;
      }
      // Between batches, the event loop turns: a SQLite read answers without giving it a turn, so an export ran to its
      // end before its first byte left and held every other request (a terminal's upload, a console) meanwhile. And
      // while the client is behind, the next batch waits for it; a client gone ends the export.
      await turn();
      await zipTaken(ws, out);
      if (out.writableNeedDrain) await drainedOrGone(out, out);
      if (out.destroyed) {
        await it.return?.(undefined);
        return;
      }
    }
    ws.commit();
    await wb.commit();
  })().catch((e: unknown) => out.destroy(e as Error));
  return out;
}

/** Batches of a paged read, `size` at a time, until a short page. */
export async function* pages<T>(read: (offset: number, limit: number) => Promise<T[]>, size = 1000): AsyncGenerator<T[]> {
  for (let offset = 0; ; offset += size) {
    const rows = await read(offset, size);
    if (rows.length) yield rows;
    if (rows.length < size) return;
  }
}

/** Where a read newest first by (time, id) goes on: the last row it gave. */
export interface Cursor {
  time: string;
  id: number;
}

/**
 * The rows of `table` (an alias with `time` and `id`) that come after the cursor newest first. `time <=` comes first:
 * it bounds the (…, time) index's range, where the pair alone would be tested row by row.
 */
export const olderThan = (c: Cursor, table: string) =>
  sql<SqlBool>`${sql.ref(`${table}.time`)} <= ${c.time} and (${sql.ref(`${table}.time`)} < ${c.time} or ${sql.ref(`${table}.id`)} < ${c.id})`;

/**
 * Batches of a read newest first by (time, id), `size` at a time, each starting after the last row of the batch before
 * (a keyset): its thousandth batch costs what its first did. By offset, each batch passed over every row before it, so
 * a month's punches of a big company took minutes (bench/big-tenant.bench.ts).
 */
export async function* keysetPages<T extends Cursor>(read: (before: Cursor | undefined, limit: number) => Promise<T[]>, size = 1000): AsyncGenerator<T[]> {
  for (let before: Cursor | undefined; ;) {
    const rows = await read(before, size);
    if (rows.length) yield rows;
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    before = { time: last.time, id: last.id };
  }
}

/** The batches with each row made into what the sheet shows. */
export async function* mapPages<T, U>(batches: AsyncIterable<T[]>, present: (row: T) => U): AsyncGenerator<U[]> {
  for await (const rows of batches) yield rows.map(present);
}

/** Answers a route with the stream as an attachment. */
export function sendXlsx(reply: FastifyReply, filename: string, stream: PassThrough) {
  return reply.type(XLSX_TYPE).header('content-disposition', `attachment; filename="${filename}"`).send(stream);
}

/**
 * A cell of an imported sheet as trimmed text: numbers as written (whole numbers without a decimal point), rich
 * text joined, a hyperlink's text, a formula's result, booleans as 1/0, and dates as the calendar date ('YYYY-MM-DD',
 * `dates: 'day'`) or to the minute ('YYYY-MM-DD HH:mm', `dates: 'minute'`). Empty: ''.
 */
export function cellText(v: ExcelJS.CellValue, dates: 'day' | 'minute' = 'day'): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (v instanceof Date) return dates === 'day' ? v.toISOString().slice(0, 10) : v.toISOString().slice(0, 16).replace('T', ' ');
  if (typeof v === 'object') {
    if ('richText' in v)
      return v.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if ('text' in v) return String(v.text).trim();
    if ('result' in v) return cellText(v.result, dates);
  }
  return String(v).trim();
}
