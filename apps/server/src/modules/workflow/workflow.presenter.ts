import type { Actor, ApplicationRow, FormSchema, Language, RangeValue, StepState, TimelineEntry, WorkflowKind } from '@faceadmin/shared';
import { t } from '../../i18n/i18n.ts';
import { parseJson } from '../../lib/json.ts';
import { labelOf } from './process.ts';
import type { ApplicationRowDb, StepRow, TaskRowDb } from './workflow.repository.ts';

/** A built-in app keeps an empty name until renamed: it reads in the reader's language. */
export const appName = (lang: Language, row: { name: string; kind: string }) => row.name || t(lang, `workflow.kinds.${row.kind}`);

export type ListedApplication = ApplicationRowDb & { person_name: string; person_number: string; app_name: string; app_kind: string };

/** A task's approver: a person, the administrators, or the administrator who decided for them. */
const taskActor = (lang: Language, task: TaskRowDb): Actor => {
  if (task.approver_kind !== 'admins') return { kind: 'person', id: task.person_id, name: task.name };
  if (task.decided_by_admin) return { kind: 'admin', id: task.decided_by_admin, name: task.name };
  return { kind: 'admins', id: null, name: t(lang, 'workflow.admins') };
};

/** The leave type's label in the reader's language (from the form the application was filled with). */
export function leaveTypeLabel(lang: Language, form: FormSchema | undefined, value: string | null): string | null {
  if (!value) return null;
  const field = form?.fields.find((f) => f.key === 'leave_type');
  const option = field?.options?.find((o) => o.value === value);
  return option ? labelOf(option.label, lang, value) : value;
}

/** Rows of the records list: applicant, app, status, the leave form's type and period, the step waiting. */
export function presentRows(
  lang: Language,
  rows: ListedApplication[],
  steps: StepRow[],
  tasks: TaskRowDb[],
  departments: Map<number, { id: number; name: string }[]>,
  forms: Map<string, FormSchema>,
): ApplicationRow[] {
  // Indexed once: an export presents a thousand rows a batch.
  const pendingOf = new Map(steps.filter((s) => s.state === 'pending').map((s) => [s.application_id, s]));
  const waiting = new Map<number, TaskRowDb[]>();
  for (const x of tasks) if (x.state === 'pending') (waiting.get(x.step_id) ?? waiting.set(x.step_id, []).get(x.step_id)!).push(x);
  return rows.map((r) => {
    const pending = pendingOf.get(r.id);
    const approvers = pending ? (waiting.get(pending.id) ?? []).map((x) => taskActor(lang, x)) : [];
    const period: RangeValue | null = r.period_from && r.period_to ? { from: r.period_from, to: r.period_to } : null;
    return {
      id: r.id,
      order_no: r.order_no,
      created_at: r.created_at,
      app: { id: r.app_id, name: appName(lang, { name: r.app_name, kind: r.app_kind }) },
      kind: r.app_kind as WorkflowKind,
      applicant: { id: r.person_id, name: r.person_name, number: r.person_number },
      departments: departments.get(r.person_id) ?? [],
      status: r.status,
      leave_type: leaveTypeLabel(lang, forms.get(`${r.app_id}:${r.form_version}`), r.leave_type),
      period,
      duration: r.duration_days === null ? null : { days: Number(r.duration_days), hours: Number(r.duration_hours ?? 0) },
      current: pending && r.status === 0 ? { step_id: pending.id, node_name: stepName(lang, pending), approvers } : null,
      finished_at: r.finished_at,
      source: r.source as ApplicationRow['source'],
    };
  });
}

const stepName = (lang: Language, s: StepRow) => s.node_name || t(lang, `workflow.steps.${s.kind}`);

/** The timeline: each step with each approver's own decision. */
export function presentTimeline(lang: Language, steps: StepRow[], tasks: TaskRowDb[]): TimelineEntry[] {
  return steps.map((s) => {
    const mine = tasks.filter((x) => x.step_id === s.id);
    const actors = mine.map((x) => ({
      ...taskActor(lang, x),
      state: x.state as StepState,
      comment: x.comment,
      decided_at: x.decided_at,
    }));
    // Who acted on the step as a whole: the applicant (submitted, withdrew), an administrator (decided over it).
    if (s.actor_kind) {
      actors.push({
        kind: s.actor_kind as Actor['kind'],
        id: s.actor_id,
        name: s.actor_name,
        state: s.state as StepState,
        comment: s.comment,
        decided_at: s.decided_at,
      });
    }
    return {
      step_id: s.id,
      node_id: s.node_id,
      node_name: stepName(lang, s),
      state: s.state as StepState,
      mode: (s.mode as TimelineEntry['mode']) ?? null,
      actors,
      comment: s.comment,
      at: s.decided_at ?? s.created_at,
    };
  });
}

export const formOf = (body: string | undefined) => parseJson<FormSchema>(body, { fields: [] });
