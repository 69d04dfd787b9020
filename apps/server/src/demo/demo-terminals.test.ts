import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, DIALECT, login, makeApp, type TestApp } from '../../test/helpers.ts';
import { listen, until } from '../../test/terminals.ts';
import { startDemoTerminals } from './demo-terminals.ts';
import { DEMO_LOGIN, seedDemo } from './seed-demo.ts';

let t: TestApp;
let demo: Awaited<ReturnType<typeof startDemoTerminals>>;
before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  await seedDemo(t.app.database, 10, t.app.modules);
  demo = await startDemoTerminals(await listen(t), { everyMs: 3_600_000, firstBurst: 0 });
});
after(async () => {
  await demo.stop();
  await t.close();
});

test(`the demo's terminals upload a capture photo with each punch, and the punch list links it (${DIALECT})`, async () => {
  const token = await login(t.app, DEMO_LOGIN.username, DEMO_LOGIN.password);
  const sent = await demo.punch();
  assert.match(sent.reply ?? '', /^OK/);
  const withPhoto = await until('photo linked', async () => {
    const items = (await call(t.app, 'GET', '/attendance/list', { token })).data.items as { pic_url?: string }[];
    return items.find((p) => p.pic_url);
  });
  const url = withPhoto?.pic_url;
  assert.ok(url);
  const res = await t.app.inject({ method: 'GET', url, headers: { 'x-token': token } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'image/jpeg');
  assert.equal(res.rawPayload.subarray(0, 2).toString('hex'), 'ffd8', 'a JPEG');
});
