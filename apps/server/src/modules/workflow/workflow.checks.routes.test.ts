import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { CODES, type WorkflowApp } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, type Answer, type Company, type TestApp } from '../../../test/helpers.ts';
import { addPersonWithFace, upload } from '../../../test/files.ts';
import { t as tr } from '../../i18n/i18n.ts';

/**
 * Approval values and designs that cannot be right (issue #17 items 3 and 4), on SQLite and PostgreSQL: days and
 * times that do not exist are refused with the field named, and the form and process checks say which field or
 * node is wrong and why.
 */
let t: TestApp;
let A: Company;
let alice = 0;
let apps: WorkflowApp[] = [];
const ok = <T>(r: Answer<T>, what = '') => {
  assert.equal(r.code, CODES.OK, `${what} ${r.code} ${r.message}`);
  return r.data;
};
const byKind = (k: string) => apps.find((a) => a.kind === k)!.id;

before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Checks Co');
  alice = await addPersonWithFace(t, A, { number: '1', name: 'Alice', phone: '13900000301', department: 'Staff' });
  apps = ok(await call<{ items: WorkflowApp[] }>(t.app, 'GET', '/workflow/app/list', { token: A.main })).items;
});
after(() => t.close());

test(`a supplementary punch on 31 February, at 24:00 or 23:60 is refused naming the field, and nothing reaches attendance (${DIALECT})`, async () => {
  const label = tr('en-US', 'reasons.calendarDate');
  for (const punch_time of ['2026-02-31T09:00:00+08:00', '2026-02-29T09:00:00Z', '2026-04-31T09:00:00Z', '2026-03-02T24:00:00Z', '2026-03-02T23:60:00Z']) {
    const r = await call(t.app, 'POST', '/workflow/approval/create', {
      token: A.main,
      lang: 'en-US',
      body: { app_id: byKind('supplement'), person_id: alice, values: { punch_time, reason: 'Forgot' } },
    });
    assert.equal(r.code, CODES.RULE, `${punch_time}: ${r.code} ${r.message}`);
    assert.equal(r.message, `Punch time: ${label}`);
    assert.deepEqual(r.data, { field: 'punch_time' });
  }
  const r = await call(t.app, 'POST', '/workflow/approval/create', {
    token: A.main,
    lang: 'en-US',
    body: {
      app_id: byKind('trip'),
      person_id: alice,
      values: { trip_type: 'out', period: { from: '2026-02-28T09:00:00Z', to: '2026-02-30T18:00:00Z' }, reason: 'Client' },
    },
  });
  assert.equal(r.code, CODES.RULE, r.message);
  assert.deepEqual(r.data, { field: 'period' });
  const rows = await t.app.database.db.selectFrom('workflow_applications').select('id').execute();
  assert.deepEqual(rows, [], 'nothing stored');
  // A real one still goes through.
  ok(
    await call(t.app, 'POST', '/workflow/approval/create', {
      token: A.main,
      body: { app_id: byKind('supplement'), person_id: alice, values: { punch_time: '2024-02-29T09:00:00+08:00', reason: 'Forgot' } },
    }),
  );
});

test(`form errors name the field by its label and key, and carry its key for the designer (${DIALECT})`, async () => {
  const leave = byKind('leave');
  const current = ok(await call(t.app, 'GET', '/workflow/form/info', { token: A.main, query: { id: leave } })).schema;
  const save = (extra: unknown, lang = 'en-US') =>
    call(t.app, 'POST', '/workflow/form/save', { token: A.main, lang, body: { app_id: leave, schema: { fields: [...current.fields, extra] } } });
  // An unknown type: which field, and that its type is wrong.
  const weird = await save({ key: 'days', type: 'weird', label: { 'en-US': 'Days', 'zh-CN': '天数' }, required: false });
  assert.equal(weird.code, CODES.VALIDATION, weird.message);
  assert.equal(weird.message, `Form, the field “Days” (days), type: ${tr('en-US', 'reasons.enum')}`);
  assert.deepEqual(weird.data, { field: 'schema', key: 'days' });
  const zh = await save({ key: 'days', type: 'weird', label: { 'en-US': 'Days', 'zh-CN': '天数' }, required: false }, 'zh-CN');
  assert.equal(zh.message, `表单：字段 “天数” (days) 的类型${tr('zh-CN', 'reasons.enum')}`);
  // No label at all: which field.
  const bare = await save({ key: 'note', type: 'text', required: false });
  assert.equal(bare.code, CODES.VALIDATION, bare.message);
  assert.equal(bare.message, `Form, the field “note”, label: ${tr('en-US', 'reasons.required')}`);
  assert.deepEqual(bare.data, { field: 'schema', key: 'note' });
  // A blank label (a rule the server checks): the field by its key, for the designer to mark.
  const blank = await save({ key: 'memo', type: 'text', label: { 'en-US': ' ' }, required: false });
  assert.equal(blank.code, CODES.RULE, blank.message);
  assert.equal(blank.message, 'Form: the field “memo” needs a label');
  assert.deepEqual(blank.data, { field: 'schema', key: 'memo' });
  const select = await save({ key: 'kind', type: 'select', label: { 'en-US': 'Kind' }, required: false, options: [] }, 'ja');
  assert.equal(select.message, `フォーム：${tr('ja', 'reasons.wfNoOptions', { key: '“Kind” (kind)' })}`);
});

test(`process errors name the node or branch by its title and carry its id; a process without approvers says so (${DIALECT})`, async () => {
  const leave = byKind('leave');
  const save = (process: unknown, lang = 'en-US') => call(t.app, 'POST', '/workflow/process/save', { token: A.main, lang, body: { app_id: leave, process } });
  const none = await save({ nodes: [] });
  assert.equal(none.code, CODES.RULE, none.message);
  assert.equal(none.message, 'Process: add an approver node: the process has none');
  const head = { type: 'approver', name: 'Head', approver: { kind: 'head', level: 1 }, mode: 'any', empty: 'admin' };
  const branchy = {
    nodes: [
      {
        id: 'len',
        type: 'condition',
        name: 'Length',
        branches: [
          {
            id: 'long',
            name: 'Long',
            priority: 1,
            default: false,
            conditions: [{ kind: 'field', field: 'period', op: 'gt', value: 3 }],
            nodes: [{ id: 'h1', ...head }],
          },
          { id: 'short', name: 'Otherwise', priority: 2, default: true, conditions: [], nodes: [] },
        ],
      },
    ],
  };
  const gap = await save(branchy);
  assert.equal(gap.code, CODES.RULE, gap.message);
  assert.equal(gap.message, `Process: ${tr('en-US', 'reasons.wfNoApproverPath', { node: '“Otherwise”' })}`);
  assert.deepEqual(gap.data, { field: 'process', node: 'short' });
  assert.match((await save(branchy, 'zh-TW')).message, /^流程：分支 “Otherwise” 上沒有審批人/);
  // A node the schema refuses (an unknown approver kind) is named by its title too.
  const wrong = await save({ nodes: [{ id: 'n1', ...head, approver: { kind: 'nobody' } }] });
  assert.equal(wrong.code, CODES.VALIDATION, wrong.message);
  assert.match(wrong.message, /^Process, the node “Head”, /);
  assert.deepEqual(wrong.data, { field: 'process', node: 'n1' });
  const empty = await save({ nodes: [{ id: 'n2', ...head, approver: { kind: 'people', person_ids: [] } }] });
  assert.equal(empty.message, 'Process: the node “Head” names nobody: choose its people');
  assert.deepEqual(empty.data, { field: 'process', node: 'n2' });
});

test(`an import of past records refuses 31 February and 24:00, naming the column (${DIALECT})`, async () => {
  const book = new ExcelJS.Workbook();
  const s = book.addWorksheet('x');
  s.addRow(['Number', 'Approval app', 'Status', 'Created', 'Leave type', 'From', 'To', 'Reason']);
  s.addRow(['1', 'Leave', 'Approved', '', 'Sick leave', '2026-02-31 09:00', '2026-03-01 18:00', 'Flu']);
  s.addRow(['1', 'Leave', 'Approved', '', 'Sick leave', '2026-03-02 09:00', '2026-03-02 24:00', 'Flu']);
  s.addRow(['1', 'Leave', 'Approved', '2026-02-29 10:00', 'Sick leave', '2026-03-03 09:00', '2026-03-03 18:00', 'Flu']);
  const r = await upload(t, '/workflow/approval/import', A.main, { name: 'past.xlsx', data: Buffer.from(await book.xlsx.writeBuffer()) });
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.created, 0);
  assert.deepEqual(
    r.data.errors.map((e: { row: number; field: string }) => [e.row, e.field]),
    [
      [2, 'From'],
      [3, 'To'],
      [4, 'Created'],
    ],
  );
});
