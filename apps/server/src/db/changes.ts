import type { ChangeKind } from '@faceadmin/shared';
import type { Transaction } from 'kysely';
import { nowIso } from '../lib/time.ts';
import type { Db, Executor } from './database.ts';
import type { DB } from './schema.ts';
import { beforeCommit, dbOf, transaction } from './transaction.ts';

/**
 * The integrators' changes feed (issue #28, docs/api-integrations.md §changes): writers of punches, day results and
 * people name what they changed here, in their transaction; right before it commits the transaction draws one
 * number per change from its company's `change_counters` row and writes the `changes` rows under them.
 *
 * Why a cursor never skips: on PostgreSQL the counter row stays locked from the draw to the commit, so a transaction
 * that draws after another commits after it, and numbers become visible in the order they were drawn; a reader
 * that saw number N has already seen, or will never see, every number below N. On SQLite writers take turns anyway.
 * Identity columns give no such promise: an id drawn early may commit after a larger one was read.
 */

/** What changed: a punch or person id, or a person's day (`ref` the person, `date` the day). */
export interface ChangeRef {
  ref: number;
  date?: string;
}

/** Whether a company's changes are recorded at all (the integrations module: its third-party option is on). */
export type ChangeFilter = (ex: Executor, companyId: number) => Promise<boolean>;
const filters = new WeakMap<Db, ChangeFilter>();

export function registerChangeFilter(db: Db, filter: ChangeFilter): () => void {
  filters.set(db, filter);
  return () => {
    if (filters.get(db) === filter) filters.delete(db);
  };
}

type Pending = Map<number, Map<string, { kind: ChangeKind; ref: number; date: string }>>;
const pending = new WeakMap<Transaction<DB>, Pending>();

/**
 * Names what the caller's write changed. Recorded at the end of its `transaction()` (once per change, however often
 * it is named), or at once in a transaction of its own when the executor is the database itself.
 */
export async function recordChanges(ex: Executor, companyId: number, kind: ChangeKind, refs: readonly ChangeRef[]): Promise<void> {
  if (!refs.length) return;
  const db = dbOf(ex);
  const filter = db && filters.get(db);
  if (!db || !filter || !(await filter(ex, companyId))) return;
  let all = ex.isTransaction ? pending.get(ex as Transaction<DB>) : undefined;
  const fresh = !all;
  all ??= new Map();
  let mine = all.get(companyId);
  if (!mine) all.set(companyId, (mine = new Map()));
  for (const r of refs) mine.set(`${kind}/${r.ref}/${r.date ?? ''}`, { kind, ref: r.ref, date: r.date ?? '' });
  if (!fresh) return;
  const list = all;
  if (!ex.isTransaction) return transaction(db, (trx) => write(trx, list));
  // a transaction opened elsewhere has no end to run at: written at once, still inside it
  if (beforeCommit(ex, () => write(ex, list))) pending.set(ex as Transaction<DB>, list);
  else await write(ex, list);
}

async function write(ex: Executor, all: Pending): Promise<void> {
  const at = nowIso();
  // Companies in id order: two transactions drawing for the same companies lock their counters in one order.
  for (const companyId of [...all.keys()].sort((a, b) => a - b)) {
    const rows = [...all.get(companyId)!.values()];
    const drawn = await ex
      .insertInto('change_counters')
      .values({ company_id: companyId, seq: rows.length })
      .onConflict((oc) => oc.column('company_id').doUpdateSet((eb) => ({ seq: eb('change_counters.seq', '+', rows.length) })))
      .returning('seq')
      .executeTakeFirstOrThrow();
    const first = Number(drawn.seq) - rows.length + 1;
    const values = rows.map((r, i) => ({ company_id: companyId, seq: first + i, kind: r.kind, ref: r.ref, date: r.date, at }));
    // 6 values a row: well within SQLite's bound parameters per statement
    for (let i = 0; i < values.length; i += 1000)
      await ex
        .insertInto('changes')
        .values(values.slice(i, i + 1000))
        .execute();
  }
}
