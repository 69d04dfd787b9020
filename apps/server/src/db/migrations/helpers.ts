import { sql, type CreateTableBuilder } from 'kysely';
import type { Dialect } from '../database.ts';

/** Auto-increment integer primary key on either database. */
export function withId<T extends string>(t: CreateTableBuilder<T, never>, dialect: Dialect): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export const emptyText = sql`''`;

/** The punches table's columns (0003 created it; 0004 rebuilds it on SQLite with its final keys). */
export function punchColumns<T extends string>(t: CreateTableBuilder<T, never>, dialect: Dialect) {
  return (
    withId(t, dialect)
      .addColumn('company_id', 'integer', (c) => c.notNull())
      .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
      .addColumn('person_id', 'integer')
      .addColumn('pin', 'text', (c) => c.notNull())
      /** the device's own clock reading, as sent: with device_id and pin, what makes a punch unique */
      .addColumn('local_time', 'text', (c) => c.notNull())
      /** the same instant in UTC (ISO-8601) */
      .addColumn('time', 'text', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('verify', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('workcode', 'text', (c) => c.notNull().defaultTo(emptyText))
      .addColumn('temperature', 'real')
      .addColumn('mask', 'integer')
      .addColumn('photo', 'text', (c) => c.notNull().defaultTo(emptyText))
      .addColumn('stranger', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
  );
}
