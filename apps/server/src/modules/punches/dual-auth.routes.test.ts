import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { addPersonWithFace } from '../../../test/files.ts';
import { listen, stopTerminals, terminal, until } from '../../../test/terminals.ts';
import { clock } from '../../lib/time.ts';
import { pairPunches } from './dual-auth.ts';

/** spec §9 two-person authentication: two people within 10 s on devices whose function type asks for it. */
let t: TestApp;
let server: string;
let A: Company;

before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  server = await listen(t);
  A = await makeCompany(t, 'Dual A');
  const dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Vault' } })).data.id;
  for (const [number, name] of [
    ['801', 'Ann'],
    ['802', 'Bo'],
    ['803', 'Cy'],
  ] as const)
    await addPersonWithFace(t, A, { number, name, organizations: [dept] });
  for (const [name, serial, function_type] of [
    ['Vault door', 'DUAL01', 'dualAuth'],
    ['Front door', 'DUAL02', 'attendance'],
  ])
    assert.equal(
      (await call(t.app, 'POST', '/device/create', { token: A.main, body: { name, serial, ip: '10.0.0.2', password: 'pw', function_type } })).code,
      CODES.OK,
    );
});
after(async () => {
  await stopTerminals();
  await t.close();
});

/** Device wall-clock time `s` seconds from now (the company's zone, Asia/Shanghai, UTC+8). */
const local = (s: number) => new Date(clock.now() + 8 * 3600_000 + s * 1000).toISOString().slice(0, 19).replace('T', ' ');
const setDual = (on: number) => call(t.app, 'POST', '/company/update', { token: A.main, body: { name: 'Dual A', phone: '1', options: { dualAuth: on } } });
type Row = { name: string; device: string; time: string; dual_state?: string | null; dual_partner?: string | null };
const punches = async (): Promise<Row[]> => (await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { pageSize: 100 } })).data.items;
const stateOf = async (name: string, time: string) => (await punches()).find((p) => p.name === name && p.time === time.slice(11));

test('pairing: the next different person within 10 s; alone, pending while the window is open, then unpaired', () => {
  const at = (id: number, person: number, s: number, dual_state = '') => ({
    id,
    person_id: person,
    time: new Date(1_000_000 + s * 1000).toISOString(),
    dual_state,
    person_name: null,
  });
  const now = 1_000_000 + 100_000;
  assert.deepEqual(pairPunches([at(1, 1, 0), at(2, 1, 3), at(3, 2, 9)], now), [
    { id: 1, state: 'paired', partner: 2 },
    { id: 3, state: 'paired', partner: 1 },
    { id: 2, state: 'unpaired', partner: null },
  ]);
  assert.deepEqual(pairPunches([at(1, 1, 0), at(2, 2, 11)], now), [
    { id: 1, state: 'unpaired', partner: null },
    { id: 2, state: 'unpaired', partner: null },
  ]);
  assert.deepEqual(pairPunches([at(1, 1, 95)], now), [{ id: 1, state: 'pending', partner: null }]);
  assert.deepEqual(pairPunches([at(1, 1, 95, 'pending')], now), [], 'still waiting: nothing to write');
  // a passage uploaded late (a terminal back online): it waits the window after it arrived for its partner's upload
  const late = { ...at(1, 1, 0), created_at: new Date(now - 3000).toISOString() };
  assert.deepEqual(pairPunches([late], now), [{ id: 1, state: 'pending', partner: null }]);
  assert.deepEqual(pairPunches([late, { ...at(2, 2, 4), created_at: new Date(now).toISOString() }], now), [
    { id: 1, state: 'paired', partner: 2 },
    { id: 2, state: 'paired', partner: 1 },
  ]);
  assert.deepEqual(pairPunches([{ ...late, created_at: new Date(now - 11_000).toISOString() }], now), [{ id: 1, state: 'unpaired', partner: null }]);
});

test(`with the option on, a passage on a two-person device is paired or unpaired (with a message); other devices and the option off are untouched (${DIALECT})`, async () => {
  await setDual(1);
  const vault = terminal(server, 'DUAL01');
  const front = terminal(server, 'DUAL02');
  await vault.start();
  await front.start();
  const [annIn, boIn, cyAlone, annFront] = [local(-60), local(-57), local(-40), local(-50)];
  await vault.punch({ pin: '801', time: annIn });
  await vault.punch({ pin: '802', time: boIn });
  await vault.punch({ pin: '803', time: cyAlone });
  await front.punch({ pin: '801', time: annFront });

  const ann = await until('Ann paired', async () => ((await stateOf('Ann', annIn))?.dual_state === 'paired' ? stateOf('Ann', annIn) : undefined));
  assert.equal(ann!.dual_partner, 'Bo');
  assert.equal((await stateOf('Bo', boIn))!.dual_partner, 'Ann');
  await until('Cy unpaired', async () => (await stateOf('Cy', cyAlone))?.dual_state === 'unpaired');
  assert.equal((await stateOf('Ann', annFront))!.dual_state, null, 'a plain device is not two-person');
  const messages = (await call(t.app, 'GET', '/message/list', { token: A.main, lang: 'en-US', query: { pageSize: 50 } })).data.items as {
    title: string;
    content: string;
  }[];
  const alarm = messages.find((m) => m.title === 'Two-person authentication not met at Vault door');
  assert.ok(alarm, JSON.stringify(messages.map((m) => m.title)));
  assert.match(alarm.content, /^Cy passed Vault door/);

  // a punch alone just now waits for a partner, then is unpaired when the 10 s are over
  const now = local(0);
  await vault.punch({ pin: '801', time: now });
  await until('pending', async () => (await stateOf('Ann', now))?.dual_state === 'pending');
  const real = clock.now;
  clock.now = () => real() + 15_000;
  try {
    await until('unpaired after the window', async () => (await stateOf('Ann', now))?.dual_state === 'unpaired');
  } finally {
    clock.now = real;
  }

  // the option off: passages are not judged
  await setDual(0);
  const off = local(-30);
  await vault.punch({ pin: '803', time: off });
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal((await stateOf('Cy', off))!.dual_state, null);
});
