import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { CODES, type ApplicationDetail, type FormSchema, type ProcessTree, type WorkflowApp } from '@faceadmin/shared';
import {
  API,
  call,
  CAPTCHA,
  captcha,
  DIALECT,
  login,
  makeApp,
  makeCompany,
  makeSub,
  nextIp,
  type Answer,
  type Company,
  type TestApp,
} from '../../../test/helpers.ts';
import { addPersonWithFace, form, picture, upload } from '../../../test/files.ts';
import { t as tr } from '../../i18n/i18n.ts';

/**
 * Approvals through the API (issue #11), on SQLite and PostgreSQL: built-in apps, form and process checks, a leave
 * routed by its length (more than 3 days: the department head, then an administrator; otherwise the head only),
 * decisions by persons on the self-service API and by administrators, withdrawal and cancellation taking the
 * absence back out of attendance, concurrent decisions, tenancy, records export and import.
 */
let t: TestApp;
let A: Company;
let B: Company;
const ids = { hq: 0, sales: 0, alice: 0, mgr: 0, boss: 0, bPerson: 0 };
const phones = { alice: '13900000101', mgr: '13900000102', boss: '13900000103', bob: '13900000201' };
let leave: WorkflowApp;
let bLeave: WorkflowApp;

const ok = <T>(r: Answer<T>, what = '') => {
  assert.equal(r.code, CODES.OK, `${what} ${r.code} ${r.message}`);
  return r.data;
};
/** A self-service call with a person token. */
async function self<T = any>(method: 'GET' | 'POST', url: string, token: string, o: { body?: unknown; query?: Record<string, string | number> } = {}) {
  const res = await t.app.inject({
    method,
    url: API + url,
    headers: { 'x-person-token': token, 'x-lang': 'en-US' },
    ...(o.query ? { query: Object.fromEntries(Object.entries(o.query).map(([k, v]) => [k, String(v)])) } : {}),
    ...(o.body !== undefined ? { payload: o.body as object } : {}),
  });
  return { ...res.json(), status: res.statusCode } as Answer<T>;
}
/** Signs a person in with their phone and an SMS code, as the self-service page does. */
async function signIn(phone: string): Promise<string> {
  const ip = nextIp();
  const s = await call(t.app, 'POST', '/self/sendcode', { ip, body: { phone, icode: CAPTCHA, captcha_id: await captcha(t.app, ip) } });
  ok(s, 'send code');
  const code = t.sms.filter((x) => x.phone === phone).at(-1)!.code;
  const r = await call(t.app, 'POST', '/self/login', { ip, body: { phone, code } });
  return ok(r, 'login').token;
}

/** Local (Asia/Shanghai) wall times of a past week: Monday 16 November 2026. */
const at = (day: number, hm: string) => new Date(`2026-11-${String(day).padStart(2, '0')}T${hm}:00+08:00`).toISOString();
const leaveValues = (fromDay: number, toDay: number, extra: Record<string, unknown> = {}) => ({
  leave_type: 'annual',
  period: { from: at(fromDay, '09:00'), to: at(toDay, '18:00') },
  reason: 'Family trip',
  ...extra,
});

/** Approved applications only: every absence approval wrote belongs to an application that is approved now. */
async function absencesAreApproved() {
  const rows = await t.app.database.db
    .selectFrom('attendance_absences as x')
    .innerJoin('workflow_applications as a', 'a.id', 'x.application_id')
    .select(['x.id', 'a.status', 'x.source'])
    .execute();
  for (const r of rows) {
    assert.equal(r.status, 1, `absence ${r.id} belongs to an application with status ${r.status}`);
    assert.equal(r.source, 'approval');
  }
  const orphans = await t.app.database.db
    .selectFrom('attendance_absences')
    .select('id')
    .where('source', '=', 'approval')
    .where('application_id', 'is', null)
    .execute();
  assert.equal(orphans.length, 0);
}
const absencesOf = (applicationId: number) =>
  t.app.database.db.selectFrom('attendance_absences').selectAll().where('application_id', '=', applicationId).execute();

before(async () => {
  t = await makeApp();
  // The recompute job (every second) would drain the queue these tests read after a write.
  await t.app.jobs.stop();
  A = await makeCompany(t, 'Flow A');
  B = await makeCompany(t, 'Flow B');
  ids.hq = ok(await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'HQ' } })).id;
  ids.sales = ok(await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Sales', parent_id: ids.hq } })).id;
  ids.alice = await addPersonWithFace(t, A, { name: 'Alice', phone: phones.alice, organizations: [ids.sales], number: '101' });
  ids.mgr = await addPersonWithFace(t, A, { name: 'Manager Ma', phone: phones.mgr, organizations: [ids.sales], number: '102' });
  ids.boss = await addPersonWithFace(t, A, { name: 'Boss Bai', phone: phones.boss, organizations: [ids.hq], number: '103' });
  ok(await call(t.app, 'POST', '/org/update', { token: A.main, body: { id: ids.sales, name: 'Sales', parent_id: ids.hq, incharges: [ids.mgr] } }));
  ok(await call(t.app, 'POST', '/org/update', { token: A.main, body: { id: ids.hq, name: 'HQ', incharges: [ids.boss] } }));
  ids.bPerson = await addPersonWithFace(t, B, { number: '9', name: 'Bob', phone: phones.bob, department: 'B staff' });
  const apps = ok(await call<{ items: WorkflowApp[] }>(t.app, 'GET', '/workflow/app/list', { token: A.main, lang: 'en-US' }));
  leave = apps.items.find((a) => a.kind === 'leave')!;
  bLeave = ok(await call<{ items: WorkflowApp[] }>(t.app, 'GET', '/workflow/app/list', { token: B.main })).items.find((a) => a.kind === 'leave')!;
});
after(() => t.close());

test(`every company has the built-in apps, named in the reader's language (${DIALECT})`, async () => {
  const en = ok(await call<{ items: WorkflowApp[] }>(t.app, 'GET', '/workflow/app/list', { token: A.main, lang: 'en-US' }));
  assert.deepEqual(
    en.items.map((a) => [a.kind, a.builtin, a.enabled]),
    [
      ['leave', true, true],
      ['trip', true, true],
      ['overtime', true, true],
      ['supplement', true, true],
    ],
  );
  assert.equal(en.items[0]!.name, 'Leave');
  const zh = ok(await call<{ items: WorkflowApp[] }>(t.app, 'GET', '/workflow/app/list', { token: A.main, lang: 'zh-CN' }));
  assert.equal(zh.items[0]!.name, '请假');
  // A new company has them from its creation, before anyone reads the list.
  const C = await makeCompany(t, 'Flow C');
  const rows = await t.app.database.db.selectFrom('workflow_apps').select('kind').where('company_id', '=', C.id).execute();
  assert.deepEqual(rows.map((r) => r.kind).sort(), ['leave', 'overtime', 'supplement', 'trip']);
  // Reading again creates nothing more.
  await call(t.app, 'GET', '/workflow/app/list', { token: C.main });
  assert.equal((await t.app.database.db.selectFrom('workflow_apps').select('id').where('company_id', '=', C.id).execute()).length, 4);
  // The leave form has the engine fields locked, and the seven leave types.
  const f = ok(await call(t.app, 'GET', '/workflow/form/info', { token: A.main, query: { id: leave.id } }));
  const type = f.schema.fields.find((x: { key: string }) => x.key === 'leave_type');
  assert.equal(type.locked, true);
  assert.deepEqual(
    type.options.map((o: { value: string }) => o.value),
    ['annual', 'sick', 'personal', 'marriage', 'maternity', 'bereavement', 'compensatory'],
  );
  assert.equal(f.schema.fields.find((x: { key: string }) => x.key === 'period').locked, true);
});

test('apps: create (name and sort required), copy, disable, delete; built-ins stay', async () => {
  const body = { name: 'Expenses', icon: 'money', sort: 5, enabled: true, scope: 'departments', department_ids: [ids.sales], person_ids: [] };
  const made = ok(await call<WorkflowApp>(t.app, 'POST', '/workflow/app/create', { token: A.main, body }));
  assert.equal(made.kind, 'custom');
  assert.deepEqual(made.departments, [{ id: ids.sales, name: 'Sales' }]);
  const blank = await call(t.app, 'POST', '/workflow/app/create', { token: A.main, lang: 'en-US', body: { ...body, name: '   ' } });
  assert.equal(blank.code, CODES.VALIDATION, blank.message);
  const noSort = await call(t.app, 'POST', '/workflow/app/create', { token: A.main, body: { ...body, sort: undefined } });
  assert.equal(noSort.code, CODES.VALIDATION);
  const foreign = await call(t.app, 'POST', '/workflow/app/create', { token: B.main, body });
  assert.equal(foreign.code, CODES.RULE, 'a department of another company');
  const copy = ok(await call<WorkflowApp>(t.app, 'POST', '/workflow/app/copy', { token: A.main, lang: 'en-US', body: { id: leave.id } }));
  assert.equal(copy.kind, 'leave');
  assert.equal(copy.builtin, false);
  assert.equal(copy.name, 'Leave (2)');
  const off = ok(await call<WorkflowApp>(t.app, 'POST', '/workflow/app/enable', { token: A.main, body: { id: copy.id, enabled: false } }));
  assert.equal(off.enabled, false);
  const refused = await call(t.app, 'POST', '/workflow/app/delete', { token: A.main, lang: 'en-US', body: { id: leave.id } });
  assert.equal(refused.code, CODES.RULE);
  assert.equal(refused.message, tr('en-US', 'errors.wfBuiltinApp'));
  ok(await call(t.app, 'POST', '/workflow/app/delete', { token: A.main, body: { id: copy.id } }));
  ok(await call(t.app, 'POST', '/workflow/app/delete', { token: A.main, body: { id: made.id } }));
  // The operation log names them.
  const log = ok(await call(t.app, 'GET', '/log/list', { token: A.main, lang: 'en-US', query: { module: 'workflow', pageSize: 50 } }));
  assert.ok(log.items.some((x: { description: string }) => x.description === 'Created the approval app Expenses'));
  assert.ok(log.items.some((x: { description: string }) => x.description === 'Copied Leave as the approval app Leave (2)'));
});

test('form checks: unique keys, options for selects, labels, locked engine fields kept; a new version keeps the old', async () => {
  const current = ok(await call(t.app, 'GET', '/workflow/form/info', { token: A.main, query: { id: leave.id } }));
  const schema = current.schema as FormSchema;
  const save = (s: FormSchema) => call(t.app, 'POST', '/workflow/form/save', { token: A.main, lang: 'en-US', body: { app_id: leave.id, schema: s } });
  const text = (key: string) => ({ key, type: 'text' as const, label: { 'en-US': 'Note' }, required: false });
  const cases: [FormSchema, string][] = [
    [{ fields: [...schema.fields, text('reason')] }, tr('en-US', 'reasons.wfDuplicateKey', { key: '“Note” (reason)' })],
    [
      { fields: [...schema.fields, { key: 'pick', type: 'select', label: { 'en-US': 'Pick' }, required: false, options: [] }] },
      tr('en-US', 'reasons.wfNoOptions', { key: '“Pick” (pick)' }),
    ],
    [{ fields: [...schema.fields, { ...text('bare'), label: { 'en-US': '  ' } }] }, tr('en-US', 'reasons.wfNoLabel', { key: '“bare”' })],
    [{ fields: schema.fields.filter((f) => f.key !== 'period') }, tr('en-US', 'reasons.wfLockedField', { key: '“period”' })],
    [
      { fields: schema.fields.map((f) => (f.key === 'leave_type' ? { ...f, type: 'text' as const } : f)) },
      tr('en-US', 'reasons.wfLockedField', { key: '“Leave type” (leave_type)' }),
    ],
    [{ fields: [] }, tr('en-US', 'reasons.wfNoFields')],
  ];
  for (const [s, reason] of cases) {
    const r = await save(s);
    assert.equal(r.code, CODES.RULE, reason);
    assert.equal(r.message, `${tr('en-US', 'fields.schema')}: ${reason}`);
  }
  assert.equal(ok(await call(t.app, 'GET', '/workflow/form/info', { token: A.main, query: { id: leave.id } })).version, current.version, 'nothing saved');
  // A custom field, and a leave type renamed: version + 1; locked flags come from the server.
  const fields = schema.fields.map((f) => (f.key === 'leave_type' ? { ...f, locked: false } : f));
  const saved = ok(
    await save({ fields: [...fields, { key: 'handover', type: 'person', label: { 'en-US': 'Handover to', 'zh-CN': '工作交接人' }, required: false }] }),
  );
  assert.equal(saved.version, current.version + 1);
  assert.equal(saved.schema.fields.find((f: { key: string }) => f.key === 'leave_type').locked, true);
  const old = ok(await call(t.app, 'GET', '/workflow/form/info', { token: A.main, query: { id: leave.id, version: current.version } }));
  assert.ok(!old.schema.fields.some((f: { key: string }) => f.key === 'handover'));
});

/** The example: more than 3 days goes to the department head and then an administrator; otherwise the head only. */
const conditionProcess = (): ProcessTree => ({
  nodes: [
    {
      id: 'days',
      type: 'condition',
      name: 'Length',
      branches: [
        {
          id: 'long',
          name: 'More than 3 days',
          priority: 1,
          default: false,
          conditions: [{ kind: 'field', field: 'period', op: 'gt', value: 3 }],
          nodes: [
            { id: 'head1', type: 'approver', name: 'Head', approver: { kind: 'head', level: 1 }, mode: 'any', empty: 'admin' },
            { id: 'admin1', type: 'approver', name: 'Administrator', approver: { kind: 'admins' }, mode: 'any', empty: 'admin' },
          ],
        },
        {
          id: 'short',
          name: 'Otherwise',
          priority: 2,
          default: true,
          conditions: [],
          nodes: [{ id: 'head2', type: 'approver', name: 'Head', approver: { kind: 'head', level: 1 }, mode: 'any', empty: 'admin' }],
        },
      ],
    },
    { id: 'cc', type: 'cc', name: 'Copy', approver: { kind: 'people', person_ids: [] } },
  ],
});

test('process checks: a default branch, no empty condition, conditions that fit the form, approvers present, every path approved', async () => {
  const save = (process: unknown) => call(t.app, 'POST', '/workflow/process/save', { token: A.main, lang: 'en-US', body: { app_id: leave.id, process } });
  const good = conditionProcess();
  (good.nodes[1] as { approver: { person_ids: number[] } }).approver.person_ids = [ids.boss];
  const branches = (p: ProcessTree) => (p.nodes[0] as { branches: any[] }).branches;
  const variant = (change: (p: ProcessTree) => void) => {
    const p = structuredClone(good);
    change(p);
    return p;
  };
  const cases: [unknown, string][] = [
    [variant((p) => (branches(p)[1].default = false)), tr('en-US', 'reasons.wfNoDefault', { node: '“Length”' })],
    [variant((p) => (branches(p)[0].default = true)), tr('en-US', 'reasons.wfNoDefault', { node: '“Length”' })],
    [variant((p) => (branches(p)[0].conditions = [])), tr('en-US', 'reasons.wfEmptyCondition', { node: '“More than 3 days”' })],
    [variant((p) => (branches(p)[0].priority = 2)), tr('en-US', 'reasons.wfPriority', { node: '“Length”' })],
    [variant((p) => branches(p).pop()), tr('en-US', 'reasons.wfFewBranches', { node: '“Length”' })],
    [
      variant((p) => (branches(p)[0].conditions = [{ kind: 'field', field: 'nothing', op: 'gt', value: 3 }])),
      tr('en-US', 'reasons.wfBadCondition', { node: '“More than 3 days”', key: '“nothing”' }),
    ],
    [
      variant((p) => (branches(p)[0].conditions = [{ kind: 'field', field: 'leave_type', op: 'eq', value: 'holiday' }])),
      tr('en-US', 'reasons.wfBadCondition', { node: '“More than 3 days”', key: '“Leave type” (leave_type)' }),
    ],
    [variant((p) => (branches(p)[1].nodes = [])), tr('en-US', 'reasons.wfNoApproverPath', { node: '“Otherwise”' })],
    [variant((p) => (branches(p)[0].nodes[0].approver = { kind: 'people', person_ids: [] })), tr('en-US', 'reasons.wfNoPeople', { node: '“Head”' })],
    [variant((p) => (branches(p)[0].nodes[0] = { id: 'x', type: 'approver' })), tr('en-US', 'reasons.wfBadNode', { node: '“x”' })],
    [variant((p) => (branches(p)[0].nodes[1].id = 'head2')), tr('en-US', 'reasons.wfDuplicateNode', { node: '“Head”', id: 'head2' })],
    [variant((p) => ((p.nodes[1] as { approver: { person_ids: number[] } }).approver.person_ids = [ids.bPerson])), tr('en-US', 'reasons.wfUnknownPerson')],
  ];
  const before = ok(await call(t.app, 'GET', '/workflow/process/info', { token: A.main, query: { id: leave.id } })).version;
  for (const [p, reason] of cases) {
    const r = await save(p);
    assert.equal(r.code, CODES.RULE, `${reason}: ${r.message}`);
    assert.equal(r.message, `${tr('en-US', 'fields.process')}: ${reason}`);
  }
  assert.equal(ok(await call(t.app, 'GET', '/workflow/process/info', { token: A.main, query: { id: leave.id } })).version, before, 'nothing saved');
  const saved = ok(await save(good));
  assert.equal(saved.version, before + 1);
  assert.deepEqual(saved.process, good);
});

let alice = '';
let mgr = '';
test('people sign in with their phone and an SMS code, or a one-time link; their session is not an administrator session', async () => {
  alice = await signIn(phones.alice);
  mgr = await signIn(phones.mgr);
  const info = ok(await self('GET', '/self/info', alice));
  assert.equal(info.name, 'Alice');
  assert.deepEqual(info.departments, [{ id: ids.sales, name: 'Sales' }]);
  // #17 item 7: the page takes and shows times in the company's zone, so the session info carries it
  const zone = (await t.app.database.db.selectFrom('companies').select('time_zone').where('id', '=', A.id).executeTakeFirstOrThrow()).time_zone;
  assert.equal(info.time_zone, zone);
  await t.app.database.db.updateTable('companies').set({ time_zone: 'America/Los_Angeles' }).where('id', '=', A.id).execute();
  assert.equal(ok(await self('GET', '/self/info', alice)).time_zone, 'America/Los_Angeles');
  await t.app.database.db.updateTable('companies').set({ time_zone: zone }).where('id', '=', A.id).execute();
  // A wrong code, and a number on nobody's record, get the same answer.
  const wrong = await call(t.app, 'POST', '/self/login', { lang: 'en-US', body: { phone: phones.alice, code: '000000' } });
  assert.equal(wrong.code, CODES.RULE);
  assert.equal(wrong.message, tr('en-US', 'errors.smsIncorrect'));
  // The tokens do not cross: an administrator's token is no person session, nor the other way round.
  assert.equal((await self('GET', '/self/info', A.main)).code, CODES.ILLEGAL_TOKEN);
  assert.equal((await call(t.app, 'GET', '/workflow/app/list', { token: alice })).code, CODES.ILLEGAL_TOKEN);
  const link = ok(await call(t.app, 'POST', '/workflow/link', { token: A.main, body: { person_id: ids.boss } }));
  assert.match(link.path, /^\/self\?link=/);
  const viaLink = ok(await call(t.app, 'POST', '/self/link', { body: { token: link.token } }));
  assert.equal(viaLink.person.name, 'Boss Bai');
  const again = await call(t.app, 'POST', '/self/link', { lang: 'en-US', body: { token: link.token } });
  assert.equal(again.code, CODES.RULE, 'a link works once');
  assert.equal(again.message, tr('en-US', 'errors.wfLinkInvalid'));
  // Another company's person cannot have a link made for them.
  assert.equal((await call(t.app, 'POST', '/workflow/link', { token: A.main, body: { person_id: ids.bPerson } })).code, CODES.NOT_FOUND);
  ok(await self('POST', '/self/logout', viaLink.token));
  assert.equal((await self('GET', '/self/info', viaLink.token)).code, CODES.ILLEGAL_TOKEN);
  const apps = ok(await self('GET', '/self/apps', alice));
  assert.ok(apps.items.some((a: { kind: string }) => a.kind === 'leave'));
});

test('a leave of 2 days goes to the department head only; approved, it is in attendance; the person sees the timeline and messages', async () => {
  const made = ok(await self<ApplicationDetail>('POST', '/self/apply', alice, { body: { app_id: leave.id, values: leaveValues(16, 17) } }));
  assert.equal(made.status, 0);
  assert.deepEqual(made.duration, { days: 2, hours: 16 });
  assert.equal(made.current?.node_name, 'Head');
  assert.deepEqual(
    made.current?.approvers.map((x) => x.name),
    ['Manager Ma'],
  );
  assert.equal(made.can_withdraw, true);
  assert.equal(made.can_decide, false);
  assert.deepEqual(await absencesOf(made.id), [], 'nothing in attendance while pending');
  const tasks = ok(await self('GET', '/self/tasks', mgr));
  assert.deepEqual(
    tasks.items.map((x: { id: number }) => x.id),
    [made.id],
  );
  const inbox = ok(await self('GET', '/self/inbox', mgr));
  assert.equal(inbox.items[0].type, 'wfTask');
  assert.equal(inbox.items[0].content, `Alice asks for your approval (${made.order_no}).`);
  // Alice cannot decide her own application.
  const own = await self('POST', '/self/decide', alice, { body: { id: made.id, step_id: made.current.step_id, decision: 'approve', comment: '' } });
  assert.equal(own.code, CODES.NO_AUTHORITY);
  const done = ok(
    await self<ApplicationDetail>('POST', '/self/decide', mgr, {
      body: { id: made.id, step_id: made.current.step_id, decision: 'approve', comment: 'Enjoy' },
    }),
  );
  assert.equal(done.status, 1);
  assert.equal(done.absences.length, 1);
  const rows = await absencesOf(made.id);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.kind, 'leave');
  assert.equal(rows[0]!.from_at, at(16, '09:00'));
  assert.equal(rows[0]!.to_at, at(17, '18:00'));
  assert.equal(rows[0]!.person_id, ids.alice);
  // The days it covers are queued for recomputation in the same transaction.
  const dirty = await t.app.database.db.selectFrom('attendance_dirty').selectAll().where('person_id', '=', ids.alice).executeTakeFirst();
  assert.ok(dirty && dirty.from_date <= '2026-11-16' && dirty.to_date >= '2026-11-17', JSON.stringify(dirty));
  // A decision cannot be changed.
  const change = await self('POST', '/self/decide', mgr, { body: { id: made.id, step_id: made.current.step_id, decision: 'reject', comment: 'No' } });
  assert.equal(change.code, CODES.CONFLICT);
  const mine = ok(await self<ApplicationDetail>('GET', '/self/application', alice, { query: { id: made.id } }));
  assert.deepEqual(
    mine.timeline.map((x) => [x.node_name, x.state]),
    [
      ['Submitted', 'submitted'],
      ['Head', 'approved'],
      ['Copy', 'cc'],
      ['End', 'approved'],
    ],
  );
  assert.equal(mine.timeline[1]!.actors[0]!.comment, 'Enjoy');
  const aliceInbox = ok(await self('GET', '/self/inbox', alice));
  assert.equal(aliceInbox.items[0].type, 'wfApproved');
  const bell = ok(await call(t.app, 'GET', '/message/list', { token: A.main, lang: 'en-US' }));
  assert.ok(
    bell.items.some((m: { type: string; content: string }) => m.type === 'wfSubmitted' && m.content === `Alice applied with Leave (${made.order_no}).`),
  );
  await absencesAreApproved();
});

test('a leave of 5 days goes to the head and then an administrator; nothing reaches attendance until the last approval', async () => {
  const made = ok(await self<ApplicationDetail>('POST', '/self/apply', alice, { body: { app_id: leave.id, values: leaveValues(23, 27) } }));
  assert.deepEqual(made.duration, { days: 5, hours: 40 });
  const first = ok(
    await self<ApplicationDetail>('POST', '/self/decide', mgr, { body: { id: made.id, step_id: made.current!.step_id, decision: 'approve', comment: '' } }),
  );
  assert.equal(first.status, 0);
  assert.equal(first.current?.node_name, 'Administrator');
  assert.deepEqual(
    first.current?.approvers.map((x) => x.kind),
    ['admins'],
  );
  assert.deepEqual(await absencesOf(made.id), []);
  await absencesAreApproved();
  // Alice hears of the step, not only of the end.
  const step = ok(await self('GET', '/self/inbox', alice)).items[0];
  assert.equal(step.type, 'wfStep');
  assert.equal(step.content, `Your application ${made.order_no} passed a step of approval and waits for the next approver.`);
  const bell = ok(await call(t.app, 'GET', '/message/list', { token: A.main, lang: 'en-US' }));
  assert.ok(bell.items.some((m: { type: string }) => m.type === 'wfPending'));
  // The records list shows it pending with the step waiting.
  const list = ok(await call(t.app, 'GET', '/workflow/approval/list', { token: A.main, query: { status: 0, app_id: leave.id } }));
  assert.ok(list.items.some((x: { id: number }) => x.id === made.id));
  const done = ok(
    await call<ApplicationDetail>(t.app, 'POST', '/workflow/approval/decide', {
      token: A.main,
      body: { id: made.id, step_id: first.current.step_id, decision: 'approve', comment: 'OK' },
    }),
  );
  assert.equal(done.status, 1);
  assert.equal((await absencesOf(made.id)).length, 1);
  const adminStep = done.timeline.find((x) => x.node_name === 'Administrator')!;
  assert.deepEqual(
    adminStep.actors.map((x) => [x.kind, x.state, x.comment]),
    [['admin', 'approved', 'OK']],
    "the administrator who decided, on the administrators' task",
  );
  assert.match(adminStep.actors[0]!.name, /^Admin /);
  // The copied person (cc) heard of it, after the route's approvers.
  const boss = await t.app.database.db
    .selectFrom('person_messages')
    .select('type')
    .where('person_id', '=', ids.boss)
    .where('application_id', '=', made.id)
    .execute();
  assert.deepEqual(
    boss.map((m) => m.type),
    ['wfCc'],
  );
  // The absence goes with its application: the attendance page cannot remove it alone.
  const [absence] = await absencesOf(made.id);
  const alone = await call(t.app, 'POST', '/attendance/absence/delete', { token: A.main, lang: 'en-US', body: { id: absence!.id } });
  assert.equal(alone.code, CODES.RULE);
  assert.equal(alone.message, tr('en-US', 'errors.absenceFromApproval'));
  assert.equal((await absencesOf(made.id)).length, 1);
  // Cancelling the approved leave takes it back out of attendance.
  const cancelled = ok(
    await call<ApplicationDetail>(t.app, 'POST', '/workflow/approval/withdraw', { token: A.main, body: { id: made.id, reason: 'Plans changed' } }),
  );
  assert.equal(cancelled.status, -2);
  assert.deepEqual(await absencesOf(made.id), []);
  assert.equal(cancelled.timeline.at(-1)!.state, 'cancelled');
  await absencesAreApproved();
});

test('rejecting needs a reason; a rejected or withdrawn application never reaches attendance', async () => {
  const made = ok(await self<ApplicationDetail>('POST', '/self/apply', alice, { body: { app_id: leave.id, values: leaveValues(18, 18) } }));
  const noReason = await self('POST', '/self/decide', mgr, {
    lang: 'en-US',
    body: { id: made.id, step_id: made.current!.step_id, decision: 'reject', comment: '  ' },
  } as never);
  assert.equal(noReason.code, CODES.RULE);
  assert.equal(noReason.message, `${tr('en-US', 'fields.comment')}: ${tr('en-US', 'reasons.wfReasonRequired')}`);
  const rejected = ok(
    await self<ApplicationDetail>('POST', '/self/decide', mgr, {
      body: { id: made.id, step_id: made.current!.step_id, decision: 'reject', comment: 'Busy week' },
    }),
  );
  assert.equal(rejected.status, -1);
  assert.deepEqual(await absencesOf(made.id), []);
  assert.equal((await self('POST', '/self/withdraw', alice, { body: { id: made.id } })).code, CODES.CONFLICT, 'finished: cannot withdraw');
  const again = ok(await self<ApplicationDetail>('POST', '/self/apply', alice, { body: { app_id: leave.id, values: leaveValues(19, 19) } }));
  const withdrawn = ok(await self<ApplicationDetail>('POST', '/self/withdraw', alice, { body: { id: again.id } }));
  assert.equal(withdrawn.status, -2);
  // The head can no longer decide it.
  assert.equal(
    (await self('POST', '/self/decide', mgr, { body: { id: again.id, step_id: again.current!.step_id, decision: 'approve', comment: '' } })).code,
    CODES.CONFLICT,
  );
  assert.deepEqual(await absencesOf(again.id), []);
  // Bad values: unknown keys, a missing required field, an option not on the form, a range that ends first.
  const bad = async (values: Record<string, unknown>, message: string) => {
    const r = await self('POST', '/self/apply', alice, { body: { app_id: leave.id, values } });
    assert.equal(r.code, CODES.RULE, `${message}: ${r.message}`);
    assert.equal(r.message, message);
  };
  await bad(leaveValues(16, 16, { color: 'red' }), `color: ${tr('en-US', 'reasons.wfUnknownField')}`);
  await bad({ ...leaveValues(16, 16), leave_type: undefined }, `Leave type: ${tr('en-US', 'reasons.required')}`);
  await bad(leaveValues(16, 16, { leave_type: 'holiday' }), `Leave type: ${tr('en-US', 'reasons.invalid')}`);
  await bad(leaveValues(17, 16), `Period: ${tr('en-US', 'reasons.dateOrder')}`);
  await bad(leaveValues(16, 16, { handover: [ids.bPerson] }), `${tr('en-US', 'fields.values')}: ${tr('en-US', 'reasons.wfUnknownPerson')}`);
  await absencesAreApproved();
});

test(`concurrent decisions on the same step: exactly one wins (${DIALECT})`, async () => {
  for (let round = 0; round < 3; round++) {
    // Administrators, several at once.
    const a = ok(
      await call<ApplicationDetail>(t.app, 'POST', '/workflow/approval/create', {
        token: A.main,
        body: { app_id: leave.id, person_id: ids.alice, values: leaveValues(23, 27) },
      }),
    );
    const s1 = ok(
      await self<ApplicationDetail>('POST', '/self/decide', mgr, { body: { id: a.id, step_id: a.current!.step_id, decision: 'approve', comment: '' } }),
    );
    const step = s1.current!.step_id;
    const answers = await Promise.all(
      ['approve', 'reject', 'approve', 'reject'].map((decision) =>
        call(t.app, 'POST', '/workflow/approval/decide', { token: A.main, body: { id: a.id, step_id: step, decision, comment: 'race' } }),
      ),
    );
    const won = answers.filter((r) => r.code === CODES.OK);
    assert.equal(won.length, 1, answers.map((r) => `${r.code} ${r.message}`).join('; '));
    assert.ok(answers.filter((r) => r.code !== CODES.OK).every((r) => r.code === CODES.CONFLICT));
    const final = ok(await call<ApplicationDetail>(t.app, 'GET', '/workflow/approval/info', { token: A.main, query: { id: a.id } }));
    assert.equal(final.status, won[0]!.data.status);
    assert.equal((await absencesOf(a.id)).length, final.status === 1 ? 1 : 0);
    // The head, twice at once (a double tap): one decision.
    const b = ok(await self<ApplicationDetail>('POST', '/self/apply', alice, { body: { app_id: leave.id, values: leaveValues(16, 16) } }));
    const taps = await Promise.all(
      ['approve', 'reject'].map((decision) => self('POST', '/self/decide', mgr, { body: { id: b.id, step_id: b.current!.step_id, decision, comment: 'tap' } })),
    );
    assert.equal(taps.filter((r) => r.code === CODES.OK).length, 1, taps.map((r) => `${r.code} ${r.message}`).join('; '));
    const tasks = await t.app.database.db.selectFrom('workflow_tasks').select('state').where('application_id', '=', b.id).execute();
    assert.equal(tasks.filter((x) => x.state === 'approved' || x.state === 'rejected').length, 1);
  }
  await absencesAreApproved();
});

test("another company's apps, applications and steps are not found", async () => {
  const mine = ok(await self<ApplicationDetail>('POST', '/self/apply', alice, { body: { app_id: leave.id, values: leaveValues(16, 16) } }));
  const as = (token: string, method: 'GET' | 'POST', url: string, o: { body?: unknown; query?: Record<string, number> }) =>
    call(t.app, method, url, { token, ...o });
  for (const [method, url, o] of [
    ['GET', '/workflow/app/info', { query: { id: leave.id } }],
    ['GET', '/workflow/form/info', { query: { id: leave.id } }],
    ['GET', '/workflow/process/info', { query: { id: leave.id } }],
    ['POST', '/workflow/app/enable', { body: { id: leave.id, enabled: false } }],
    ['POST', '/workflow/app/copy', { body: { id: leave.id } }],
    ['POST', '/workflow/form/save', { body: { app_id: leave.id, schema: { fields: [] } } }],
    ['POST', '/workflow/process/save', { body: { app_id: leave.id, process: { nodes: [] } } }],
    ['GET', '/workflow/approval/info', { query: { id: mine.id } }],
    ['POST', '/workflow/approval/decide', { body: { id: mine.id, step_id: mine.current!.step_id, decision: 'approve', comment: '' } }],
    ['POST', '/workflow/approval/withdraw', { body: { id: mine.id } }],
    ['POST', '/workflow/approval/create', { body: { app_id: leave.id, person_id: ids.bPerson, values: leaveValues(16, 16) } }],
    ['POST', '/workflow/approval/create', { body: { app_id: bLeave.id, person_id: ids.alice, values: leaveValues(16, 16) } }],
  ] as const) {
    const r = await as(B.main, method, url, o);
    assert.equal(r.code, CODES.NOT_FOUND, `${method} ${url}: ${r.code} ${r.message}`);
  }
  const list = ok(await call(t.app, 'GET', '/workflow/approval/list', { token: B.main }));
  assert.ok(!list.items.some((x: { id: number }) => x.id === mine.id));
  // B's person sees none of it either.
  const bob = await signIn(phones.bob);
  assert.equal((await self('GET', '/self/application', bob, { query: { id: mine.id } })).code, CODES.NOT_FOUND);
  assert.equal((await self('POST', '/self/apply', bob, { body: { app_id: leave.id, values: leaveValues(16, 16) } })).code, CODES.NOT_FOUND);
  assert.equal((await self('POST', '/self/withdraw', bob, { body: { id: mine.id } })).code, CODES.NOT_FOUND);
  // Nor does another person of A who is not on it.
  const boss = await signIn(phones.boss);
  assert.equal((await self('GET', '/self/application', boss, { query: { id: mine.id } })).code, CODES.NOT_FOUND);
  assert.equal((await self('POST', '/self/withdraw', boss, { body: { id: mine.id } })).code, CODES.NOT_FOUND);
  ok(await self('POST', '/self/withdraw', alice, { body: { id: mine.id } }));
});

/** Bob of company B, through a link B's administrator made. */
async function linkInB(): Promise<string> {
  const link = ok(await call(t.app, 'POST', '/workflow/link', { token: B.main, body: { person_id: ids.bPerson } }));
  return ok(await call(t.app, 'POST', '/self/link', { body: { token: link.token } })).token;
}
/** A person signed in through a one-time link an administrator made. */
async function linkIn(personId: number): Promise<string> {
  const link = ok(await call(t.app, 'POST', '/workflow/link', { token: A.main, body: { person_id: personId } }));
  return ok(await call(t.app, 'POST', '/self/link', { body: { token: link.token } })).token;
}

test('approver modes: all must approve, an empty node skipped, then in order; a department condition picks the branch', async () => {
  const app = ok(
    await call<WorkflowApp>(t.app, 'POST', '/workflow/app/create', {
      token: A.main,
      body: { name: 'Purchase', icon: 'money', sort: 9, enabled: true, scope: 'everyone', department_ids: [], person_ids: [] },
    }),
  );
  const process: ProcessTree = {
    nodes: [
      {
        id: 'where',
        type: 'condition',
        branches: [
          {
            id: 'hq',
            name: 'Under HQ',
            priority: 1,
            default: false,
            conditions: [{ kind: 'department', department_ids: [ids.hq] }],
            nodes: [
              { id: 'both', type: 'approver', name: 'Both', approver: { kind: 'people', person_ids: [ids.mgr, ids.boss] }, mode: 'all', empty: 'admin' },
              { id: 'far', type: 'approver', name: 'Far above', approver: { kind: 'head', level: 3 }, mode: 'any', empty: 'skip' },
              {
                id: 'turns',
                type: 'approver',
                name: 'In turn',
                approver: { kind: 'people', person_ids: [ids.mgr, ids.boss] },
                mode: 'sequential',
                empty: 'admin',
              },
            ],
          },
          {
            id: 'rest',
            priority: 2,
            default: true,
            conditions: [],
            nodes: [{ id: 'adm', type: 'approver', approver: { kind: 'admins' }, mode: 'any', empty: 'admin' }],
          },
        ],
      },
    ],
  };
  // Keys a nested node's schema does not name are not stored.
  const sent = structuredClone(process) as unknown as { nodes: { branches: { nodes: Record<string, unknown>[] }[] }[] };
  sent.nodes[0]!.branches[0]!.nodes[0]!.extra = 'x';
  const saved = ok(await call(t.app, 'POST', '/workflow/process/save', { token: A.main, body: { app_id: app.id, process: sent } }));
  assert.deepEqual(saved.process, process);
  const boss = await linkIn(ids.boss);
  const made = ok(await self<ApplicationDetail>('POST', '/self/apply', alice, { body: { app_id: app.id, values: { reason: 'Laptop' } } }));
  assert.equal(made.current?.node_name, 'Both');
  const step = made.current.step_id;
  const one = ok(await self<ApplicationDetail>('POST', '/self/decide', mgr, { body: { id: made.id, step_id: step, decision: 'approve', comment: '' } }));
  assert.equal(one.status, 0);
  assert.deepEqual(
    one.current?.approvers.map((x) => x.name),
    ['Boss Bai'],
    'all must approve: the boss is still to decide',
  );
  const two = ok(await self<ApplicationDetail>('POST', '/self/decide', boss, { body: { id: made.id, step_id: step, decision: 'approve', comment: '' } }));
  assert.equal(two.current?.node_name, 'In turn');
  assert.deepEqual(
    two.timeline.map((x) => [x.node_name, x.state]),
    [
      ['Submitted', 'submitted'],
      ['Both', 'approved'],
      ['Far above', 'skipped'],
      ['In turn', 'pending'],
    ],
  );
  // In order: the boss waits for the manager.
  const early = await self('POST', '/self/decide', boss, { body: { id: made.id, step_id: two.current.step_id, decision: 'approve', comment: '' } });
  assert.equal(early.code, CODES.NO_AUTHORITY);
  assert.equal(ok(await self('GET', '/self/tasks', boss)).items.filter((x: { id: number }) => x.id === made.id).length, 0, 'not yet their task');
  ok(await self('POST', '/self/decide', mgr, { body: { id: made.id, step_id: two.current.step_id, decision: 'approve', comment: '' } }));
  assert.equal(ok(await self('GET', '/self/tasks', boss)).items.filter((x: { id: number }) => x.id === made.id).length, 1, 'now their turn');
  const done = ok(
    await self<ApplicationDetail>('POST', '/self/decide', boss, { body: { id: made.id, step_id: two.current.step_id, decision: 'approve', comment: '' } }),
  );
  assert.equal(done.status, 1);
  assert.deepEqual(done.absences, [], 'a custom app is only recorded');
  const decided = ok(await self('GET', '/self/tasks', boss, { query: { done: 1 } }));
  assert.ok(decided.items.some((x: { id: number }) => x.id === made.id));
  // Someone outside HQ takes the default branch: the administrators.
  const outsider = ok(await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Outside' } })).id;
  const zed = await addPersonWithFace(t, A, { name: 'Zed', phone: '13900000104', organizations: [outsider], number: '104' });
  const z = ok(
    await call<ApplicationDetail>(t.app, 'POST', '/workflow/approval/create', {
      token: A.main,
      body: { app_id: app.id, person_id: zed, values: { reason: 'Chair' } },
    }),
  );
  assert.deepEqual(
    z.current?.approvers.map((x) => x.kind),
    ['admins'],
  );
  assert.equal(z.source, 'admin');
});

test('an approved trip is out of office, an approved supplementary punch is a supplement, approved overtime an overtime period', async () => {
  const apps = ok(await call<{ items: WorkflowApp[] }>(t.app, 'GET', '/workflow/app/list', { token: A.main })).items;
  const byKind = (k: string) => apps.find((a) => a.kind === k)!.id;
  const approveAll = async (a: ApplicationDetail) => {
    let d = a;
    while (d.status === 0 && d.current)
      d = ok(
        await call<ApplicationDetail>(t.app, 'POST', '/workflow/approval/decide', {
          token: A.main,
          body: { id: d.id, step_id: d.current.step_id, decision: 'approve', comment: '' },
        }),
      );
    return d;
  };
  const apply = (app: number, values: Record<string, unknown>) =>
    call<ApplicationDetail>(t.app, 'POST', '/workflow/approval/create', { token: A.main, body: { app_id: app, person_id: ids.alice, values } });
  const trip = await approveAll(
    ok(await apply(byKind('trip'), { trip_type: 'out', period: { from: at(24, '13:00'), to: at(24, '18:00') }, reason: 'Client' })),
  );
  assert.equal(trip.status, 1);
  assert.deepEqual(
    (await absencesOf(trip.id)).map((x) => [x.kind, x.from_at, x.to_at]),
    [['out', at(24, '13:00'), at(24, '18:00')]],
  );
  const punch = await approveAll(ok(await apply(byKind('supplement'), { punch_time: at(25, '09:01'), reason: 'Forgot' })));
  assert.deepEqual(
    (await absencesOf(punch.id)).map((x) => [x.kind, x.from_at, x.to_at]),
    [['supplement', at(25, '09:01'), at(25, '09:01')]],
  );
  const overtime = await approveAll(ok(await apply(byKind('overtime'), { period: { from: at(21, '10:00'), to: at(21, '14:00') }, reason: 'Release' })));
  assert.equal(overtime.status, 1);
  // approved overtime reaches attendance as an 'overtime' period (#17), read by rules counting only approved overtime
  assert.deepEqual(
    (await absencesOf(overtime.id)).map((x) => [x.kind, x.from_at, x.to_at]),
    [['overtime', at(21, '10:00'), at(21, '14:00')]],
  );
  assert.deepEqual(overtime.period, { from: at(21, '10:00'), to: at(21, '14:00') });
  await absencesAreApproved();
});

test('pictures and attachments: uploaded, named in a form, read back by the company only', async () => {
  const pic = await upload(t, '/self/upload', '', { name: 'note.png', data: await picture(300, 200, 'png') });
  assert.equal(pic.code, CODES.ILLEGAL_TOKEN, 'an administrator upload helper without a person token');
  const put = async (url: string, headers: Record<string, string>, file: { name: string; data: Buffer }, kind: string) => {
    const f = form(file, { kind });
    const res = await t.app.inject({ method: 'POST', url: API + url, headers: { ...f.headers, ...headers, 'x-lang': 'en-US' }, payload: f.payload });
    return res.json<Answer>();
  };
  const picBody = await picture(300, 200, 'png');
  const p = ok(await put('/self/upload', { 'x-person-token': alice }, { name: 'note.png', data: picBody }, 'picture'));
  assert.match(p.name, /^[a-f0-9]{32}\.jpg$/);
  assert.equal(p.picture, true);
  const doc = ok(await put('/workflow/upload', { 'x-token': A.main }, { name: 'scan.PDF', data: Buffer.from('%PDF-1.4 hello') }, 'attachment'));
  assert.match(doc.name, /\.pdf$/);
  const notPicture = await put('/self/upload', { 'x-person-token': alice }, { name: 'x.png', data: Buffer.from('not a picture') }, 'picture');
  assert.equal(notPicture.code, CODES.RULE);
  // The leave form's picture field takes it; a name never uploaded here is refused.
  const made = ok(
    await self<ApplicationDetail>('POST', '/self/apply', alice, { body: { app_id: leave.id, values: leaveValues(30, 30, { attachments: [p.name] }) } }),
  );
  assert.deepEqual(made.values.attachments, [p.name]);
  const unknown = await self('POST', '/self/apply', alice, {
    body: { app_id: leave.id, values: leaveValues(30, 30, { attachments: [`${'0'.repeat(32)}.jpg`] }) },
  });
  assert.equal(unknown.code, CODES.RULE);
  assert.equal(unknown.message, `${tr('en-US', 'fields.values')}: ${tr('en-US', 'reasons.wfUnknownFile')}`);
  const seen = await t.app.inject({ method: 'GET', url: `${API}/self/file/${p.name}`, headers: { 'x-person-token': mgr } });
  assert.equal(seen.statusCode, 200);
  assert.equal(seen.headers['content-type'], 'image/jpeg');
  assert.equal(seen.rawPayload.subarray(0, 2).toString('hex'), 'ffd8', 're-encoded as JPEG');
  const attachment = await t.app.inject({ method: 'GET', url: `${API}/workflow/file/${doc.name}`, headers: { 'x-token': A.main } });
  assert.equal(attachment.headers['content-type'], 'application/octet-stream');
  assert.match(String(attachment.headers['content-disposition']), /^attachment/);
  assert.equal(attachment.headers['x-content-type-options'], 'nosniff');
  // Another company's administrator or person does not find it.
  assert.equal((await call(t.app, 'GET', `/workflow/file/${p.name}`, { token: B.main })).code, CODES.NOT_FOUND);
  const bob = await linkInB();
  assert.equal((await self('GET', `/self/file/${p.name}`, bob)).code, CODES.NOT_FOUND);
  ok(await self('POST', '/self/withdraw', alice, { body: { id: made.id } }));
});

test('designers and forms pick people and departments: administrators with only the workflow right, and persons', async () => {
  const sub = await makeSub(t, A, ['workflow']);
  assert.equal((await call(t.app, 'GET', '/person/list', { token: sub.token })).code, CODES.NO_AUTHORITY, 'no people right');
  const people = ok(await call(t.app, 'GET', '/workflow/people', { token: sub.token, query: { department_id: ids.hq, pageSize: 100 } }));
  const names = people.items.map((p: { name: string }) => p.name);
  assert.ok(names.includes('Alice') && names.includes('Boss Bai') && names.includes('Manager Ma'), names.join());
  assert.deepEqual(people.items.find((p: { name: string }) => p.name === 'Alice').departments, [{ id: ids.sales, name: 'Sales' }]);
  const byKeyword = ok(await call(t.app, 'GET', '/workflow/people', { token: sub.token, query: { keyword: 'ali' } }));
  assert.deepEqual(
    byKeyword.items.map((p: { name: string }) => p.name),
    ['Alice'],
  );
  const deps = ok(await call(t.app, 'GET', '/workflow/departments', { token: sub.token }));
  assert.deepEqual(
    deps.items.filter((d: { id: number }) => d.id === ids.hq || d.id === ids.sales),
    [
      { id: ids.hq, name: 'HQ', parent_id: 0 },
      { id: ids.sales, name: 'Sales', parent_id: ids.hq },
    ],
  );
  // A person sees their own company's people and departments only.
  assert.ok(ok(await self('GET', '/self/people', alice, { query: { keyword: 'boss' } })).items.some((p: { id: number }) => p.id === ids.boss));
  // By phone: administrators find the person; a person does not (whose number it is stays unknown to them).
  assert.equal(ok(await call(t.app, 'GET', '/workflow/people', { token: sub.token, query: { keyword: phones.boss } })).total, 1);
  assert.equal(ok(await self('GET', '/self/people', alice, { query: { keyword: phones.boss } })).total, 0);
  const bob = await linkInB();
  assert.equal(ok(await self('GET', '/self/people', bob, { query: { keyword: 'alice' } })).total, 0);
  assert.ok(!ok(await self('GET', '/self/departments', bob)).items.some((d: { id: number }) => d.id === ids.hq));
});

test('a person who left loses their self-service session', async () => {
  const dept = ok(await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Temps' } })).id;
  const id = await addPersonWithFace(t, A, { name: 'Temp Tang', phone: '13900000105', organizations: [dept], number: '105' });
  const token = await linkIn(id);
  ok(await self('GET', '/self/info', token));
  const info = ok(await call(t.app, 'GET', '/person/info', { token: A.main, query: { id } }));
  ok(
    await call(t.app, 'POST', '/person/update', {
      token: A.main,
      body: { id, name: info.name, phone: info.phone, organizations: [dept], pic: info.pic, workStatus: 0 },
    }),
  );
  assert.equal((await self('GET', '/self/info', token)).code, CODES.TOKEN_EXPIRED);
  assert.equal((await call(t.app, 'POST', '/workflow/link', { token: A.main, body: { person_id: id } })).code, CODES.RULE);
});

test('records: filters, export (xlsx) and import of past records (xlsx only, at most 2 MB, errors per row)', async () => {
  const byKeyword = ok(
    await call(t.app, 'GET', '/workflow/approval/list', { token: A.main, query: { keyword: 'alice', department_id: ids.hq, pageSize: 100 } }),
  );
  assert.ok(byKeyword.total >= 5);
  assert.ok(byKeyword.items.every((x: { applicant: { name: string } }) => x.applicant.name === 'Alice'));
  assert.equal(ok(await call(t.app, 'GET', '/workflow/approval/list', { token: A.main, query: { keyword: 'nobody-here' } })).total, 0);
  assert.equal(ok(await call(t.app, 'GET', '/workflow/approval/list', { token: A.main, query: { from: '2020-01-01', to: '2020-01-02' } })).total, 0);
  const exported = await t.app.inject({
    method: 'POST',
    url: `${API}/workflow/approval/export`,
    headers: { 'x-token': A.main, 'x-lang': 'en-US' },
    payload: { status: 1 },
  });
  assert.equal(exported.statusCode, 200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  assert.equal(ws.getRow(1).getCell(1).value, 'Order number');
  assert.ok(ws.rowCount >= 2);
  assert.equal(ws.getRow(2).getCell(7).value, 'Approved');

  const sheet = new ExcelJS.Workbook();
  const s = sheet.addWorksheet('x');
  s.addRow(['Number', 'Approval app', 'Status', 'Created', 'Leave type', 'From', 'To', 'Reason']);
  s.addRow(['101', 'Leave', 'Approved', '2026-10-01 09:00', 'Sick leave', '2026-10-05 09:00', '2026-10-05 18:00', 'Flu']);
  s.addRow(['999', 'Leave', 'Approved', '', 'Sick leave', '2026-10-06 09:00', '2026-10-06 18:00', '']);
  s.addRow(['101', 'Nope', 'Maybe', '', '', '', '', '']);
  s.addRow(['101', 'Leave', 'Rejected', '', 'Annual leave', '2026-10-07 09:00', '2026-10-07 18:00', 'Too late']);
  const file = Buffer.from(await sheet.xlsx.writeBuffer());
  const imp = (data: Buffer, name = 'past.xlsx') => upload(t, '/workflow/approval/import', A.main, { name, data });
  const r = await imp(file);
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.total, 4);
  assert.equal(r.data.created, 2);
  assert.deepEqual(
    r.data.errors.map((e: { row: number; field: string }) => [e.row, e.field]),
    [
      [3, 'Number'],
      [4, 'Approval app'],
      [4, 'Status'],
    ],
  );
  const imported = await t.app.database.db.selectFrom('workflow_applications').selectAll().where('source', '=', 'import').orderBy('id').execute();
  assert.deepEqual(
    imported.map((x) => [x.status, x.leave_type]),
    [
      [1, 'sick'],
      [-1, 'annual'],
    ],
  );
  assert.equal((await absencesOf(imported[0]!.id)).length, 1, 'an approved past leave is in attendance');
  assert.equal((await absencesOf(imported[1]!.id)).length, 0);
  await absencesAreApproved();
  // An imported order number that a new application's would repeat: the new one takes a suffix (never a 500).
  const last = Number(
    (
      await t.app.database.db
        .selectFrom('workflow_applications')
        .select((eb) => eb.fn.max('id').as('m'))
        .executeTakeFirstOrThrow()
    ).m,
  );
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date()).replaceAll('-', '');
  const clash = `${today}${String(last + 2).padStart(6, '0')}`;
  const taken = new ExcelJS.Workbook();
  const ts = taken.addWorksheet('x');
  ts.addRow(['Number', 'Approval app', 'Status', 'Reason', 'Order number', 'Leave type', 'From', 'To']);
  ts.addRow(['101', 'Leave', 'Rejected', 'Old', clash, 'Annual leave', '2026-09-01 09:00', '2026-09-01 18:00']);
  assert.equal((await imp(Buffer.from(await taken.xlsx.writeBuffer()))).data.created, 1);
  const next = ok(await self<ApplicationDetail>('POST', '/self/apply', alice, { body: { app_id: leave.id, values: leaveValues(30, 30) } }));
  assert.equal(next.order_no, `${clash}-2`);
  ok(await self('POST', '/self/withdraw', alice, { body: { id: next.id } }));
  const notXlsx = await imp(Buffer.from('number,app\n101,Leave\n'), 'past.csv');
  assert.equal(notXlsx.code, CODES.RULE);
  const big = await imp(Buffer.alloc(2 * 1024 * 1024 + 10, 1));
  assert.equal(big.code, CODES.RULE);
  assert.equal(big.message, tr('en-US', 'errors.fileTooLarge', { mb: 2 }));
});

test('LAN mode: approvals are refused to everyone, console and self-service alike', async () => {
  // LAN mode has no registration (no SMS): the administrator comes from ADMIN_USERNAME/ADMIN_PASSWORD.
  const lan = await makeApp({ RUN_MODE: 'lan', ADMIN_USERNAME: 'lanwf', ADMIN_PASSWORD: 'secret1' });
  try {
    const token = await login(lan.app, 'lanwf', 'secret1');
    assert.equal((await call(lan.app, 'POST', '/company/create', { token, body: { name: 'Lan Co', phone: '010-1234567' } })).code, CODES.OK);
    const C = { main: token };
    const r = await call(lan.app, 'GET', '/workflow/app/list', { token: C.main, lang: 'en-US' });
    assert.equal(r.code, CODES.NO_AUTHORITY);
    assert.equal(r.message, tr('en-US', 'errors.lanMode'));
    const s = await call(lan.app, 'POST', '/self/login', { lang: 'en-US', body: { phone: '13900000999', code: '123456' } });
    assert.equal(s.code, CODES.NO_AUTHORITY);
    // Other areas are untouched.
    assert.equal((await call(lan.app, 'GET', '/message/count', { token: C.main })).code, CODES.OK);
  } finally {
    await lan.close();
  }
});
