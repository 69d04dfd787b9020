import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Automatic shift matching (#17 item 11): a rule's candidate shifts, a JSON array of shift ids ('[]': none). A
 * weekday or cycle day whose entry is the shift id -1 works the candidate nearest to the person's first punch.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('attendance_rules')
    .addColumn('auto_shift_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}
