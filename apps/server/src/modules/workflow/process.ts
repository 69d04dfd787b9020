import {
  ApproverNode,
  CcNode,
  CODES,
  ConditionNode,
  WORKFLOW_FILE_PATTERN,
  WORKFLOW_LIMITS,
  type ApproverChoice,
  type Condition,
  type FieldValue,
  type FormField,
  type FormSchema,
  type FormValues,
  type Language,
  type LocalText,
  ProcessBranch,
  type ProcessNode,
  type ProcessTree,
  type RangeValue,
} from '@faceadmin/shared';
import { Value } from 'typebox/value';
import { AppError, invalid } from '../../lib/errors.ts';
import { isCalendarDate, isInstant } from '../../lib/time.ts';

/**
 * The pure part of approvals (issue #11): checking a form and a process before they are saved, checking an
 * application's values against its form, and choosing the route an application takes through the process tree.
 */

/** A field's label in the reader's language, else the first one set, else its key. */
export function labelOf(text: LocalText | undefined, lang: Language, fallback: string): string {
  const own = text?.[lang]?.trim();
  if (own) return own;
  for (const v of Object.values(text ?? {})) if (typeof v === 'string' && v.trim()) return v.trim();
  return fallback;
}
const hasLabel = (text: LocalText | undefined) => Object.values(text ?? {}).some((v) => typeof v === 'string' && v.trim() !== '');

const CHOICE_TYPES = new Set(['select', 'multiselect']);
const MEASURED_TYPES = new Set(['number', 'money', 'daterange']);

/**
 * A form field as an error names it: its label in the reader's language and its key ("Days (days)"), or the key
 * alone when it has no label; `data.key` tells the designer which field to mark.
 */
export function fieldTitle(f: { key: string; label?: LocalText | undefined }, lang: Language): string {
  const label = labelOf(f.label, lang, '');
  return label && label !== f.key ? `“${label}” (${f.key})` : `“${f.key}”`;
}
const formError = (f: { key: string; label?: LocalText | undefined }, lang: Language, reason: string, params: Record<string, string | number> = {}) =>
  new AppError(CODES.RULE, 422, 'errors.validation', { ...params, key: fieldTitle(f, lang), field: 'schema', reason }, { field: 'schema', key: f.key });

/**
 * Checks a form before saving (unique keys, a label on every field, options for selects, the engine's fields of a
 * built-in app kept with their key and type), and returns it with `locked` set by the server. Errors name the field
 * (label and key) and carry its key for the designer.
 */
export function checkForm(schema: FormSchema, engine: readonly Pick<FormField, 'key' | 'type'>[], lang: Language = 'en-US'): FormSchema {
  if (!schema.fields.length) throw invalid('schema', 'reasons.wfNoFields');
  const keys = new Set<string>();
  for (const f of schema.fields) {
    if (keys.has(f.key)) throw formError(f, lang, 'reasons.wfDuplicateKey');
    keys.add(f.key);
    if (!hasLabel(f.label)) throw formError(f, lang, 'reasons.wfNoLabel');
    if (CHOICE_TYPES.has(f.type)) {
      if (!f.options?.length) throw formError(f, lang, 'reasons.wfNoOptions');
      const values = new Set<string>();
      for (const o of f.options) {
        if (values.has(o.value)) throw formError(f, lang, 'reasons.wfDuplicateOption', { value: o.value });
        if (!hasLabel(o.label)) throw formError(f, lang, 'reasons.wfNoOptionLabel', { value: o.value });
        values.add(o.value);
      }
    }
  }
  for (const e of engine) {
    const f = schema.fields.find((x) => x.key === e.key);
    if (!f || f.type !== e.type) throw formError(f ?? e, lang, 'reasons.wfLockedField');
  }
  const locked = new Set(engine.map((e) => e.key));
  return {
    fields: schema.fields.map((f) => {
      const out: FormField = { ...f };
      delete out.locked;
      if (!CHOICE_TYPES.has(f.type)) delete out.options;
      if (f.type !== 'daterange') delete out.unit;
      else out.unit = f.unit ?? 'day';
      if (f.type !== 'description') delete out.text;
      if (f.type === 'description') out.required = false;
      if (locked.has(f.key)) {
        out.locked = true;
        out.required = true;
      }
      return out;
    }),
  };
}

/** What a saved process names, for the service to check against the company (people, departments). */
interface ProcessRefs {
  personIds: number[];
  departmentIds: number[];
}

const nodeName = (n: { id: string; name?: string | undefined }) => n.name?.trim() || n.id;
/** A node or branch as an error names it (its title, else its id); `data.node` tells the designer which to mark. */
type At = { id: string; name?: string | undefined };
const procError = (at: At, reason: string, params: Record<string, string | number> = {}) =>
  new AppError(CODES.RULE, 422, 'errors.validation', { ...params, node: `“${nodeName(at)}”`, field: 'process', reason }, { field: 'process', node: at.id });

/**
 * Checks a process before saving: every nested node well-formed (the request schema checks one level of the
 * tree), node ids unique, every condition node with two or more branches, exactly one default branch and
 * distinct priorities, no branch without a condition but the default, conditions that fit the form, approvers
 * on every approver and cc node, and at least one approver on every path from start to end. Errors name the node
 * or branch (its title) and carry its id.
 */
export function checkProcess(tree: ProcessTree, form: FormSchema, lang: Language = 'en-US'): ProcessRefs & { tree: ProcessTree } {
  const ids = new Set<string>();
  const refs = { personIds: [] as number[], departmentIds: [] as number[] };
  const fields = new Map(form.fields.map((f) => [f.key, f]));

  const choice = (c: ApproverChoice, at: At) => {
    if (c.kind === 'people') {
      if (!c.person_ids?.length) throw procError(at, 'reasons.wfNoPeople');
      refs.personIds.push(...c.person_ids);
    }
  };
  const condition = (c: Condition, at: At) => {
    if (c.kind === 'department') {
      if (!c.department_ids?.length) throw procError(at, 'reasons.wfEmptyCondition');
      refs.departmentIds.push(...c.department_ids);
      return;
    }
    const f = c.field ? fields.get(c.field) : undefined;
    if (!f || !c.op || c.value === undefined) throw procError(at, 'reasons.wfBadCondition', { key: `“${c.field ?? ''}”` });
    const bad = () => procError(at, 'reasons.wfBadCondition', { key: fieldTitle(f, lang) });
    if (MEASURED_TYPES.has(f.type)) {
      if (typeof c.value !== 'number' || c.op === 'in') throw bad();
    } else if (CHOICE_TYPES.has(f.type)) {
      const options = new Set((f.options ?? []).map((o) => o.value));
      const values = Array.isArray(c.value) ? c.value : [c.value];
      if (!['eq', 'ne', 'in'].includes(c.op) || !values.length || values.some((v) => typeof v !== 'string' || !options.has(v))) throw bad();
      if (c.op !== 'in' && Array.isArray(c.value)) throw bad();
    } else throw bad();
  };

  /**
   * Walks a chain: whether every path through it meets an approver (else `gap`, the first branch whose path has
   * none), and the chain as stored (each node with only the keys its schema names: the request schema closes the
   * first level, this closes the nested ones).
   */
  const chain = (nodes: unknown[], depth: number, parent?: At): { approved: boolean; nodes: ProcessNode[]; gap?: At | undefined } => {
    if (depth > WORKFLOW_LIMITS.depthMax) {
      if (parent) throw procError(parent, 'reasons.wfTooDeep', { limit: WORKFLOW_LIMITS.depthMax });
      throw invalid('process', 'reasons.wfTooDeep', { limit: WORKFLOW_LIMITS.depthMax });
    }
    let approved = false;
    let gap: At | undefined;
    const out: ProcessNode[] = [];
    for (const raw of nodes) {
      const r = raw as { id?: unknown; name?: unknown };
      const at: At = { id: typeof r?.id === 'string' ? r.id : '?', name: typeof r?.name === 'string' ? r.name : undefined };
      const n = raw as ProcessNode;
      const valid = Value.Check(ApproverNode, raw) || Value.Check(CcNode, raw) || Value.Check(ConditionNode, raw);
      if (!valid) throw procError(at, 'reasons.wfBadNode');
      if (ids.has(n.id)) throw procError(n, 'reasons.wfDuplicateNode', { id: n.id });
      ids.add(n.id);
      if (ids.size > WORKFLOW_LIMITS.nodesMax) throw invalid('process', 'reasons.wfTooMany', { limit: WORKFLOW_LIMITS.nodesMax });
      if (n.type === 'approver') {
        choice(n.approver, n);
        approved = true;
        out.push(Value.Clean(ApproverNode, structuredClone(n)) as ProcessNode);
      } else if (n.type === 'cc') {
        choice(n.approver, n);
        out.push(Value.Clean(CcNode, structuredClone(n)) as ProcessNode);
      } else {
        const branches = n.branches;
        if (branches.length < 2) throw procError(n, 'reasons.wfFewBranches');
        if (branches.filter((b) => b.default).length !== 1) throw procError(n, 'reasons.wfNoDefault');
        if (new Set(branches.map((b) => b.priority)).size !== branches.length) throw procError(n, 'reasons.wfPriority');
        let all = true;
        const kept: ProcessBranch[] = [];
        for (const b of branches) {
          if (ids.has(b.id)) throw procError(b, 'reasons.wfDuplicateNode', { id: b.id });
          ids.add(b.id);
          if (!b.default && !b.conditions.length) throw procError(b, 'reasons.wfEmptyCondition');
          for (const c of b.conditions) condition(c, b);
          if (!Array.isArray(b.nodes)) throw procError(b, 'reasons.wfBadNode');
          const inner = chain(b.nodes, depth + 1, b);
          if (!inner.approved) {
            all = false;
            gap ??= inner.gap ?? b;
          }
          const { nodes: _nodes, ...rest } = b;
          void _nodes;
          kept.push({ ...(Value.Clean(ProcessBranch, structuredClone({ ...rest, nodes: [] })) as ProcessBranch), nodes: inner.nodes });
        }
        if (all) approved = true;
        out.push({ id: n.id, type: 'condition', ...(n.name !== undefined ? { name: n.name } : {}), branches: kept });
      }
    }
    return { approved, nodes: out, gap: approved ? undefined : gap };
  };
  const walked = chain(tree.nodes, 1);
  if (!walked.approved) {
    // Name the path that has none: the first branch without an approver, before or after it; else the whole chain.
    if (walked.gap) throw procError(walked.gap, 'reasons.wfNoApproverPath');
    throw invalid('process', 'reasons.wfNoApproverAtAll');
  }
  return { personIds: [...new Set(refs.personIds)], departmentIds: [...new Set(refs.departmentIds)], tree: { nodes: walked.nodes } };
}

/** An approver or cc node on an application's route. */
export type PlanNode =
  | { id: string; type: 'approver'; name: string; approver: ApproverChoice; mode: ApproverNode['mode']; empty: ApproverNode['empty'] }
  | { id: string; type: 'cc'; name: string; approver: ApproverChoice };

/** What a route is chosen on: the values, the form, the durations of its ranges, the applicant's departments (and those above). */
export interface RouteFacts {
  form: FormSchema;
  values: FormValues;
  /** a date range field's duration in its unit */
  measure(key: string): number | null;
  departments: Set<number>;
}

function holds(c: Condition, f: RouteFacts): boolean {
  if (c.kind === 'department') return (c.department_ids ?? []).some((id) => f.departments.has(id));
  const field = f.form.fields.find((x) => x.key === c.field);
  if (!field || c.value === undefined) return false;
  const v = f.values[field.key];
  if (MEASURED_TYPES.has(field.type)) {
    const x = field.type === 'daterange' ? f.measure(field.key) : typeof v === 'number' ? v : null;
    if (x === null || typeof c.value !== 'number') return false;
    switch (c.op) {
      case 'gt':
        return x > c.value;
      case 'gte':
        return x >= c.value;
      case 'lt':
        return x < c.value;
      case 'lte':
        return x <= c.value;
      case 'eq':
        return x === c.value;
      case 'ne':
        return x !== c.value;
      default:
        return false;
    }
  }
  const have = Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : [];
  const want = (Array.isArray(c.value) ? c.value : [c.value]).map(String);
  if (c.op === 'in') return have.some((x) => want.includes(x));
  if (c.op === 'eq') return have.length > 0 && want.every((x) => have.includes(x));
  if (c.op === 'ne') return !want.some((x) => have.includes(x));
  return false;
}

/** The route an application takes: condition nodes resolved (branches by priority, else the default), in order. */
export function planRoute(tree: ProcessTree, facts: RouteFacts): PlanNode[] {
  const out: PlanNode[] = [];
  const walk = (nodes: ProcessNode[]) => {
    for (const n of nodes) {
      if (n.type === 'approver') out.push({ id: n.id, type: 'approver', name: nodeName(n), approver: n.approver, mode: n.mode, empty: n.empty });
      else if (n.type === 'cc') out.push({ id: n.id, type: 'cc', name: nodeName(n), approver: n.approver });
      else {
        const ordered = [...n.branches].filter((b) => !b.default).sort((a, b) => a.priority - b.priority);
        const chosen = ordered.find((b) => b.conditions.every((c) => holds(c, facts))) ?? n.branches.find((b) => b.default);
        if (chosen) walk(chosen.nodes);
      }
    }
  };
  walk(tree.nodes);
  return out;
}

/** A value refused: the field's label in the reader's language, the key for the form to mark. */
const refuse = (field: FormField, lang: Language, reason: string, params: Record<string, string | number> = {}) =>
  new AppError(CODES.RULE, 422, 'errors.validation', { ...params, field: labelOf(field.label, lang, field.key), reason }, { field: field.key });

const isRange = (v: FieldValue): v is RangeValue => typeof v === 'object' && v !== null && !Array.isArray(v) && 'from' in v;

/** A range may cover at most this many days. */
export const RANGE_MAX_DAYS = 62;

/**
 * Checks an application's values against its form: no unknown keys, required fields filled, each value of its
 * field's type (an option of the field, a range that ends after it starts). People and departments named are
 * returned for the service to check against the company.
 */
export function checkValues(
  form: FormSchema,
  values: FormValues,
  lang: Language,
): { values: FormValues; personIds: number[]; departmentIds: number[]; files: string[] } {
  const byKey = new Map(form.fields.map((f) => [f.key, f]));
  for (const key of Object.keys(values)) if (!byKey.has(key)) throw invalid(key, 'reasons.wfUnknownField');
  const out: FormValues = {};
  const personIds: number[] = [];
  const departmentIds: number[] = [];
  const files: string[] = [];
  const fileName = new RegExp(WORKFLOW_FILE_PATTERN);
  for (const f of form.fields) {
    if (f.type === 'description') continue;
    const v = values[f.key];
    const empty = v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
    if (empty) {
      if (f.required) throw refuse(f, lang, 'reasons.required');
      continue;
    }
    const bad = () => refuse(f, lang, 'reasons.invalid');
    switch (f.type) {
      case 'text':
        if (typeof v !== 'string' || /[\r\n\t]/.test(v) || v.length > 200) throw bad();
        out[f.key] = v.trim();
        break;
      case 'textarea':
        if (typeof v !== 'string') throw bad();
        out[f.key] = v.trim();
        break;
      case 'number':
      case 'money':
        if (typeof v !== 'number' || !Number.isFinite(v)) throw bad();
        out[f.key] = f.type === 'money' ? Math.round(v * 100) / 100 : v;
        break;
      case 'select':
        if (typeof v !== 'string' || !(f.options ?? []).some((o) => o.value === v)) throw bad();
        out[f.key] = v;
        break;
      case 'multiselect':
        if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || !(f.options ?? []).some((o) => o.value === x))) throw bad();
        out[f.key] = [...new Set(v as string[])];
        break;
      // Real calendar days and times only (2026-02-31 and 24:00 are refused, never rolled over into March).
      case 'date':
        if (typeof v !== 'string' || !isCalendarDate(v)) throw refuse(f, lang, 'reasons.calendarDate');
        out[f.key] = v;
        break;
      case 'datetime':
        if (typeof v !== 'string' || !isInstant(v)) throw refuse(f, lang, 'reasons.calendarDate');
        out[f.key] = new Date(Date.parse(v)).toISOString();
        break;
      case 'daterange': {
        if (!isRange(v)) throw bad();
        if (typeof v.from !== 'string' || typeof v.to !== 'string' || !isInstant(v.from) || !isInstant(v.to)) throw refuse(f, lang, 'reasons.calendarDate');
        const from = Date.parse(v.from);
        const to = Date.parse(v.to);
        if (!(to > from)) throw refuse(f, lang, 'reasons.dateOrder');
        if (to - from > RANGE_MAX_DAYS * 86_400_000) throw refuse(f, lang, 'reasons.rangeTooLong', { limit: RANGE_MAX_DAYS });
        out[f.key] = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
        break;
      }
      case 'picture':
      case 'attachment':
        if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || !fileName.test(x))) throw bad();
        out[f.key] = [...new Set(v as string[])];
        files.push(...(out[f.key] as string[]));
        break;
      case 'person':
      case 'department': {
        if (!Array.isArray(v) || v.some((x) => typeof x !== 'number' || !Number.isInteger(x) || x < 1)) throw bad();
        const ids = [...new Set(v as number[])];
        (f.type === 'person' ? personIds : departmentIds).push(...ids);
        out[f.key] = ids;
        break;
      }
    }
  }
  return { values: out, personIds, departmentIds, files };
}
