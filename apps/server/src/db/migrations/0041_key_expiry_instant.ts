import type { Kysely } from 'kysely';
import { endOfDayIn } from '../../lib/time.ts';

/**
 * An API key's expiry is an instant (#28): `expires_at`, the end of its expiry date in the company's zone as it was
 * when the key was made, so changing the company's zone later no longer moves every key's expiry. `expires_on` stays
 * the date as chosen (the API shows it). Existing keys take the end of their date in the company's zone of today.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('expires_at', 'text').execute();
  const rows = await db
    .selectFrom('api_keys as k')
    .innerJoin('companies as c', 'c.id', 'k.company_id')
    .select(['k.id', 'k.expires_on', 'c.time_zone'])
    .where('k.expires_on', 'is not', null)
    .execute();
  for (const r of rows as { id: number; expires_on: string; time_zone: string | null }[])
    await db
      .updateTable('api_keys')
      .set({ expires_at: endOfDayIn(r.expires_on, r.time_zone ?? 'Asia/Shanghai') })
      .where('id', '=', r.id)
      .execute();
}
