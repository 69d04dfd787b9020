import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Breaker, BreakerDetail, Timer } from '@faceadmin/shared';
import { call, DIALECT, login, makeApp, type TestApp } from '../../test/helpers.ts';
import { until } from '../../test/terminals.ts';
import { DEMO_BREAKERS, startDemoBreakers } from './demo-breakers.ts';
import { DEMO_LOGIN, seedDemo } from './seed-demo.ts';

let t: TestApp;
let demo: Awaited<ReturnType<typeof startDemoBreakers>>;
before(async () => {
  t = await makeApp();
  await seedDemo(t.app.database, 10, t.app.modules);
  demo = await startDemoBreakers(t.app, `mqtt://127.0.0.1:${t.app.mqtt.port}`);
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
