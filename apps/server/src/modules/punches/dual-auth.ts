import type { Database } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { clock } from '../../lib/time.ts';
import { loadOptions } from '../companies/companies.options.ts';
import { notify } from '../messages/messages.service.ts';
import { punchesRepository } from './punches.repository.ts';

/** spec §9: two-person authentication needs two people within 10 s. */
export const DUAL_WINDOW_MS = 10_000;
/** Unpaired passages older than this are marked without a message (the option was just switched on, a late upload). */
const ALARM_MAX_AGE_MS = 10 * 60_000;

type Candidate = {
  id: number;
  person_id: number | null;
  time: string;
  dual_state: string;
  person_name: string | null;
  /** when the server stored it: a late upload's partner may come in the terminal's next upload */
  created_at?: string;
};
export type DualDecision = { id: number; state: 'pending' | 'paired' | 'unpaired'; partner: number | null };

/**
 * Pure pairing of one device's undecided punches (oldest first): a punch pairs with the next one of a different
 * person within the window; without one it waits while the window is open (and, for a punch uploaded late, as long
 * again after it arrived), then is unpaired.
 */
export function pairPunches(rows: readonly Candidate[], nowMs: number): DualDecision[] {
  const out: DualDecision[] = [];
  const done = new Set<number>();
  for (let i = 0; i < rows.length; i++) {
    const p = rows[i]!;
    if (done.has(p.id)) continue;
    const t = Date.parse(p.time);
    const q = rows.slice(i + 1).find((r) => !done.has(r.id) && r.person_id !== p.person_id && Date.parse(r.time) - t <= DUAL_WINDOW_MS);
    if (q) {
      done.add(p.id).add(q.id);
      out.push({ id: p.id, state: 'paired', partner: q.person_id }, { id: q.id, state: 'paired', partner: p.person_id });
    } else if (nowMs - Math.max(t, p.created_at ? Date.parse(p.created_at) : t) > DUAL_WINDOW_MS) {
      // alone for the window since it happened and since it arrived (a backlog comes in several uploads)
      done.add(p.id);
      out.push({ id: p.id, state: 'unpaired', partner: null });
    } else if (p.dual_state === '') out.push({ id: p.id, state: 'pending', partner: null });
  }
  return out;
}

/**
 * The dual-authentication sweep (a job, every 2 s): on devices whose function type is 'dualAuth', in companies
 * with the option on, each recognised punch becomes 'paired' (with the other person) or, after 10 s alone,
 * 'unpaired', which tells the company's administrators (message). The terminal itself still opens on one face:
 * ZK PUSH offers no two-person verification the server can switch (docs/api-company-options.md).
 */
export function dualAuthService(database: Database) {
  const { db } = database;
  return {
    async sweep(): Promise<number> {
      const now = clock.now();
      const sinceLocal = new Date(now - 2 * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
      const byCompany = new Map<number, { id: number; name: string }[]>();
      for (const d of await punchesRepository.dualDevices(db)) byCompany.set(d.company_id, [...(byCompany.get(d.company_id) ?? []), d]);
      let decided = 0;
      for (const [companyId, devices] of byCompany) {
        if ((await loadOptions(db, companyId)).dualAuth !== 1) continue;
        const rows = await punchesRepository.dualCandidates(
          db,
          companyId,
          devices.map((d) => d.id),
          sinceLocal,
        );
        if (!rows.length) continue;
        await transaction(db, async (trx) => {
          for (const device of devices) {
            const mine = rows.filter((r) => r.device_id === device.id);
            for (const d of pairPunches(mine, now)) {
              await punchesRepository.setDual(trx, companyId, d.id, d.state, d.partner);
              if (d.state === 'pending') continue;
              decided++;
              const row = mine.find((r) => r.id === d.id)!;
              if (d.state === 'unpaired' && now - Date.parse(row.time) <= ALARM_MAX_AGE_MS)
                await notify(trx, companyId, null, 'dualAuthUnpaired', { device: device.name, name: row.person_name ?? '', time: row.local_time });
            }
          }
        });
      }
      return decided;
    },
  };
}
