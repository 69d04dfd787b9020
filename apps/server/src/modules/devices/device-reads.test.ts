import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { addPersonWithFace } from '../../../test/files.ts';
import { listen, stopTerminals, terminal, until } from '../../../test/terminals.ts';

/** What the console shows of a terminal is what the terminal reported, with when (#9 items 8, 9, 11). */
let t: TestApp;
let server: string;
let A: Company;
let B: Company;

before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  server = await listen(t);
  A = await makeCompany(t, 'Reads A');
  B = await makeCompany(t, 'Reads B');
});
after(async () => {
  await stopTerminals();
  await t.close();
});

const info = async (id: number) => (await call(t.app, 'GET', '/device/info', { token: A.main, query: { id } })).data;

test(`the user count is the terminal's, re-read after people are synced, with the time it was read (${DIALECT})`, async () => {
  const dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Staff' } })).data.id;
  const d = (
    await call(t.app, 'POST', '/device/create', {
      token: A.main,
      body: { name: 'Gate', serial: 'READS01', ip: '10.1.2.30', password: 'pw', attendance_scope: 'all' },
    })
  ).data;
  assert.equal(d.user_count_at, null, 'never read before the terminal called in');
  for (const n of ['301', '302', '303']) {
    await addPersonWithFace(t, A, { number: n, name: `P${n}`, organizations: [dept] });
  }
  const term = terminal(server, 'READS01', { ip: '10.1.2.30' });
  await term.start();
  await until('3 people on the terminal', () => term.users.size === 3);
  const read = await until('user count re-read', async () => {
    const x = await info(d.id);
    return x.user_count === 3 && x.user_count_at ? x : undefined;
  });
  assert.equal(read.sync.synced, 3);
  assert.ok(Date.parse(read.user_count_at) > Date.parse(d.created_at));
});

test(`a terminal's network settings are read when it connects and on request ("Other" tab) (${DIALECT})`, async () => {
  const d = (await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Side', serial: 'READS02', ip: '10.9.8.7', password: 'pw' } })).data;
  assert.equal(d.reported_at, null);
  assert.deepEqual(d.reported, {});
  const term = terminal(server, 'READS02', { ip: '10.9.8.7' });
  await term.start();
  const reported = await until('settings reported', async () => {
    const x = await info(d.id);
    return x.reported_at && x.reported.net_ip ? x : undefined;
  });
  assert.equal(reported.reported.net_ip, '10.9.8.7');
  assert.equal(reported.reported.net_mask, '255.255.255.0');
  assert.equal(reported.reported.net_gateway, '10.9.8.1');
  // "Read from device" asks again: answered by the terminal's next poll, the time moves on.
  const ask = await call(t.app, 'POST', '/device/command', { token: A.main, body: { id: d.id, kind: 'info' } });
  const done = await call(t.app, 'GET', '/device/command/result', { token: A.main, query: { id: ask.data.command_id, wait: 10 } });
  assert.equal(done.data.state, 'success', done.data.message);
  assert.ok(Date.parse((await info(d.id)).reported_at) >= Date.parse(reported.reported_at));
});

test(`open door answers at once with "sent", and the result can be awaited; another company's command is not found (${DIALECT})`, async () => {
  const d = (await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Door', serial: 'READS03', ip: '10.0.0.3', password: 'pw' } })).data;
  const term = terminal(server, 'READS03');
  await term.start();
  await until('online', async () => (await info(d.id)).online);
  const sent = await call(t.app, 'POST', '/device/open', { token: A.main, lang: 'en-US', body: { id: d.id, wait: 0 } });
  assert.equal(sent.data.state, 'pending', 'no waiting for the terminal');
  assert.equal(term.doorOpenCount, 0, 'answered before the terminal acted');
  const other = await call(t.app, 'GET', '/device/command/result', { token: B.main, query: { id: sent.data.command_id } });
  assert.equal(other.code, CODES.NOT_FOUND);
  const result = await call(t.app, 'GET', '/device/command/result', { token: A.main, lang: 'en-US', query: { id: sent.data.command_id, wait: 10 } });
  assert.equal(result.data.state, 'success', result.data.message);
  assert.equal(term.doorOpenCount, 1);
  // Asked again later: the stored outcome, at once.
  const again = await call(t.app, 'GET', '/device/command/result', { token: A.main, query: { id: sent.data.command_id } });
  assert.equal(again.data.state, 'success');
});
