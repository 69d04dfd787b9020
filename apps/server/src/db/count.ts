import type { SelectQueryBuilder } from 'kysely';
import type { Executor } from './database.ts';
import type { DB } from './schema.ts';

/**
 * A list of a big company counts its rows up to here, then says there are more (the console shows "More than
 * 10,000"): counting 100,000 people or 52 M punches exactly cost many times the page itself (#32,
 * bench/big-tenant.bench.ts).
 */
export const COUNT_LIMIT = 10_000;

/**
 * A page's `total` and `more`: the rows `rows` selects, counted up to COUNT_LIMIT + 1. Its order, if any, is the
 * order they are walked in (the punch list counts newest first, through the index its page reads).
 */
export async function countUpTo<D extends DB, TB extends keyof D, O>(
  db: Executor,
  rows: SelectQueryBuilder<D, TB, O>,
): Promise<{ total: number; more: boolean }> {
  const r = await db
    .selectFrom(rows.limit(COUNT_LIMIT + 1).as('counted'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(r.n);
  return { total: Math.min(n, COUNT_LIMIT), more: n > COUNT_LIMIT };
}
