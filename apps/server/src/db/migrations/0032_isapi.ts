import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Hikvision ISAPI terminals (#20): the server dials them, so a device has a port besides its address, and
 * each device gets the secret that its event notifications carry in their URL (docs/isapi-protocol.md §6).
 * The secret is kept as it is, like the device password: the server writes it to the terminal again
 * whenever the terminal's notification settings are reset.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('devices')
    .addColumn('port', 'integer', (c) => c.notNull().defaultTo(80))
    .execute();
  await db.schema
    .alterTable('devices')
    .addColumn('event_secret', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const rows = (await db.selectFrom('devices').select('id').execute()) as { id: number }[];
  for (const r of rows)
    await db
      .updateTable('devices')
      .set({ event_secret: randomBytes(18).toString('base64url') })
      .where('id', '=', r.id)
      .execute();
}
