import { DEFAULT_TIME_ZONE } from '@faceadmin/shared';
import type { Executor } from '../../db/database.ts';
import { defineModule, type Core } from '../../module.ts';
import { notify } from '../messages/messages.service.ts';
import type { PeopleChangedHook } from '../persons/people-changed.ts';
import type { PunchesService } from '../punches/punches.service.ts';
import attendanceRoutes from './attendance.routes.ts';
import { daysService } from './days.service.ts';
import { markDirty } from './dirty.ts';
import { holidaysService } from './holidays.service.ts';
import { closedPeriods, isClosed, outside, periodsService } from './periods.service.ts';
import { BATCH_PEOPLE, localDate, recomputeService } from './recompute.service.ts';
import { reportsService } from './reports.service.ts';
import { rulesService } from './rules.service.ts';
import { scheduleService } from './schedule.service.ts';

/** How long one run of the recompute job may take before it yields to the next tick. */
const RUN_BUDGET_MS = 800;
/** People read off the queue per run: a few batches, so that on PostgreSQL one is computed while another is written. */
const PEOPLE_PER_RUN = BATCH_PEOPLE * 4;

/**
 * Earlier punches a person took over by number (a site taken over, issue #30) that fall in a closed period leave its
 * results as they are (#17): the administrators are told how many, so nobody wonders why a day did not change.
 */
async function claimedInClosed(trx: Executor, punches: readonly { companyId: number; time: string }[]): Promise<void> {
  const companyId = punches[0]?.companyId;
  if (companyId === undefined) return;
  const zone = (await trx.selectFrom('companies').select('time_zone').where('id', '=', companyId).executeTakeFirst())?.time_zone ?? DEFAULT_TIME_ZONE;
  const days = punches.map((p) => localDate(Date.parse(p.time), zone)).sort();
  const closed = await closedPeriods(trx, companyId, days[0], days[days.length - 1]);
  const inClosed = days.filter((d) => isClosed(closed, d));
  if (inClosed.length)
    await notify(trx, companyId, null, 'claimedInClosed', { count: inClosed.length, from: inClosed[0]!, to: inClosed[inClosed.length - 1]! });
}

/**
 * Attendance (issue #10): rules (fixed, shift, free), shifts and cycles, holidays; the engine in `engine/`
 * turns punches + rule + schedule + absences into explained day results. Results follow on their own: a stored
 * punch, a rule, holiday or people change queues the person-days it touches (in the writer's transaction), and
 * the recompute job works the queue every second.
 */
export function attendanceModule(core: Core, deps: { punches: PunchesService; peopleChanged: PeopleChangedHook }) {
  const rules = rulesService(core.database);
  const holidays = holidaysService(core.database);
  const recompute = recomputeService({ database: core.database, log: core.log });
  const days = daysService(core.database, recompute);
  const schedule = scheduleService(core.database);
  const reports = reportsService(core.database);
  const periods = periodsService(core.database, { explainRange: recompute.explainRange });
  deps.punches.stored.on(async (trx, e) => {
    await recompute.onPunches(trx, e.punches);
    if (e.claimed) await claimedInClosed(trx, e.punches);
  });
  // A person saved (moved to another department, left, came back): this month so far is recomputed.
  deps.peopleChanged.on(async (trx, e) => {
    if (e.kind !== 'saved' || e.terminalsOnly) return;
    const zone = (await trx.selectFrom('companies').select('time_zone').where('id', '=', e.companyId).executeTakeFirst())?.time_zone ?? DEFAULT_TIME_ZONE;
    const today = localDate(Date.now(), zone);
    await markDirty(trx, e.companyId, e.personIds, { from: `${today.slice(0, 8)}01`, to: today });
    // A closed period's results stay as they are (#17).
    const closed = await closedPeriods(trx, e.companyId);
    // Someone who left has no results after that day: stored ones (an update may have computed days ahead) go now.
    const leavers = await trx
      .selectFrom('persons')
      .select(['id', 'left_at'])
      .where('company_id', '=', e.companyId)
      .where('id', 'in', e.personIds)
      .where('work_status', '!=', 1)
      .execute();
    for (const p of leavers)
      if (p.left_at)
        await trx
          .deleteFrom('attendance_days')
          .where('company_id', '=', e.companyId)
          .where('person_id', '=', p.id)
          .where('date', '>', localDate(Date.parse(p.left_at), zone))
          .where('manual_status', 'is', null)
          .where(outside(closed))
          .execute();
    // Nor any before the hire date.
    const hired = await trx
      .selectFrom('persons')
      .select(['id', 'joined_on'])
      .where('company_id', '=', e.companyId)
      .where('id', 'in', e.personIds)
      .where('joined_on', 'is not', null)
      .execute();
    for (const p of hired)
      await trx
        .deleteFrom('attendance_days')
        .where('company_id', '=', e.companyId)
        .where('person_id', '=', p.id)
        .where('date', '<', p.joined_on!)
        .where('manual_status', 'is', null)
        .where(outside(closed))
        .execute();
  });
  return defineModule({
    name: 'attendance',
    rules,
    holidays,
    recompute,
    days,
    schedule,
    reports,
    periods,
    routes: (app) => attendanceRoutes(app, { rules, holidays, days, schedule, reports, periods }),
    jobs: [
      {
        name: 'attendance.recompute',
        every: 1000,
        exclusive: true,
        run: async (signal: AbortSignal) => {
          const until = Date.now() + RUN_BUDGET_MS;
          while (Date.now() < until && !signal.aborted) if (!(await recompute.runOnce(PEOPLE_PER_RUN, { signal, until })).people) break;
        },
      },
    ],
  });
}
