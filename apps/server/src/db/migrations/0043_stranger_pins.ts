import { sql, type Kysely } from 'kysely';

/**
 * A person saved with a number takes the punches stored earlier under it as a stranger's (punches.service
 * claimStrangers, issue #30): a taken-over terminal may have left months of them. A partial index on the strangers'
 * PINs finds a person's among them without walking the company's strangers once per saved batch.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index punches_stranger_pins on punches (company_id, pin) where stranger = 1`.execute(db);
}
