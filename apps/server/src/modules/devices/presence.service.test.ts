import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { call, makeApp, makeCompany, type TestApp } from '../../../test/helpers.ts';
import { clock } from '../../lib/time.ts';

let t: TestApp;
before(async () => {
  t = await makeApp(); // terminals poll every 10 s (DEVICE_POLL_SECONDS): silent for 50 s is offline
});
after(() => t.close());
const realNow = clock.now;
afterEach(() => void (clock.now = realNow));

const row = (id: number) => t.app.database.db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

test('a terminal polling every 10 s: its last contact written every second poll, never found silent; silent, offline; back, written at once', async () => {
  const A = await makeCompany(t, 'Presence Co');
  const created = await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Gate', serial: 'PRESENCE1', ip: '10.0.0.5', password: 'x' } });
  const id = created.data.id as number;
  const { presence } = t.app.modules.devices;
  let now = Date.parse('2026-12-01T08:00:00Z');
  clock.now = () => now;
  const writes: string[] = [];
  // Each poll reads the terminal's row afresh (as the device cache does every 2 s), then the sweep runs.
  const poll = async () => {
    const before = (await row(id)).last_seen_at;
    await presence.seen(await row(id));
    const after = (await row(id)).last_seen_at;
    if (after !== before) writes.push(after!);
    assert.equal(await presence.sweep(), 0, 'a terminal that polls is never found silent');
  };
  for (let i = 0; i < 12; i++, now += 10_000) await poll();
  // the first call (it was offline) and then every second poll: 6 writes in 2 minutes, not 12
  assert.equal(writes.length, 6, writes.join(', '));
  assert.equal((await row(id)).online, 1);

  // Silent for a minute: offline.
  now += 60_000;
  assert.equal(await presence.sweep(), 1);
  assert.equal((await row(id)).online, 0);
  // It calls again: online, and its contact written at once.
  await presence.seen(await row(id));
  const back = await row(id);
  assert.equal(back.online, 1);
  assert.equal(back.last_seen_at, new Date(now).toISOString());
});
