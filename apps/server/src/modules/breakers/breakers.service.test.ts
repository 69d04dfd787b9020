import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type BreakerDetail, type EnergyItem, type PowerSeries } from '@faceadmin/shared';
import { brokerAddress } from './breakers.module.ts';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';

/** The service without a broker (issue #12): measurements (raw → per-minute → power series and energy, retention) and the CONNECT check. */
let t: TestApp;
let A: Company;
let breakerId: number;
let lines: BreakerDetail['lines'];
before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Meter Co');
  const r = await call(t.app, 'POST', '/breaker/create', { token: A.main, body: { uuid: 'METER-0001', sort: 1, linenum: 2 } });
  assert.equal(r.code, CODES.OK, r.message);
  breakerId = r.data.breaker.id;
  lines = (await call<BreakerDetail>(t.app, 'GET', '/breaker/info', { token: A.main, query: { id: breakerId } })).data.lines;
});
after(() => t.close());

const minuteAgo = (n: number, s = 0) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - n * 60_000 + s * 1000).toISOString();

test(`raw readings become per-minute figures, a power series and energy; old rows are pruned (${DIALECT})`, async () => {
  const db = t.app.database.db;
  const [l1, l2] = [lines[0]!.id, lines[1]!.id];
  await db
    .insertInto('breaker_samples')
    .values([
      { line_id: l1, at: minuteAgo(3, 10), power: 100, current: 0.45, voltage: 220, energy_wh: 1000 },
      { line_id: l1, at: minuteAgo(3, 40), power: 300, current: 1.36, voltage: 220, energy_wh: 1002 },
      { line_id: l2, at: minuteAgo(3, 20), power: 50, current: 0.22, voltage: 220, energy_wh: 10 },
      { line_id: l1, at: minuteAgo(2, 10), power: 200, current: 0.9, voltage: 220, energy_wh: 1500 },
      // older than 48 h: pruned
      { line_id: l1, at: new Date(Date.now() - 49 * 3600_000).toISOString(), power: 1, current: 0, voltage: 220, energy_wh: 1 },
    ])
    .execute();
  await t.app.modules.breakers.measurements();
  const minutes = await db.selectFrom('breaker_minutes').selectAll().where('line_id', '=', l1).orderBy('minute').execute();
  assert.deepEqual(
    minutes.map((m) => [m.minute, Number(m.avg_w), Number(m.max_w), Number(m.energy_wh), Number(m.n)]),
    [
      [minuteAgo(3).slice(0, 16), 200, 300, 1002, 2],
      [minuteAgo(2).slice(0, 16), 200, 200, 1500, 1],
    ],
  );
  const raw = await db.selectFrom('breaker_samples').select('at').where('line_id', '=', l1).execute();
  assert.equal(raw.length, 3, 'the 49-hour-old reading is gone');
  // Running again changes nothing (aggregates are rewritten with the same figures).
  await t.app.modules.breakers.measurements();
  assert.equal((await db.selectFrom('breaker_minutes').selectAll().execute()).length, 3);

  const day = await call<PowerSeries>(t.app, 'GET', '/breaker/power', { token: A.main, query: { id: breakerId, range: 'day' } });
  assert.equal(day.code, CODES.OK, day.message);
  assert.equal(day.data.step_s, 300);
  // Both lines count (neither is the main line): 200 + 50 W in minute -3, 200 W in minute -2.
  const total = day.data.points.reduce((s, p) => s + p.avg, 0);
  assert.ok(day.data.points.length >= 1 && day.data.points.length <= 2);
  assert.ok(Math.abs(total - (day.data.points.length === 1 ? 225 : 450)) < 0.01, JSON.stringify(day.data.points));
  // The peak is the highest minute of the total (200 + 50 W), not one line's highest reading (300 W): a breaker's
  // peak is never below its average.
  assert.equal(Math.max(...day.data.points.map((p) => p.max)), 250);
  const one = await call<PowerSeries>(t.app, 'GET', '/breaker/power', { token: A.main, query: { id: breakerId, line_id: l2, range: 'month' } });
  assert.equal(one.data.points.length, 1);
  assert.equal(one.data.points[0]!.avg, 50);

  const energy = await call<EnergyItem[]>(t.app, 'GET', '/breaker/line/energy', { token: A.main, query: { id: l1, by: 'day' } });
  assert.equal(energy.code, CODES.OK, energy.message);
  // Minutes keep the meter at their end: 1002 Wh (end of the first recorded minute) → 1500 Wh = 0.498 kWh
  // (split across two days only right at local midnight).
  assert.equal(Math.round(energy.data.reduce((s, e) => s + e.kwh, 0) * 1000), 498);
  const month = await call<EnergyItem[]>(t.app, 'GET', '/breaker/line/energy', { token: A.main, query: { id: l1, by: 'month' } });
  assert.match(month.data.at(-1)!.period, /^\d{4}-\d{2}$/);
});

test(`the day's power curve reaches the current minute: readings not folded yet come from the raw samples (${DIALECT})`, async () => {
  const l2 = lines[1]!.id;
  const db = t.app.database.db;
  const now = Date.now();
  await db
    .insertInto('breaker_samples')
    .values({ line_id: l2, at: new Date(now).toISOString(), power: 400, current: 1.8, voltage: 220, energy_wh: 12 })
    .execute();
  const day = await call<PowerSeries>(t.app, 'GET', '/breaker/power', { token: A.main, query: { id: breakerId, line_id: l2, range: 'day' } });
  assert.equal(day.code, CODES.OK, day.message);
  assert.equal(Math.max(...day.data.points.map((p) => p.max)), 400, JSON.stringify(day.data.points));
  // the newest point is these five minutes (or the next ones, when a boundary passed meanwhile)
  const newest = Date.parse(day.data.points.at(-1)!.t);
  assert.ok(newest >= Math.floor(now / 300_000) * 300_000 && newest <= Math.floor(Date.now() / 300_000) * 300_000, day.data.points.at(-1)!.t);
});

test('guessing a breaker’s password: after 5 failures the uuid is refused unchecked, even with the right password, for a minute', async () => {
  const service = t.app.modules.breakers.service;
  const r = await call(t.app, 'POST', '/breaker/create', { token: A.main, body: { uuid: 'GUESS-0001', sort: 2, password: 'right-password' } });
  assert.equal(r.code, CODES.OK, r.message);
  for (let i = 0; i < 5; i++) assert.equal(await service.authenticate('GUESS-0001', `guess-${i}`), false);
  assert.equal(await service.authenticate('GUESS-0001', 'right-password'), false, 'locked');
  assert.equal(await service.authenticate('METER-0001', 'anything'), false);
  const other = await call(t.app, 'POST', '/breaker/create', { token: A.main, body: { uuid: 'GUESS-0002', sort: 3, password: 'other-password' } });
  assert.equal(other.code, CODES.OK);
  assert.equal(await service.authenticate('GUESS-0002', 'other-password'), true, 'another breaker is not affected');
});

test('the broker address technicians are shown: the public URL, else the external broker, else the embedded port on the console host', () => {
  const base = { url: undefined, publicUrl: undefined, port: 1883 };
  assert.deepEqual(brokerAddress(base, 41883), { host: null, port: 41883, tls: false });
  assert.deepEqual(brokerAddress(base, null), { host: null, port: 1883, tls: false });
  assert.deepEqual(brokerAddress({ ...base, url: 'mqtt://10.0.0.5:1884' }, null), { host: '10.0.0.5', port: 1884, tls: false });
  assert.deepEqual(brokerAddress({ ...base, url: 'mqtt://10.0.0.5:1884', publicUrl: 'mqtts://breakers.example.com' }, null), {
    host: 'breakers.example.com',
    port: 8883,
    tls: true,
  });
});
