import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FormSchema, ProcessTree } from '@faceadmin/shared';
import { AppError } from '../../lib/errors.ts';
import { checkForm, checkValues, planRoute } from './process.ts';

/** The pure part of approvals: routes through the tree, values against the form, forms before saving. */
const form: FormSchema = {
  fields: [
    { key: 'amount', type: 'money', label: { 'en-US': 'Amount' }, required: true },
    { key: 'period', type: 'daterange', label: { 'en-US': 'Period' }, required: false, unit: 'hour' },
    {
      key: 'tags',
      type: 'multiselect',
      label: { 'en-US': 'Tags' },
      required: false,
      options: [
        { value: 'a', label: { 'en-US': 'A' } },
        { value: 'b', label: { 'en-US': 'B' } },
      ],
    },
    { key: 'when', type: 'datetime', label: { 'en-US': 'When' }, required: false },
  ],
};
const approver = (id: string) => ({
  id,
  type: 'approver' as const,
  name: id,
  approver: { kind: 'admins' as const },
  mode: 'any' as const,
  empty: 'admin' as const,
});

const tree: ProcessTree = {
  nodes: [
    {
      id: 'c',
      type: 'condition',
      branches: [
        // Listed first but tried second: priorities decide, not the order.
        { id: 'big', priority: 2, default: false, conditions: [{ kind: 'field', field: 'amount', op: 'gte', value: 100 }], nodes: [approver('big')] },
        {
          id: 'huge',
          priority: 1,
          default: false,
          conditions: [
            { kind: 'field', field: 'amount', op: 'gte', value: 1000 },
            { kind: 'department', department_ids: [7] },
          ],
          nodes: [approver('huge')],
        },
        { id: 'long', priority: 3, default: false, conditions: [{ kind: 'field', field: 'period', op: 'gt', value: 8 }], nodes: [approver('long')] },
        {
          id: 'else',
          priority: 4,
          default: true,
          conditions: [],
          nodes: [
            {
              id: 'inner',
              type: 'condition',
              branches: [
                {
                  id: 'tagged',
                  priority: 1,
                  default: false,
                  conditions: [{ kind: 'field', field: 'tags', op: 'in', value: ['b'] }],
                  nodes: [approver('tagged')],
                },
                { id: 'plain', priority: 2, default: true, conditions: [], nodes: [approver('plain')] },
              ],
            },
          ],
        },
      ],
    },
    approver('last'),
  ],
};
const route = (values: Record<string, unknown>, departments: number[] = [], hours: number | null = null) =>
  planRoute(tree, { form, values: values as never, departments: new Set(departments), measure: () => hours }).map((n) => n.id);

test('a route takes the first branch by priority whose conditions all hold, else the default, nested too', () => {
  assert.deepEqual(route({ amount: 5000 }, [7]), ['huge', 'last']);
  assert.deepEqual(route({ amount: 5000 }, [8]), ['big', 'last'], 'the department condition fails: the next branch');
  assert.deepEqual(route({ amount: 150 }), ['big', 'last']);
  assert.deepEqual(route({ amount: 10 }, [], 9), ['long', 'last'], 'a range measured in its unit (hours)');
  assert.deepEqual(route({ amount: 10 }, [], 8), ['plain', 'last']);
  assert.deepEqual(route({ amount: 10, tags: ['a', 'b'] }), ['tagged', 'last']);
  assert.deepEqual(route({ amount: 10, tags: ['a'] }), ['plain', 'last']);
});

test('values are normalised to their field types; unknown keys and wrong types are refused', () => {
  const r = checkValues(form, { amount: 12.345, tags: ['a', 'a', 'b'], when: '2026-11-16T09:00:00+08:00' }, 'en-US');
  assert.deepEqual(r.values, { amount: 12.35, tags: ['a', 'b'], when: '2026-11-16T01:00:00.000Z' });
  const refused = (values: Record<string, unknown>, field: string) =>
    assert.throws(
      () => checkValues(form, values as never, 'en-US'),
      (e: unknown) => e instanceof AppError && (e.data as { field: string }).field === field,
    );
  refused({ amount: 1, extra: 1 }, 'extra');
  refused({}, 'amount');
  refused({ amount: '12' }, 'amount');
  refused({ amount: 1, tags: ['c'] }, 'tags');
  refused({ amount: 1, when: 'yesterday' }, 'when');
  refused({ amount: 1, period: { from: '2026-11-16T10:00:00Z', to: '2026-11-16T09:00:00Z' } }, 'period');
});

test('a saved form: the server sets locked and required on engine fields, and drops what a type does not use', () => {
  const saved = checkForm(
    {
      fields: [
        { key: 'period', type: 'daterange', label: { 'en-US': 'Period' }, required: false, options: [{ value: 'x', label: { 'en-US': 'X' } }] },
        { key: 'note', type: 'description', label: { 'en-US': 'Note' }, required: true, text: { 'en-US': 'Read me' }, locked: true },
      ],
    },
    [{ key: 'period', type: 'daterange' }],
  );
  assert.deepEqual(saved.fields, [
    { key: 'period', type: 'daterange', label: { 'en-US': 'Period' }, required: true, unit: 'day', locked: true },
    { key: 'note', type: 'description', label: { 'en-US': 'Note' }, required: false, text: { 'en-US': 'Read me' } },
  ]);
});
