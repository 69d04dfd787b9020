import type { Kysely } from 'kysely';

/**
 * Breath alcohol per punch (mg/100 mL), from breathalyser terminals: ATTLOG field 10
 * (docs/zk-push-protocol.md §5.1), and whether it failed the device's threshold at that moment.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('punches').addColumn('alcohol', 'real').execute();
  await db.schema.alterTable('punches').addColumn('alcohol_over', 'integer').execute();
}
