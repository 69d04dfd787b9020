import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { picture, upload } from './files.ts';
import { API, call, DIALECT, makeApp, makeCompany, makeTwin, type Company, type TestApp } from './helpers.ts';
import { emulatorFirmware } from '../../../tools/zk-emulator/terminal.ts';
import { listen, stopTerminals, terminal, until } from './terminals.ts';

/**
 * Issue #21, files with N instances: two servers on one PostgreSQL, each with a DATA_DIR of its own (as on two
 * machines). A face uploaded through A is served by B and reaches a ZK terminal polling B; the terminal's capture
 * photo, taken in by B, is served by A. Runs on PostgreSQL only (TEST_DATABASE_URL): SQLite is one server.
 */
const onPg = DIALECT === 'postgres';

let A: TestApp;
let B: TestApp;
let co: Company;
/** where terminals reach B */
let serverB: string;
before(async () => {
  if (!onPg) return;
  A = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  B = await makeTwin(A, { DEVICE_POLL_SECONDS: '1' });
  co = await makeCompany(A, 'Two servers');
  serverB = await listen(B);
});
after(async () => {
  await stopTerminals();
  // the twin first: A's close drops the database
  await B?.close();
  await A?.close();
});

test(
  'a face uploaded through A is served by B and reaches a terminal polling B; B’s capture photo is served by A',
  { skip: !onPg && 'PostgreSQL only' },
  async () => {
    assert.equal(A.app.files.kind, 'database', 'with DATABASE_URL files are in the database');
    const face = await picture(400, 500);
    const up = await upload(A, '/person/upload', co.main, { name: 'face.jpg', data: face });
    assert.equal(up.code, CODES.OK, up.message);
    // the form is saved on B (another request of the same console, balanced elsewhere)
    const dept = (await call(B.app, 'POST', '/org/create', { token: co.main, body: { name: 'Staff' } })).data.id;
    const person = await call(B.app, 'POST', '/person/create', {
      token: co.main,
      body: { number: '3001', name: 'Zhou Min', phone: '139', organizations: [dept], pic: up.data.pic },
    });
    assert.equal(person.code, CODES.OK, person.message);
    const onB = await B.app.inject({ method: 'GET', url: `${API}/person/pic/${person.data.id}`, headers: { cookie: `Admin-Token=${co.main}` } });
    assert.equal(onB.statusCode, 200);
    assert.equal(onB.headers['content-type'], 'image/jpeg');
    assert.equal(onB.headers['cache-control'], 'private, max-age=86400');
    assert.equal(Number(onB.headers['content-length']), onB.rawPayload.length);
    const onA = await A.app.inject({ method: 'GET', url: `${API}/person/pic/${person.data.id}`, headers: { cookie: `Admin-Token=${co.main}` } });
    assert.deepEqual(onA.rawPayload, onB.rawPayload, 'the same stored face from either server');
    for (const t of [A, B])
      assert.deepEqual(
        fs.readdirSync(t.app.config.dataDir).filter((n) => n === 'faces'),
        [],
        'no face file in either DATA_DIR',
      );

    // the terminal polls B; the person is sent to it through A
    const d = await call(A.app, 'POST', '/device/create', { token: co.main, body: { name: 'Gate', serial: 'ZKTWO1', ip: '10.0.0.9', password: 'x12345' } });
    assert.equal(d.code, CODES.OK, d.message);
    const term = terminal(serverB, 'ZKTWO1');
    await term.start();
    const add = await call(A.app, 'POST', '/device/persons/add', { token: co.main, body: { id: d.data.id, person_ids: [person.data.id] } });
    assert.equal(add.code, CODES.OK, add.message);
    await until('the face on the terminal', () => term.photos.get('3001'), 20_000);
    assert.deepEqual(term.photos.get('3001'), onB.rawPayload, 'the stored JPEG, byte for byte');

    // a punch with its capture photo, taken in by B, shown by A
    const shot = await picture(320, 240);
    await term.punch({ pin: '3001', photo: shot });
    const url = await until(
      'the capture photo linked',
      async () =>
        (await call(A.app, 'GET', '/attendance/list', { token: co.main, query: { device_id: d.data.id } })).data.items[0]?.pic_url as string | undefined,
      20_000,
    );
    const img = await A.app.inject({ method: 'GET', url, headers: { cookie: `Admin-Token=${co.main}` } });
    assert.equal(img.statusCode, 200);
    assert.deepEqual(img.rawPayload, shot);
  },
);

test(
  'firmware uploaded through A is fetched from B by the terminal polling B (streamed from the database), which restarts with it',
  { skip: !onPg && 'PostgreSQL only' },
  async () => {
    const fw = await upload(
      A,
      '/firmware/upload',
      co.main,
      { name: 'emfw.cfg', data: emulatorFirmware('Ver 9.0.0', 'x'.repeat(600_000)) },
      { name: 'FW9', version: 'Ver 9.0.0' },
    );
    assert.equal(fw.code, CODES.OK, fw.message);
    const d = await call(A.app, 'POST', '/device/create', {
      token: co.main,
      body: { name: 'Side door', serial: 'ZKTWO2', ip: '10.0.0.10', password: 'x12345' },
    });
    const term = terminal(serverB, 'ZKTWO2', { firmware: 'Ver 2.4.1', rebootMs: 100 });
    await term.start();
    await until(
      'the terminal reports its firmware',
      async () => (await call(A.app, 'GET', '/device/info', { token: co.main, query: { id: d.data.id } })).data.version === 'Ver 2.4.1',
      20_000,
    );
    const sent = await call(A.app, 'POST', '/firmware/upgrade', { token: co.main, body: { firmware_id: fw.data.id, device_ids: [d.data.id] } });
    assert.equal(sent.code, CODES.OK, sent.message);
    // the terminal installs the package, then restarts (counted once its restart begins)
    await until('upgraded and restarted', async () => term.firmware === 'Ver 9.0.0' && term.rebootCount >= 1, 20_000);
    assert.equal(term.rebootCount, 1);
  },
);
