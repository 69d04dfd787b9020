import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { chunks } from '../../lib/chunks.ts';
import { nowIso, zonedToUtcMs } from '../../lib/time.ts';

/** A range of the company's local dates, inclusive ('YYYY-MM-DD'). */
export interface DirtyRange {
  from: string;
  to: string;
}

/**
 * Queues person-days for recomputation, in the writer's transaction (so a rolled-back change queues nothing):
 * each person's pending range widens to cover the new one, and its `seq` moves on (a batch that read the row before
 * leaves it queued).
 *
 * Lock order (docs/attendance.md "Locks"): rows are marked in ascending person order, and a writer marks before it
 * touches the person's day results. The recompute claims the same rows in the same order, so two writers never
 * wait on each other in a circle on PostgreSQL.
 */
export async function markDirty(db: Executor, companyId: number, personIds: number[], range: DirtyRange): Promise<void> {
  const at = nowIso();
  const ids = [...new Set(personIds)].sort((a, b) => a - b);
  for (const part of chunks(ids, 500)) {
    if (!part.length) continue;
    await db
      .insertInto('attendance_dirty')
      .values(part.map((person_id) => ({ person_id, company_id: companyId, from_date: range.from, to_date: range.to, queued_at: at })))
      .onConflict((oc) =>
        oc.column('person_id').doUpdateSet({
          from_date: sql<string>`case when excluded.from_date < attendance_dirty.from_date then excluded.from_date else attendance_dirty.from_date end`,
          to_date: sql<string>`case when excluded.to_date > attendance_dirty.to_date then excluded.to_date else attendance_dirty.to_date end`,
          queued_at: at,
          seq: sql<number>`attendance_dirty.seq + 1`,
        }),
      )
      .execute();
  }
}

/** Several people each with a range of their own, marked one by one in ascending person order (the lock order). */
export async function markDirtyRanges(db: Executor, companyId: number, ranges: Map<number, DirtyRange>): Promise<void> {
  for (const [personId, range] of [...ranges].sort((a, b) => a[0] - b[0])) await markDirty(db, companyId, [personId], range);
}

/**
 * Queues a range for the whole company, as "attendance update" does: everyone working, and those who left within
 * the range (their days up to leaving are corrected too). Returns how many people were queued.
 */
export async function markCompanyDirty(db: Executor, companyId: number, zone: string, range: DirtyRange): Promise<number> {
  const fromIso = new Date(zonedToUtcMs(range.from, zone)).toISOString();
  const people = (
    await db
      .selectFrom('persons')
      .select('id')
      .where('company_id', '=', companyId)
      .where((eb) => eb.or([eb('work_status', '=', 1), eb('left_at', '>=', fromIso)]))
      .execute()
  ).map((p) => p.id);
  await markDirty(db, companyId, people, range);
  return people.length;
}

/** People of the company whose days wait to be recomputed (the progress of an attendance update). */
export async function pendingOf(db: Executor, companyId: number): Promise<{ pending: number }> {
  const r = await db
    .selectFrom('attendance_dirty')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return { pending: Number(r.n) };
}
