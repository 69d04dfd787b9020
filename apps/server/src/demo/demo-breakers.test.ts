import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BreakerAlarm, Breaker, BreakerDetail, EnergyItem, PowerSeries, Timer } from '@faceadmin/shared';
import { call, DIALECT, login, makeApp, type TestApp } from '../../test/helpers.ts';
import { until } from '../../test/terminals.ts';
import { DEMO_BREAKERS, startDemoBreakers } from './demo-breakers.ts';
import { DEMO_LOGIN, seedDemo } from './seed-demo.ts';

let t: TestApp;
let demo: Awaited<ReturnType<typeof startDemoBreakers>>;
let startMs = 0;
before(async () => {
  t = await makeApp();
  await seedDemo(t.app.database, 10, t.app.modules);
  const started = Date.now();
  demo = await startDemoBreakers(t.app, `mqtt://127.0.0.1:${t.app.mqtt.port}`);
  startMs = Date.now() - started;
});
after(async () => {
  await demo.stop();
  await t.close();
});

test(`npm run demo: the demo company's breakers are registered, online with live power, their timers on the breaker (${DIALECT})`, async () => {
  const token = await login(t.app, DEMO_LOGIN.username, DEMO_LOGIN.password);
  const list = await until('all demo breakers online with power', async () => {
    const items = (await call<{ items: Breaker[] }>(t.app, 'GET', '/breaker/list', { token })).data.items;
    return items.length === DEMO_BREAKERS.length && items.every((b) => b.online && b.power > 0) ? items : undefined;
  });
  assert.deepEqual(
    list!.map((b) => b.uuid),
    DEMO_BREAKERS.map((b) => b.uuid),
  );
  const detail = (await call<BreakerDetail>(t.app, 'GET', '/breaker/info', { token, query: { id: list![0]!.id } })).data;
  assert.deepEqual(
    detail.lines.map((l) => l.title),
    [...DEMO_BREAKERS[0].lines],
  );
  await until('timers on the breaker', async () => {
    const timers = (await call<Timer[]>(t.app, 'GET', '/breaker/timer/list', { token, query: { breaker_id: list![0]!.id } })).data;
    return timers.length === 2 && timers.every((x) => x.sync === 'synced');
  });
  assert.equal(demo.breakers[0]!.jobs.size, 2);
});

test(`npm run demo: the device map has a floor plan with the terminals and breakers on it, seeded once (${DIALECT})`, async () => {
  const token = await login(t.app, DEMO_LOGIN.username, DEMO_LOGIN.password);
  const sites = (await call(t.app, 'GET', '/site/list', { token })).data as { id: number; image_width: number }[];
  assert.equal(sites.length, 1);
  assert.ok(sites[0]!.image_width > 0, 'a floor plan');
  const info = (await call(t.app, 'GET', '/site/info', { token, query: { id: sites[0]!.id } })).data as { placements: { kind: string }[] };
  assert.equal(info.placements.filter((p) => p.kind === 'device').length, 3);
  assert.equal(info.placements.filter((p) => p.kind === 'breaker').length, DEMO_BREAKERS.length);
  // a restart of the demo keeps the site as the administrator left it
  const again = await startDemoBreakers(t.app, `mqtt://127.0.0.1:${t.app.mqtt.port}`);
  await again.stop();
  assert.equal(((await call(t.app, 'GET', '/site/list', { token })).data as unknown[]).length, 1);
});

test(`npm run demo: the breakers have a past — a month of energy per line and cleared alarms — seeded once (${DIALECT})`, async () => {
  const token = await login(t.app, DEMO_LOGIN.username, DEMO_LOGIN.password);
  // a figure to read, not a bound: a busy machine must not fail the suite (bench/ measures speed)
  console.log(`startDemoBreakers with a month of history: ${startMs} ms`);
  const breakers = (await call<{ items: Breaker[] }>(t.app, 'GET', '/breaker/list', { token })).data.items;
  const alarms = (await call<{ items: BreakerAlarm[]; total: number }>(t.app, 'GET', '/breaker/alarm/list', { token, query: { page: 1, pageSize: 50 } })).data;
  assert.ok(alarms.total >= 6, `${alarms.total} alarms`);
  const types = new Set(alarms.items.map((a) => a.type));
  for (const type of ['overcurrent', 'overpower', 'offline']) assert.ok(types.has(type as BreakerAlarm['type']), type);
  const past = alarms.items.filter((a) => Date.parse(a.at) < Date.now() - 86_400_000);
  assert.ok(past.length >= 6 && past.every((a) => a.cleared_at !== null), 'the past alarms are cleared');
  for (const b of breakers) {
    const detail = (await call<BreakerDetail>(t.app, 'GET', '/breaker/info', { token, query: { id: b.id } })).data;
    for (const line of detail.lines) {
      const days = (await call<EnergyItem[]>(t.app, 'GET', '/breaker/line/energy', { token, query: { id: line.id, by: 'day' } })).data;
      assert.ok(days.length >= 30, `${b.uuid} ${line.title}: ${days.length} days of energy`);
      assert.ok(
        days.slice(0, -1).every((d) => d.kwh > 0),
        `${b.uuid} ${line.title}: every past day used energy`,
      );
    }
    const month = (await call<PowerSeries>(t.app, 'GET', '/breaker/power', { token, query: { id: b.id, range: 'month' } })).data;
    assert.ok(month.points.length >= 30, `${b.uuid}: ${month.points.length} days of power`);
    const day = (await call<PowerSeries>(t.app, 'GET', '/breaker/power', { token, query: { id: b.id, range: 'day' } })).data;
    assert.ok(day.points.length >= 280, `${b.uuid}: ${day.points.length} five-minute points today`);
  }
  // a restart keeps the history as it is (no second month, no repeated alarms)
  const db = t.app.database.db;
  const count = async () =>
    Number(
      (
        await db
          .selectFrom('breaker_minutes')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const before = await count();
  const again = await startDemoBreakers(t.app, `mqtt://127.0.0.1:${t.app.mqtt.port}`);
  await again.stop();
  assert.ok((await count()) - before < 100, 'no second history');
  const after = (await call<{ items: BreakerAlarm[] }>(t.app, 'GET', '/breaker/alarm/list', { token, query: { page: 1, pageSize: 100 } })).data.items;
  assert.equal(after.filter((a) => Date.parse(a.at) < Date.now() - 86_400_000).length, past.length, 'no repeated alarms');
});
