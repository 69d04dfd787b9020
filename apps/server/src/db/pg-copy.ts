import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DB } from './schema.ts';

/**
 * PostgreSQL's COPY … FROM STDIN inside the caller's transaction, through the query builder's connection: the way to
 * hand PostgreSQL many rows (bench/attendance.bench.ts: a month of day results for 10,000 people, 310,000 rows, went
 * 2.5 s faster than as a statement of one array per column, which the driver quotes element by element and
 * PostgreSQL parses back).
 *
 * Kysely knows statements only (text and parameters), so a COPY is sent as one: the text `copy <table> (<columns>)
 * from stdin` with the data as its only parameter. The pool's clients (CopyClient) recognise it and stream the data
 * instead (pg-copy-streams), answering as a statement would.
 */
const COPY_IN = /^copy\s[^;]+\sfrom\s+stdin$/i;

type Query = (...args: unknown[]) => unknown;
const Client = pg.Client as unknown as new (config?: pg.ClientConfig) => { query: Query };
/** pg's own `query`, looked up at each call (a test may have wrapped it since). */
const pgQuery = (client: object, args: unknown[]) => (pg.Client.prototype.query as Query).apply(client, args);

/**
 * The pool's client (database.ts): pg's own, which also runs copyInto's statements. Kysely calls `query(text,
 * parameters)`, two arguments; anything else goes to pg's `query` as it is.
 */
export class CopyClient extends Client {
  override query = (...args: unknown[]): unknown => {
    const [text, params] = args;
    if (args.length === 2 && typeof text === 'string' && COPY_IN.test(text) && Array.isArray(params) && params.length === 1 && typeof params[0] === 'string')
      return this.copyIn(text, params[0]);
    return pgQuery(this, args);
  };

  /** Streams the data; answers as a statement would, with the rows copied as its one row. */
  private async copyIn(text: string, data: string): Promise<{ command: string; rowCount: number; rows: { copied: number }[] }> {
    const stream = pgQuery(this, [copyFrom(text)]) as ReturnType<typeof copyFrom>;
    await new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
      stream.end(data);
    });
    return { command: 'COPY', rowCount: stream.rowCount, rows: [{ copied: stream.rowCount }] };
  }
}

/** A value in COPY's text format: `\N` for none; backslash, tab, newline and carriage return escaped. */
function field(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') return String(v);
  // what else a value could be (a date, an object, a buffer) has a text form of its own: not guessed here
  if (typeof v !== 'string') throw new TypeError(`COPY takes text and numbers, not ${typeof v}`);
  return /[\\\t\n\r]/.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : v;
}

/** Rows (objects) as COPY's text: a line per row, the columns' values in order between tabs. */
export function copyText<R extends object>(rows: readonly R[], columns: readonly (keyof R & string)[]): string {
  const lines: string[] = [];
  for (const r of rows) lines.push(columns.map((c) => field(r[c])).join('\t'));
  return lines.length ? lines.join('\n') + '\n' : '';
}

/** A table's or column's name as copyInto takes it: plain, unquoted. */
const NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Copies rows into a table (PostgreSQL, in the caller's transaction). The table and column names are the caller's
 * own constants, never input. Answers the rows copied.
 */
export async function copyInto<R extends object>(
  ex: Kysely<DB> | Transaction<DB>,
  table: string,
  columns: readonly (keyof R & string)[],
  rows: readonly R[],
): Promise<number> {
  for (const name of [table, ...columns]) if (!NAME.test(name)) throw new Error(`not a plain SQL name: ${name}`);
  if (!rows.length) return 0;
  const r = await ex.executeQuery<{ copied: number }>(CompiledQuery.raw(`copy ${table} (${columns.join(', ')}) from stdin`, [copyText(rows, columns)]));
  return r.rows[0]!.copied;
}
