import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, SCHEDULE_LIMITS, type RuleInput } from '@faceadmin/shared';
import { sql } from 'kysely';
import { transaction } from '../../db/transaction.ts';
import { call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';

/** The free scheduling grid (#10, spec §2 /attendance/freeSchedule, §4 schedule hashes). */
let t: TestApp;
let A: Company;
let B: Company;
let people: number[];
let outsider: number;
let line: number;
let office: number;
let bPerson: number;
let rule: any;
let D: string;
let N: string;
const MONTH = '2026-11';

/** 2 days, 2 nights, 2 rest running from 1 November; a second template "nights" only applied by hand. */
const ruleInput = (deptId: number): RuleInput => ({
  name: 'Production',
  mode: 'shift',
  shifts: [
    { key: 'd', name: 'Day', start: '08:00', end: '20:00' },
    { key: 'n', name: 'Night', start: '22:00', end: '06:00' },
  ],
  cycles: [
    { key: 'c', name: '2D2N2R', days: ['d', 'd', 'n', 'n', '', ''] },
    { key: 't', name: 'Nights', days: ['n', 'n', ''] },
  ],
  cycle_key: 'c',
  start_date: '2026-11-01',
  start_index: 0,
  person_ids: [],
  department_ids: [deptId],
});

async function person(company: Company, number: string, name: string, dept?: number) {
  const p = await t.app.database.db
    .insertInto('persons')
    .values({ company_id: company.id, number, name, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  if (dept) await t.app.database.db.insertInto('person_departments').values({ company_id: company.id, person_id: p.id, department_id: dept }).execute();
  return p.id;
}

before(async () => {
  t = await makeApp();
  // The recompute job would drain the queue this test reads: it is run by hand where a result matters.
  await t.app.ready();
  await t.app.jobs.stop();
  A = await makeCompany(t, 'Grid A');
  B = await makeCompany(t, 'Grid B');
  line = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Line 1' } })).data.id;
  office = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Office' } })).data.id;
  people = [await person(A, 'G1', 'Ann', line), await person(A, 'G2', 'Bob', line), await person(A, 'G3', 'Cai', line)];
  outsider = await person(A, 'G9', 'Outside', office);
  bPerson = await person(B, 'B1', 'Other company');
  const r = await call(t.app, 'POST', '/attendance/rule/create', { token: A.main, body: ruleInput(line) });
  assert.equal(r.code, CODES.OK, r.message);
  rule = r.data;
  [D, N] = rule.shifts.map((s: { key: string }) => s.key);
});
after(() => t.close());

const grid = (query: Record<string, unknown> = {}, token = A.main) =>
  call(t.app, 'GET', '/attendance/schedule', { token, query: { rule_id: rule.id, month: MONTH, ...query }, lang: 'en-US' });
const save = (body: Record<string, unknown>, token = A.main) =>
  call(t.app, 'POST', '/attendance/schedule/save', { token, body: { rule_id: rule.id, month: MONTH, cells: [], ...body }, lang: 'en-US' });
const cellOf = (g: any, personId: number, date: string) => g.items.find((p: any) => p.person_id === personId).cells[g.days.indexOf(date)];
const clearQueue = () => t.app.database.db.deleteFrom('attendance_dirty').execute();
const queue = async () =>
  (await t.app.database.db.selectFrom('attendance_dirty').select(['person_id', 'from_date', 'to_date']).orderBy('person_id').execute()).map((r) => ({ ...r }));

test(`the grid: the rule's people × the month's days, each day from the running cycle until set (${DIALECT})`, async () => {
  const g = await grid();
  assert.equal(g.code, CODES.OK, g.message);
  assert.equal(g.data.days.length, 30);
  assert.deepEqual(
    g.data.items.map((p: any) => p.name),
    ['Ann', 'Bob', 'Cai'],
    'the people under the rule (not the office), by name',
  );
  assert.equal(g.data.total, 3);
  assert.deepEqual(
    g.data.shifts.map((s: any) => s.name),
    ['Day', 'Night'],
  );
  assert.deepEqual(
    g.data.cycles.map((c: any) => c.name),
    ['2D2N2R', 'Nights'],
  );
  // 1 Nov is day 0 of the 2D2N2R cycle: day, day, night, night, rest, rest, day …
  assert.deepEqual(
    g.data.items[0].cells.slice(0, 7).map((c: any) => c.shift_key),
    [D, D, N, N, '', '', D],
  );
  assert.ok(g.data.items[0].cells.every((c: any) => c.source === 'cycle' && c.cycle_key === null));
  assert.match(g.data.hash, /^[0-9a-f]{64}$/);
  assert.deepEqual(g.data.running, { cycle_key: rule.cycles[0].key, start_date: '2026-11-01', start_index: 0 });
  // A page of people, and a department filter, keep the hash of the whole rule's month.
  const page = await grid({ page: 2, pageSize: 2 });
  assert.deepEqual(
    page.data.items.map((p: any) => p.name),
    ['Cai'],
  );
  assert.equal(page.data.hash, g.data.hash);
  const inOffice = await grid({ department_id: office });
  assert.deepEqual([inOffice.data.total, inOffice.data.hash], [0, g.data.hash], "the office's person is not under this rule");
  assert.equal((await grid({ department_id: line })).data.total, 3);
  // A rule that is not in shift mode has no grid.
  const fixed = await call(t.app, 'POST', '/attendance/rule/create', {
    token: A.main,
    body: {
      name: 'Office',
      mode: 'fixed',
      shifts: [{ key: 'a', name: 'A', start: '09:00', end: '18:00' }],
      weekdays: { 0: [], 1: ['a'], 2: [], 3: [], 4: [], 5: [], 6: [] },
      person_ids: [],
      department_ids: [],
    },
  });
  const r = await grid({ rule_id: fixed.data.id });
  assert.equal(r.code, CODES.RULE);
  assert.deepEqual(r.data, { field: 'rule_id' });
  assert.equal(r.message, 'Rule: is not a shift-mode rule');
  await call(t.app, 'POST', '/attendance/rule/delete', { token: A.main, body: { id: fixed.data.id } });
});

test(`saving cells: stored, answered with the new hash, the changed person-days queued and the engine following, audited (${DIALECT})`, async () => {
  const loaded = (await grid()).data;
  await clearQueue();
  const [ann, bob] = people as [number, number];
  const r = await save({
    hash: loaded.hash,
    cells: [
      { person_id: ann, date: '2026-11-05', shift_key: D },
      { person_id: ann, date: '2026-11-09', shift_key: N },
      { person_id: bob, date: '2026-11-01', shift_key: '' },
      // the same as the cycle gives, but now pinned in the grid
      { person_id: bob, date: '2026-11-02', shift_key: D },
    ],
  });
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.changed, 4);
  assert.notEqual(r.data.hash, loaded.hash);
  const g = (await grid()).data;
  assert.equal(g.hash, r.data.hash, 'the answer is the hash a reload gives');
  assert.deepEqual(cellOf(g, ann, '2026-11-05'), { shift_key: D, source: 'grid', cycle_key: null });
  assert.deepEqual(cellOf(g, ann, '2026-11-09'), { shift_key: N, source: 'grid', cycle_key: null });
  assert.deepEqual(cellOf(g, bob, '2026-11-01'), { shift_key: '', source: 'grid', cycle_key: null });
  assert.deepEqual(cellOf(g, ann, '2026-11-06'), { shift_key: '', source: 'cycle', cycle_key: null }, 'untouched days still follow the cycle');
  assert.deepEqual(await queue(), [
    { person_id: ann, from_date: '2026-11-05', to_date: '2026-11-09' },
    { person_id: bob, from_date: '2026-11-01', to_date: '2026-11-02' },
  ]);
  // The recompute reads the grid: Bob's 1 November is now a rest day, Ann's 5 November a working day.
  while ((await t.app.modules.attendance.recompute.runOnce(100)).people);
  const day = (p: number, date: string) =>
    t.app.database.db.selectFrom('attendance_days').select('status').where('person_id', '=', p).where('date', '=', date).executeTakeFirstOrThrow();
  assert.equal((await day(bob, '2026-11-01')).status, 'rest');
  assert.notEqual((await day(ann, '2026-11-05')).status, 'rest');
  const log = await call(t.app, 'GET', '/log/list', { token: A.main, query: { module: 'attendance' }, lang: 'en-US' });
  assert.ok(log.data.items.some((i: { description: string }) => i.description === 'Saved the 2026-11 schedule of Production (4 days changed)'));

  // Saving what is already there changes nothing and queues nothing; null clears a cell back to the cycle.
  await clearQueue();
  const same = await save({ hash: g.hash, cells: [{ person_id: ann, date: '2026-11-05', shift_key: D }] });
  assert.equal(same.data.changed, 0);
  assert.equal(same.data.hash, g.hash);
  assert.deepEqual(await queue(), []);
  const cleared = await save({ hash: g.hash, cells: [{ person_id: ann, date: '2026-11-09', shift_key: null }] });
  assert.equal(cleared.data.changed, 1);
  assert.deepEqual(cellOf((await grid()).data, ann, '2026-11-09'), { shift_key: N, source: 'cycle', cycle_key: null }, "the cycle's night again");
  assert.deepEqual(await queue(), [{ person_id: ann, from_date: '2026-11-09', to_date: '2026-11-09' }]);
});

test(`a stale editor is refused with the reload message and changes nothing (${DIALECT})`, async () => {
  const first = (await grid()).data; // editor 1 opens the grid
  const second = (await grid()).data; // editor 2 opens it too, and saves first
  const cai = people[2]!;
  const ok = await save({ hash: second.hash, cells: [{ person_id: cai, date: '2026-11-20', shift_key: N }] });
  assert.equal(ok.code, CODES.OK, ok.message);
  await clearQueue();
  const stale = await save({
    hash: first.hash,
    cells: [
      { person_id: cai, date: '2026-11-20', shift_key: D },
      { person_id: cai, date: '2026-11-21', shift_key: D },
    ],
    apply: [{ person_ids: [cai], cycle_key: rule.cycles[1].key, from_date: '2026-11-22', to_date: '2026-11-24', start_index: 0 }],
  });
  assert.equal(stale.code, CODES.CONFLICT);
  assert.equal(stale.message, 'Someone else changed this schedule after you opened it; reload it and make your changes again');
  const now = (await grid()).data;
  assert.equal(now.hash, ok.data.hash, 'nothing written');
  assert.equal(cellOf(now, cai, '2026-11-20').shift_key, N);
  assert.equal(cellOf(now, cai, '2026-11-21').source, 'cycle');
  assert.deepEqual(await queue(), [], 'nothing queued');
  const zh = await call(t.app, 'POST', '/attendance/schedule/save', {
    token: A.main,
    body: { rule_id: rule.id, month: MONTH, hash: first.hash, cells: [] },
    lang: 'zh-CN',
  });
  assert.equal(zh.message, '您打开后该排班已被他人修改，请重新加载后再修改');
});

test(
  `a save waits for another one in progress on the same rule, then sees its change and is refused (${DIALECT})`,
  { skip: DIALECT === 'sqlite' && 'one SQLite connection: transactions are serial by construction' },
  async () => {
    const loaded = (await grid()).data;
    const cai = people[2]!;
    const db = t.app.database.db;
    let pending: Promise<any> | undefined;
    // Another save holds the rule (the same no-op write the service starts with) and writes a cell before committing.
    await transaction(db, async (trx) => {
      await trx.updateTable('attendance_rules').set({ name: rule.name }).where('id', '=', rule.id).execute();
      pending = save({ hash: loaded.hash, cells: [{ person_id: cai, date: '2026-11-26', shift_key: D }] });
      // until our save is queued behind the lock (it has read nothing yet), or has finished without waiting
      let settled = false;
      void pending.finally(() => (settled = true));
      // (bounded: a wait that never shows up must not hang the suite; the assertion below then says what happened)
      for (let i = 0; i < 250; i++) {
        const waiting = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid where not l.granted and a.datname = current_database()`.execute(
          db,
        );
        if (waiting.rows[0]!.n > 0 || settled) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await trx
        .insertInto('attendance_schedule')
        .values({ company_id: A.id, person_id: cai, date: '2026-11-25', shift_id: Number(N), cycle_id: null })
        .execute();
    });
    const answer = await pending!;
    assert.equal(answer.code, CODES.CONFLICT, answer.message);
    assert.equal(cellOf((await grid()).data, cai, '2026-11-26').source, 'cycle', 'not written');
  },
);

test(`applying a cycle template to people from a date; deleting the template clears the cells it wrote (${DIALECT})`, async () => {
  const [ann, bob, cai] = people as [number, number, number];
  const nights = rule.cycles[1].key;
  const loaded = (await grid()).data;
  await clearQueue();
  const r = await save({
    hash: loaded.hash,
    // a cell sent with an application wins over it
    cells: [{ person_id: bob, date: '2026-11-12', shift_key: D }],
    apply: [{ person_ids: [ann, bob], cycle_key: nights, from_date: '2026-11-10', to_date: '2026-11-15', start_index: 1 }],
  });
  assert.equal(r.code, CODES.OK, r.message);
  const g = (await grid()).data;
  const week = (p: number) => ['10', '11', '12', '13', '14', '15'].map((d) => cellOf(g, p, `2026-11-${d}`));
  // start_index 1: night, rest, night, night, rest, night
  assert.deepEqual(
    week(ann).map((c) => c.shift_key),
    [N, '', N, N, '', N],
  );
  assert.ok(week(ann).every((c) => c.source === 'grid' && c.cycle_key === nights));
  assert.deepEqual(
    week(bob).map((c) => c.shift_key),
    [N, '', D, N, '', N],
  );
  assert.equal(week(bob)[2]!.cycle_key, null, 'the hand-set cell');
  assert.equal(cellOf(g, cai, '2026-11-10').source, 'cycle', 'not applied to Cai');
  assert.deepEqual(
    (await queue()).map((q) => [q.person_id, q.from_date, q.to_date]),
    [
      [ann, '2026-11-10', '2026-11-15'],
      [bob, '2026-11-10', '2026-11-15'],
    ],
  );

  // The rule is saved without the "Nights" template: every cell it wrote (rest days too) is cleared, hand-set ones stay.
  await clearQueue();
  const { id: _id, persons: _p, departments, member_count: _m, updated_at: _u, versions: _v, weekdays: _w, cycles, shifts, ...rest } = rule;
  const update = await call(t.app, 'POST', '/attendance/rule/update', {
    token: A.main,
    body: {
      ...rest,
      id: rule.id,
      shifts: shifts.map(({ id: _sid, ...s }: any) => s),
      cycles: [cycles[0]].map(({ id: _cid, ...c }: any) => c),
      person_ids: [],
      department_ids: departments.map((d: any) => d.id),
    },
  });
  assert.equal(update.code, CODES.OK, update.message);
  const after = (await grid()).data;
  for (const p of [ann, bob])
    for (const d of ['10', '11', '13', '14', '15']) assert.equal(cellOf(after, p, `2026-11-${d}`).source, 'cycle', `${p} 2026-11-${d}`);
  assert.deepEqual(cellOf(after, bob, '2026-11-12'), { shift_key: D, source: 'grid', cycle_key: null });
  const rows = await t.app.database.db.selectFrom('attendance_schedule').selectAll().where('cycle_id', '=', Number(nights)).execute();
  assert.deepEqual(rows, [], 'no cell refers to the deleted template');
  const q = await queue();
  for (const p of [ann, bob]) {
    const row = q.find((x) => x.person_id === p)!;
    assert.ok(row.from_date <= '2026-11-10' && row.to_date >= '2026-11-15', `the cleared days of ${p} are queued`);
  }
  rule = update.data;
});

test(`refused: another company's rule and people (not found), shifts and people not of the rule, dates outside the month, too many cells (${DIALECT})`, async () => {
  const loaded = (await grid()).data;
  const ann = people[0]!;
  const expectCode = async (label: string, r: Promise<any>, code: number, field?: string) => {
    const a = await r;
    assert.equal(a.code, code, `${label}: ${a.message}`);
    if (field) assert.deepEqual(a.data, { field }, label);
  };
  await expectCode('B reads A rule', grid({}, B.main), CODES.NOT_FOUND);
  await expectCode('B saves A rule', save({ hash: loaded.hash }, B.main), CODES.NOT_FOUND);
  await expectCode('unknown rule', grid({ rule_id: 999_999 }), CODES.NOT_FOUND);
  await expectCode('B department filter', grid({ department_id: 999_999 }), CODES.NOT_FOUND);
  await expectCode('B person in a cell', save({ hash: loaded.hash, cells: [{ person_id: bPerson, date: '2026-11-03', shift_key: D }] }), CODES.NOT_FOUND);
  await expectCode(
    'B person in an application',
    save({
      hash: loaded.hash,
      apply: [{ person_ids: [bPerson], cycle_key: rule.cycles[0].key, from_date: '2026-11-01', to_date: '2026-11-02', start_index: 0 }],
    }),
    CODES.NOT_FOUND,
  );
  await expectCode(
    'a person of another rule',
    save({ hash: loaded.hash, cells: [{ person_id: outsider, date: '2026-11-03', shift_key: D }] }),
    CODES.RULE,
    'cells',
  );
  await expectCode('unknown shift', save({ hash: loaded.hash, cells: [{ person_id: ann, date: '2026-11-03', shift_key: '999999' }] }), CODES.RULE, 'cells');
  await expectCode('outside the month', save({ hash: loaded.hash, cells: [{ person_id: ann, date: '2026-12-01', shift_key: D }] }), CODES.RULE, 'cells');
  await expectCode(
    'a day twice',
    save({
      hash: loaded.hash,
      cells: [
        { person_id: ann, date: '2026-11-03', shift_key: D },
        { person_id: ann, date: '2026-11-03', shift_key: N },
      ],
    }),
    CODES.RULE,
    'cells',
  );
  await expectCode(
    'unknown cycle',
    save({ hash: loaded.hash, apply: [{ person_ids: [ann], cycle_key: '999999', from_date: '2026-11-01', to_date: '2026-11-02', start_index: 0 }] }),
    CODES.RULE,
    'apply',
  );
  await expectCode(
    'application past the month',
    save({ hash: loaded.hash, apply: [{ person_ids: [ann], cycle_key: rule.cycles[0].key, from_date: '2026-11-20', to_date: '2026-12-05', start_index: 0 }] }),
    CODES.RULE,
    'apply',
  );
  await expectCode(
    'start index past the cycle',
    save({ hash: loaded.hash, apply: [{ person_ids: [ann], cycle_key: rule.cycles[0].key, from_date: '2026-11-01', to_date: '2026-11-02', start_index: 6 }] }),
    CODES.RULE,
    'apply',
  );
  const many = Array.from({ length: SCHEDULE_LIMITS.cellsMax + 1 }, () => ({ person_id: ann, date: '2026-11-03', shift_key: D }));
  await expectCode('too many cells', save({ hash: loaded.hash, cells: many }), CODES.VALIDATION);
  // A shift of another rule of the same company is not this rule's.
  const other = await call(t.app, 'POST', '/attendance/rule/create', {
    token: A.main,
    body: { name: 'Guards', mode: 'shift', shifts: [{ key: 'g', name: 'Guard', start: '06:00', end: '18:00' }], person_ids: [], department_ids: [] },
  });
  await expectCode(
    "another rule's shift",
    save({ hash: loaded.hash, cells: [{ person_id: ann, date: '2026-11-03', shift_key: other.data.shifts[0].key }] }),
    CODES.RULE,
    'cells',
  );
  assert.equal((await grid()).data.hash, loaded.hash, 'nothing changed');
  // A sub-admin without the attendance right is refused before anything is read.
  const viewer = await makeSub(t, A, ['userView']);
  await expectCode('no right: read', grid({}, viewer.token), CODES.NO_AUTHORITY);
  await expectCode('no right: save', save({ hash: loaded.hash }, viewer.token), CODES.NO_AUTHORITY);
  const clerk = await makeSub(t, A, ['attendance']);
  await expectCode('with the right', grid({}, clerk.token), CODES.OK);
});

test(`deleting the rule takes its grid with it, rest days its templates wrote included (${DIALECT})`, async () => {
  const ann = people[0]!;
  const running = rule.cycles[0].key;
  const loaded = (await grid()).data;
  const r = await save({
    hash: loaded.hash,
    apply: [{ person_ids: [ann], cycle_key: running, from_date: '2026-11-28', to_date: '2026-11-30', start_index: 4 }],
  });
  assert.equal(r.code, CODES.OK, r.message);
  const rows = () =>
    t.app.database.db.selectFrom('attendance_schedule').select(['date', 'shift_id']).where('person_id', '=', ann).where('date', '>=', '2026-11-28').execute();
  assert.deepEqual(
    (await rows()).map((x) => x.shift_id === 0),
    [true, true, false],
    'rest, rest, a day shift',
  );
  assert.equal((await call(t.app, 'POST', '/attendance/rule/delete', { token: A.main, body: { id: rule.id } })).code, CODES.OK);
  assert.deepEqual(await rows(), []);
});
