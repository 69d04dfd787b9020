import { sql, type CreateTableBuilder } from 'kysely';
import type { Dialect } from '../database.ts';

/** Auto-increment integer primary key on either database. */
export function withId<T extends string>(t: CreateTableBuilder<T, never>, dialect: Dialect): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export const emptyText = sql`''`;
