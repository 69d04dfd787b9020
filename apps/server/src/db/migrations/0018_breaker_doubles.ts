import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Breaker figures as 8-byte floats on PostgreSQL too (issue #18): `real` there is 4 bytes (24 bits), so a line's
 * meter lost whole Wh past 16.7 MWh, sums of minute averages drifted, and a reading outside its range (a denormal
 * like 5e-324, or above 3.4e38) failed the insert of the whole batch of readings it came with. SQLite's REAL is
 * already 8 bytes.
 */
const COLUMNS: Record<string, string[]> = {
  breaker_lines: ['power', 'current', 'voltage', 'energy_wh', 'temperature', 'leakage'],
  breaker_alarms: ['value'],
  breaker_samples: ['power', 'current', 'voltage', 'energy_wh'],
  breaker_minutes: ['avg_w', 'max_w', 'energy_wh'],
};

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const [table, columns] of Object.entries(COLUMNS)) {
    const alter = columns.map((c) => sql`alter column ${sql.ref(c)} type double precision`);
    await sql`alter table ${sql.table(table)} ${sql.join(alter)}`.execute(db);
  }
}
