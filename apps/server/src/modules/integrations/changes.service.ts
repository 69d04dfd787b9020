import { CHANGE_KINDS, type ApiScope, type ChangeItem, type ChangeKind, type ChangesPage, type DayStatus } from '@faceadmin/shared';
import type { Database } from '../../db/database.ts';
import { chunks } from '../../lib/chunks.ts';
import { clock } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { punchEvents } from '../punches/punches.live.ts';
import { requireThirdParty } from './third-party.ts';

/** Which scope opens which kind of change (a key sees only what its scopes open; a main administrator all of it). */
const SCOPE_OF: Record<ChangeKind, ApiScope> = { punch: 'punches:read', day: 'attendance:read', person: 'people:read' };
/** The scopes the changes feed serves: a key needs one of them. */
export const CHANGES_SCOPES: readonly ApiScope[] = CHANGE_KINDS.map((k) => SCOPE_OF[k]);
/** How long changes are kept (docs/api-integrations.md): an integrator away longer reconciles from the lists. */
export const CHANGES_KEEP_DAYS = 30;
const DEFAULT_LIMIT = 500;

/**
 * The changes feed (issue #28, docs/api-integrations.md §changes): punches stored, day results changed and people
 * changed since a cursor, in commit order, each as it is now. db/changes.ts records them and explains why a cursor
 * never passes a change that commits later.
 */
export function changesService(database: Database) {
  const { db } = database;

  async function punches(ids: number[]) {
    const out = new Map<number, NonNullable<ChangeItem['punch']>>();
    for (const { event } of await punchEvents(db, ids)) {
      const { face_url: _face, ...punch } = event;
      out.set(event.id, punch);
    }
    return out;
  }

  async function days(companyId: number, refs: { id: number; date: string }[]) {
    const out = new Map<string, NonNullable<ChangeItem['day']>>();
    for (const part of chunks(refs, 300)) {
      const rows = await db
        .selectFrom('attendance_days')
        .select(['person_id', 'date', 'status', 'manual_status', 'late_min', 'early_min', 'worked_min', 'overtime_min', 'leave_min', 'absent_min'])
        .where('company_id', '=', companyId)
        .where((eb) =>
          eb(
            eb.refTuple('person_id', 'date'),
            'in',
            part.map((r) => eb.tuple(r.id, r.date)),
          ),
        )
        .execute();
      for (const r of rows)
        out.set(`${r.person_id}/${r.date}`, {
          person_id: r.person_id,
          date: r.date,
          status: (r.manual_status ?? r.status) as DayStatus,
          late_min: r.late_min,
          early_min: r.early_min,
          worked_min: r.worked_min,
          overtime_min: r.overtime_min,
          leave_min: r.leave_min,
          absent_min: r.absent_min,
        });
    }
    return out;
  }

  async function people(companyId: number, ids: number[]) {
    const out = new Map<number, NonNullable<ChangeItem['person']>>();
    for (const part of chunks(ids)) {
      const rows = await db.selectFrom('persons').select(['id', 'number', 'name']).where('company_id', '=', companyId).where('id', 'in', part).execute();
      const links = rows.length
        ? await db
            .selectFrom('person_departments')
            .select(['person_id', 'department_id'])
            .where(
              'person_id',
              'in',
              rows.map((r) => r.id),
            )
            .execute()
        : [];
      const depts = new Map<number, number[]>();
      for (const l of links) (depts.get(l.person_id) ?? depts.set(l.person_id, []).get(l.person_id)!).push(l.department_id);
      for (const r of rows) out.set(r.id, { id: r.id, number: r.number, name: r.name, department_ids: depts.get(r.id) ?? [] });
    }
    return out;
  }

  return {
    /**
     * One page after `cursor`: what the key's scopes open (`scopes` undefined: a main administrator, everything).
     * The answer's cursor is where the next call starts.
     */
    async page(tenant: Tenant, scopes: readonly ApiScope[] | undefined, cursor: string | undefined, limit = DEFAULT_LIMIT): Promise<ChangesPage> {
      await requireThirdParty(db, tenant.companyId);
      const kinds = CHANGE_KINDS.filter((k) => !scopes || scopes.includes(SCOPE_OF[k]));
      const after = Number(cursor ?? '0');
      const rows = await db
        .selectFrom('changes')
        .selectAll()
        .where('company_id', '=', tenant.companyId)
        .where('seq', '>', after)
        .where('kind', 'in', kinds)
        .orderBy('seq')
        .limit(limit + 1)
        .execute();
      const more = rows.length > limit;
      if (more) rows.pop();
      const ref = (k: ChangeKind) => rows.filter((r) => r.kind === k);
      const punchMap = await punches(ref('punch').map((r) => r.ref));
      const dayMap = await days(
        tenant.companyId,
        ref('day').map((r) => ({ id: r.ref, date: r.date })),
      );
      const personMap = await people(tenant.companyId, [...new Set(ref('person').map((r) => r.ref))]);
      const items = rows.map((r): ChangeItem => {
        const base = { seq: String(r.seq), kind: r.kind as ChangeKind, at: r.at, id: r.ref, date: r.date };
        if (r.kind === 'punch') {
          const punch = punchMap.get(r.ref);
          return punch ? { ...base, deleted: false, punch } : { ...base, deleted: true };
        }
        if (r.kind === 'day') {
          const day = dayMap.get(`${r.ref}/${r.date}`);
          return day ? { ...base, deleted: false, day } : { ...base, deleted: true };
        }
        const person = personMap.get(r.ref);
        return person ? { ...base, deleted: false, person } : { ...base, deleted: true };
      });
      return { items, cursor: rows.length ? String(rows[rows.length - 1]!.seq) : String(after), more };
    },
    /** Drops changes older than the days kept. */
    async prune() {
      await db
        .deleteFrom('changes')
        .where('at', '<', new Date(clock.now() - CHANGES_KEEP_DAYS * 86_400_000).toISOString())
        .execute();
    },
  };
}
export type ChangesService = ReturnType<typeof changesService>;
