import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { createIsapiTerminal, type IsapiTerminal } from '../../../tools/isapi-emulator/terminal.ts';
import { addPersonWithFace } from './files.ts';
import { call, DIALECT, makeApp, makeCompany, makeTwin, type Company, type TestApp } from './helpers.ts';
import { until } from './terminals.ts';

/**
 * Two instances on one PostgreSQL database (issue #21): devices that got work are told to the other instances only
 * where one instance serves them (a dialled Hikvision terminal); a ZKTeco terminal polls whichever instance it
 * reaches, so telling the others of its work would only cost a NOTIFY per change.
 */
const pgOnly = DIALECT !== 'postgres' && 'two instances share PostgreSQL only';

let A: TestApp;
let B: TestApp;
let C: Company;
let hik: IsapiTerminal | undefined;

before(async () => {
  if (DIALECT !== 'postgres') return;
  A = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  B = await makeTwin(A, { DEVICE_POLL_SECONDS: '1' });
  C = await makeCompany(A, 'Wake Ltd');
});
after(async () => {
  await hik?.stop();
  await B?.close();
  await A?.close();
});

test('work for a ZKTeco terminal is not told to the other instances; work for a dialled Hikvision terminal is', { skip: pgOnly }, async () => {
  hik = await createIsapiTerminal({ password: 'hik-Pass-1', serial: 'DS-WAKE-1' });
  const zk = await call(A.app, 'POST', '/device/create', { token: C.main, body: { name: 'ZK gate', serial: 'WAKEZK1', ip: '10.1.1.9', password: 'x' } });
  assert.equal(zk.code, CODES.OK, zk.message);
  const hk = await call(A.app, 'POST', '/device/create', {
    token: C.main,
    body: { name: 'Hik gate', serial: 'WAKEHIK1', protocol: 'isapi', ip: '127.0.0.1', port: hik.port, account: 'admin', password: 'hik-Pass-1' },
  });
  assert.equal(hk.code, CODES.OK, hk.message);
  const zkId = zk.data.id as number;
  const hikId = hk.data.id as number;

  const heard: number[][] = [];
  const off = B.app.bus.on('device.wake', (d) => void heard.push(d as number[]));
  try {
    const { db } = A.app.database;
    const { sync } = A.app.modules.devices;
    const row = (id: number) => db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    // ZKTeco alone: nothing is sent. Then both: only the Hikvision terminal. Messages arrive in commit order, so
    // once the last is heard, a word about the ZKTeco terminal would have been heard before it.
    await sync.queue(db, await row(zkId), { kind: 'info' });
    const pid = await addPersonWithFace(A, C, { name: 'Wu Lan', number: '7001', department: 'Hall' });
    for (const id of [zkId, hikId]) await sync.assign(db, C.id, await row(id), [pid]);
    await sync.queue(db, await row(hikId), { kind: 'info' });
    await until('B hears the Hikvision terminal twice', () => heard.flat().filter((id) => id === hikId).length >= 2, 10_000);
    assert.ok(!heard.flat().includes(zkId), `the ZKTeco terminal is never told (heard ${JSON.stringify(heard)})`);
  } finally {
    off();
  }
});
