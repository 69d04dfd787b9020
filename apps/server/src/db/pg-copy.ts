import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Executor } from './database.ts';

/**
 * PostgreSQL's COPY … FROM STDIN inside the caller's transaction, through the query builder's connection: the way to
 * hand PostgreSQL many rows (bench/attendance.bench.ts: a month of day results for 10,000 people, 310,000 rows, went
 * 2.5 s faster than as a statement of one array per column, which the driver quotes element by element and
 * PostgreSQL parses back).
 *
 * Kysely knows statements only (text and parameters), so a COPY is sent as one: the text `copy <table> (<columns>)
 * from stdin` with the data as its only parameter. The pool's clients (installCopyIn) recognise it and stream the data
 * instead (pg-copy-streams), answering as a statement would.
 */
const COPY_IN = /^copy\s[^;]+\sfrom\s+stdin$/i;

type Query = (...args: unknown[]) => unknown;

/** Teaches every client of the pool to run copyInto's statements. */
export function installCopyIn(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as Query;
    (client as unknown as { query: Query }).query = (...args: unknown[]) => {
      const [text, params] = args;
      if (typeof text === 'string' && COPY_IN.test(text) && Array.isArray(params) && params.length === 1 && typeof params[0] === 'string')
        return copyIn(query, text, params[0]);
      return query(...args);
    };
  });
}

async function copyIn(query: Query, text: string, data: string): Promise<{ command: string; rowCount: number; rows: never[] }> {
  const stream = query(copyFrom(text)) as ReturnType<typeof copyFrom>;
  await new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
    stream.end(data);
  });
  return { command: 'COPY', rowCount: stream.rowCount, rows: [] };
}

/** A value in COPY's text format: `\N` for none; backslash, tab, newline and carriage return escaped. */
function field(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') return String(v);
  const s = String(v);
  return /[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : s;
}

/** Rows (objects) as COPY's text: a line per row, the columns' values in order between tabs. */
export function copyText<R extends object>(rows: readonly R[], columns: readonly (keyof R & string)[]): string {
  const lines: string[] = [];
  for (const r of rows) lines.push(columns.map((c) => field(r[c])).join('\t'));
  return lines.length ? lines.join('\n') + '\n' : '';
}

/**
 * Copies rows into a table (PostgreSQL, in the caller's transaction). The table and column names are the caller's
 * own constants, never input. Answers the rows copied.
 */
export async function copyInto<R extends object>(ex: Executor, table: string, columns: readonly (keyof R & string)[], rows: readonly R[]): Promise<number> {
  if (!rows.length) return 0;
  const r = await ex.executeQuery(CompiledQuery.raw(`copy ${table} (${columns.join(', ')}) from stdin`, [copyText(rows, columns)]));
  return Number(r.numAffectedRows ?? rows.length);
}
