import {
  APPROVAL_STATUS,
  BUILTIN_KINDS,
  type SelfApp,
  type ApplicationDetail,
  type ApplicationQuery,
  type DecideBody,
  type FormSchema,
  type FormValues,
  type Language,
  type ProcessTree,
  type RangeValue,
} from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { badInput, conflict, invalid, noAuthority, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { nowIso, zonedToUtcMs } from '../../lib/time.ts';
import type { PersonContext, Tenant } from '../../plugins/auth.ts';
import { approvalAbsencesOf, removeApprovalAbsences, workingDuration, writeApprovalAbsences, type ApprovalAbsence } from '../attendance/approval-absences.ts';
import { localDate } from '../attendance/recompute.service.ts';
import { leaveBalanceOfApplication, leaveOnApply, leaveOnApproved, leaveOnWithdrawn } from '../leave/leave.service.ts';
import { audit } from '../logs/logs.service.ts';
import { notify } from '../messages/messages.service.ts';
import { ensureBuiltins } from './apps.service.ts';
import type { WorkflowFiles } from './files.ts';
import { checkValues, planRoute, type PlanNode } from './process.ts';
import { publish } from '../live/publish.ts';
import { selfRepository } from './self.repository.ts';
import { appName, formOf, leaveTypeLabel, presentRows, presentTimeline, type ListedApplication } from './workflow.presenter.ts';
import { workflowRepository as repo, type AppRow, type ApplicationFilter, type ApplicationRowDb, type StepRow } from './workflow.repository.ts';

/** Who acts: an administrator in the console (workflow right) or a person on the self-service page. */
export type Caller = { kind: 'admin'; tenant: Tenant; lang: Language } | { kind: 'person'; person: PersonContext; lang: Language };
const companyOf = (c: Caller) => (c.kind === 'admin' ? c.tenant.companyId : c.person.companyId);

/** Departments with the ones above them: parents by id. */
type Parents = Map<number, number>;
function withAncestors(ids: number[], parents: Parents): Set<number> {
  const out = new Set<number>();
  for (const start of ids) for (let id: number | undefined = start, hops = 0; id && hops < 100; id = parents.get(id), hops++) out.add(id);
  return out;
}
function ancestorAt(id: number, level: number, parents: Parents): number | undefined {
  let at: number | undefined = id;
  for (let i = 1; i < level && at; i++) at = parents.get(at) || undefined;
  return at;
}
/** Departments below (and including) one. */
function withDescendants(id: number, parents: Parents): number[] {
  const out = [id];
  for (const [child] of parents) if (child !== id && withAncestors([child], parents).has(id)) out.push(child);
  return out;
}

const isRange = (v: unknown): v is RangeValue => typeof v === 'object' && v !== null && !Array.isArray(v) && 'from' in v && 'to' in v;

/** Applications: applying, the route through the process, decisions, withdrawal, and what attendance gets. */
export function applicationsService(database: Database, files: WorkflowFiles) {
  const { db } = database;

  async function parentsOf(ex: Executor, companyId: number): Promise<Parents> {
    return new Map((await repo.departments(ex, companyId)).map((d) => [d.id, d.parent_id]));
  }

  /** The person's inbox on the self-service page. */
  async function tell(
    ex: Executor,
    companyId: number,
    personId: number,
    type: 'wfTask' | 'wfCc' | 'wfStep' | 'wfApproved' | 'wfRejected' | 'wfCancelled',
    a: ApplicationRowDb,
    app: AppRow,
    applicant: string,
  ) {
    await selfRepository.insertMessage(ex, companyId, {
      person_id: personId,
      type,
      params: JSON.stringify({ app: app.name, kind: app.kind, applicant, order: a.order_no }),
      application_id: a.id,
      created_at: nowIso(),
    });
  }
  const bellParams = (a: ApplicationRowDb, app: AppRow, applicant: string) => ({
    ...(app.name ? { app: app.name } : { appKey: `workflow.kinds.${app.kind}` }),
    applicant,
    order: a.order_no,
  });

  /** The approvers of a node: named people, the applicant's department heads at a level, or the administrators. */
  async function resolve(
    ex: Executor,
    companyId: number,
    node: PlanNode,
    applicantId: number,
  ): Promise<{ kind: 'person' | 'admins'; id: number | null; name: string }[]> {
    const c = node.approver;
    if (c.kind === 'admins') return [{ kind: 'admins', id: null, name: '' }];
    if (c.kind === 'people') {
      const rows = await repo.persons(ex, companyId, c.person_ids ?? []);
      const byId = new Map(rows.filter((p) => p.work_status === 1).map((p) => [p.id, p]));
      return (c.person_ids ?? []).filter((id) => byId.has(id) && id !== applicantId).map((id) => ({ kind: 'person', id, name: byId.get(id)!.name }));
    }
    const parents = await parentsOf(ex, companyId);
    const mine = (await repo.personDepartments(ex, companyId, [applicantId])).map((d) => d.department_id);
    const targets = [...new Set(mine.map((d) => ancestorAt(d, c.level ?? 1, parents)).filter((d): d is number => Boolean(d)))];
    const heads = await repo.heads(ex, companyId, targets);
    const seen = new Set<number>();
    // The applicant never approves their own application (a head asking for leave goes to the level above, or the empty rule).
    return heads.filter((h) => h.id !== applicantId && !seen.has(h.id) && seen.add(h.id)).map((h) => ({ kind: 'person', id: h.id, name: h.name }));
  }

  /**
   * What approval writes into attendance for an application's kind (custom apps are only recorded). Approved
   * overtime is an 'overtime' row that only rules counting overtime "only when approved" read (#17).
   */
  function absencesFor(lang: Language, app: AppRow, a: ApplicationRowDb, form: FormSchema): ApprovalAbsence[] {
    const values = parseJson<FormValues>(a.form_values, {});
    const why = typeof values.reason === 'string' ? values.reason : '';
    if ((app.kind === 'leave' || app.kind === 'trip') && a.period_from && a.period_to) {
      const label = app.kind === 'leave' ? leaveTypeLabel(lang, form, a.leave_type) : null;
      return [
        {
          kind: app.kind === 'leave' ? 'leave' : 'out',
          from: Date.parse(a.period_from),
          to: Date.parse(a.period_to),
          reason: [label, why].filter(Boolean).join(': ') || appName(lang, app),
          leaveType: app.kind === 'leave' ? a.leave_type : null,
        },
      ];
    }
    if (app.kind === 'overtime' && a.period_from && a.period_to) {
      return [{ kind: 'overtime', from: Date.parse(a.period_from), to: Date.parse(a.period_to), reason: why || appName(lang, app) }];
    }
    if (app.kind === 'supplement' && a.period_from) {
      const at = Date.parse(a.period_from);
      return [{ kind: 'supplement', from: at, to: at, reason: why || appName(lang, app) }];
    }
    return [];
  }

  /**
   * Starts the route's next nodes: cc nodes are recorded and told; an approver node with nobody found is skipped
   * or handed to the administrators; the first approver node with approvers waits. Past the last node the
   * application is approved, and its absences go into attendance in this same transaction.
   */
  async function advance(ex: Executor, lang: Language, companyId: number, zone: string, a: ApplicationRowDb, app: AppRow, applicant: string) {
    const plan = parseJson<PlanNode[]>(a.plan, []);
    let index = a.plan_index;
    let seq = await repo.nextSeq(ex, a.id);
    const at = nowIso();
    while (index < plan.length) {
      const node = plan[index++]!;
      const people = await resolve(ex, companyId, node, a.person_id);
      if (node.type === 'cc') {
        const stepId = await repo.insertStep(ex, {
          company_id: companyId,
          application_id: a.id,
          seq: seq++,
          node_id: node.id,
          node_name: node.name,
          kind: 'cc',
          state: 'cc',
          created_at: at,
          decided_at: at,
        });
        await repo.insertTasks(
          ex,
          people.map((p, i) => ({
            company_id: companyId,
            application_id: a.id,
            step_id: stepId,
            seq: i,
            approver_kind: p.kind,
            person_id: p.id,
            name: p.name,
            state: 'cc',
            decided_at: at,
          })),
        );
        for (const p of people) if (p.id) await tell(ex, companyId, p.id, 'wfCc', a, app, applicant);
        continue;
      }
      let approvers = people;
      if (!approvers.length) {
        if (node.empty === 'skip') {
          await repo.insertStep(ex, {
            company_id: companyId,
            application_id: a.id,
            seq: seq++,
            node_id: node.id,
            node_name: node.name,
            kind: 'approver',
            mode: node.mode,
            state: 'skipped',
            created_at: at,
            decided_at: at,
          });
          continue;
        }
        approvers = [{ kind: 'admins', id: null, name: '' }];
      }
      const stepId = await repo.insertStep(ex, {
        company_id: companyId,
        application_id: a.id,
        seq: seq++,
        node_id: node.id,
        node_name: node.name,
        kind: 'approver',
        mode: node.mode,
        state: 'pending',
        created_at: at,
      });
      await repo.insertTasks(
        ex,
        approvers.map((p, i) => ({
          company_id: companyId,
          application_id: a.id,
          step_id: stepId,
          seq: i,
          approver_kind: p.kind,
          person_id: p.id,
          name: p.name,
          state: 'pending',
        })),
      );
      await repo.setApplication(ex, companyId, a.id, { plan_index: index, updated_at: at });
      // In order: only the first is told now; the next when it is their turn.
      const told = node.mode === 'sequential' ? approvers.slice(0, 1) : approvers;
      for (const p of told) {
        if (p.kind === 'admins') await notify(ex, companyId, null, 'wfPending', bellParams(a, app, applicant));
        else await tell(ex, companyId, p.id!, 'wfTask', a, app, applicant);
      }
      return;
    }
    await repo.setApplication(ex, companyId, a.id, { plan_index: index });
    if (!(await repo.finish(ex, companyId, a.id, APPROVAL_STATUS.pending, APPROVAL_STATUS.approved, at))) throw conflict('errors.wfDecided');
    await publish(ex, companyId, 'approval', { id: a.id, status: APPROVAL_STATUS.approved }, ['workflow']);
    const form = formOf((await repo.version(ex, 'workflow_forms', companyId, a.app_id, a.form_version))?.body);
    await writeApprovalAbsences(ex, companyId, zone, a.id, a.person_id, absencesFor(lang, app, a, form));
    if (app.kind === 'leave') await leaveOnApproved(ex, lang, companyId, a);
    await repo.insertStep(ex, {
      company_id: companyId,
      application_id: a.id,
      seq: seq++,
      node_id: null,
      node_name: '',
      kind: 'end',
      state: 'approved',
      created_at: at,
      decided_at: at,
    });
    await tell(ex, companyId, a.person_id, 'wfApproved', a, app, applicant);
    await notify(ex, companyId, null, 'wfApproved', bellParams(a, app, applicant));
  }

  async function detail(ex: Executor, caller: Caller, id: number): Promise<ApplicationDetail> {
    const companyId = companyOf(caller);
    const lang = caller.lang;
    const [row] = (await repo.byIds(ex, companyId, [id])) as ListedApplication[];
    if (!row) throw notFound();
    const steps = await repo.steps(ex, companyId, [id]);
    const tasks = await repo.tasks(ex, companyId, [id]);
    if (caller.kind === 'person' && row.person_id !== caller.person.personId && !tasks.some((x) => x.person_id === caller.person.personId)) throw notFound();
    const formRow = await repo.version(ex, 'workflow_forms', companyId, row.app_id, row.form_version);
    const form = formOf(formRow?.body);
    const deps = await departmentsOf(ex, companyId, [row.person_id]);
    const [base] = presentRows(lang, [row], steps, tasks, deps, new Map([[`${row.app_id}:${row.form_version}`, form]]));
    const pending = steps.find((s) => s.state === 'pending');
    let canDecide = row.status === APPROVAL_STATUS.pending && Boolean(pending);
    if (caller.kind === 'person') canDecide = canDecide && Boolean(pending && openTask(tasks, pending, caller.person.personId));
    const canWithdraw =
      caller.kind === 'admin'
        ? row.status === APPROVAL_STATUS.pending || row.status === APPROVAL_STATUS.approved
        : row.status === APPROVAL_STATUS.pending && row.person_id === caller.person.personId;
    const absences = (await approvalAbsencesOf(ex, companyId, id)).map((x) => ({ id: x.id, kind: x.kind, from: x.from_at, to: x.to_at }));
    return {
      ...base!,
      form_version: row.form_version,
      form,
      values: parseJson<FormValues>(row.form_values, {}),
      timeline: presentTimeline(lang, steps, tasks),
      absences,
      can_decide: canDecide,
      can_withdraw: canWithdraw,
      leave_balance: row.leave_type ? await leaveBalanceOfApplication(ex, companyId, lang, row) : null,
    };
  }

  /** A person's own open task on a step: pending, and (in order) their turn. */
  function openTask(
    tasks: { id: number; step_id: number; seq: number; state: string; person_id: number | null; approver_kind: string }[],
    step: StepRow,
    personId: number,
  ) {
    const mine = tasks.filter((x) => x.step_id === step.id && x.state === 'pending');
    const open = step.mode === 'sequential' ? mine.slice(0, 1) : mine;
    return open.find((x) => x.approver_kind === 'person' && x.person_id === personId);
  }

  async function departmentsOf(ex: Executor, companyId: number, personIds: number[]) {
    const names = new Map((await repo.departments(ex, companyId)).map((d) => [d.id, d.name]));
    const out = new Map<number, { id: number; name: string }[]>();
    for (const r of await repo.personDepartments(ex, companyId, personIds)) {
      const list = out.get(r.person_id) ?? out.set(r.person_id, []).get(r.person_id)!;
      if (names.has(r.department_id)) list.push({ id: r.department_id, name: names.get(r.department_id)! });
    }
    return out;
  }

  async function rowsOf(ex: Executor, lang: Language, companyId: number, rows: ListedApplication[]) {
    const ids = rows.map((r) => r.id);
    const [steps, tasks, deps] = await Promise.all([
      repo.steps(ex, companyId, ids),
      repo.tasks(ex, companyId, ids),
      departmentsOf(
        ex,
        companyId,
        rows.map((r) => r.person_id),
      ),
    ]);
    const forms = new Map<string, FormSchema>();
    for (const r of rows) {
      const key = `${r.app_id}:${r.form_version}`;
      if (!forms.has(key) && r.leave_type) forms.set(key, formOf((await repo.version(ex, 'workflow_forms', companyId, r.app_id, r.form_version))?.body));
    }
    return presentRows(lang, rows, steps, tasks, deps, forms);
  }

  async function filterOf(companyId: number, zone: string, q: Partial<ApplicationQuery>): Promise<ApplicationFilter> {
    const f: ApplicationFilter = { appId: q.app_id, status: q.status, keyword: q.keyword?.trim() || undefined };
    if (q.from) f.fromIso = new Date(zonedToUtcMs(q.from, zone)).toISOString();
    if (q.to) f.toIso = new Date(zonedToUtcMs(q.to, zone) + 86_400_000).toISOString();
    if (q.department_id) f.departmentIds = withDescendants(q.department_id, await parentsOf(db, companyId));
    return f;
  }

  /** The step a decision is about, with the application's row taken (decisions on one application take turns). */
  async function claimStep(ex: Executor, companyId: number, id: number, stepId: number) {
    const at = nowIso();
    if (!(await repo.claim(ex, companyId, id, APPROVAL_STATUS.pending, at))) {
      if (!(await repo.application(ex, companyId, id))) throw notFound();
      throw conflict('errors.wfDecided');
    }
    // a step decided (the final outcome, when there is one, follows as its own event)
    await publish(ex, companyId, 'approval', { id, status: APPROVAL_STATUS.pending }, ['workflow']);
    const step = await repo.step(ex, companyId, id, stepId);
    if (!step || step.kind !== 'approver') throw notFound();
    if (step.state !== 'pending') throw conflict('errors.wfDecided');
    return step;
  }

  async function context(ex: Executor, companyId: number, id: number) {
    const a = (await repo.application(ex, companyId, id))!;
    const app = (await repo.app(ex, companyId, a.app_id))!;
    const applicant = (await repo.person(ex, companyId, a.person_id))?.name ?? '';
    const zone = (await repo.companyZone(ex, companyId)).time_zone;
    return { a, app, applicant, zone };
  }

  /** The step's outcome once a task (or an administrator) decided: rejected ends it all; approved moves on. */
  async function settle(ex: Executor, lang: Language, companyId: number, id: number, step: StepRow, outcome: 'approved' | 'rejected' | null) {
    const at = nowIso();
    const { a, app, applicant, zone } = await context(ex, companyId, id);
    if (outcome === 'rejected') {
      await repo.closeTasks(ex, companyId, { stepId: step.id }, 'skipped', at);
      if (!(await repo.finish(ex, companyId, id, APPROVAL_STATUS.pending, APPROVAL_STATUS.rejected, at))) throw conflict('errors.wfDecided');
      await publish(ex, companyId, 'approval', { id, status: APPROVAL_STATUS.rejected }, ['workflow']);
      await tell(ex, companyId, a.person_id, 'wfRejected', a, app, applicant);
      await notify(ex, companyId, null, 'wfRejected', bellParams(a, app, applicant));
      return;
    }
    if (outcome === 'approved') {
      await repo.closeTasks(ex, companyId, { stepId: step.id }, 'skipped', at);
      await advance(ex, lang, companyId, zone, a, app, applicant);
      // The applicant hears of every step: a step approved with more to come (the final outcome has its own message).
      if ((await repo.application(ex, companyId, id))?.status === APPROVAL_STATUS.pending) await tell(ex, companyId, a.person_id, 'wfStep', a, app, applicant);
      return;
    }
    // Still waiting on this step (all must approve, or in order): tell whoever's turn it now is.
    if (step.mode === 'sequential') {
      const next = (await repo.stepTasks(ex, companyId, step.id)).find((x) => x.state === 'pending');
      if (next?.person_id) await tell(ex, companyId, next.person_id, 'wfTask', a, app, applicant);
      else if (next) await notify(ex, companyId, null, 'wfPending', bellParams(a, app, applicant));
    }
  }

  return {
    detail: (caller: Caller, id: number) => detail(db, caller, id),

    /** Applies with an app for a person: by themselves (who may apply) or by an administrator on their behalf. */
    async apply(caller: Caller, appId: number, personId: number, input: FormValues): Promise<ApplicationDetail> {
      const companyId = companyOf(caller);
      const lang = caller.lang;
      const id = await transaction(db, async (trx) => {
        const app = await repo.app(trx, companyId, appId);
        if (!app) throw notFound();
        const person = await repo.person(trx, companyId, personId);
        if (!person) throw notFound();
        if (person.work_status !== 1) throw invalid('person_id', 'reasons.wfPersonLeft');
        const parents = await parentsOf(trx, companyId);
        const mine = (await repo.personDepartments(trx, companyId, [personId])).map((d) => d.department_id);
        const departments = withAncestors(mine, parents);
        if (caller.kind === 'person') {
          if (!app.enabled) throw notFound();
          const allowed =
            app.scope === 'everyone' ||
            (app.scope === 'departments' && parseJson<number[]>(app.department_ids, []).some((d) => departments.has(d))) ||
            (app.scope === 'people' && parseJson<number[]>(app.person_ids, []).includes(personId));
          if (!allowed) throw notFound();
        } else if (!app.enabled) throw badInput('errors.wfAppDisabled', 'app_id');
        const formRow = await repo.version(trx, 'workflow_forms', companyId, appId, app.form_version);
        const procRow = await repo.version(trx, 'workflow_processes', companyId, appId, app.process_version);
        const form = formOf(formRow?.body);
        const checked = checkValues(form, input, lang);
        if ((await repo.persons(trx, companyId, checked.personIds)).length !== new Set(checked.personIds).size)
          throw invalid('values', 'reasons.wfUnknownPerson');
        if (checked.departmentIds.some((d) => !parents.has(d))) throw invalid('values', 'reasons.wfUnknownDepartment');
        if ((await files.missing(companyId, checked.files)).length) throw invalid('values', 'reasons.wfUnknownFile');
        const values = checked.values;
        // What attendance reads: the period (or the punch time) and the leave type; the period's duration in working time.
        const durations = new Map<string, { days: number; hours: number }>();
        for (const f of form.fields) {
          const v = values[f.key];
          if (f.type === 'daterange' && isRange(v)) durations.set(f.key, await workingDuration(trx, companyId, personId, Date.parse(v.from), Date.parse(v.to)));
        }
        const period = values.period;
        const punch = values.punch_time;
        const periodFrom = isRange(period) ? period.from : typeof punch === 'string' && app.kind === 'supplement' ? punch : null;
        const periodTo = isRange(period) ? period.to : periodFrom;
        const duration = durations.get('period') ?? null;
        const plan = planRoute(parseJson<ProcessTree>(procRow?.body, { nodes: [] }), {
          form,
          values,
          departments,
          measure: (key) => {
            const d = durations.get(key);
            if (!d) return null;
            return form.fields.find((f) => f.key === key)?.unit === 'hour' ? d.hours : d.days;
          },
        });
        const at = nowIso();
        const zone = (await repo.companyZone(trx, companyId)).time_zone;
        const newId = await repo.insertApplication(trx, {
          company_id: companyId,
          app_id: appId,
          order_no: `tmp-${Math.random().toString(36).slice(2)}`,
          person_id: personId,
          form_version: app.form_version,
          process_version: app.process_version,
          form_values: JSON.stringify(values),
          status: APPROVAL_STATUS.pending,
          source: caller.kind === 'admin' ? 'admin' : 'self',
          plan: JSON.stringify(plan),
          plan_index: 0,
          leave_type: app.kind === 'leave' && typeof values.leave_type === 'string' ? values.leave_type : null,
          period_from: periodFrom,
          period_to: periodTo,
          duration_days: duration?.days ?? null,
          duration_hours: duration?.hours ?? null,
          created_by: caller.kind === 'admin' ? caller.tenant.adminId : null,
          created_at: at,
          updated_at: at,
        });
        const orderNo = await repo.newOrderNo(trx, companyId, newId, localDate(Date.parse(at), zone));
        await repo.insertStep(trx, {
          company_id: companyId,
          application_id: newId,
          seq: 0,
          node_id: null,
          node_name: '',
          kind: 'submit',
          state: 'submitted',
          actor_kind: caller.kind,
          actor_id: caller.kind === 'admin' ? caller.tenant.adminId : caller.person.personId,
          actor_name: caller.kind === 'admin' ? caller.tenant.adminName : caller.person.name,
          created_at: at,
          decided_at: at,
        });
        const a = (await repo.application(trx, companyId, newId))!;
        if (app.kind === 'leave') await leaveOnApply(trx, lang, companyId, a);
        await publish(trx, companyId, 'approval', { id: newId, status: APPROVAL_STATUS.pending }, ['workflow']);
        await notify(trx, companyId, null, 'wfSubmitted', bellParams(a, app, person.name));
        if (caller.kind === 'admin')
          await audit(trx, caller.tenant, 'workflow', 'workflow.apply', { id: newId, order: orderNo, name: person.name, app: appName(lang, app) });
        await advance(trx, lang, companyId, zone, a, app, person.name);
        return newId;
      });
      return detail(db, caller, id);
    },

    /**
     * A decision on the step the caller saw. It cannot be changed afterwards, and when two decide the same step at
     * once exactly one wins: the application's row is taken first (a conditional UPDATE on the pending status,
     * which PostgreSQL holds for the transaction), then the task or step moves only from pending.
     */
    async decide(caller: Caller, body: DecideBody): Promise<ApplicationDetail> {
      const companyId = companyOf(caller);
      const comment = body.comment.trim();
      if (body.decision === 'reject' && !comment) throw invalid('comment', 'reasons.wfReasonRequired');
      const state = body.decision === 'approve' ? 'approved' : 'rejected';
      await transaction(db, async (trx) => {
        const step = await claimStep(trx, companyId, body.id, body.step_id);
        const at = nowIso();
        if (caller.kind === 'admin') {
          // The administrators' own task takes the decision, with who made it; over people's step, an administrator
          // decides for the step as a whole (their pending tasks are closed).
          const forAdmins = (await repo.stepTasks(trx, companyId, step.id)).find((x) => x.approver_kind === 'admins' && x.state === 'pending');
          const by = { actor_kind: 'admin', actor_id: caller.tenant.adminId, actor_name: caller.tenant.adminName, comment };
          if (forAdmins) {
            const mine = { state, comment, decided_by_admin: caller.tenant.adminId, name: caller.tenant.adminName, decided_at: at };
            if (!(await repo.decideTask(trx, companyId, forAdmins.id, mine))) throw conflict('errors.wfDecided');
          }
          if (!(await repo.decideStep(trx, companyId, step.id, { state, decided_at: at, ...(forAdmins ? {} : by) }))) throw conflict('errors.wfDecided');
          const a = (await repo.application(trx, companyId, body.id))!;
          if (state === 'approved') await audit(trx, caller.tenant, 'workflow', 'workflow.approve', { id: a.id, order: a.order_no });
          else await audit(trx, caller.tenant, 'workflow', 'workflow.reject', { id: a.id, order: a.order_no, reason: comment });
          await settle(trx, caller.lang, companyId, body.id, step, state);
          return;
        }
        const tasks = await repo.stepTasks(trx, companyId, step.id);
        const task = openTask(tasks, step, caller.person.personId);
        if (!task) {
          if (tasks.some((x) => x.person_id === caller.person.personId && x.state !== 'pending')) throw conflict('errors.wfDecided');
          throw noAuthority('errors.wfNotYourTask');
        }
        if (!(await repo.decideTask(trx, companyId, task.id, { state, comment, decided_at: at }))) throw conflict('errors.wfDecided');
        const left = tasks.filter((x) => x.id !== task.id && x.state === 'pending').length;
        const outcome = state === 'rejected' ? 'rejected' : step.mode === 'any' || left === 0 ? 'approved' : null;
        if (outcome && !(await repo.decideStep(trx, companyId, step.id, { state: outcome, decided_at: at }))) throw conflict('errors.wfDecided');
        await settle(trx, caller.lang, companyId, body.id, step, outcome);
      });
      return detail(db, caller, body.id);
    },

    /**
     * The applicant withdraws while pending; an administrator withdraws a pending one or cancels an approved one,
     * and what approval wrote into attendance is taken back out in the same transaction.
     */
    async withdraw(caller: Caller, id: number, reason: string): Promise<ApplicationDetail> {
      const companyId = companyOf(caller);
      await transaction(db, async (trx) => {
        const a = await repo.application(trx, companyId, id);
        if (!a) throw notFound();
        if (caller.kind === 'person' && a.person_id !== caller.person.personId) throw notFound();
        const allowed = caller.kind === 'admin' ? [APPROVAL_STATUS.pending, APPROVAL_STATUS.approved] : [APPROVAL_STATUS.pending];
        if (!(allowed as number[]).includes(a.status)) throw conflict('errors.wfFinished');
        const at = nowIso();
        if (!(await repo.finish(trx, companyId, id, a.status, APPROVAL_STATUS.withdrawn, at))) throw conflict('errors.wfFinished');
        await publish(trx, companyId, 'approval', { id, status: APPROVAL_STATUS.withdrawn }, ['workflow']);
        await repo.closeTasks(trx, companyId, { applicationId: id }, 'skipped', at);
        await repo.closeSteps(trx, companyId, id, 'skipped', at);
        const { app, applicant, zone } = await context(trx, companyId, id);
        const cancelled = a.status === APPROVAL_STATUS.approved;
        if (cancelled) await removeApprovalAbsences(trx, companyId, zone, id);
        if (cancelled) await leaveOnWithdrawn(trx, companyId, id);
        await repo.insertStep(trx, {
          company_id: companyId,
          application_id: id,
          seq: await repo.nextSeq(trx, id),
          node_id: null,
          node_name: '',
          kind: 'end',
          state: cancelled ? 'cancelled' : 'withdrawn',
          actor_kind: caller.kind,
          actor_id: caller.kind === 'admin' ? caller.tenant.adminId : caller.person.personId,
          actor_name: caller.kind === 'admin' ? caller.tenant.adminName : caller.person.name,
          comment: reason.trim(),
          created_at: at,
          decided_at: at,
        });
        if (caller.kind === 'admin') {
          if (cancelled) await audit(trx, caller.tenant, 'workflow', 'workflow.cancel', { id, order: a.order_no, reason: reason.trim() });
          else await audit(trx, caller.tenant, 'workflow', 'workflow.withdraw', { id, order: a.order_no, reason: reason.trim() });
          await tell(trx, companyId, a.person_id, 'wfCancelled', a, app, applicant);
        } else await notify(trx, companyId, null, 'wfWithdrawn', bellParams(a, app, applicant));
      });
      return detail(db, caller, id);
    },

    async list(caller: Caller, zone: string, q: ApplicationQuery, offset: number, limit: number, personId?: number) {
      const companyId = companyOf(caller);
      const f = await filterOf(companyId, zone, q);
      if (personId) f.personId = personId;
      const r = await repo.page(db, companyId, f, offset, limit);
      return { items: await rowsOf(db, caller.lang, companyId, r.items), total: r.total };
    },
    /** Batches of presented rows for the export. */
    async rows(caller: Caller, zone: string, q: Partial<ApplicationQuery>, offset: number, limit: number) {
      const companyId = companyOf(caller);
      const f = await filterOf(companyId, zone, q);
      const r = await repo.page(db, companyId, f, offset, limit);
      const rows = r.items as ListedApplication[];
      const presented = await rowsOf(db, caller.lang, companyId, rows);
      return presented.map((p, i) => ({ row: p, values: parseJson<FormValues>(rows[i]!.form_values, {}) }));
    },

    /** The person's tasks: open (pending and their turn) or decided. */
    async tasks(person: PersonContext, lang: Language, done: boolean, offset: number, limit: number) {
      const companyId = person.companyId;
      const { rows } = await repo.personTaskPage(db, companyId, person.personId, done, offset, limit);
      let mine = rows;
      if (!done) {
        const first = new Map((await repo.stepPendingSeqs(db, companyId, [...new Set(rows.map((r) => r.step_id))])).map((x) => [x.step_id, Number(x.first)]));
        mine = rows.filter((r) => r.mode !== 'sequential' || first.get(r.step_id) === r.seq);
      }
      const total = mine.length;
      const page = mine.slice(offset, offset + limit);
      const apps = (await repo.byIds(db, companyId, [...new Set(page.map((r) => r.application_id))])) as ListedApplication[];
      const presented = new Map((await rowsOf(db, lang, companyId, apps)).map((r) => [r.id, r]));
      const items = page
        .filter((r) => presented.has(r.application_id))
        .map((r) => ({
          ...presented.get(r.application_id)!,
          task: { step_id: r.step_id, state: r.state as 'pending', open: !done, decided_at: r.decided_at },
        }));
      return { items, total };
    },
    /** Open tasks of a person (the self-service badge). */
    async openTaskCount(person: PersonContext, lang: Language) {
      return (await this.tasks(person, lang, false, 0, 1)).total;
    },

    /** The apps a person may apply with (enabled, and they are among who may apply), with the form to fill. */
    async appsFor(person: PersonContext, lang: Language): Promise<SelfApp[]> {
      const companyId = person.companyId;
      if ((await repo.builtinKinds(db, companyId)).length < BUILTIN_KINDS.length) {
        await transaction(db, (trx) => ensureBuiltins(trx, companyId)).catch(() => undefined);
      }
      const departments = withAncestors(
        (await repo.personDepartments(db, companyId, [person.personId])).map((d) => d.department_id),
        await parentsOf(db, companyId),
      );
      const out: SelfApp[] = [];
      for (const app of await repo.apps(db, companyId)) {
        if (!app.enabled) continue;
        const allowed =
          app.scope === 'everyone' ||
          (app.scope === 'departments' && parseJson<number[]>(app.department_ids, []).some((d) => departments.has(d))) ||
          (app.scope === 'people' && parseJson<number[]>(app.person_ids, []).includes(person.personId));
        if (!allowed) continue;
        const form = formOf((await repo.version(db, 'workflow_forms', companyId, app.id, app.form_version))?.body);
        out.push({
          id: app.id,
          name: appName(lang, app),
          icon: app.icon,
          kind: app.kind as SelfApp['kind'],
          description: app.description,
          form_version: app.form_version,
          form,
        });
      }
      return out;
    },

    /** People to pick (designers, person fields), with their departments. */
    async pick(companyId: number, q: { keyword?: string | undefined; department_id?: number | undefined }, offset: number, limit: number, phones: boolean) {
      const parents = await parentsOf(db, companyId);
      const f = { keyword: q.keyword?.trim() || undefined, departmentIds: q.department_id ? withDescendants(q.department_id, parents) : undefined, phones };
      const r = await repo.pick(db, companyId, f, offset, limit);
      const deps = await departmentsOf(
        db,
        companyId,
        r.items.map((p) => p.id),
      );
      return { items: r.items.map((p) => ({ ...p, departments: deps.get(p.id) ?? [] })), total: r.total };
    },
    /** Every department, flat. */
    async departments(companyId: number) {
      const items = (await repo.departments(db, companyId)).map((d) => ({ id: d.id, name: d.name, parent_id: d.parent_id }));
      return { items: items.sort((a, b) => a.id - b.id) };
    },

    /** The period's duration in the person's working time. */
    duration: (companyId: number, personId: number | null, from: string, to: string) =>
      workingDuration(db, companyId, personId, Date.parse(from), Date.parse(to)),
  };
}
export type ApplicationsService = ReturnType<typeof applicationsService>;
