import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import type { DeviceOp, Planned, Protocol, Wire } from '../../gateways/driver.ts';
import type { TerminalEvents } from '../../gateways/terminal-events.ts';
import { addPersonWithFace } from '../../../test/files.ts';
import { call, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { until } from '../../../test/terminals.ts';
import { newPersonRow } from '../persons/persons.repository.ts';
import { devicesRepository, type DeviceRow } from './devices.repository.ts';

/**
 * The outbound seam without ZK: the ledger plans protocol-free operations through whatever Wire a
 * protocol gives it (a dialled or published protocol brings its own), within that wire's batch budget;
 * a dialled protocol's delivery is woken after the commit that queued work and reports through the port.
 */
type Op = { op: DeviceOp; id: number };
const jsonWire: Wire<Op> = { encode: (op, id) => ({ op, id }), size: (e) => JSON.stringify(e).length, maxBatchBytes: 4 * 1024 * 1024 };
/** What the fake "dialled" terminals received, and which device ids were woken. */
const dialled = { woken: [] as number[], received: [] as Planned<Op>[] };
const fakeDialled: Protocol<TerminalEvents<DeviceRow>> = {
  driver: { protocol: 'fake-dial', delivery: 'dialled', codeKey: () => 'device.codes.ok', isOk: (_kind, code) => code === 0 },
  delivery: (events) => {
    // Work in flight is awaited on close, as a real delivery must (the database goes after the deliveries).
    const inflight = new Set<Promise<void>>();
    let closed = false;
    return {
      protocol: 'fake-dial',
      wake(id) {
        if (closed) return; // a report's own commit may wake it again while the server closes
        dialled.woken.push(id);
        // As ISAPI will: look the terminal up, take a batch in its own encoding, "send" it, report the answers.
        const work = (async () => {
          const d = await events.terminal(id);
          if (!d) return;
          const batch = await events.poll(d, jsonWire);
          dialled.received.push(...batch);
          await events.commandResults(
            d,
            batch.map((b) => ({ id: b.id, code: 0 })),
          );
        })();
        inflight.add(work);
        void work.finally(() => inflight.delete(work));
      },
      close: async () => {
        closed = true;
        while (inflight.size) await Promise.allSettled([...inflight]);
      },
    };
  },
};

let t: TestApp;
let A: Company;
before(async () => {
  t = await makeApp({}, { protocols: [fakeDialled] });
  A = await makeCompany(t, 'Seam');
});
after(() => t.close());

test('the sync ledger plans through any wire, within its budget, and results come back by id', async () => {
  const dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Seam dept' } })).data.id as number;
  const created = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Dialled', serial: 'SEAM0001', ip: '10.0.0.9', password: 'x12345', attendance_scope: 'all' },
  });
  assert.equal(created.code, CODES.OK, created.message);
  for (const n of ['1', '2', '3']) {
    await addPersonWithFace(t, A, { name: `P${n}`, number: `S${n}`, organizations: [dept] });
  }
  const device = (await devicesRepository.findBySerial(t.app.database.db, 'SEAM0001'))!;

  // An ISAPI-like wire: one object per operation; a person (user + face) costs 250 here, the budget fits two.
  const wire: Wire<{ op: DeviceOp; id: number }> = { encode: (op, id) => ({ op, id }), size: (e) => (e.op.kind === 'photo' ? 100 : 150), maxBatchBytes: 520 };
  const pins = (batch: { encoded: { op: DeviceOp } }[]) => batch.map((p) => `${p.encoded.op.kind}:${'pin' in p.encoded.op ? p.encoded.op.pin : ''}`);
  const first = await t.app.modules.devices.sync.plan(device, wire);
  assert.deepEqual(pins(first), ['user:S1', 'photo:S1', 'user:S2', 'photo:S2'], 'the budget of the wire, not the protocol, bounds the batch');
  assert.ok(first.every((p) => p.encoded.id === p.id));
  const second = await t.app.modules.devices.sync.plan(device, wire);
  assert.deepEqual(pins(second), ['user:S3', 'photo:S3'], 'what was planned is not planned again');

  await t.app.modules.devices.sync.results(
    device,
    [...first, ...second].map((p) => ({ id: p.id, code: 0 })),
  );
  const list = await call(t.app, 'GET', '/person/list', { token: A.main, query: { page: 1, pageSize: 10 } });
  assert.deepEqual(
    (list.data.items as { sync_status: number }[]).map((p) => p.sync_status),
    [1, 1, 1],
    'every person synced through the non-ZK wire',
  );
});

test('a dialled protocol is woken after the commit: the door opens at once and people reach the device without a poll', async () => {
  const created = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Dialled door', serial: 'DIAL0001', ip: '10.0.0.10', password: 'x12345', attendance_scope: 'all' },
  });
  assert.equal(created.code, CODES.OK, created.message);
  const id = created.data.id as number;
  await t.app.database.db.updateTable('devices').set({ protocol: 'fake-dial' }).where('id', '=', id).execute();
  const queuedBefore = dialled.woken.length;

  const open = await call(t.app, 'POST', '/device/open', { token: A.main, body: { id } });
  assert.equal(open.data.state, 'success', 'answered by the delivery within the wait, no poll involved');
  assert.ok(dialled.woken.slice(queuedBefore).includes(id));
  assert.ok(dialled.received.some((p) => p.encoded.op.kind === 'unlock'));

  // A new person (the device takes everyone): the people hook moves the ledger, the commit wakes the device,
  // and the people it got at creation go with the same batch.
  const newcomer = await addPersonWithFace(t, A, { name: 'Newcomer', number: 'D1', department: 'Dialled dept' });
  const states = () => t.app.database.db.selectFrom('device_persons').select(['person_id', 'state']).where('device_id', '=', id).execute();
  const rows = await until('every person synced on the dialled device', async () => {
    const r = await states();
    return r.length === 4 && r.every((x) => x.state === 'synced') ? r : undefined;
  });
  assert.ok(rows!.some((r) => r.person_id === newcomer));
  assert.ok(dialled.received.some((x) => x.encoded.op.kind === 'user' && x.encoded.op.pin === 'D1'));
});

test('a batch is filled up to the wire budget (not 50 people as before issue #20), or to the people the wire allows', async () => {
  const { db } = t.app.database;
  const dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Fill dept' } })).data.id as number;
  const now = new Date().toISOString();
  const rows = Array.from({ length: 300 }, (_, i) => ({
    ...newPersonRow({ number: `F${String(i).padStart(3, '0')}`, name: `Fill ${i}`, phone: '1', created_at: now }),
    company_id: A.id,
    search: '',
  }));
  const ids = await db.insertInto('persons').values(rows).returning('id').execute();
  await db
    .insertInto('person_departments')
    .values(ids.map((r) => ({ company_id: A.id, person_id: r.id, department_id: dept })))
    .execute();
  const created = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Fill', serial: 'FILL0001', ip: '10.0.0.11', password: 'x12345', capacity: 1000 },
  });
  assert.equal(created.code, CODES.OK, created.message);
  const added = await call(t.app, 'POST', '/device/persons/add', { token: A.main, body: { id: created.data.id, department_ids: [dept] } });
  assert.equal(added.code, CODES.OK, added.message);
  const device = (await devicesRepository.findBySerial(db, 'FILL0001'))!;

  // One user command costs 100 here: a budget of 13,050 takes 130 people, the wire's whole budget.
  const wide: Wire<Op> = { encode: (op, id) => ({ op, id }), size: () => 100, maxBatchBytes: 13_050 };
  const first = await t.app.modules.devices.sync.plan(device, wide);
  assert.equal(first.length, 130, 'the reply is filled to the budget');
  // A wire that takes few people per batch (a dialled device's own limit) bounds it instead.
  const narrow: Wire<Op> = { ...wide, maxBatchPeople: 20 };
  assert.equal((await t.app.modules.devices.sync.plan(device, narrow)).length, 20);
  // The ledger's own cap still holds for a wire without limits: 150 people remain, all in one batch.
  const rest = await t.app.modules.devices.sync.plan(device, jsonWire);
  assert.equal(rest.length, 150);
  assert.equal((await t.app.modules.devices.sync.plan(device, jsonWire)).length, 0, 'nothing planned twice');
});

test('an idle poll plans nothing and opens no transaction; a queued command or a person due is planned at the next poll', async () => {
  const { db } = t.app.database;
  const created = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Idle', serial: 'IDLE0001', ip: '10.0.0.11', password: 'x12345', attendance_scope: 'all' },
  });
  assert.equal(created.code, CODES.OK, created.message);
  const device = (await devicesRepository.findBySerial(db, 'IDLE0001'))!;
  // the first polls take what the new terminal is due (the company's people), answered
  for (let batch = await t.app.modules.devices.sync.plan(device, jsonWire); batch.length; batch = await t.app.modules.devices.sync.plan(device, jsonWire)) {
    await t.app.modules.devices.sync.results(
      device,
      batch.map((b) => ({ id: b.id, code: 0 })),
    );
  }
  // transactions opened, counted on this app's database
  let opened = 0;
  const original = db.transaction.bind(db);
  db.transaction = () => {
    opened++;
    return original();
  };
  try {
    for (let i = 0; i < 5; i++) assert.deepEqual(await t.app.modules.devices.sync.plan(device, jsonWire), []);
    assert.equal(opened, 0, 'five idle polls, no transaction');

    await t.app.modules.devices.sync.queue(db, device, { kind: 'info' });
    const asked = await t.app.modules.devices.sync.plan(device, jsonWire);
    assert.deepEqual(
      asked.map((p) => p.encoded.op.kind),
      ['info'],
      'the queued command goes out at the next poll',
    );
    assert.ok(opened > 0);
    // sent and not answered yet: the polls after it still look (a command that is never answered times out there)
    opened = 0;
    assert.deepEqual(await t.app.modules.devices.sync.plan(device, jsonWire), []);
    assert.equal(opened, 1, 'a command awaiting its answer is looked at');
    await t.app.modules.devices.sync.results(device, [{ id: asked[0]!.id, code: 0 }]);

    const person = await addPersonWithFace(t, A, { name: 'Idle P', number: 'IDLE1' });
    const next = await t.app.modules.devices.sync.plan(device, jsonWire);
    assert.ok(
      next.some((p) => 'pin' in p.encoded.op && p.encoded.op.pin === 'IDLE1'),
      `the new person (${person}) goes out at the next poll`,
    );
  } finally {
    db.transaction = original;
  }
});
