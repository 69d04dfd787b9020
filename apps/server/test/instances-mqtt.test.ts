import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { EmulatedBreaker } from '../../../tools/breaker-emulator/breaker.ts';
import { call, DIALECT, makeApp, makeCompany, makeTwin, type Company, type TestApp } from './helpers.ts';
import { findMosquitto, startMosquitto, type Mosquitto } from './mosquitto.ts';
import { until } from './terminals.ts';

/**
 * Two instances on one PostgreSQL and one external broker (Mosquitto), issue #21: one instance holds the broker's
 * subscription and serves every breaker; the other relays its commands there; when the holder stops, the other
 * takes the subscription and the breakers carry on without being marked offline. The broker's password file is kept
 * by the instance running beside it, whichever instance the console's change landed on.
 */
const mosquittoBin = findMosquitto();
const skip =
  DIALECT !== 'postgres' ? 'two instances share PostgreSQL only' : !mosquittoBin && process.env.CI !== 'true' ? 'mosquitto is not installed here' : false;

let mosq: Mosquitto;
let A: TestApp;
let B: TestApp;
let C: Company;
const emus: EmulatedBreaker[] = [];

before(async () => {
  if (skip) return;
  mosq = await startMosquitto(mosquittoBin!);
  // A runs beside the broker and keeps its password and ACL files; B only connects to it.
  const { MQTT_PASSWORD_FILE: _p, MQTT_ACL_FILE: _a, MQTT_RELOAD_PID_FILE: _r, ...connectOnly } = mosq.env;
  A = await makeApp({ ...mosq.env, BREAKER_COMMAND_TIMEOUT_MS: '3000' });
  B = await makeTwin(A, { ...connectOnly, BREAKER_COMMAND_TIMEOUT_MS: '3000' });
  C = await makeCompany(A, 'Shared broker Ltd');
});
after(async () => {
  for (const e of emus) await e.kill().catch(() => {});
  await B?.close();
  await A?.close();
  await mosq?.stop();
});

/** Starts an emulated breaker on the broker; Mosquitto may still be rereading its password file, so a refusal is retried. */
async function breaker(uuid: string, password: string) {
  for (let attempt = 0; ; attempt++) {
    const e = new EmulatedBreaker({ url: mosq.url, uuid, password, lines: 2, reportMs: 150, tickMs: 100, reconnectMs: 300 });
    try {
      await e.start();
      emus.push(e);
      return e;
    } catch (err) {
      if (attempt >= 30) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

test('one instance serves the shared broker’s breakers; a command on the other is relayed; the holder stopping hands them over online', { skip }, async () => {
  assert.equal(A.app.subscription?.held, true, 'the first instance holds the subscription');
  assert.equal(B.app.subscription?.held, false);

  // Registered on B, which keeps no broker files: A, beside the broker, writes the new password at once.
  const reg = await call(B.app, 'POST', '/breaker/create', { token: C.main, body: { alias: 'Dorm shared', uuid: 'SHARED-BRK-1', sort: 1, linenum: 2 } });
  assert.equal(reg.code, CODES.OK, reg.message);
  const id = reg.data.breaker.id as number;
  await until('A wrote the password file', () => fs.readFileSync(mosq.env.MQTT_PASSWORD_FILE!, 'utf8').includes('SHARED-BRK-1:'));
  const emu = await breaker('SHARED-BRK-1', reg.data.password as string);

  const info = async (app: TestApp) => {
    const r = await call(app.app, 'GET', '/breaker/info', { token: C.main, query: { id } });
    assert.equal(r.code, CODES.OK, r.message);
    return r.data;
  };
  await until('online, with readings', async () => {
    const d = await info(B);
    return d.online && d.lines[0]!.voltage > 0;
  });
  assert.equal(B.app.mqtt.stats.received, 0, 'B does not subscribe: every message is handled once, by A');
  assert.ok(A.app.mqtt.stats.received > 0);

  // A switch asked of B reaches the breaker through A.
  await until('the line on', () => emu.lines[0]!.on);
  const line = (await info(B)).lines[0]!;
  const off = await call(B.app, 'POST', '/breaker/line/switch', { token: C.main, body: { id: line.id, oc: 0 }, lang: 'en-US' });
  assert.equal(off.code, CODES.OK, off.message);
  assert.equal(off.data.outcome, 'success', off.data.message);
  assert.equal(emu.lines[0]!.on, false);

  // The readiness answer and the metrics say who holds what.
  const ready = (await B.app.inject({ method: 'GET', url: '/readyz' })).json();
  assert.equal(ready.roles['mqtt.subscription'], false);
  assert.equal(ready.checks.broker, 'ok', 'B stands by, ready without a broker connection of its own');

  // A stops serving the broker (as its clean stop does): B takes the subscription at its next try (within 5 s); the
  // broker's retained presence says the breaker is online, so it never turns offline and no offline alarm is raised.
  await A.app.mqtt.close();
  await A.app.subscription.close();
  await until('B holds the subscription', () => B.app.subscription?.held === true, 10_000, 100);
  await until('B serves the breaker', () => B.app.mqtt.isConnected('SHARED-BRK-1'), 10_000);
  assert.equal((await info(B)).online, true);
  const alarms = await call(B.app, 'GET', '/breaker/alarm/list', { token: C.main, query: { type: 'offline' } });
  assert.equal(alarms.data.total, 0, 'no offline alarm through the hand-over');
  const on = await call(B.app, 'POST', '/breaker/line/switch', { token: C.main, body: { id: line.id, oc: 1 }, lang: 'en-US' });
  assert.equal(on.data.outcome, 'success', on.data.message);
  assert.equal(emu.lines[0]!.on, true);
  // ...and A's console relays to B now.
  const offAgain = await call(A.app, 'POST', '/breaker/line/switch', { token: C.main, body: { id: line.id, oc: 0 }, lang: 'en-US' });
  assert.equal(offAgain.data.outcome, 'success', offAgain.data.message);
  assert.equal(emu.lines[0]!.on, false);

  // The broker goes down, and the subscription passes to a third instance meanwhile: once the broker is back, the
  // new holder connects and subscribes by itself, the breaker calls in again, and a switch on A reaches it.
  const { MQTT_PASSWORD_FILE: _p, MQTT_ACL_FILE: _a, MQTT_RELOAD_PID_FILE: _r, ...connectOnly } = mosq.env;
  const D = await makeTwin(A, { ...connectOnly, BREAKER_COMMAND_TIMEOUT_MS: '3000' });
  try {
    await mosq.down();
    await B.app.mqtt.close();
    await B.app.subscription.close();
    await until('D holds the subscription', () => D.app.subscription?.held === true, 10_000, 100);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await D.app.inject({ method: 'GET', url: '/readyz' })).json().checks.broker, 'failed', 'the holder says it cannot reach the broker');
    await mosq.up();
    await until('D serves the breaker', () => D.app.mqtt.isConnected('SHARED-BRK-1'), 15_000, 100);
    assert.equal((await D.app.inject({ method: 'GET', url: '/readyz' })).json().checks.broker, 'ok');
    const back = await call(A.app, 'POST', '/breaker/line/switch', { token: C.main, body: { id: line.id, oc: 1 }, lang: 'en-US' });
    assert.equal(back.data.outcome, 'success', back.data.message);
    assert.equal(emu.lines[0]!.on, true);

    // The breaker goes away while D serves it: its last will (retained `online` false) turns it offline, although
    // another instance served it before.
    await emu.kill();
    await until('offline', async () => !(await info(D)).online, 10_000);
  } finally {
    await D.close();
  }
});
