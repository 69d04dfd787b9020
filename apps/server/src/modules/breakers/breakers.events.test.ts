import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { EmulatedBreaker } from '../../../../../tools/breaker-emulator/breaker.ts';
import { call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { openLive, type LiveClient } from '../../../test/live-client.ts';

/**
 * Breakers on the console's live stream (GET /events, issue #16; the device-detail page's own stream folded into
 * it): presence, line switches and alarms as `breaker`, the figures as `figures` only to consoles that ask for them,
 * each to the breaker's company and to administrators with the breaker right or face-device view.
 */

let t: TestApp;
let A: Company;
let B: Company;
let server: string;
const emus: EmulatedBreaker[] = [];
const streams: LiveClient[] = [];

before(async () => {
  t = await makeApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address();
  server = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  A = await makeCompany(t, 'Live Co A');
  B = await makeCompany(t, 'Live Co B');
});
after(async () => {
  for (const s of streams) s.close();
  for (const e of emus) await e.kill().catch(() => {});
  await t.close();
});

async function live(token: string, topics?: string) {
  const s = await openLive(server, token, topics ? { topics } : {});
  streams.push(s);
  return s;
}

test(`a breaker's presence, switches and figures reach its company's watchers, and only them (${DIALECT})`, async () => {
  const reg = await call(t.app, 'POST', '/breaker/create', { token: A.main, body: { alias: 'Dorm live', uuid: `LIVE-${DIALECT}`, sort: 1, linenum: 2 } });
  assert.equal(reg.code, CODES.OK, reg.message);
  const id = reg.data.breaker.id as number;

  const main = await live(A.main, 'breaker,figures,alarm');
  const watcher = await live((await makeSub(t, A, ['breaker'])).token, 'breaker,figures');
  const noFigures = await live(A.main);
  const attendance = await live((await makeSub(t, A, ['attendance'])).token, 'breaker,figures,alarm,punch');
  const other = await live(B.main, 'breaker,figures,alarm');

  const emu = new EmulatedBreaker({
    url: `mqtt://127.0.0.1:${t.app.mqtt.port}`,
    uuid: `LIVE-${DIALECT}`,
    password: reg.data.password,
    lines: 2,
    reportMs: 150,
    tickMs: 100,
    reconnectMs: 0,
    baseLoadW: [800, 400],
  });
  await emu.start();
  emus.push(emu);

  for (const s of [main, watcher, noFigures]) await s.waitFor('online', (e) => e.event === 'breaker' && e.data.id === id && e.data.online, 20_000);
  const figures = await main.waitFor(
    'power figures',
    (e) => e.event === 'figures' && e.data.id === id && e.data.lines.some((l: { power: number }) => l.power > 0),
    20_000,
  );
  assert.equal(figures.data.lines.length, 2);
  await watcher.waitFor('power figures (breaker right)', (e) => e.event === 'figures' && e.data.id === id, 20_000);
  assert.ok(!JSON.stringify(main.events).includes(reg.data.password), 'the password is never streamed');

  // a switch from the console: the new state is announced as a line change
  const lineId = figures.data.lines[0].id as number;
  const sw = await call(t.app, 'POST', '/breaker/line/switch', { token: A.main, body: { id: lineId, oc: 0 } });
  assert.equal(sw.code, CODES.OK, sw.message);
  await main.waitFor(
    'line switched off',
    (e) => e.event === 'breaker' && e.data.id === id && e.data.lines.some((l: { id: number; oc: number }) => l.id === lineId && l.oc === 0),
    20_000,
  );

  // the breaker drops off
  await emu.kill();
  await main.waitFor('offline', (e) => e.event === 'breaker' && e.data.id === id && !e.data.online, 20_000);
  await main.waitFor('the offline alarm', (e) => e.event === 'alarm' && e.data.source === 'breaker' && e.data.breaker_id === id && e.data.kind === 'offline');

  assert.ok(!noFigures.events.some((e) => e.event === 'figures'), 'figures only for consoles that ask');
  assert.ok(!attendance.events.some((e) => e.event === 'breaker' || e.event === 'figures' || e.event === 'alarm'), 'no breaker events without the right');
  assert.deepEqual(other.events, [], "another company's console hears nothing of A's breaker");
});
