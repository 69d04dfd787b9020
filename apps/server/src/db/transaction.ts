import type { Transaction } from 'kysely';
import type { Db, Executor } from './database.ts';
import type { DB } from './schema.ts';

const callbacks = new WeakMap<Transaction<DB>, (() => void)[]>();
const owners = new WeakMap<Transaction<DB>, Db>();
const finishers = new WeakMap<Transaction<DB>, (() => Promise<void>)[]>();

/** PostgreSQL's "deadlock detected" and "could not serialize access": the transaction was rolled back and may run again. */
const RETRYABLE = new Set(['40P01', '40001']);
/** Attempts before the failure is passed on (each waits a little longer, with jitter, so the pair does not meet again). */
const ATTEMPTS = 6;

export function isRetryable(e: unknown): boolean {
  return typeof e === 'object' && e !== null && RETRYABLE.has(String((e as { code?: unknown }).code));
}

/** Retries seen since start (the operator's figure until metrics are served; tests read it). */
export const transactionRetries = { count: 0 };

/**
 * Every multi-step write runs here: `fn` gets the transaction, and what was registered with `afterCommit`
 * inside it runs once it has committed (never after a rollback). That is where work others must see only
 * once it is durable gets signalled: a dialled device woken for its new commands, and later attendance
 * recalculation and the console's live stream.
 *
 * A deadlock or serialization failure (PostgreSQL rolled the whole transaction back) runs `fn` again from the
 * start, up to 6 times, so concurrent writers never turn into an error answer or dropped work; `fn` must therefore
 * do nothing outside the database that it would regret doing twice (register such work with `afterCommit`).
 */
export async function transaction<T>(db: Db, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const pending: (() => void)[] = [];
    let opened: Transaction<DB> | undefined;
    try {
      const result = await db.transaction().execute(async (trx) => {
        opened = trx;
        callbacks.set(trx, pending);
        owners.set(trx, db);
        const r = await fn(trx);
        const last = finishers.get(trx);
        // a finisher may register another (each runs once, in order)
        if (last) for (let i = 0; i < last.length; i++) await last[i]!();
        return r;
      });
      for (const cb of pending) cb();
      return result;
    } catch (e) {
      if (!isRetryable(e) || attempt >= ATTEMPTS) throw e;
      transactionRetries.count++;
      await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
    } finally {
      // ended: work registered on it from now on would never run (afterCommit throws, beforeCommit declines)
      if (opened) {
        callbacks.delete(opened);
        finishers.delete(opened);
      }
    }
  }
}

/**
 * Runs `cb` once the caller's write is durable: after the commit of a `transaction()`, or at once when the
 * executor is the database itself (each statement commits on its own). Callbacks must not throw: they
 * only signal (a failure there must not turn a committed write into an error answer).
 */
export function afterCommit(executor: Executor, cb: () => void): void {
  if (!executor.isTransaction) return cb();
  const pending = callbacks.get(executor as Transaction<DB>);
  // A transaction opened without transaction(), or one that has ended, would drop the callback silently: refuse it
  // loudly instead.
  if (!pending) throw new Error('afterCommit needs a running transaction opened with transaction() from db/transaction.ts');
  pending.push(cb);
}

/**
 * Runs `cb` at the end of the caller's `transaction()`, still inside it (its writes commit or roll back with the
 * rest): for writes worth making once per transaction instead of once per call, such as the webhooks' outbox rows
 * of a punch group commit, written in one statement. Answers false, registering nothing, when the executor is no
 * transaction of `transaction()`: the caller then writes at once.
 */
export function beforeCommit(executor: Executor, cb: () => Promise<void>): boolean {
  if (!executor.isTransaction) return false;
  const trx = executor as Transaction<DB>;
  // a transaction opened elsewhere has no end to run it at: the caller writes at once (still inside it)
  if (!callbacks.has(trx)) return false;
  const list = finishers.get(trx) ?? finishers.set(trx, []).get(trx)!;
  list.push(cb);
  return true;
}

/** The database an executor belongs to (what per-database services, such as the live stream, are registered under). */
export function dbOf(executor: Executor): Db | undefined {
  return executor.isTransaction ? owners.get(executor as Transaction<DB>) : executor;
}
