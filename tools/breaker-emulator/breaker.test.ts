import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { EmulatedBreaker } from './breaker.ts';

/** The emulator against a plain broker: the protocol of docs/breaker-protocol.md from the server's side. */
let broker: Aedes;
let server: net.Server;
let url: string;
let caller: MqttClient;
const replies = new Map<number, (body: Record<string, unknown>) => void>();
const events: Record<string, unknown>[] = [];
let clock = Date.now();
let emu: EmulatedBreaker;
let id = 0;

before(async () => {
  broker = new Aedes();
  await broker.listen();
  server = net.createServer(broker.handle as (s: net.Socket) => void);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  caller = await mqtt.connectAsync(url, { clientId: 'test-server' });
  await caller.subscribeAsync(['fa/EMU-1/server/rpc', 'fa/EMU-1/events/rpc', 'fa/EMU-1/online']);
  caller.on('message', (topic, payload) => {
    if (topic.endsWith('/online')) return events.push({ online: payload.toString() });
    const body = JSON.parse(payload.toString()) as Record<string, unknown>;
    if (topic.endsWith('/server/rpc')) replies.get(body.id as number)?.(body);
    else events.push(body);
  });
  emu = new EmulatedBreaker({ url, uuid: 'EMU-1', password: 'x', lines: 3, tickMs: 50, reportMs: 100, now: () => clock, reconnectMs: 0 });
  await emu.start();
});
after(async () => {
  await emu.kill();
  await caller.endAsync();
  await new Promise<void>((r) => broker.close(() => r()));
  await new Promise<void>((r) => server.close(() => r()));
});

function rpc(method: string, params?: unknown): Promise<Record<string, unknown>> {
  const n = ++id;
  return new Promise((resolve) => {
    replies.set(n, resolve);
    caller.publish('fa/EMU-1/rpc', JSON.stringify({ id: n, src: 'fa/EMU-1/server', method, params }));
  });
}
const waitFor = async (what: string, fn: () => boolean) => {
  const deadline = Date.now() + 10_000;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

test('status, switching and self-check (toggle_after)', async () => {
  const st = (await rpc('Sys.GetStatus')).result as Record<string, { output: boolean; apower: number }>;
  assert.equal(st['switch:0']!.output, true);
  assert.ok(st['switch:2']!.apower > 0);
  assert.deepEqual((await rpc('Switch.Set', { id: 1, on: false })).result, { was_on: true });
  assert.equal(emu.lines[1]!.on, false);
  await rpc('Switch.Set', { id: 1, on: true });
  await rpc('Switch.Set', { id: 2, on: false, toggle_after: 10 });
  assert.equal(emu.lines[2]!.on, false);
  clock += 10_001;
  emu.tick();
  assert.equal(emu.lines[2]!.on, true);
  await waitFor('selfcheck_done', () => events.some((e) => JSON.stringify(e).includes('selfcheck_done')));
  assert.equal(((await rpc('Switch.Set', { id: 9, on: true })).error as { code: number }).code, -103);
  assert.equal(((await rpc('Nope.Nothing')).error as { code: number }).code, -32601);
});

test('limits trip the line with an event; closing again clears the protection', async () => {
  await rpc('Switch.SetConfig', { id: 0, config: { power_limit: 5000, current_limit: 10 } });
  emu.fault(0, 'overcurrent');
  assert.equal(emu.lines[0]!.on, false);
  await waitFor('overcurrent event', () => events.some((e) => JSON.stringify(e).includes('"event":"overcurrent"')));
  await rpc('Switch.Set', { id: 0, on: true });
  await waitFor('alarm_cleared', () => events.some((e) => JSON.stringify(e).includes('alarm_cleared')));
  assert.equal(emu.lines[0]!.on, true);
});

test('schedules: at most 20, executed at their minute in the breaker’s zone, one-day jobs delete themselves', async () => {
  await rpc('Sys.SetConfig', { config: { location: { tz: 'Asia/Shanghai' } } });
  // 08:15 in Shanghai is 00:15 UTC.
  const base = Date.UTC(2030, 0, 7, 0, 14, 0); // a Monday
  clock = base;
  emu.tick();
  const r = await rpc('Schedule.Create', { enable: true, timespec: '0 15 8 * * 1', calls: [{ method: 'Switch.Set', params: { id: 1, on: false } }] });
  assert.ok((r.result as { id: number }).id > 0);
  await rpc('Schedule.Create', { enable: true, timespec: '0 16 8 7 1 *', once: true, calls: [{ method: 'Switch.Set', params: { id: 1, on: true } }] });
  for (let i = 2; i < 20; i++) await rpc('Schedule.Create', { enable: true, timespec: `0 ${i} 3 * * *`, calls: [] });
  const full = await rpc('Schedule.Create', { enable: true, timespec: '0 1 1 * * *', calls: [] });
  assert.equal((full.error as { code: number }).code, -109);
  assert.equal(((await rpc('Schedule.Create', { timespec: 'every day', calls: [] })).error as { code: number }).code, -109);
  clock = base + 60_000;
  emu.tick();
  assert.equal(emu.lines[1]!.on, false, 'the cyclic job ran at 08:15');
  clock = base + 120_000;
  emu.tick();
  assert.equal(emu.lines[1]!.on, true, 'the one-day job ran at 08:16');
  const list = (await rpc('Schedule.List')).result as { jobs: unknown[] };
  assert.equal(list.jobs.length, 19, 'and deleted itself');
});

test('going away: a clean stop says offline; a lost connection leaves the will', async () => {
  await emu.stop();
  await waitFor('online false', () => events.some((e) => e.online === 'false'));
  events.length = 0;
  await emu.start();
  await waitFor('online true', () => events.some((e) => e.online === 'true'));
  await emu.kill();
  await waitFor('will', () => events.some((e) => e.online === 'false'));
});
