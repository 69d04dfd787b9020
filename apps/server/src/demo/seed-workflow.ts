import type { ApplicationDetail, ProcessTree } from '@faceadmin/shared';
import type { Modules } from '../app.ts';
import type { Database } from '../db/database.ts';
import { clock } from '../lib/time.ts';
import type { PersonContext, Tenant } from '../plugins/auth.ts';
import { addDays } from '../modules/attendance/plans.ts';
import { localDate } from '../modules/attendance/recompute.service.ts';
import type { Caller } from '../modules/workflow/applications.service.ts';

const ZONE = 'Asia/Shanghai';

/** The example process: more than 3 days goes to the department head and then an administrator; otherwise the head. */
export const DEMO_LEAVE_PROCESS: ProcessTree = {
  nodes: [
    {
      id: 'length',
      type: 'condition',
      name: '请假天数 Length',
      branches: [
        {
          id: 'long',
          name: '超过 3 天 More than 3 days',
          priority: 1,
          default: false,
          conditions: [{ kind: 'field', field: 'period', op: 'gt', value: 3 }],
          nodes: [
            { id: 'head-long', type: 'approver', name: '部门负责人 Head', approver: { kind: 'head', level: 1 }, mode: 'any', empty: 'admin' },
            { id: 'admin', type: 'approver', name: '管理员 Administrator', approver: { kind: 'admins' }, mode: 'any', empty: 'admin' },
          ],
        },
        {
          id: 'short',
          name: '其他 Otherwise',
          priority: 2,
          default: true,
          conditions: [],
          nodes: [{ id: 'head-short', type: 'approver', name: '部门负责人 Head', approver: { kind: 'head', level: 1 }, mode: 'any', empty: 'admin' }],
        },
      ],
    },
  ],
};

/**
 * The demo's approvals (issue #11): the built-in apps, a leave process with a condition, and applications people
 * made on the self-service page: some approved by their heads (their leave shows in attendance), one long leave
 * waiting for an administrator, a trip and a supplementary punch waiting for heads, one rejected.
 */
export async function seedWorkflow(database: Database, modules: Pick<Modules, 'workflow' | 'attendance'>, tenant: Tenant): Promise<number> {
  const { db } = database;
  const { apps, applications } = modules.workflow;
  await apps.ready(tenant.companyId);
  const list = (await apps.list(tenant, 'zh-CN')).items;
  const leave = list.find((a) => a.kind === 'leave')!;
  const trip = list.find((a) => a.kind === 'trip')!;
  const supplement = list.find((a) => a.kind === 'supplement')!;
  await apps.saveProcess(tenant, 'zh-CN', leave.id, DEMO_LEAVE_PROCESS);

  // People who have a head to ask (not heads themselves), and their heads.
  const heads = await db.selectFrom('department_heads').select(['department_id', 'person_id']).where('company_id', '=', tenant.companyId).execute();
  const headOf = new Map(heads.map((h) => [h.department_id, h.person_id]));
  const members = await db
    .selectFrom('person_departments as pd')
    .innerJoin('persons as p', 'p.id', 'pd.person_id')
    .select(['p.id', 'p.name', 'pd.department_id'])
    .where('p.company_id', '=', tenant.companyId)
    .where('p.work_status', '=', 1)
    .orderBy('p.id')
    .execute();
  // Office people (09:00–18:00): a day's leave covers their whole working day (the production shifts run 08:00–20:00).
  const departments = await db.selectFrom('departments').select(['id', 'name', 'parent_id']).where('company_id', '=', tenant.companyId).execute();
  const parent = new Map(departments.map((d) => [d.id, d]));
  const topOf = (id: number) => {
    let d = parent.get(id);
    while (d && d.parent_id) d = parent.get(d.parent_id);
    return d;
  };
  const staff = members
    .filter((m) => headOf.has(m.department_id) && headOf.get(m.department_id) !== m.id && !topOf(m.department_id)?.name.includes('Production'))
    .slice(0, 7);
  const names = new Map(members.map((m) => [m.id, m.name]));
  const as = (personId: number): Caller => {
    const person: PersonContext = { sessionId: 0, personId, companyId: tenant.companyId, name: names.get(personId) ?? '', timeZone: ZONE, ip: '127.0.0.1' };
    return { kind: 'person', person, lang: 'zh-CN' };
  };
  const today = localDate(clock.now(), ZONE);
  /** A weekday `back` working days before today (or ahead, when negative). */
  const weekday = (back: number) => {
    let d = today;
    let n = Math.abs(back);
    const step = back >= 0 ? -1 : 1;
    while (n > 0) {
      d = addDays(d, step);
      const wd = new Date(`${d}T00:00:00Z`).getUTCDay();
      if (wd !== 0 && wd !== 6) n--;
    }
    return d;
  };
  const at = (date: string, hm: string) => new Date(`${date}T${hm}:00+08:00`).toISOString();
  const headDecides = async (a: ApplicationDetail, decision: 'approve' | 'reject', comment: string) => {
    const approver = a.current?.approvers.find((x) => x.kind === 'person');
    if (!a.current || !approver?.id) return a;
    return applications.decide(as(approver.id), { id: a.id, step_id: a.current.step_id, decision, comment });
  };
  let made = 0;
  const apply = async (personId: number, appId: number, values: Record<string, unknown>) => {
    made++;
    return applications.apply(as(personId), appId, personId, values as never);
  };

  const [p1, p2, p3, p4, p5, p6, p7] = staff;
  // Approved leave in the past weeks: the results and the month report show it.
  if (p1) {
    const a = await apply(p1.id, leave.id, {
      leave_type: 'sick',
      period: { from: at(weekday(8), '09:00'), to: at(weekday(8), '18:00') },
      reason: '感冒发烧 Flu',
    });
    await headDecides(a, 'approve', '注意休息 Get well');
  }
  if (p2) {
    const a = await apply(p2.id, leave.id, {
      leave_type: 'annual',
      period: { from: at(weekday(12), '09:00'), to: at(weekday(11), '18:00') },
      reason: '家中有事 Family matters',
    });
    await headDecides(a, 'approve', '');
  }
  if (p3) {
    const a = await apply(p3.id, trip.id, {
      trip_type: 'trip',
      period: { from: at(weekday(6), '09:00'), to: at(weekday(5), '18:00') },
      destination: '北京 Beijing',
      reason: '客户项目 Client project',
    });
    await headDecides(a, 'approve', '');
  }
  // Waiting: a long leave the head approved, now with the administrators (the console's pending approvals).
  if (p4) {
    const from = weekday(-5);
    const a = await apply(p4.id, leave.id, {
      leave_type: 'marriage',
      period: { from: at(from, '09:00'), to: at(addDays(from, 6), '18:00') },
      reason: '婚假 Wedding',
    });
    await headDecides(a, 'approve', '恭喜 Congratulations');
  }
  if (p5)
    await apply(p5.id, leave.id, {
      leave_type: 'personal',
      period: { from: at(weekday(-2), '13:00'), to: at(weekday(-2), '18:00') },
      reason: '办理证件 Paperwork',
    });
  if (p6) await apply(p6.id, supplement.id, { punch_time: at(weekday(1), '09:02'), reason: '忘记打卡 Forgot to punch' });
  // Rejected: never in attendance.
  if (p7) {
    const a = await apply(p7.id, leave.id, {
      leave_type: 'annual',
      period: { from: at(weekday(3), '09:00'), to: at(weekday(3), '18:00') },
      reason: '休息 Rest',
    });
    await headDecides(a, 'reject', '本周项目上线 Release week');
  }
  // What approval wrote is computed now, like the rest of the month.
  while ((await modules.attendance.recompute.runOnce(200)).people) {
    /* next batch */
  }
  return made;
}
