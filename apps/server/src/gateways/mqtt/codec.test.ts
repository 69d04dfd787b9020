import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeInbound, decodeResult, encodeRequest, mayPublish, maySubscribe, parseTimespec, parseTopic, timespecOf } from './codec.ts';
import { DeviceBudget, mosquittoHash } from './transport.ts';
import { pbkdf2Sync } from 'node:crypto';

test('timespecs: cyclic and single jobs round-trip; anything else is not ours', () => {
  const cyclic = { enable: true, hour: 7, minute: 30, weekdays: [5, 1, 3], date: null, once: false, calls: [] };
  assert.equal(timespecOf(cyclic), '0 30 7 * * 1,3,5');
  assert.deepEqual(parseTimespec('0 30 7 * * 1,3,5'), { hour: 7, minute: 30, weekdays: [1, 3, 5], date: null });
  const single = { ...cyclic, weekdays: null, date: { month: 11, day: 23 }, once: true };
  assert.equal(timespecOf(single), '0 30 7 23 11 *');
  assert.deepEqual(parseTimespec('0 30 7 23 11 *'), { hour: 7, minute: 30, weekdays: null, date: { month: 11, day: 23 } });
  for (const bad of ['0 30 7 * *', '5 30 7 * * *', '0 */5 * * * *', '0 30 24 * * *', '0 30 7 23 * *', '0 1,2 7 * * *', 'x'])
    assert.equal(parseTimespec(bad), null, bad);
});

test('topics: only fa/<uuid>/… with a valid uuid; devices publish under their prefix and subscribe to their requests only', () => {
  assert.deepEqual(parseTopic('fa/BRK-1/status/switch:3'), { uuid: 'BRK-1', kind: 'status', index: 3 });
  assert.equal(parseTopic('fa/BRK-1/status/switch:64'), null);
  assert.equal(parseTopic('fa/a/online'), null, 'uuid too short');
  assert.equal(parseTopic('other/BRK-1/online'), null);
  assert.equal(parseTopic('fa/BRK-1/server/rpc')!.kind, 'reply');
  assert.ok(mayPublish('BRK-1', 'fa/BRK-1/events/rpc'));
  assert.ok(!mayPublish('BRK-1', 'fa/BRK-2/events/rpc'));
  assert.ok(!mayPublish('BRK-1', 'fa/BRK-10/events/rpc'));
  assert.ok(!mayPublish('BRK-1', 'fa/BRK-1'));
  assert.ok(maySubscribe('BRK-1', 'fa/BRK-1/rpc'));
  for (const f of ['fa/BRK-1/#', 'fa/+/rpc', 'fa/BRK-2/rpc', '#']) assert.ok(!maySubscribe('BRK-1', f), f);
});

test('inbound frames: statuses map to the spec’s fields; malformed frames are reported, never thrown', () => {
  const status = decodeInbound(
    'fa/BRK-1/events/rpc',
    JSON.stringify({
      method: 'NotifyStatus',
      params: {
        ts: 1763910000.5,
        'switch:1': {
          id: 1,
          output: false,
          apower: 12.5,
          current: 0.06,
          voltage: 221,
          aenergy: { total: 99 },
          temperature: { tC: 31 },
          errors: ['overcurrent', 'bogus'],
          current_limit: 16,
        },
      },
    }),
    0,
  );
  assert.deepEqual(status, {
    kind: 'readings',
    uuid: 'BRK-1',
    at: 1763910000500,
    lines: [{ index: 1, on: false, power: 12.5, current: 0.06, voltage: 221, energyWh: 99, temperature: 31, errors: ['overcurrent'], currentLimit: 16 }],
  });
  for (const payload of ['{', 'null', '[]', '"x"', JSON.stringify({ method: 'Nope', params: {} }), 'x'.repeat(20_000)])
    assert.equal(decodeInbound('fa/BRK-1/events/rpc', payload, 0).kind, 'invalid', payload.slice(0, 20));
  assert.equal(decodeInbound('fa/BRK-1/online', 'maybe', 0).kind, 'invalid');
  assert.deepEqual(decodeInbound('fa/BRK-1/online', 'false', 0), { kind: 'online', uuid: 'BRK-1', online: false });
  const ev = decodeInbound(
    'fa/BRK-1/events/rpc',
    JSON.stringify({ method: 'NotifyEvent', params: { events: [{ id: 0, event: 'leakage', value: 35, ts: 2 }, { event: 'nonsense' }] } }),
    7,
  );
  assert.deepEqual(ev, { kind: 'events', uuid: 'BRK-1', lines: [], at: 7, events: [{ kind: 'leakage', index: 0, value: 35, at: 2000 }] });
});

test('requests and replies: switch, self-check, schedules', () => {
  const req = encodeRequest('BRK-1', 9, { op: 'switch', index: 0, on: false, toggleAfter: 10 });
  assert.equal(req.topic, 'fa/BRK-1/rpc');
  assert.deepEqual(JSON.parse(req.payload), {
    id: 9,
    src: 'fa/BRK-1/server',
    dst: 'BRK-1',
    method: 'Switch.Set',
    params: { id: 0, on: false, toggle_after: 10 },
  });
  const list = decodeResult(
    { op: 'listSchedules' },
    {
      result: {
        jobs: [
          { id: 3, enable: true, timespec: '0 0 8 * * 1', calls: [{ method: 'Switch.Set', params: { id: 1, on: true } }] },
          { id: 4, timespec: 'garbage', calls: [] },
        ],
      },
    },
  );
  assert.ok(list.ok);
  assert.deepEqual(list.jobs![0], { id: 3, enable: true, once: false, hour: 8, minute: 0, weekdays: [1], date: null, calls: [{ index: 1, on: true }] });
  assert.equal(list.jobs![1]!.id, 4, 'an unreadable job is kept by id so it can be deleted');
  assert.deepEqual(decodeResult({ op: 'createSchedule', job: list.jobs![0] }, { error: { code: -109, message: 'full' } }), {
    ok: false,
    reason: 'device',
    code: -109,
    message: 'full',
  });
});

test('the per-device budget drops a flood and asks to disconnect after 10 s of it', () => {
  let now = 0;
  const b = new DeviceBudget(20, () => now);
  let ok = 0;
  for (let i = 0; i < 100; i++) if (b.take('A') === 'ok') ok++;
  assert.equal(ok, 40, 'a burst of twice the rate');
  assert.equal(b.take('B'), 'ok', 'another device is unaffected');
  now = 1000;
  assert.equal(b.take('A'), 'ok', 'refilled');
  let kickedAt = 0;
  let firstDrop = 0;
  for (; now < 20_000 && !kickedAt; now += 10) {
    const v = b.take('A');
    if (v !== 'ok' && !firstDrop) firstDrop = now;
    if (v === 'kick') kickedAt = now;
  }
  assert.ok(kickedAt - firstDrop >= 10_000 && kickedAt - firstDrop < 10_100, `kicked ${kickedAt - firstDrop} ms after the first drop`);
});

test('Mosquitto $7$ hashes are PBKDF2-SHA512 as mosquitto_passwd writes them', () => {
  const h = mosquittoHash('pass1234');
  const [, alg, rounds, salt, key] = h.split('$');
  assert.equal(alg, '7');
  assert.equal(rounds, '101');
  assert.equal(pbkdf2Sync('pass1234', Buffer.from(salt!, 'base64'), 101, 64, 'sha512').toString('base64'), key);
  assert.equal(Buffer.from(salt!, 'base64').length, 12);
});
