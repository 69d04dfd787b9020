import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type RuleInput } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let A: Company;
let B: Company;
let dept: number;
let sub: number;
let people: number[];

before(async () => {
  t = await makeApp();
  // The recompute job (every second) would drain the queue these tests read after a write.
  await t.app.jobs.stop();
  A = await makeCompany(t, 'Rules A');
  B = await makeCompany(t, 'Rules B');
  dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Office' } })).data.id;
  sub = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Office floor 2', parent_id: dept } })).data.id;
  people = [];
  for (const [i, d] of [dept, dept, sub].entries()) {
    const p = await t.app.database.db
      .insertInto('persons')
      .values({ company_id: A.id, number: `R${i}`, name: `Person ${i}`, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.database.db.insertInto('person_departments').values({ company_id: A.id, person_id: p.id, department_id: d }).execute();
    people.push(p.id);
  }
});
after(() => t.close());

const fixed = (over: Partial<RuleInput> = {}): RuleInput => ({
  name: 'Office hours',
  mode: 'fixed',
  shifts: [
    { key: 'am', name: 'Morning', start: '09:00', end: '12:00', late_grace_min: 5 },
    { key: 'pm', name: 'Afternoon', start: '13:00', end: '18:00', breaks: [{ start: '15:00', end: '15:15', deducted: false }] },
  ],
  weekdays: { 0: [], 1: ['am', 'pm'], 2: ['am', 'pm'], 3: ['am', 'pm'], 4: ['am', 'pm'], 5: ['am'], 6: [] },
  person_ids: [],
  department_ids: [dept],
  ...over,
});
/** A shift as the answer gives it, sent back as input (its key says which it is; the id is the server's). */
const withoutId = ({ id: _id, ...shift }: { id: number } & Record<string, unknown>) => shift;
const create = (body: unknown, token = A.main) => call(t.app, 'POST', '/attendance/rule/create', { token, body, lang: 'en-US' });

test(`a fixed rule with two shifts a day: stored, answered with keys, covering the department and its sub-departments (${DIALECT})`, async () => {
  const r = await create(fixed());
  assert.equal(r.code, CODES.OK, r.message);
  const rule = r.data;
  assert.equal(rule.shifts.length, 2);
  const [am, pm] = rule.shifts;
  assert.deepEqual(rule.weekdays['1'], [am.key, pm.key]);
  assert.deepEqual(rule.weekdays['5'], [am.key]);
  assert.equal(am.late_grace_min, 5);
  assert.equal(am.check_in_before_min, 120, 'default window');
  assert.deepEqual(pm.breaks, [{ start: '15:00', end: '15:15', deducted: false }]);
  assert.equal(rule.member_count, 3, 'two in Office, one in its sub-department');
  assert.deepEqual(rule.departments, [{ id: dept, name: 'Office' }]);
  // Every covered person-day of this month so far waits to be recomputed.
  const dirty = await t.app.database.db.selectFrom('attendance_dirty').selectAll().where('company_id', '=', A.id).execute();
  assert.deepEqual(dirty.map((d) => d.person_id).sort(), [...people].sort());
  // Editing keeps the shifts that are sent back by their keys, and removes the one left out.
  const edited = await call(t.app, 'POST', '/attendance/rule/update', {
    token: A.main,
    body: { ...fixed(), id: rule.id, shifts: [{ ...withoutId(am), late_grace_min: 10 }], weekdays: { 0: [], 1: [am.key], 2: [], 3: [], 4: [], 5: [], 6: [] } },
  });
  assert.equal(edited.code, CODES.OK, edited.message);
  assert.equal(edited.data.shifts.length, 1);
  assert.equal(edited.data.shifts[0].id, am.id, 'the same shift, edited');
  assert.equal(edited.data.shifts[0].late_grace_min, 10);
  const log = await call(t.app, 'GET', '/log/list', { token: A.main, query: { module: 'attendance' }, lang: 'en-US' });
  assert.ok(log.data.items.some((i: { description: string }) => i.description === 'Updated attendance rule Office hours'));
  assert.equal((await call(t.app, 'POST', '/attendance/rule/delete', { token: A.main, body: { id: rule.id } })).code, CODES.OK);
});

test(`rules the shape cannot check are refused with the field, and nothing is stored (${DIALECT})`, async () => {
  const before = (await call(t.app, 'GET', '/attendance/rule/list', { token: A.main })).data.total;
  const cases: [string, unknown, string][] = [
    ['a weekday names an unknown shift', fixed({ weekdays: { 0: [], 1: ['zz'], 2: [], 3: [], 4: [], 5: [], 6: [] } }), 'weekdays'],
    ['no working day', fixed({ weekdays: { 0: [], 1: [], 2: [], 3: [], 4: [], 5: [], 6: [] } }), 'weekdays'],
    ['a shift that ends when it starts', fixed({ shifts: [{ key: 'am', name: 'Zero', start: '09:00', end: '09:00' }] }), 'shifts'],
    [
      'two shifts with one key',
      fixed({
        shifts: [
          { key: 'am', name: 'A', start: '09:00', end: '12:00' },
          { key: 'am', name: 'B', start: '13:00', end: '18:00' },
        ],
      }),
      'shifts',
    ],
    ['another company department', fixed({ department_ids: [999_999] }), 'department_ids'],
    [
      'a cycle day names an unknown shift',
      { ...fixed({ mode: 'shift', weekdays: undefined }), cycles: [{ key: 'c', name: '2on2off', days: ['am', 'x'] }] },
      'cycles',
    ],
    [
      'a running cycle without a start date',
      { ...fixed({ mode: 'shift' }), cycles: [{ key: 'c', name: 'cyc', days: ['am', ''] }], cycle_key: 'c' },
      'start_date',
    ],
  ];
  for (const [label, body, field] of cases) {
    const r = await create(body);
    assert.equal(r.code, CODES.RULE, `${label}: ${r.message}`);
    assert.deepEqual(r.data, { field }, label);
  }
  // spec §5: a cycle's name has at most 8 characters (the schema says so).
  const long = await create({ ...fixed({ mode: 'shift' }), cycles: [{ key: 'c', name: '123456789', days: ['am'] }] });
  assert.equal(long.code, CODES.VALIDATION);
  assert.equal((await call(t.app, 'GET', '/attendance/rule/list', { token: A.main })).data.total, before);
});

test(`a night shift (22:00–06:00) in a 2 days, 2 nights, 2 rest cycle; a free-hours rule (${DIALECT})`, async () => {
  const night = await create({
    name: 'Guards',
    mode: 'shift',
    shifts: [
      { key: 'd', name: 'Day', start: '08:00', end: '20:00' },
      { key: 'n', name: 'Night', start: '22:00', end: '06:00' },
    ],
    cycles: [{ key: 'c', name: '2D2N2R', days: ['d', 'd', 'n', 'n', '', ''] }],
    cycle_key: 'c',
    start_date: '2026-11-01',
    start_index: 2,
    person_ids: [],
    department_ids: [],
  });
  assert.equal(night.code, CODES.OK, night.message);
  const [d, n] = night.data.shifts;
  assert.deepEqual(night.data.cycles[0].days, [d.key, d.key, n.key, n.key, '', '']);
  assert.equal(night.data.cycle_key, night.data.cycles[0].key);
  assert.equal(night.data.start_index, 2);
  const free = await create({ name: 'Flexible', mode: 'free', shifts: [], day_boundary: '05:00', required_min: 450, person_ids: [], department_ids: [] });
  assert.equal(free.code, CODES.OK, free.message);
  assert.equal(free.data.required_min, 450);
  for (const id of [night.data.id, free.data.id]) await call(t.app, 'POST', '/attendance/rule/delete', { token: A.main, body: { id } });
});

test(`a person is under one rule at a time: a second rule naming them the same way is refused with their names (${DIALECT})`, async () => {
  const first = await create(fixed({ name: 'First', department_ids: [dept] }));
  assert.equal(first.code, CODES.OK);
  const clash = await create(fixed({ name: 'Second', department_ids: [sub] }));
  assert.equal(clash.code, CODES.CONFLICT);
  assert.match(clash.message, /Person 2/);
  assert.match(clash.message, /"First"/);
  // Naming one person directly is more specific than a department: allowed, and it is theirs.
  const direct = await create(fixed({ name: 'Direct', department_ids: [], person_ids: [people[0]!] }));
  assert.equal(direct.code, CODES.OK, direct.message);
  const again = await create(fixed({ name: 'Direct 2', department_ids: [], person_ids: [people[0]!] }));
  assert.equal(again.code, CODES.CONFLICT);
  for (const id of [first.data.id, direct.data.id]) await call(t.app, 'POST', '/attendance/rule/delete', { token: A.main, body: { id } });
});

test(`another company's rules and holidays are not found; a sub-admin without the attendance right is refused (${DIALECT})`, async () => {
  const r = (await create(fixed({ name: 'Mine', department_ids: [] }))).data;
  const h = (
    await call(t.app, 'POST', '/attendance/holiday/create', {
      token: A.main,
      body: { name: 'Day off', kind: 'holiday', from_date: '2026-10-01', to_date: '2026-10-07', rule_ids: [r.id] },
    })
  ).data;
  for (const [path, body] of [
    ['/attendance/rule/update', { ...fixed({ department_ids: [] }), id: r.id }],
    ['/attendance/rule/delete', { id: r.id }],
    ['/attendance/holiday/update', { id: h.id, name: 'x', kind: 'holiday', from_date: '2026-10-01', to_date: '2026-10-02', rule_ids: [] }],
    ['/attendance/holiday/delete', { id: h.id }],
  ] as const)
    assert.equal((await call(t.app, 'POST', path, { token: B.main, body })).code, CODES.NOT_FOUND, path);
  assert.equal((await call(t.app, 'GET', '/attendance/rule/info', { token: B.main, query: { id: r.id } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'GET', '/attendance/rule/list', { token: B.main })).data.total, 0);
  assert.equal(
    (
      await call(t.app, 'POST', '/attendance/holiday/create', {
        token: B.main,
        body: { name: 'x', kind: 'holiday', from_date: '2026-10-01', to_date: '2026-10-01', rule_ids: [r.id] },
      })
    ).code,
    CODES.RULE,
  );
  const viewer = await makeSub(t, A, ['userView']);
  assert.equal((await call(t.app, 'GET', '/attendance/rule/list', { token: viewer.token })).code, CODES.NO_AUTHORITY);
  assert.equal((await create(fixed({ name: 'Nope', department_ids: [] }), viewer.token)).code, CODES.NO_AUTHORITY);
});

test(`holidays and moved working days: listed by year, ordered, refused when the dates are reversed (${DIALECT})`, async () => {
  const add = (body: Record<string, unknown>) =>
    call(t.app, 'POST', '/attendance/holiday/create', { token: A.main, body: { rule_ids: [], ...body }, lang: 'en-US' });
  const spring = await add({ name: 'Spring Festival', kind: 'holiday', from_date: '2027-02-06', to_date: '2027-02-12' });
  assert.equal(spring.code, CODES.OK, spring.message);
  const moved = await add({ name: 'Spring Festival (moved)', kind: 'workday', from_date: '2027-02-13', to_date: '2027-02-13', as_weekday: 5 });
  assert.equal(moved.data.as_weekday, 5);
  const reversed = await add({ name: 'Backwards', kind: 'holiday', from_date: '2027-03-02', to_date: '2027-03-01' });
  assert.equal(reversed.code, CODES.RULE);
  assert.deepEqual(reversed.data, { field: 'to_date' });
  const list = await call(t.app, 'GET', '/attendance/holiday/list', { token: A.main, query: { year: 2027 } });
  assert.deepEqual(
    list.data.items.map((h: { name: string }) => h.name),
    ['Spring Festival', 'Spring Festival (moved)'],
  );
  assert.equal((await call(t.app, 'GET', '/attendance/holiday/list', { token: A.main, query: { year: 2028 } })).data.total, 0);
});
