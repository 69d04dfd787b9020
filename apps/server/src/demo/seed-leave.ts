import type { Database } from '../db/database.ts';
import { transaction } from '../db/transaction.ts';
import { clock, nowIso } from '../lib/time.ts';
import type { Tenant } from '../plugins/auth.ts';
import { localDate } from '../modules/attendance/recompute.service.ts';

/**
 * The demo's leave balances (#17 item 15), before its approvals so approved annual leave is deducted: annual leave
 * by seniority (5 / 10 / 15 days from 0 / 1 / 10 years, up to five unused days of last year carried over), hire
 * dates for the people who have none (years back, so no attendance day falls before one), and compensatory
 * leave kept by hand (may go below zero) with a few people's days set.
 */
export async function seedLeave(database: Database, tenant: Tenant, zone: string): Promise<void> {
  const companyId = tenant.companyId;
  const year = Number(localDate(clock.now(), zone).slice(0, 4));
  await transaction(database.db, async (trx) => {
    const at = nowIso();
    const policy = { allow_negative: 0, days: 0, accrual: 'year', carry_max: 0, carry_months: 0, updated_at: at };
    await trx
      .insertInto('leave_policies')
      .values([
        {
          company_id: companyId,
          leave_type: 'annual',
          tracked: 1,
          mode: 'seniority',
          tiers: JSON.stringify([
            { years: 0, days: 5 },
            { years: 1, days: 10 },
            { years: 10, days: 15 },
          ]),
          ...policy,
          carry_max: 5,
        },
        { company_id: companyId, leave_type: 'compensatory', tracked: 1, mode: 'manual', tiers: '[]', ...policy, allow_negative: 1 },
      ])
      .execute();
    const people = await trx
      .selectFrom('persons')
      .select(['id', 'joined_on'])
      .where('company_id', '=', companyId)
      .where('work_status', '=', 1)
      .orderBy('id')
      .execute();
    for (const [i, p] of people.entries()) {
      if (!p.joined_on) {
        // Spread over the years before last: 1 to 14 full years of service on 1 January.
        const y = year - 2 - ((i * 5) % 13);
        const joined = `${y}-${String(1 + ((i * 5) % 12)).padStart(2, '0')}-${String(1 + ((i * 11) % 28)).padStart(2, '0')}`;
        await trx.updateTable('persons').set({ joined_on: joined }).where('id', '=', p.id).execute();
      }
      if (i % 3 === 0)
        await trx
          .insertInto('leave_quotas')
          .values({
            company_id: companyId,
            person_id: p.id,
            leave_type: 'compensatory',
            year,
            quota: 1 + (i % 4) * 0.5,
            carried: null,
            source: 'manual',
            updated_at: at,
          })
          .execute();
    }
  });
}
