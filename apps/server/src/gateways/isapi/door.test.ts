import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { createIsapiTerminal, type IsapiTerminal } from '../../../../../tools/isapi-emulator/terminal.ts';
import { call, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { addIsapiTerminal, isapiTerminals, makeIsapiApp } from '../../../test/isapi.ts';
import { until } from '../../../test/terminals.ts';
import { isapiClient, type IsapiTarget } from './client.ts';
import { encodeOp } from './codec.ts';

/**
 * The door lane (docs/isapi-protocol.md §7): a remote open on a slow terminal goes out at once, beside the requests
 * the terminal is slow to answer. Every check is a comparison within one run (the open is answered while the slow
 * requests are still held), never a bound on the machine's speed.
 */
let t: TestApp;
let A: Company;
const terminals = isapiTerminals();
/** how long the terminal holds its slow answers: far longer than a door open takes, and inside the client's deadline */
const SLOW_MS = 6000;

before(async () => {
  // A deadline longer than the slow answers: they are held, not cut, while the door opens.
  ({ t } = await makeIsapiApp({ http: { timeoutMs: 20_000, maxBodyBytes: 256 * 1024 } }));
  A = await makeCompany(t, 'Door lane');
});
after(async () => {
  await terminals.stop();
  await t.close();
});

const open = encodeOp({ kind: 'unlock', seconds: 5 })![0]!;

test("the client's urgent slot: with the terminal's two slots held by slow requests, a door open still goes out at once", async () => {
  const emu: IsapiTerminal = await createIsapiTerminal({ serial: 'DS-EMU-GATE' });
  const client = isapiClient({ timeoutMs: 20_000 });
  try {
    const target: IsapiTarget = { id: 1, host: '127.0.0.1', port: emu.port, user: 'admin', password: emu.options.password };
    // the digest session first, so every request below is one round trip
    await client.request(target, { method: 'GET', path: '/ISAPI/System/deviceInfo' });
    emu.inject({ path: '/ISAPI/System/deviceInfo', slowMs: SLOW_MS });
    const asked = () => emu.requests.filter((r) => r === 'GET /ISAPI/System/deviceInfo').length;
    const before = asked();
    const order: string[] = [];
    const slow = [1, 2].map((n) => client.request(target, { method: 'GET', path: '/ISAPI/System/deviceInfo' }).then(() => void order.push(`slow ${n}`)));
    await until('both slow requests held by the terminal', () => asked() === before + 2);
    const door = await client.request(target, open);
    order.push('door');
    assert.equal(door.status, 200);
    assert.equal(emu.doorOpens.length, 1);
    await Promise.all(slow);
    assert.deepEqual(order, ['door', 'slow 1', 'slow 2'], 'the door did not wait for a slot');
  } finally {
    client.close();
    await emu.stop();
  }
});

test('a door open on a terminal busy with slow requests (heartbeat, counts) is answered before them', async () => {
  const emu = await terminals.start({ serial: 'DS-EMU-SLOWDOOR' });
  const id = await addIsapiTerminal(t, A, emu, 'ISAPIDOOR1', { attendance_scope: 'selected' });
  await until('online', async () => (await call(t.app, 'GET', '/device/info', { token: A.main, query: { id } })).data.online);
  // Everything but the door is slow now: the heartbeat's device info and the user counts the commands below ask.
  emu.inject({ path: '/ISAPI/System/deviceInfo', slowMs: SLOW_MS });
  emu.inject({ path: '/ISAPI/AccessControl/UserInfo/Count', slowMs: SLOW_MS });
  const infos: number[] = [];
  for (let i = 0; i < 2; i++) {
    const r = await call(t.app, 'POST', '/device/command', { token: A.main, body: { id, kind: 'info' } });
    assert.equal(r.code, CODES.OK, r.message);
    infos.push(r.data.command_id as number);
  }
  await until('a slow request held by the terminal', () => emu.requests.filter((r) => /deviceInfo|UserInfo\/Count/.test(r)).length > 0);
  const held = emu.requests.length;
  const opened = await call(t.app, 'POST', '/device/open', { token: A.main, body: { id, wait: 15 } });
  assert.equal(opened.code, CODES.OK, opened.message);
  assert.equal(opened.data.state, 'success', opened.data.message);
  assert.equal(emu.doorOpens.length, 1);
  // The comparison: when the door had opened, the commands asked before it were still waiting on the slow terminal.
  for (const c of infos) {
    const r = await call(t.app, 'GET', '/device/command/result', { token: A.main, query: { id: c } });
    assert.equal(r.data.state, 'pending', `command ${c} was answered before the door: ${JSON.stringify(r.data)}`);
  }
  assert.ok(emu.requests.length > held, 'the open reached the terminal');
  emu.clearInjections();
  await until('the slow commands answered in the end', async () => {
    for (const c of infos) if ((await call(t.app, 'GET', '/device/command/result', { token: A.main, query: { id: c } })).data.state === 'pending') return false;
    return true;
  });
});
