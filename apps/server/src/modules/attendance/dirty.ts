import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { chunks } from '../../lib/chunks.ts';
import { nowIso } from '../../lib/time.ts';

/** A range of the company's local dates, inclusive ('YYYY-MM-DD'). */
export interface DirtyRange {
  from: string;
  to: string;
}

/**
 * Queues person-days for recomputation, in the writer's transaction (so a rolled-back change queues nothing):
 * each person's pending range widens to cover the new one.
 */
export async function markDirty(db: Executor, companyId: number, personIds: number[], range: DirtyRange): Promise<void> {
  const at = nowIso();
  for (const part of chunks([...new Set(personIds)], 500)) {
    if (!part.length) continue;
    await db
      .insertInto('attendance_dirty')
      .values(part.map((person_id) => ({ person_id, company_id: companyId, from_date: range.from, to_date: range.to, queued_at: at })))
      .onConflict((oc) =>
        oc.column('person_id').doUpdateSet({
          from_date: sql<string>`case when excluded.from_date < attendance_dirty.from_date then excluded.from_date else attendance_dirty.from_date end`,
          to_date: sql<string>`case when excluded.to_date > attendance_dirty.to_date then excluded.to_date else attendance_dirty.to_date end`,
          queued_at: at,
        }),
      )
      .execute();
  }
}
