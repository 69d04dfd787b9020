import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AUTO_SHIFT_KEY, CODES, type RuleInput } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { plainPunch, punchWriter, type PunchInsert } from '../punches/punches.repository.ts';

/**
 * Automatic shift matching (#17 item 11): a rule lists candidate shifts, and each working day takes the one nearest
 * to the person's first valid punch; the day says which one it chose and why.
 */
let t: TestApp;
let A: Company;
let dept: number;
let fixedPerson: number;
let cyclePerson: number;
let device: number;
const ZONE = 'Asia/Shanghai';
const MON = '2026-10-05';
const TUE = '2026-10-06';
const WED = '2026-10-07';
const THU = '2026-10-08';

const SHIFTS: RuleInput['shifts'] = [
  { key: 'm', name: 'Morning', start: '06:00', end: '14:00', late_grace_min: 5 },
  { key: 'd', name: 'Day', start: '09:00', end: '17:00', late_grace_min: 5 },
  { key: 'n', name: 'Night', start: '22:00', end: '06:00', late_grace_min: 5 },
];
const A_ = AUTO_SHIFT_KEY;
const plant = (over: Partial<RuleInput> = {}): RuleInput => ({
  name: 'Plant',
  mode: 'fixed',
  shifts: SHIFTS,
  weekdays: { 0: [], 1: [A_], 2: [A_], 3: [A_], 4: [A_], 5: [A_], 6: [] },
  auto_shifts: ['m', 'd', 'n'],
  person_ids: [],
  department_ids: [dept],
  ...over,
});
const create = (body: unknown) => call(t.app, 'POST', '/attendance/rule/create', { token: A.main, body, lang: 'en-US' });
const dayInfo = (person: number, date: string) => call(t.app, 'GET', '/attendance/day/info', { token: A.main, query: { person_id: person, date } });

before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Auto A');
  dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Plant floor' } })).data.id;
  const person = async (number: string, name: string, organizations: number[]) => {
    const p = await t.app.database.db
      .insertInto('persons')
      .values({ company_id: A.id, number, name, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const d of organizations)
      await t.app.database.db.insertInto('person_departments').values({ company_id: A.id, person_id: p.id, department_id: d }).execute();
    return p.id;
  };
  fixedPerson = await person('701', 'Sun Li', [dept]);
  cyclePerson = await person('702', 'Zhou Min', []);
  device = (await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Gate', serial: 'AUTO001', ip: '10.0.0.1', password: 'pw' } })).data
    .id as number;
});
after(() => t.close());

async function punches(person: number, pin: string, locals: string[]) {
  const rows: PunchInsert[] = locals.map((local) => plainPunch({ companyId: A.id, deviceId: device, personId: person, pin, local, zone: ZONE }));
  await t.app.database.db.transaction().execute((trx) => punchWriter().insertIgnore(trx, rows));
}

test(`a fixed rule whose weekdays pick their shift: stored and answered with the candidates (${DIALECT})`, async () => {
  const r = await create(plant({ name: 'Plant (stored)', department_ids: [] }));
  assert.equal(r.code, CODES.OK, r.message);
  const keys = r.data.shifts.map((s: { key: string }) => s.key);
  assert.deepEqual(r.data.auto_shifts, keys, 'the three shifts, in the order listed');
  assert.deepEqual(r.data.weekdays['1'], [AUTO_SHIFT_KEY]);
  assert.deepEqual(r.data.weekdays['0'], []);
  // Sent back as answered (keys are ids now), it stays the same; two candidates only is kept too.
  const shifts = r.data.shifts.map(({ id: _id, ...s }: { id: number }) => s);
  const u = await call(t.app, 'POST', '/attendance/rule/update', {
    token: A.main,
    body: { ...plant({ department_ids: [] }), name: 'Plant (stored)', id: r.data.id, shifts, auto_shifts: [keys[2], keys[0]] },
  });
  assert.equal(u.code, CODES.OK, u.message);
  assert.deepEqual(u.data.auto_shifts, [keys[2], keys[0]]);
  assert.equal((await call(t.app, 'POST', '/attendance/rule/delete', { token: A.main, body: { id: r.data.id } })).code, CODES.OK);
});

test(`automatic matching that cannot work is refused, naming the field (${DIALECT})`, async () => {
  const cases: [string, unknown, string, RegExp][] = [
    ['one candidate only', plant({ auto_shifts: ['d'] }), 'auto_shifts', /Automatic shift candidates/],
    ['no candidates', plant({ auto_shifts: [] }), 'auto_shifts', /Automatic shift candidates/],
    ['a candidate the rule does not have', plant({ auto_shifts: ['d', 'zz'] }), 'auto_shifts', /Automatic shift candidates/],
    [
      'automatic beside a fixed shift on one weekday',
      plant({ weekdays: { 0: [], 1: [A_, 'd'], 2: [], 3: [], 4: [], 5: [], 6: [] } }),
      'weekdays',
      /Working days/,
    ],
    [
      'a cycle day picking its shift without candidates',
      { ...plant({ mode: 'shift', weekdays: undefined, auto_shifts: [] }), cycles: [{ key: 'c', name: 'auto', days: [A_, ''] }] },
      'auto_shifts',
      /Automatic shift candidates/,
    ],
  ];
  for (const [label, body, field, message] of cases) {
    const r = await create(body);
    assert.equal(r.code, CODES.RULE, `${label}: ${r.message}`);
    assert.deepEqual(r.data, { field }, label);
    assert.match(r.message, message, label);
  }
  assert.equal((await call(t.app, 'GET', '/attendance/rule/list', { token: A.main })).data.total, 0, 'nothing stored');
});

test(`each day takes the candidate nearest to the first punch, and says which and why; stored results agree (${DIALECT})`, async () => {
  const r = await create(plant());
  assert.equal(r.code, CODES.OK, r.message);
  // Monday 08:40: in Morning's (06:00) and Day's (09:00) check-in windows; Day is 20 min away, Morning 160.
  // Tuesday 06:10: only Morning's. Wednesday: no punch at all.
  await punches(fixedPerson, '701', [`${MON} 08:40:00`, `${MON} 17:05:00`, `${TUE} 06:10:00`, `${TUE} 14:00:00`]);
  await t.app.modules.attendance.recompute.person(A.id, fixedPerson, '2026-10-01', '2026-10-31');

  const mon = await dayInfo(fixedPerson, MON);
  assert.equal(mon.code, CODES.OK, mon.message);
  assert.equal(mon.data.status, 'normal', JSON.stringify(mon.data.why));
  assert.equal(mon.data.late_min, 0);
  assert.deepEqual(
    mon.data.shifts.map((s: { name: string }) => s.name),
    ['Day'],
  );
  const why = mon.data.why.find((w: { key: string }) => w.key === 'att.why.autoShift');
  assert.deepEqual(why?.params, { shift: 'Day', time: '08:40', start: '09:00', minutes: 20, count: 3 }, JSON.stringify(mon.data.why));

  const tue = await dayInfo(fixedPerson, TUE);
  assert.equal(tue.data.status, 'late');
  assert.equal(tue.data.late_min, 10);
  assert.equal(tue.data.shifts[0].name, 'Morning');

  const wed = await dayInfo(fixedPerson, WED);
  assert.equal(wed.data.status, 'absent');
  assert.equal(wed.data.shifts[0].name, 'Morning', 'no punch: the first candidate listed');
  assert.ok(wed.data.why.some((w: { key: string }) => w.key === 'att.why.autoShiftNone'));

  // The stored results (what lists and reports read) say the same.
  const month = await call(t.app, 'GET', '/attendance/report/person', { token: A.main, query: { person_id: fixedPerson, month: '2026-10' } });
  const stored = (date: string) => month.data.days.find((d: { date: string }) => d.date === date);
  assert.deepEqual([stored(MON).status, stored(MON).late_min], ['normal', 0]);
  assert.deepEqual([stored(TUE).status, stored(TUE).late_min], ['late', 10]);
  assert.equal(stored(WED).status, 'absent');
  assert.equal((await call(t.app, 'POST', '/attendance/rule/delete', { token: A.main, body: { id: r.data.id } })).code, CODES.OK);
});

test(`a shift rule's cycle day can pick its shift too; the schedule grid shows it as automatic (${DIALECT})`, async () => {
  const r = await create({
    ...plant({ name: 'Plant cycle', mode: 'shift', weekdays: undefined, department_ids: [], person_ids: [cyclePerson] }),
    cycles: [{ key: 'c', name: 'auto/off', days: [A_, ''] }],
    cycle_key: 'c',
    start_date: MON,
    start_index: 0,
  });
  assert.equal(r.code, CODES.OK, r.message);
  assert.deepEqual(r.data.cycles[0].days, [AUTO_SHIFT_KEY, '']);
  const grid = await call(t.app, 'GET', '/attendance/schedule', { token: A.main, query: { rule_id: r.data.id, month: '2026-10' }, lang: 'en-US' });
  assert.equal(grid.code, CODES.OK, grid.message);
  assert.deepEqual(
    grid.data.items[0].cells.slice(4, 7).map((c: { shift_key: string; source: string }) => [c.shift_key, c.source]),
    [
      [AUTO_SHIFT_KEY, 'cycle'],
      ['', 'cycle'],
      [AUTO_SHIFT_KEY, 'cycle'],
    ],
  );
  assert.deepEqual(grid.data.auto_shifts, r.data.auto_shifts);
  // A hand-set grid cell may pick its shift too: Thursday (a rest day of the cycle) set to automatic.
  const saved = await call(t.app, 'POST', '/attendance/schedule/save', {
    token: A.main,
    body: { rule_id: r.data.id, month: '2026-10', hash: grid.data.hash, cells: [{ person_id: cyclePerson, date: THU, shift_key: AUTO_SHIFT_KEY }] },
    lang: 'en-US',
  });
  assert.equal(saved.code, CODES.OK, saved.message);
  // Monday evening 21:50 picks Night; its check-out the next morning belongs to it.
  await punches(cyclePerson, '702', [`${MON} 21:50:00`, `${TUE} 06:02:00`, `${THU} 08:57:00`, `${THU} 17:01:00`]);
  await t.app.modules.attendance.recompute.person(A.id, cyclePerson, '2026-10-01', '2026-10-31');
  const mon = await dayInfo(cyclePerson, MON);
  assert.equal(mon.data.status, 'normal', JSON.stringify(mon.data.why));
  assert.equal(mon.data.shifts[0].name, 'Night');
  assert.equal(mon.data.worked_min, 480);
  const thu = await dayInfo(cyclePerson, THU);
  assert.equal(thu.data.status, 'normal', JSON.stringify(thu.data.why));
  assert.equal(thu.data.shifts[0].name, 'Day');
  assert.ok(thu.data.why.some((w: { key: string; params?: { shift?: string } }) => w.key === 'att.why.autoShift' && w.params?.shift === 'Day'));
});
