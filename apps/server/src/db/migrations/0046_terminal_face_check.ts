import type { Kysely } from 'kysely';
import { emptyText } from './helpers.ts';

/**
 * What the face check made of each face a terminal holds (issue #30: the take-over's review shows a face it refuses,
 * and why, before anything is written; of a number's faces on several terminals the best is taken). JSON: `''` not
 * checked yet, `{"ok":true,"width":…,"sharpness":…}` passed (measures absent with the check off), or
 * `{"key":"errors.photo…","params":{…}}` refused.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('terminal_users')
    .addColumn('face_check', 'text', (c) => c.notNull().defaultTo(emptyText))
    .execute();
}
