import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * A person linked to an administrator account of the same company (spec §7 /person/bindAdmin): a manager who is
 * also an employee has one identity. At most one person per administrator per company; an account removed from
 * the system unlinks itself.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('persons')
    .addColumn('admin_id', 'integer', (c) => c.references('admins.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('persons_admin_key').unique().on('persons').columns(['company_id', 'admin_id']).execute();
}
