import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import dayjs from 'dayjs';
import { ALL_RIGHTS, type FormSchema, type ProcessTree, type Rights } from '@faceadmin/shared';
import { filterRoutes, flattenRoutes, ROUTE_TABLE } from '../src/app/routes/routeTable.ts';
import {
  addBranch,
  idsOf,
  insertNode,
  makeNode,
  moveBranch,
  processProblems,
  removeBranch,
  removeNode,
  type ProcessReason,
} from '../src/features/workflow/process.ts';
import { fromUiValues, newField, retype, schemaProblems, textOf, toUiValues, withText, type SchemaProblem } from '../src/features/workflow/schema.ts';

/** The approvals console's pure parts (issue #11): the form schema ↔ the antd form, the process tree's edits and checks. */

const LEAVE: FormSchema = {
  fields: [
    {
      key: 'leave_type',
      type: 'select',
      label: { 'en-US': 'Leave type', 'zh-CN': '请假类型' },
      required: true,
      locked: true,
      options: [
        { value: 'annual', label: { 'en-US': 'Annual leave' } },
        { value: 'sick', label: { 'en-US': 'Sick leave' } },
      ],
    },
    { key: 'period', type: 'daterange', label: { 'en-US': 'Period' }, required: true, unit: 'day', locked: true },
    { key: 'reason', type: 'textarea', label: { 'en-US': 'Reason' }, required: true },
    { key: 'count', type: 'number', label: { 'en-US': 'Count' }, required: false },
    { key: 'day', type: 'date', label: { 'en-US': 'Day' }, required: false },
    { key: 'tags', type: 'multiselect', label: { ja: 'タグ' }, required: false, options: [{ value: 'a', label: { ja: 'A' } }] },
    { key: 'note', type: 'description', label: { 'en-US': 'Note' }, text: { 'en-US': 'Read me' }, required: false },
  ],
};

test("a label in the reader's language, else the first one set, else the key", () => {
  assert.equal(textOf(LEAVE.fields[0]!.label, 'zh-CN'), '请假类型');
  assert.equal(textOf(LEAVE.fields[0]!.label, 'ja'), 'Leave type');
  assert.equal(textOf(LEAVE.fields[5]!.label, 'en-US'), 'タグ');
  assert.equal(textOf({}, 'en-US', 'fallback'), 'fallback');
  // editing one language keeps the others; emptying it removes it
  assert.deepEqual(withText({ 'en-US': 'A', ja: 'B' }, 'ja', ''), { 'en-US': 'A' });
  assert.deepEqual(withText({ 'en-US': 'A' }, 'zh_tw', '乙'), { 'en-US': 'A', zh_tw: '乙' });
});

test('a dropped field gets a fresh valid key, options for choices, a unit for ranges', () => {
  const keys = LEAVE.fields.map((f) => f.key);
  const a = newField('text', [...keys, 'text_1'], 'en-US', 'Single-line text');
  assert.equal(a.key, 'text_2');
  assert.deepEqual(a.label, { 'en-US': 'Single-line text' });
  const s = newField('select', keys, 'ja', '単一選択');
  assert.equal(s.options?.length, 2);
  assert.equal(newField('daterange', keys, 'en-US', 'Period').unit, 'day');
  assert.deepEqual(schemaProblems({ fields: [...LEAVE.fields, a, s] }), []);
});

test('locked engine fields keep their type; retyping others moves options and units along', () => {
  assert.equal(retype(LEAVE.fields[1]!, 'text', 'en-US'), LEAVE.fields[1]);
  const t = retype(LEAVE.fields[2]!, 'select', 'en-US');
  assert.equal(t.type, 'select');
  assert.ok(t.options?.length);
  const back = retype(t, 'daterange', 'en-US');
  assert.equal(back.options, undefined);
  assert.equal(back.unit, 'day');
});

test('what the server would refuse in a form is found at its field', () => {
  const bad: FormSchema = {
    fields: [
      { key: 'a', type: 'text', label: {}, required: false },
      { key: 'a', type: 'text', label: { 'en-US': 'A' }, required: false },
      { key: 'b', type: 'select', label: { 'en-US': 'B' }, required: false, options: [] },
      { key: '1x', type: 'text', label: { 'en-US': 'X' }, required: false },
    ],
  };
  const got = schemaProblems(bad).map((p) => `${p.key}:${p.reason}`);
  assert.deepEqual(got, ['a:noLabel', 'a:duplicateKey', 'b:noOptions', '1x:badKey']);
  assert.deepEqual(schemaProblems({ fields: [] }), [{ key: '', reason: 'noFields' }]);
});

test('values: the antd form and the API agree both ways (dates, ranges, numbers, choices; empties left out)', () => {
  const from = '2026-11-16T01:00:00.000Z';
  const to = '2026-11-19T10:00:00.000Z';
  const stored = { leave_type: 'annual', period: { from, to }, reason: 'Trip', count: 3, day: '2026-11-20', tags: ['a'] };
  const ui = toUiValues(LEAVE, stored);
  assert.ok(dayjs.isDayjs(ui.day));
  assert.ok(Array.isArray(ui.period) && dayjs.isDayjs(ui.period[0]));
  assert.deepEqual(fromUiValues(LEAVE, ui), stored);
  // blanks are not sent; text is trimmed; the description is never a value
  assert.deepEqual(fromUiValues(LEAVE, { reason: '  Trip  ', count: null, tags: [], day: undefined, note: 'x', leave_type: '' }), { reason: 'Trip' });
});

const FORM: FormSchema = { fields: [LEAVE.fields[0]!, LEAVE.fields[1]!] };
const head = (id: string) => ({ id, type: 'approver' as const, approver: { kind: 'head' as const, level: 1 }, mode: 'any' as const, empty: 'admin' as const });

/** The journey's process: the head, then more than 3 days → an administrator. */
function journeyTree(): ProcessTree {
  let tree: ProcessTree = { nodes: [head('head')] };
  const cond = makeNode('condition', idsOf(tree));
  tree = insertNode(tree, null, 1, cond);
  assert.equal(cond.type, 'condition');
  const [first] = cond.type === 'condition' ? cond.branches : [];
  tree = {
    nodes: tree.nodes.map((n) =>
      n.type === 'condition'
        ? { ...n, branches: n.branches.map((b) => (b.id === first!.id ? { ...b, conditions: [{ kind: 'field', field: 'period', op: 'gt', value: 3 }] } : b)) }
        : n,
    ),
  };
  return insertNode(tree, first!.id, 0, { id: 'admins', type: 'approver', approver: { kind: 'admins' }, mode: 'any', empty: 'skip' });
}

test('nodes are added between any two, in the main chain or inside a branch', () => {
  const tree = journeyTree();
  assert.deepEqual(
    tree.nodes.map((n) => n.type),
    ['approver', 'condition'],
  );
  const cond = tree.nodes[1]!;
  assert.ok(cond.type === 'condition');
  assert.deepEqual(
    cond.branches.map((b) => [b.priority, b.default, b.nodes.map((n) => n.id)]),
    [
      [1, false, ['admins']],
      [2, true, []],
    ],
  );
  // ids stay unique as nodes are added
  const more = insertNode(tree, null, 0, makeNode('cc', idsOf(tree)));
  assert.equal(idsOf(more).size, idsOf(tree).size + 1);
  assert.deepEqual(processProblems(tree, FORM), []);
});

test('branches: added before the default, moved by priority, removed (one left dissolves the condition)', () => {
  let tree = journeyTree();
  const condId = tree.nodes[1]!.id;
  tree = addBranch(tree, condId);
  const cond = () => {
    const c = tree.nodes.find((n) => n.id === condId);
    assert.ok(c?.type === 'condition');
    return c;
  };
  assert.deepEqual(
    cond().branches.map((b) => [b.priority, b.default]),
    [
      [1, false],
      [2, false],
      [3, true],
    ],
  );
  const added = cond().branches[1]!.id;
  tree = moveBranch(tree, added, -1);
  assert.equal(cond().branches.find((b) => b.id === added)?.priority, 1);
  // the default never moves ahead of a conditional branch
  const def = cond().branches.find((b) => b.default)!.id;
  assert.equal(moveBranch(tree, def, -1), tree);
  // removing the default makes the last remaining branch the default
  tree = removeBranch(tree, def);
  assert.deepEqual(
    cond().branches.map((b) => [b.priority, b.default, b.conditions.length]),
    [
      [1, false, 0],
      [2, true, 0],
    ],
  );
  // down to one branch: its nodes take the condition's place
  const withAdmins = cond().branches.find((b) => b.nodes.length)!;
  tree = removeBranch(tree, cond().branches.find((b) => b.id !== withAdmins.id)!.id);
  assert.deepEqual(
    tree.nodes.map((n) => n.id),
    ['head', ...withAdmins.nodes.map((n) => n.id)],
  );
});

test('checks before saving name the node or branch concerned', () => {
  const tree = journeyTree();
  const cond = tree.nodes[1]!;
  assert.ok(cond.type === 'condition');
  const [first] = cond.branches;
  // an empty condition on a non-default branch
  const empty: ProcessTree = { nodes: [tree.nodes[0]!, { ...cond, branches: cond.branches.map((b) => (b.id === first!.id ? { ...b, conditions: [] } : b)) }] };
  assert.deepEqual(processProblems(empty, FORM), [{ id: first!.id, reason: 'emptyCondition' }]);
  // a condition on a field the form does not have, or 'in' on a number
  const wrong = (c: object): ProcessTree => ({
    nodes: [tree.nodes[0]!, { ...cond, branches: cond.branches.map((b) => (b.id === first!.id ? { ...b, conditions: [c as never] } : b)) }],
  });
  assert.deepEqual(processProblems(wrong({ kind: 'field', field: 'nope', op: 'gt', value: 3 }), FORM), [{ id: first!.id, reason: 'badCondition' }]);
  assert.deepEqual(processProblems(wrong({ kind: 'field', field: 'period', op: 'in', value: 3 }), FORM), [{ id: first!.id, reason: 'badCondition' }]);
  assert.deepEqual(processProblems(wrong({ kind: 'field', field: 'leave_type', op: 'eq', value: 'sick' }), FORM), []);
  assert.deepEqual(processProblems(wrong({ kind: 'department', department_ids: [] }), FORM), [{ id: first!.id, reason: 'emptyCondition' }]);
  // named people without anyone
  const nobody: ProcessTree = { nodes: [{ ...head('h'), approver: { kind: 'people', person_ids: [] } }] };
  assert.deepEqual(processProblems(nobody, FORM), [{ id: 'h', reason: 'noApprover' }]);
  // a path without an approver: removing the head leaves the default branch empty
  assert.deepEqual(processProblems(removeNode(tree, 'head'), FORM), [{ id: '', reason: 'noApproverOnPath' }]);
  assert.deepEqual(processProblems({ nodes: [] }, FORM), [{ id: '', reason: 'noApproverOnPath' }]);
});

const routes = (r: Rights, mode: 'normal' | 'lan' = 'normal') => flattenRoutes(filterRoutes(ROUTE_TABLE, r, mode));
test('the approvals menu: rights.workflow = 1 exactly, never in LAN mode; the {id} pages hidden', () => {
  const admin: Rights = { ...ALL_RIGHTS, is_admin: 1, workflow: 1 };
  const got = routes(admin).filter((r) => r.path.startsWith('/workflow/'));
  assert.deepEqual(
    got.map((r) => [r.path, !!r.hidden]),
    [
      ['/workflow/index', false],
      ['/workflow/flow/:id', true],
      ['/workflow/form/:id', true],
      ['/workflow/approval/:id', true],
    ],
  );
  assert.equal(routes({ ...admin, workflow: 2 }).filter((r) => r.path.startsWith('/workflow')).length, 0);
  assert.equal(routes({ ...admin, workflow: 0 }).filter((r) => r.path.startsWith('/workflow')).length, 0);
  assert.equal(routes(admin, 'lan').filter((r) => r.path.startsWith('/workflow')).length, 0);
});

test('every problem the designers report reads in all four languages', () => {
  const processReasons: ProcessReason[] = [
    'noApprover',
    'noApproverOnPath',
    'fewBranches',
    'noDefault',
    'priority',
    'emptyCondition',
    'badCondition',
    'tooDeep',
    'tooMany',
  ];
  const schemaReasons: SchemaProblem['reason'][] = ['noFields', 'badKey', 'duplicateKey', 'noLabel', 'noOptions', 'duplicateOption', 'tooMany'];
  for (const folder of ['zh-CN', 'zh-TW', 'en-US', 'ja']) {
    const tree = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'src', 'locales', folder, 'workflow.json'), 'utf8')) as {
      flow: { reasons: Record<string, string> };
      schemaProblems: Record<string, string>;
    };
    for (const r of processReasons) assert.ok(tree.flow.reasons[r]?.trim(), `${folder} flow.reasons.${r}`);
    for (const r of schemaReasons) assert.ok(tree.schemaProblems[r]?.trim(), `${folder} schemaProblems.${r}`);
  }
});
