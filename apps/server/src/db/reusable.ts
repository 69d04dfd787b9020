import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';
import type { Executor } from './database.ts';

/**
 * A hot query whose SQL text depends only on a count (the rows of a multi-row insert, the values of an
 * IN list): Kysely builds and compiles it once per count, later calls reuse the text with their own
 * parameters, so a punch upload skips the query builder. The first build checks that `params` lays the
 * values out exactly as Kysely did, so the two can never drift apart. One instance per database: the
 * text is dialect-specific.
 */
export function reusableQuery<A>(spec: { build: (db: Executor, args: A) => Compilable; count: (args: A) => number; params: (args: A) => unknown[] }) {
  const texts = new Map<number, string>();
  return <R>(db: Executor, args: A): Promise<QueryResult<R>> => {
    const n = spec.count(args);
    const parameters = spec.params(args);
    let text = texts.get(n);
    if (text === undefined) {
      const built = spec.build(db, args).compile();
      if (built.parameters.length !== parameters.length || built.parameters.some((v, i) => v !== parameters[i])) {
        throw new Error('reusableQuery: params() does not lay out the values as the built query does');
      }
      text = built.sql;
      texts.set(n, text);
    }
    return db.executeQuery<R>(CompiledQuery.raw(text, parameters));
  };
}
