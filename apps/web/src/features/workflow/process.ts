import {
  WORKFLOW_LIMITS,
  type ApproverNode,
  type CcNode,
  type Condition,
  type ConditionNode,
  type FormSchema,
  type ProcessBranch,
  type ProcessNode,
  type ProcessTree,
} from '@faceadmin/shared';
import { CHOICE_TYPES, MEASURED_TYPES } from './schema.ts';

/**
 * The process designer's edits (issue #11): the tree start → approver / cc / condition nodes → end, edited by
 * node and branch ids (unique in a tree). Every edit returns a new tree; `processProblems` finds what the server
 * would refuse, at the node or branch it concerns.
 */

let counter = 0;
/** A node or branch id, unique within the tree it joins. */
export function newId(prefix: string, taken: Set<string> = new Set()): string {
  for (;;) {
    counter += 1;
    const id = `${prefix}_${Date.now().toString(36)}${counter.toString(36)}`;
    if (!taken.has(id)) return id;
  }
}

/** Every node and branch id of a tree. */
export function idsOf(tree: ProcessTree): Set<string> {
  const ids = new Set<string>();
  const walk = (nodes: ProcessNode[]) => {
    for (const n of nodes) {
      ids.add(n.id);
      if (n.type === 'condition')
        for (const b of n.branches) {
          ids.add(b.id);
          walk(b.nodes);
        }
    }
  };
  walk(tree.nodes);
  return ids;
}

export type NewNodeType = 'approver' | 'cc' | 'condition';

/** A new node as the "+" between two nodes adds it: an approver (the department head), a cc, or a two-branch condition. */
export function makeNode(type: NewNodeType, taken: Set<string>): ProcessNode {
  const id = newId(type, taken);
  taken.add(id);
  if (type === 'approver') return { id, type: 'approver', approver: { kind: 'head', level: 1 }, mode: 'any', empty: 'admin' } satisfies ApproverNode;
  if (type === 'cc') return { id, type: 'cc', approver: { kind: 'admins' } } satisfies CcNode;
  const first = newId('branch', taken);
  taken.add(first);
  const other = newId('branch', taken);
  taken.add(other);
  return {
    id,
    type: 'condition',
    branches: [
      { id: first, priority: 1, default: false, conditions: [], nodes: [] },
      { id: other, priority: 2, default: true, conditions: [], nodes: [] },
    ],
  } satisfies ConditionNode;
}

/** Maps every chain of the tree (the root's and each branch's); `chain` gets the branch id or null for the root. */
function mapChains(tree: ProcessTree, fn: (nodes: ProcessNode[], branch: string | null) => ProcessNode[]): ProcessTree {
  const walk = (nodes: ProcessNode[], branch: string | null): ProcessNode[] =>
    fn(nodes, branch).map((n) => (n.type === 'condition' ? { ...n, branches: n.branches.map((b) => ({ ...b, nodes: walk(b.nodes, b.id) })) } : n));
  return { nodes: walk(tree.nodes, null) };
}

/** Inserts `node` into the chain of `branch` (null: the main chain) at `index` (0 = right after its start). */
export function insertNode(tree: ProcessTree, branch: string | null, index: number, node: ProcessNode): ProcessTree {
  return mapChains(tree, (nodes, b) => (b === branch ? [...nodes.slice(0, index), node, ...nodes.slice(index)] : nodes));
}

/** Removes a node (a condition node with all its branches). */
export function removeNode(tree: ProcessTree, id: string): ProcessTree {
  return mapChains(tree, (nodes) => nodes.filter((n) => n.id !== id));
}

/** Replaces a node by id. */
export function updateNode(tree: ProcessTree, node: ProcessNode): ProcessTree {
  return mapChains(tree, (nodes) => nodes.map((n) => (n.id === node.id ? node : n)));
}

export function findNode(tree: ProcessTree, id: string): ProcessNode | undefined {
  let found: ProcessNode | undefined;
  mapChains(tree, (nodes) => {
    found ??= nodes.find((n) => n.id === id);
    return nodes;
  });
  return found;
}

export function findBranch(tree: ProcessTree, id: string): { node: ConditionNode; branch: ProcessBranch } | undefined {
  let found: { node: ConditionNode; branch: ProcessBranch } | undefined;
  mapChains(tree, (nodes) => {
    for (const n of nodes)
      if (n.type === 'condition' && !found) {
        const b = n.branches.find((x) => x.id === id);
        if (b) found = { node: n, branch: b };
      }
    return nodes;
  });
  return found;
}

/** Priorities 1…n in the given order, the default branch always last. */
function renumber(branches: ProcessBranch[]): ProcessBranch[] {
  const ordered = [...branches.filter((b) => !b.default), ...branches.filter((b) => b.default)];
  return ordered.map((b, i) => ({ ...b, priority: i + 1 }));
}

function mapCondition(tree: ProcessTree, id: string, fn: (n: ConditionNode) => ConditionNode): ProcessTree {
  return mapChains(tree, (nodes) => nodes.map((n) => (n.id === id && n.type === 'condition' ? fn(n) : n)));
}

/** Adds a conditional branch before the default one. */
export function addBranch(tree: ProcessTree, conditionId: string): ProcessTree {
  const taken = idsOf(tree);
  return mapCondition(tree, conditionId, (n) =>
    n.branches.length >= WORKFLOW_LIMITS.branchesMax
      ? n
      : { ...n, branches: renumber([...n.branches, { id: newId('branch', taken), priority: 0, default: false, conditions: [], nodes: [] }]) },
  );
}

/**
 * Removes a branch; a condition left with one branch is dissolved: the remaining branch's nodes take its place
 * in the chain (what DingTalk and Feishu do).
 */
export function removeBranch(tree: ProcessTree, branchId: string): ProcessTree {
  return mapChains(tree, (nodes) =>
    nodes.flatMap((n) => {
      if (n.type !== 'condition' || !n.branches.some((b) => b.id === branchId)) return [n];
      const rest = n.branches.filter((b) => b.id !== branchId);
      if (rest.length < 2) return rest[0]?.nodes ?? [];
      // the default went: the last remaining branch becomes the default (it takes the rest)
      if (!rest.some((b) => b.default)) rest[rest.length - 1] = { ...rest[rest.length - 1]!, default: true, conditions: [] };
      return [{ ...n, branches: renumber(rest) }];
    }),
  );
}

/** Moves a conditional branch one place earlier (-1) or later (+1) in priority; the default stays last. */
export function moveBranch(tree: ProcessTree, branchId: string, delta: -1 | 1): ProcessTree {
  const found = findBranch(tree, branchId);
  if (!found || found.branch.default) return tree;
  return mapCondition(tree, found.node.id, (n) => {
    const list = renumber(n.branches).filter((b) => !b.default);
    const i = list.findIndex((b) => b.id === branchId);
    const j = i + delta;
    if (j < 0 || j >= list.length) return n;
    [list[i], list[j]] = [list[j]!, list[i]!];
    return { ...n, branches: renumber([...list, ...n.branches.filter((b) => b.default)]) };
  });
}

export function updateBranch(tree: ProcessTree, branch: ProcessBranch): ProcessTree {
  return mapChains(tree, (nodes) =>
    nodes.map((n) => (n.type === 'condition' ? { ...n, branches: n.branches.map((b) => (b.id === branch.id ? branch : b)) } : n)),
  );
}

export type ProcessReason =
  'noApprover' | 'noApproverOnPath' | 'fewBranches' | 'noDefault' | 'priority' | 'emptyCondition' | 'badCondition' | 'tooDeep' | 'tooMany';
/** A problem at a node or branch (`id`; '' = the whole process). */
export interface ProcessProblem {
  id: string;
  reason: ProcessReason;
}

/** Whether a condition is complete and fits the form (as the server checks it). */
export function conditionOk(c: Condition, form: FormSchema): boolean {
  if (c.kind === 'department') return (c.department_ids?.length ?? 0) > 0;
  const f = form.fields.find((x) => x.key === c.field);
  if (!f || !c.op || c.value === undefined) return false;
  if (MEASURED_TYPES.includes(f.type)) return typeof c.value === 'number' && c.op !== 'in';
  if (CHOICE_TYPES.includes(f.type)) {
    const options = new Set((f.options ?? []).map((o) => o.value));
    const values = Array.isArray(c.value) ? c.value : [c.value];
    if (!['eq', 'ne', 'in'].includes(c.op) || !values.length) return false;
    if (c.op !== 'in' && Array.isArray(c.value)) return false;
    return values.every((v) => typeof v === 'string' && options.has(v));
  }
  return false;
}

/** What the server would refuse before saving: each problem at the node or branch it concerns. */
export function processProblems(tree: ProcessTree, form: FormSchema): ProcessProblem[] {
  const out: ProcessProblem[] = [];
  let count = 0;
  const chain = (nodes: ProcessNode[], depth: number): boolean => {
    if (depth > WORKFLOW_LIMITS.depthMax) {
      out.push({ id: '', reason: 'tooDeep' });
      return true;
    }
    let approved = false;
    for (const n of nodes) {
      count += 1;
      if (n.type === 'approver' || n.type === 'cc') {
        if (n.approver.kind === 'people' && !n.approver.person_ids?.length) out.push({ id: n.id, reason: 'noApprover' });
        if (n.type === 'approver') approved = true;
        continue;
      }
      if (n.branches.length < 2) out.push({ id: n.id, reason: 'fewBranches' });
      if (n.branches.filter((b) => b.default).length !== 1) out.push({ id: n.id, reason: 'noDefault' });
      if (new Set(n.branches.map((b) => b.priority)).size !== n.branches.length) out.push({ id: n.id, reason: 'priority' });
      let all = true;
      for (const b of n.branches) {
        count += 1;
        const noDepartments = b.conditions.some((c) => c.kind === 'department' && !c.department_ids?.length);
        if ((!b.default && !b.conditions.length) || noDepartments) out.push({ id: b.id, reason: 'emptyCondition' });
        else if (b.conditions.some((c) => !conditionOk(c, form))) out.push({ id: b.id, reason: 'badCondition' });
        if (!chain(b.nodes, depth + 1)) all = false;
      }
      if (all) approved = true;
    }
    return approved;
  };
  if (!chain(tree.nodes, 1)) out.push({ id: '', reason: 'noApproverOnPath' });
  if (count > WORKFLOW_LIMITS.nodesMax) out.push({ id: '', reason: 'tooMany' });
  return out;
}
