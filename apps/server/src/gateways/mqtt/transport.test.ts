import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OpResult } from '../breaker-events.ts';
import { admit, CAUSED_WINDOW_MS, CONNECT_MESSAGES, DeviceBudget, LATE_REPLY_MS, newStats, Rpc } from './transport.ts';

/**
 * What counts against a breaker's budget (docs/breaker-protocol.md §1 "Floods", issue #18 item 2): a reply to a
 * request the server waits for and the status messages the request causes are free; nothing a breaker does on
 * its own can earn that. A fake clock throughout.
 */

const UUID = 'BRK-0001';
const reply = (id: number) => JSON.stringify({ id, src: UUID, dst: `fa/${UUID}/server`, result: { was_on: true } });
const STATUS = JSON.stringify({ id: 0, output: false, apower: 0 });

function setup(rate = 20) {
  let now = 0;
  const clock = () => now;
  const rpc = new Rpc(clock);
  const budget = new DeviceBudget(rate, clock);
  const stats = newStats();
  const sent: { topic: string; payload: string }[] = [];
  const send = (op: Parameters<Rpc['send']>[1], timeoutMs = 60_000) => rpc.send(UUID, op, timeoutMs, (topic, payload) => void sent.push({ topic, payload }));
  const idOf = (i: number) => (JSON.parse(sent[i]!.payload) as { id: number }).id;
  const take = (topic: string, payload: string) => admit({ rpc, budget, stats }, UUID, `fa/${UUID}/${topic}`, payload);
  /** Spends the whole budget, as a breaker that has just flooded. */
  const exhaust = () => {
    while (budget.take(UUID) === 'ok');
  };
  return { rpc, stats, send, idOf, take, exhaust, tick: (ms: number) => (now += ms) };
}

test('a reply to a request the server waits for passes on an exhausted budget; a forged or replayed one does not', async () => {
  const s = setup();
  s.exhaust();
  const answer = s.send({ op: 'switch', index: 0, on: false });
  assert.equal(s.take('server/rpc', reply(s.idOf(0) + 1000)).verdict, 'drop', 'an id the server never sent');
  const ok = s.take('server/rpc', reply(s.idOf(0)));
  assert.equal(ok.verdict, 'ok');
  assert.equal(ok.decoded?.kind, 'reply', 'decoded once, handed on');
  s.rpc.reply(UUID, s.idOf(0), { result: { was_on: true } }); // what dispatch does with it
  assert.deepEqual(await answer, { ok: true, wasOn: true } satisfies OpResult);
  assert.equal(s.take('server/rpc', reply(s.idOf(0))).verdict, 'drop', 'the same reply again');
  assert.deepEqual(s.stats.exempt, { replies: 1, caused: 0, late: 0 });
  s.rpc.close();
});

test('a request’s caused status messages are free, up to what it causes and within the window', () => {
  const s = setup();
  s.exhaust();
  assert.equal(s.take('status/switch:0', STATUS).verdict, 'drop', 'no request: a status counts');
  void s.send({ op: 'switch', index: 0, on: false });
  // A switch causes three: retained status, NotifyStatus (and NotifyEvent alarm_cleared when it closes a tripped line).
  assert.equal(s.take('status/switch:0', STATUS).verdict, 'ok');
  assert.equal(s.take('events/rpc', '{}').verdict, 'ok');
  s.rpc.reply(UUID, s.idOf(0), { result: { was_on: true } });
  s.tick(CAUSED_WINDOW_MS - 1);
  s.exhaust(); // the clock refilled the bucket: spend it again
  assert.equal(s.take('events/rpc', '{}').verdict, 'ok', 'the third, late but within the window');
  assert.equal(s.take('status/switch:0', STATUS).verdict, 'drop', 'a fourth is not caused');
  // Credits unspent when the window closes are gone.
  void s.send({ op: 'limits', index: 0, powerW: 6600, currentA: 32 });
  s.rpc.reply(UUID, s.idOf(1), { result: {} });
  s.tick(CAUSED_WINDOW_MS + 1);
  s.exhaust();
  assert.equal(s.take('status/switch:0', STATUS).verdict, 'drop', 'after the window');
  // Requests that change no status cause none.
  void s.send({ op: 'status' });
  void s.send({ op: 'listSchedules' });
  assert.equal(s.take('status/switch:0', STATUS).verdict, 'drop');
  // Topics that are not status messages never use the credits.
  void s.send({ op: 'switch', index: 1, on: true });
  assert.equal(s.take('online', 'true').verdict, 'drop');
  assert.equal(s.take('anything/else', '{}').verdict, 'drop');
  assert.deepEqual(s.stats.exempt, { replies: 0, caused: 3, late: 0 });
  s.rpc.close();
});

test('an abandoned request (the breaker went offline) frees nothing more: its window closes', async () => {
  const s = setup();
  s.exhaust();
  const gone = s.send({ op: 'switch', index: 0, on: true });
  s.rpc.abandon(UUID);
  assert.deepEqual(await gone, { ok: false, reason: 'offline' });
  assert.equal(s.take('status/switch:0', STATUS).verdict, 'drop');
  assert.equal(s.take('server/rpc', reply(s.idOf(0))).verdict, 'drop');
  s.rpc.close();
});

test('after a timeout the breaker’s late reply (once) and what the request causes stay free for a minute', async () => {
  const s = setup();
  // a limits change (2 caused) and a switch (3), to which the breaker answers too late for the server
  const first = s.send({ op: 'limits', index: 0, powerW: 6600, currentA: 32 }, 1);
  const second = s.send({ op: 'switch', index: 1, on: true }, 1);
  assert.deepEqual(await first, { ok: false, reason: 'timeout' });
  assert.deepEqual(await second, { ok: false, reason: 'timeout' });
  // A busy server, or a breaker on a slow link: the status and the reply come 30 s late. They settle nothing, but
  // they are not a flood.
  s.tick(30_000);
  s.exhaust();
  assert.equal(s.take('status/switch:0', STATUS).verdict, 'ok');
  assert.equal(s.take('events/rpc', '{}').verdict, 'ok');
  const late = s.take('server/rpc', reply(s.idOf(0)));
  assert.equal(late.verdict, 'ok');
  assert.equal(late.decoded?.kind, 'reply');
  s.rpc.reply(UUID, s.idOf(0), { result: {} }); // what dispatch does with it: nothing, nobody waits
  assert.equal(s.take('server/rpc', reply(s.idOf(0))).verdict, 'drop', 'the same late reply again');
  // past LATE_REPLY_MS neither the other reply nor the credits left are known
  s.tick(LATE_REPLY_MS);
  s.exhaust();
  assert.equal(s.take('server/rpc', reply(s.idOf(1))).verdict, 'drop', 'a reply a minute and a half late');
  assert.equal(s.take('status/switch:1', STATUS).verdict, 'drop', 'a status a minute and a half late');
  assert.deepEqual(s.stats.exempt, { replies: 0, caused: 2, late: 1 });
  // A breaker that never answers pools nothing: two switches timed out, six statuses free, not one more.
  await Promise.all([s.send({ op: 'switch', index: 0, on: true }, 1), s.send({ op: 'switch', index: 0, on: false }, 1)]);
  s.tick(CAUSED_WINDOW_MS + 1);
  s.exhaust();
  for (let i = 0; i < 6; i++) assert.equal(s.take('status/switch:0', STATUS).verdict, 'ok', `status ${i + 1}`);
  assert.equal(s.take('status/switch:0', STATUS).verdict, 'drop', 'a seventh');
  s.rpc.close();
});

test('twenty switches in a row, each with its reply and two statuses, pass on a budget a flood has spent', () => {
  const s = setup();
  s.exhaust();
  for (let i = 0; i < 20; i++) {
    void s.send({ op: 'switch', index: 0, on: i % 2 === 1 });
    const id = s.idOf(i);
    assert.equal(s.take('status/switch:0', STATUS).verdict, 'ok');
    assert.equal(s.take('events/rpc', '{}').verdict, 'ok');
    assert.equal(s.take('server/rpc', reply(id)).verdict, 'ok', `reply ${i + 1}`);
    s.rpc.reply(UUID, id, { result: { was_on: i % 2 === 0 } });
    s.tick(5);
  }
  assert.deepEqual(s.stats.exempt, { replies: 20, caused: 40, late: 0 });
  assert.equal(s.stats.dropped.flood, 0);
  s.rpc.close();
});

test('the burst always holds a 16-line breaker’s connect, whatever MQTT_RATE', () => {
  const s = setup(1);
  let ok = 0;
  for (let i = 0; i < 100; i++) if (s.take('status/switch:0', STATUS).verdict === 'ok') ok++;
  assert.equal(ok, CONNECT_MESSAGES);
  assert.equal(CONNECT_MESSAGES, 18);
});
