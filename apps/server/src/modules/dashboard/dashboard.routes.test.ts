import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, DEFAULT_TIME_ZONE } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { clock } from '../../lib/time.ts';
import { addDays } from '../attendance/plans.ts';
import { localDate } from '../attendance/recompute.service.ts';
import { plainPunch } from '../punches/punches.repository.ts';
import { TREND_PAST_MS } from './dashboard.service.ts';

/**
 * The dashboard's blocks (#16) on a seeded company: day results, punches, terminals, breakers written straight
 * into the tables (no rule is saved through the API, so the recalculation job leaves the seeded results alone).
 */
let t: TestApp;
let A: Company;
let B: Company;
const zone = DEFAULT_TIME_ZONE;
const today = localDate(Date.now(), zone);
const yesterday = addDays(today, -1);
const ids: Record<string, number> = {};
let gateIn = 0;
let gateOut = 0;
let breakerId = 0;
const stamp = '2026-01-01T00:00:00Z';

before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Dash A');
  B = await makeCompany(t, 'Dash B');
  const db = t.app.database.db;
  await db
    .updateTable('companies')
    .set({ options: JSON.stringify({ iocount: 1 }) })
    .where('id', '=', A.id)
    .execute();
  for (const key of ['normal', 'late', 'openLate', 'openIn', 'openNone', 'leave', 'absent', 'plannedNone', 'plannedIn', 'noRule', 'left']) {
    const p = await db
      .insertInto('persons')
      .values({ company_id: A.id, number: key, name: `P ${key}`, work_status: key === 'left' ? 0 : 1, created_at: stamp, updated_at: stamp } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[key] = p.id;
  }
  const day = (key: string, status: string, late = 0, date = today) => ({
    company_id: A.id,
    person_id: ids[key]!,
    date,
    rule_id: null,
    status,
    late_min: late,
    manual_status: null,
    manual_reason: null,
    computed_at: stamp,
  });
  await db
    .insertInto('attendance_days')
    .values([
      day('normal', 'normal'),
      day('late', 'late', 7),
      day('openLate', 'pending', 3),
      day('openIn', 'pending'),
      day('openNone', 'pending'),
      day('leave', 'leave'),
      day('absent', 'absent'),
      day('normal', 'late', 5, yesterday),
      day('late', 'normal', 0, yesterday),
    ])
    .execute();
  // A rule that works every day, naming two people without a result yet (written directly: no recalculation queued).
  const rule = await db
    .insertInto('attendance_rules')
    .values({ company_id: A.id, name: 'Every day', mode: 'fixed', created_at: stamp, updated_at: stamp } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const shift = await db
    .insertInto('attendance_shifts')
    .values({ company_id: A.id, rule_id: rule.id, name: 'Day', start: '00:00', end: '23:59' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const weekdays = Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((d) => [d, [shift.id]]));
  await db
    .updateTable('attendance_rules')
    .set({ weekdays: JSON.stringify(weekdays) })
    .where('id', '=', rule.id)
    .execute();
  await db
    .insertInto('attendance_rule_members')
    .values(['plannedNone', 'plannedIn'].map((k) => ({ company_id: A.id, rule_id: rule.id, kind: 'person', ref_id: ids[k]! })))
    .execute();

  const device = async (name: string, serial: string, direction: 'in' | 'out') => {
    const r = await call(t.app, 'POST', '/device/create', { token: A.main, body: { name, serial, ip: '10.0.0.9', password: 'pw', direction } });
    assert.equal(r.code, CODES.OK, r.message);
    return r.data.id as number;
  };
  gateIn = await device('Gate in', 'DASHIN01', 'in');
  gateOut = await device('Gate out', 'DASHOUT01', 'out');
  await db.updateTable('devices').set({ online: 1 }).where('id', '=', gateIn).execute();
  await db.updateTable('devices').set({ online: 0, clock_drift: 300 }).where('id', '=', gateOut).execute();

  const punch = (key: string | null, deviceId: number, hm: string, extra: object = {}) => ({
    ...plainPunch({ companyId: A.id, deviceId, personId: key ? ids[key]! : null, pin: key ?? '0', local: `${today} ${hm}`, zone }),
    ...extra,
  });
  await db
    .insertInto('punches')
    .values([
      punch('openIn', gateIn, '00:01:00'),
      punch('openIn', gateOut, '00:02:00'),
      punch('plannedIn', gateIn, '00:03:00', { photo: 'a.jpg', temperature: 38.2 }),
      punch(null, gateIn, '00:04:00', { stranger: 1, photo: 'b.jpg' }),
    ])
    .execute();

  const b = await db
    .insertInto('breakers')
    .values({
      company_id: A.id,
      uuid: 'DASH-BRK',
      alias: 'Main board',
      sort: 1,
      linenum: 2,
      online: 1,
      password_hash: '',
      broker_hash: '',
      created_at: stamp,
      updated_at: stamp,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  breakerId = b.id;
  const line = await db
    .insertInto('breaker_lines')
    .values({ company_id: A.id, breaker_id: b.id, addr: 1, title: 'Lights', mxgg: 2200, mxgl: 1000, alarm: 'overcurrent', oc: 1 } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('breaker_alarms')
    .values({ company_id: A.id, breaker_id: b.id, line_id: line.id, type: 'overcurrent', value: 12.5, at: new Date().toISOString(), cleared_at: null })
    .execute();
});
after(() => t.close());

const get = (token: string, path: string, query: Record<string, string | number> = {}) => call(t.app, 'GET', `/dashboard/${path}`, { token, query });

test(`today's attendance counts the stored results, open days and people not yet due (${DIALECT})`, async () => {
  const r = await get(A.main, 'attendance');
  assert.equal(r.code, CODES.OK, r.message);
  assert.deepEqual(r.data, {
    date: today,
    people: 10,
    expected: 9,
    present: 3, // normal; an open day with a punch; a planned person whose result is not written yet but punched
    late: 2, // late; an open day already late
    early: 0,
    absent: 1,
    leave: 1,
    notYetDue: 2, // an open day without a punch; a planned person without a result or a punch
  });
  const trend = await get(A.main, 'trend', { days: 7 });
  assert.equal(trend.code, CODES.OK);
  assert.equal(trend.data.items.length, 7);
  assert.equal(trend.data.items.at(-1).date, today);
  assert.deepEqual(trend.data.items.at(-2), { date: yesterday, present: 1, late: 1, early: 0, absent: 0, leave: 0 });
  assert.deepEqual(trend.data.items.at(-1), { date: today, present: 1, late: 1, early: 0, absent: 1, leave: 1 }, 'open days are not counted yet');
  assert.equal((await get(A.main, 'trend', { days: 3 })).code, CODES.VALIDATION, 'fewer than 7 days is refused');
});

test(`the trend reads its past days again after a minute at most, today's column on every request (${DIALECT})`, async () => {
  const db = t.app.database.db;
  const set = (key: string, date: string, status: string) =>
    db.updateTable('attendance_days').set({ status }).where('person_id', '=', ids[key]!).where('date', '=', date).execute();
  const columns = async () => {
    const r = await get(A.main, 'trend', { days: 7 });
    assert.equal(r.code, CODES.OK, r.message);
    return { yesterday: r.data.items.at(-2), today: r.data.items.at(-1) };
  };
  // a clock of its own, a minute on: whatever an earlier test read is read again now, and stays put meanwhile
  let now = Date.now() + TREND_PAST_MS;
  clock.now = () => now;
  try {
    await columns();
    await set('late', yesterday, 'absent');
    await set('normal', today, 'early');
    let seen = await columns();
    assert.deepEqual(seen.today, { date: today, present: 0, late: 1, early: 1, absent: 1, leave: 1 }, 'today at once');
    assert.deepEqual(seen.yesterday, { date: yesterday, present: 1, late: 1, early: 0, absent: 0, leave: 0 }, 'yesterday as read before');
    now += TREND_PAST_MS;
    seen = await columns();
    assert.deepEqual(seen.yesterday, { date: yesterday, present: 0, late: 1, early: 0, absent: 1, leave: 0 }, 'yesterday read again');
  } finally {
    clock.now = () => Date.now();
    await set('late', yesterday, 'normal');
    await set('normal', today, 'normal');
  }
});

test(`devices, alarms, flow, recognitions and console tiles (${DIALECT})`, async () => {
  const d = await get(A.main, 'devices');
  assert.deepEqual(d.data, { terminals: { total: 2, online: 1, offline: 1, abnormal: 1 }, breakers: { total: 1, online: 1, offline: 0, abnormal: 1 } });

  const a = await get(A.main, 'alarms');
  assert.equal(a.code, CODES.OK, a.message);
  assert.equal(a.data.breakers, 1);
  assert.equal(a.data.overLimit, 1);
  assert.equal(a.data.strangers, 1);
  assert.deepEqual(a.data.items.map((x: { source: string }) => x.source).sort(), ['breaker', 'stranger', 'temperature']);
  const fever = a.data.items.find((x: { source: string }) => x.source === 'temperature');
  assert.equal(fever.value, 38.2);
  assert.equal(fever.subject, 'P plannedIn');
  assert.equal(a.data.items.find((x: { source: string }) => x.source === 'breaker').subject, 'Main board · Lights');

  const f = await get(A.main, 'flow');
  assert.equal(f.data.enabled, true);
  assert.equal(f.data.hours.length, 24);
  assert.deepEqual(f.data.hours[0], { hour: 0, in: 3, out: 1 });
  assert.equal(f.data.inside, 1, 'one went in and out, one went in (the stranger has no person)');

  const rec = await get(A.main, 'recognitions', { limit: 5 });
  assert.deepEqual(
    rec.data.items.map((p: { name: string; stranger: boolean }) => [p.name, p.stranger]),
    [
      ['', true],
      ['P plannedIn', false],
    ],
  );
  assert.match(rec.data.items[0].pic_url, /\/attendance\/photo\/\d+$/);

  const c = await get(A.main, 'consoles');
  assert.equal(c.code, CODES.OK, c.message);
  const tileIn = c.data.terminals.find((x: { id: number }) => x.id === gateIn);
  assert.equal(tileIn.online, true);
  assert.equal(tileIn.last_punch.stranger, true);
  assert.equal(c.data.terminals.find((x: { id: number }) => x.id === gateOut).last_punch.name, 'P openIn');
  assert.deepEqual(
    c.data.breakers.map((b: { id: number; lines: { title: string; alarm: string }[] }) => [b.id, b.lines.map((l) => [l.title, l.alarm])]),
    [[breakerId, [['Lights', 'overcurrent']]]],
  );

  // iocount off: no flow figures
  await t.app.database.db.updateTable('companies').set({ options: '{}' }).where('id', '=', A.id).execute();
  assert.deepEqual((await get(A.main, 'flow')).data, { enabled: false, hours: [], inside: 0 });
  await t.app.database.db
    .updateTable('companies')
    .set({ options: JSON.stringify({ iocount: 1 }) })
    .where('id', '=', A.id)
    .execute();
});

test(`another company sees none of it, and a site that is not the company's is not found (${DIALECT})`, async () => {
  const r = await get(B.main, 'attendance');
  assert.deepEqual(r.data, { date: today, people: 0, expected: 0, present: 0, late: 0, early: 0, absent: 0, leave: 0, notYetDue: 0 });
  assert.deepEqual((await get(B.main, 'devices')).data, {
    terminals: { total: 0, online: 0, offline: 0, abnormal: 0 },
    breakers: { total: 0, online: 0, offline: 0, abnormal: 0 },
  });
  const a = await get(B.main, 'alarms');
  assert.deepEqual([a.data.items, a.data.breakers, a.data.overLimit, a.data.strangers], [[], 0, 0, 0]);
  assert.deepEqual((await get(B.main, 'recognitions')).data.items, []);
  assert.deepEqual((await get(B.main, 'consoles')).data, { terminals: [], breakers: [] });
  assert.deepEqual((await get(B.main, 'sites')).data.items, []);
  for (const path of ['attendance', 'devices', 'alarms', 'flow', 'recognitions', 'consoles']) {
    assert.equal((await get(B.main, path, { site_id: 1 })).code, CODES.NOT_FOUND, `${path}: an unknown site`);
  }
  // A site of A with gateIn and the breaker on it, and an empty one.
  const db = t.app.database.db;
  const site = async (name: string) =>
    (
      await db
        .insertInto('sites')
        .values({ company_id: A.id, name, sort: 0, image: '', image_width: 0, image_height: 0, tile_url: '', created_at: stamp, updated_at: stamp })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const hall = await site('Hall');
  const empty = await site('Empty');
  await db
    .insertInto('site_placements')
    .values([
      { company_id: A.id, site_id: hall, kind: 'device', ref_id: gateIn, x: 10, y: 10 },
      { company_id: A.id, site_id: hall, kind: 'breaker', ref_id: breakerId, x: 20, y: 20 },
    ])
    .execute();
  const d = await get(A.main, 'devices', { site_id: hall });
  assert.equal(d.data.terminals.total, 1, 'gateIn only');
  assert.equal(d.data.breakers.total, 1);
  const rec = await get(A.main, 'recognitions', { site_id: hall });
  assert.ok(rec.data.items.length > 0 && rec.data.items.every((x: { device_id: number }) => x.device_id === gateIn), "only gateIn's recognitions");
  const c = await get(A.main, 'consoles', { site_id: hall });
  assert.deepEqual(
    c.data.terminals.map((x: { id: number }) => x.id),
    [gateIn],
  );
  const none = await get(A.main, 'devices', { site_id: empty });
  assert.deepEqual([none.data.terminals.total, none.data.breakers.total], [0, 0]);
  assert.deepEqual((await get(A.main, 'recognitions', { site_id: empty })).data.items, []);
  for (const path of ['attendance', 'devices', 'alarms', 'flow', 'recognitions', 'consoles']) {
    assert.equal((await get(B.main, path, { site_id: hall })).code, CODES.NOT_FOUND, `${path}: A's site asked by B`);
  }
  assert.deepEqual((await get(A.main, 'sites')).data.items.map((x: { name: string }) => x.name).sort(), ['Empty', 'Hall']);
  assert.deepEqual((await get(B.main, 'sites')).data.items, []);
});

test(`each block follows the administrator's rights (${DIALECT})`, async () => {
  const face = await makeSub(t, A, ['faceView']);
  assert.equal((await get(face.token, 'attendance')).code, CODES.NO_AUTHORITY);
  // the latest recognitions are what the doors saw: face view reads them too (the guard desk's history)
  assert.equal((await get(face.token, 'recognitions')).code, CODES.OK);
  const fd = await get(face.token, 'devices');
  assert.equal(fd.data.terminals.total, 2);
  assert.equal(fd.data.breakers.total, 1, 'face view also sees breakers (as the breaker list)');
  const fa = await get(face.token, 'alarms');
  assert.deepEqual([fa.data.breakers, fa.data.overLimit, fa.data.strangers], [1, null, null]);
  assert.ok(fa.data.items.every((x: { source: string }) => x.source === 'breaker'));
  const fc = await get(face.token, 'consoles');
  assert.ok(
    fc.data.terminals.every((x: { last_punch: unknown }) => x.last_punch === null),
    'punch records are the attendance right',
  );

  const att = await makeSub(t, A, ['attendance']);
  assert.equal((await get(att.token, 'attendance')).code, CODES.OK);
  assert.equal((await get(att.token, 'devices')).code, CODES.NO_AUTHORITY, 'no device figures without face or breaker');
  assert.equal((await get(att.token, 'consoles')).code, CODES.NO_AUTHORITY);
  const aa = await get(att.token, 'alarms');
  assert.deepEqual([aa.data.breakers, aa.data.overLimit, aa.data.strangers], [null, 1, 1]);

  const brk = await makeSub(t, A, ['breaker']);
  assert.deepEqual((await get(brk.token, 'devices')).data.terminals, null);
  assert.equal((await get(brk.token, 'consoles')).data.terminals, null);
  assert.equal((await get(brk.token, 'consoles')).data.breakers.length, 1);
});
