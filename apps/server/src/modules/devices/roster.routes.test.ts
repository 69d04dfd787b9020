import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { seedSite } from '../../../../../tools/zk-emulator/site.ts';
import { applyReview, call, DIALECT, makeApp, makeCompany, makeSub, refusedCodes, type Company, type TestApp } from '../../../test/helpers.ts';
import { addPersonWithFace } from '../../../test/files.ts';
import { listen, stopTerminals, terminal, until } from '../../../test/terminals.ts';

/** Taking over a working site (#30), first step: what a ZK terminal already holds is read and shown against the people. */
let t: TestApp;
let server: string;
let A: Company;
let B: Company;
let deviceId: number;
let term: ReturnType<typeof terminal>;
// A terminal in service before this server: 24 users, most with an enrolment face, some with cards or validity.
const site = seedSite({ users: 24, punches: 0, seed: 30, faces: 0.75, validity: 0.25 });

before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  server = await listen(t);
  A = await makeCompany(t, 'Roster A');
  B = await makeCompany(t, 'Roster B');
  const d = await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Old door', serial: 'ROSTER01', ip: '10.0.0.9', password: 'pw' } });
  assert.equal(d.code, CODES.OK, d.message);
  deviceId = d.data.id;
  const [one, two, three] = site.users;
  // How the review stands each user: the same number and name; the same number, another name; someone with the name.
  await addPersonWithFace(t, A, { number: one!.pin, name: one!.name, department: 'Staff' });
  await addPersonWithFace(t, A, { number: two!.pin, name: 'Someone Else', department: 'Staff 2' });
  await addPersonWithFace(t, A, { number: 'X900', name: three!.name, department: 'Staff 3' });
});
after(async () => {
  await stopTerminals();
  await t.close();
});

const roster = (token = A.main, id = deviceId) => call(t.app, 'GET', '/device/roster', { token, query: { id, pageSize: 100 } });

test(`reading a ZK terminal's roster records every user it holds with card, validity and face, each against the people; nothing changes on either side (${DIALECT})`, async () => {
  term = terminal(server, 'ROSTER01', { site });
  await term.start();
  const asked = await call(t.app, 'POST', '/device/command', { token: A.main, body: { id: deviceId, kind: 'readRoster' } });
  assert.equal(asked.code, CODES.OK, asked.message);
  const withFace = site.users.filter((u) => u.face);
  assert.ok(withFace.length > 0 && withFace.length < site.users.length);
  const r = await until('the roster read with its faces', async () => {
    const x = await roster();
    // and the faces checked (the check is off here: each passes, unmeasured)
    return x.data?.total === site.users.length &&
      x.data.items.filter((i: { face_url: string }) => i.face_url).length === withFace.length &&
      x.data.counts.faceUnchecked === 0
      ? x
      : undefined;
  });
  const byPin = new Map<string, any>(r!.data.items.map((i: { pin: string }) => [i.pin, i]));
  for (const u of site.users) {
    const got = byPin.get(u.pin);
    assert.ok(got, u.pin);
    assert.equal(got.name, u.name);
    assert.equal(got.card, u.card ?? '');
    assert.equal(got.valid_from, u.startDatetime ?? '');
    assert.equal(got.valid_to, u.endDatetime ?? '');
    assert.equal(got.admin, u.pri === 14);
    assert.equal(got.kind, 'normal');
  }
  const [one, two, three, four] = site.users;
  assert.deepEqual(
    [one, two, three, four].map((u) => byPin.get(u!.pin).match),
    ['matched', 'conflict', 'byName', 'new'],
  );
  assert.deepEqual(r!.data.counts, {
    matched: 1,
    conflict: 1,
    byName: 1,
    new: site.users.length - 3,
    unmanaged: site.users.length,
    faceRefused: 0,
    faceUnchecked: 0,
  });
  // a page of 5 counts the whole roster all the same
  const five = await call(t.app, 'GET', '/device/roster', { token: A.main, query: { id: deviceId, pageSize: 5, page: 2 } });
  assert.deepEqual(
    five.data.items.map((i: { pin: string }) => i.pin),
    site.users.slice(5, 10).map((u) => u.pin),
  );
  assert.deepEqual(five.data.counts, r!.data.counts);
  assert.equal(byPin.get(two!.pin).person_name, 'Someone Else');
  assert.equal(byPin.get(three!.pin).person_number, 'X900');
  // The face shown is the terminal's own enrolment photo, byte for byte.
  const face = withFace[0]!;
  const img = await t.app.inject({ method: 'GET', url: byPin.get(face.pin).face_url, headers: { 'x-token': A.main } });
  assert.equal(img.statusCode, 200);
  assert.ok(img.rawPayload.equals(face.face!), 'the stored face is the terminal’s JPEG');
  // The terminal keeps every user; nobody was added to the company's people.
  assert.equal(term.users.size, site.users.length);
  assert.equal((await call(t.app, 'GET', '/person/list', { token: A.main, query: { pageSize: 100 } })).data.total, 3);
  // A roster read's users are its answer, not enrolments to report one message at a time.
  const messages = await call(t.app, 'GET', '/message/list', { token: A.main, query: { pageSize: 50 } });
  assert.equal(messages.data.items.filter((m: { type: string }) => m.type === 'deviceEnrolled').length, 0);
  // A packed user log cannot be read yet: refused, so the terminal keeps it, never acknowledged and lost.
  const packed = await fetch(`${server}/iclock/cdata?SN=ROSTER01&table=OPERLOG&Stamp=9&ContentType=tgz`, {
    method: 'POST',
    body: Buffer.from([0x1f, 0x8b, 8, 0]),
  });
  assert.match(await packed.text(), /^ERROR/);

  // Read again: the same rows, nothing doubled.
  const again = await call(t.app, 'POST', '/device/command', { token: A.main, body: { id: deviceId, kind: 'readRoster' } });
  assert.equal(again.code, CODES.OK, again.message);
  await until('the second read answered', async () => {
    const c = await call(t.app, 'GET', '/device/command/result', { token: A.main, query: { id: again.data.command_id } });
    return c.data?.state === 'success' ? c : undefined;
  });
  assert.equal((await roster()).data.total, site.users.length);
});

test(`another company's device gives not found, its faces too; a sub-admin without device rights is refused (${DIALECT})`, async () => {
  assert.equal((await roster(B.main)).code, CODES.NOT_FOUND);
  const pin = site.users.find((u) => u.face)!.pin;
  const img = await t.app.inject({ method: 'GET', url: `/api/management/device/roster/face?id=${deviceId}&pin=${pin}`, headers: { 'x-token': B.main } });
  assert.equal(img.statusCode, 404);
  assert.equal((await call(t.app, 'POST', '/device/command', { token: B.main, body: { id: deviceId, kind: 'readRoster' } })).code, CODES.NOT_FOUND);
  const none = await makeSub(t, A, ['attendance']);
  assert.equal((await roster(none.token)).code, CODES.NO_AUTHORITY);
  const viewer = await makeSub(t, A, ['faceView']);
  assert.equal((await roster(viewer.token)).code, CODES.OK);
  assert.equal((await call(t.app, 'POST', '/device/command', { token: viewer.token, body: { id: deviceId, kind: 'readRoster' } })).code, CODES.NO_AUTHORITY);
});

test(`applying the review: new users become people with the terminal's face and card, the same person is linked, a taken number is refused saying why, a skipped user stays; the ledger holds them as on the terminal, their earlier punches attach; a second run changes nothing (${DIALECT})`, async () => {
  const [one, two, three, four, five] = site.users;
  // a punch the terminal took before the take-over: a stranger's until its person exists
  assert.match((await term.punch({ pin: four!.pin, time: '2026-11-16 09:00:00' })).reply ?? '', /^OK/);
  const dept = await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Taken over' } });
  const people = async () =>
    (await call(t.app, 'GET', '/person/list', { token: A.main, query: { pageSize: 100 } })).data.items as {
      id: number;
      number: string;
      name: string;
      pic_url: string;
      rfid: string;
    }[];
  const personOne = (await people()).find((p) => p.number === one!.pin)!;
  const body = {
    id: deviceId,
    department_id: dept.data.id,
    rows: [
      { pin: one!.pin, action: 'link', person_id: personOne.id },
      { pin: two!.pin, action: 'create' },
      { pin: three!.pin, action: 'create' },
      { pin: four!.pin, action: 'create' },
      { pin: five!.pin, action: 'skip' },
      { pin: 'NOPE', action: 'create' },
    ],
  };
  const r = await applyReview(t.app, '/device/roster/apply', { token: A.main, lang: 'en-US', body });
  assert.equal(r.code, CODES.OK, r.message);
  assert.deepEqual(
    { ...r.data, refused: r.data.refused.map((x: { pin: string }) => x.pin) },
    { created: 2, linked: 1, skipped: 1, unchanged: 0, refused: [two!.pin, 'NOPE'], faceless: r.data.faceless, photos: [] },
  );
  assert.match(r.data.refused[0].reason, /already used by another person/);
  assert.match(r.data.refused[1].reason, /not among the users read/);
  const after1 = await people();
  assert.equal(after1.length, 5);
  const made = after1.find((p) => p.number === four!.pin)!;
  assert.equal(made.name, four!.name);
  assert.equal(!!made.pic_url, !!four!.face, 'the terminal’s face is the person’s photo');
  assert.equal((await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: made.id } })).data.rfid, four!.card ?? '');
  // The ledger holds them as on the terminal: nothing to send, nothing deleted from it.
  const ledger = await call(t.app, 'GET', '/device/persons', { token: A.main, query: { id: deviceId, pageSize: 100 } });
  const states = new Map(ledger.data.items.map((x: { number: string; state: string }) => [x.number, x.state]));
  assert.deepEqual([...states.keys()].sort(), [one!.pin, three!.pin, four!.pin].sort());
  assert.equal(states.get(three!.pin), 'synced', 'created from the terminal’s record: held as is');
  assert.equal(states.get(four!.pin), 'synced');
  // linked: the record here goes over the terminal's user (pending until the terminal has taken it)
  assert.notEqual(states.get(one!.pin), 'failed');
  assert.equal(term.users.size, site.users.length);
  // The punch taken before is theirs now.
  const punches = await call(t.app, 'GET', '/attendance/list', { token: A.main, query: { person_id: made.id } });
  assert.equal(punches.data.total, 1);
  // Again, once the terminal has taken the linked person's record: nothing new.
  await until('the linked person sent to the terminal', async () => {
    const l = await call(t.app, 'GET', '/device/persons', { token: A.main, query: { id: deviceId, pageSize: 100 } });
    return l.data.items.some((x: { number: string; state: string }) => x.number === one!.pin && x.state === 'synced');
  });
  const again = await applyReview(t.app, '/device/roster/apply', { token: A.main, lang: 'en-US', body });
  assert.equal(again.code, CODES.OK, again.message);
  assert.deepEqual([again.data.created, again.data.linked, again.data.unchanged, again.data.skipped], [0, 0, 3, 1], 'the link held already is unchanged');
  assert.equal((await people()).length, 5);
  const logged = await call(t.app, 'GET', '/log/list', { token: A.main, lang: 'en-US', query: { pageSize: 100 } });
  assert.equal(
    logged.data.items.filter((l: { action: string }) => l.action === 'device.takeOver').length,
    1,
    'the second run wrote nothing, not even a log line',
  );
  // Another company cannot apply to this device; a viewer cannot apply at all; a department of another company is refused.
  assert.equal((await applyReview(t.app, '/device/roster/apply', { token: B.main, body })).code, CODES.NOT_FOUND);
  const viewer = await makeSub(t, A, ['faceView']);
  assert.equal((await applyReview(t.app, '/device/roster/apply', { token: viewer.token, body })).code, CODES.NO_AUTHORITY);
  // applying creates people: device editing alone is not enough, nor people editing alone
  const devicesOnly = await makeSub(t, A, ['faceEdit']);
  assert.equal((await applyReview(t.app, '/device/roster/apply', { token: devicesOnly.token, body })).code, CODES.NO_AUTHORITY);
  const peopleOnly = await makeSub(t, A, ['userEdit']);
  assert.equal((await applyReview(t.app, '/device/roster/apply', { token: peopleOnly.token, body })).code, CODES.NO_AUTHORITY);
  const both = await makeSub(t, A, ['faceEdit', 'userEdit']);
  assert.equal((await applyReview(t.app, '/device/roster/apply', { token: both.token, body })).code, CODES.OK);
  const bDept = await call(t.app, 'POST', '/org/create', { token: B.main, body: { name: 'Elsewhere' } });
  const wrong = await applyReview(t.app, '/device/roster/apply', { token: A.main, lang: 'en-US', body: { ...body, department_id: bDept.data.id } });
  assert.ok(refusedCodes.includes(wrong.code), wrong.message);
});

test(`users no person here stands for are listed as "on the terminal, not managed" and can be removed from it; a managed one is refused, another company's device is not found (${DIALECT})`, async () => {
  const [one, , three, four, five, six] = site.users;
  const unmanaged = await call(t.app, 'GET', '/device/roster', { token: A.main, query: { id: deviceId, pageSize: 100, show: 'unmanaged' } });
  assert.equal(unmanaged.code, CODES.OK, unmanaged.message);
  const pins = (unmanaged.data.items as { pin: string; managed: boolean }[]).map((u) => u.pin);
  // the three people applied above are managed; everyone else the terminal holds is not
  assert.equal(unmanaged.data.total, site.users.length - 3);
  assert.equal(unmanaged.data.counts.unmanaged, site.users.length - 3);
  for (const managed of [one!.pin, three!.pin, four!.pin]) assert.ok(!pins.includes(managed), `${managed} is managed`);
  assert.ok(pins.includes(five!.pin), 'the skipped user stays on the terminal, not managed');

  const remove = (pins: string[], token = A.main) => call(t.app, 'POST', '/device/roster/remove', { token, lang: 'en-US', body: { id: deviceId, pins } });
  // the terminal away for a moment: the removals wait for it
  await term.stop();
  const r = await remove([five!.pin, six!.pin, one!.pin]);
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.queued, 2);
  assert.deepEqual(
    r.data.refused.map((x: { pin: string }) => x.pin),
    [one!.pin],
  );
  assert.match(r.data.refused[0].reason, /managed here as a person/);
  // asked again while on its way: no second command
  assert.equal((await remove([five!.pin])).data.queued, 1);
  const queued = await t.app.database.db
    .selectFrom('device_commands')
    .select('payload')
    .where('device_id', '=', deviceId)
    .where('kind', '=', 'deleteUser')
    .execute();
  assert.equal(queued.length, 2, 'one command per user');
  // a user on its way off the terminal is not taken over meanwhile
  const dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Too late' } })).data.id as number;
  const late = await applyReview(t.app, '/device/roster/apply', {
    token: A.main,
    lang: 'en-US',
    body: { id: deviceId, department_id: dept, rows: [{ pin: six!.pin, action: 'create' }] },
  });
  assert.equal(late.data.created, 0);
  assert.match(late.data.refused[0]?.reason ?? '', /being removed from this terminal/);
  const listed = (await roster()).data.items as { pin: string; removing: boolean }[];
  assert.equal(listed.find((u) => u.pin === six!.pin)?.removing, true, 'shown as on its way');
  await term.start();
  await until('the terminal removed them', () => !term.users.has(five!.pin) && !term.users.has(six!.pin));
  const left = await until('the roster follows the terminal', async () => {
    const all = (await roster()).data.items as { pin: string }[];
    return all.some((u) => u.pin === five!.pin || u.pin === six!.pin) ? undefined : all;
  });
  assert.equal(left!.length, site.users.length - 2);
  assert.ok(term.users.has(one!.pin), 'nothing else left the terminal');
  assert.equal(term.users.size, site.users.length - 2);
  // another company's device: not found; a viewer: refused; nothing queued by either
  assert.equal((await call(t.app, 'POST', '/device/roster/remove', { token: B.main, body: { id: deviceId, pins: [one!.pin] } })).code, CODES.NOT_FOUND);
  const viewer = await makeSub(t, A, ['faceView']);
  assert.equal((await remove([one!.pin], viewer.token)).code, CODES.NO_AUTHORITY);
  const logged = await call(t.app, 'GET', '/log/list', { token: A.main, lang: 'en-US', query: { pageSize: 100 } });
  assert.equal(logged.data.items.filter((l: { action: string }) => l.action === 'device.removeUsers').length, 1);
});

test(`a user enrolled at the terminal afterwards is listed as not managed, and the administrators' message leads there (${DIALECT})`, async () => {
  // the roster read above is long over (its uploads no longer hush the notice)
  await t.app.database.db
    .updateTable('device_commands')
    .set({ created_at: new Date(Date.now() - 3_600_000).toISOString() })
    .where('device_id', '=', deviceId)
    .where('kind', '=', 'readRoster')
    .execute();
  assert.ok(await term.enrolHere({ pin: '9901', name: 'Enrolled At Door', face: site.users.find((u) => u.face)!.face }));
  const listed = await until('listed as not managed', async () =>
    (
      (await call(t.app, 'GET', '/device/roster', { token: A.main, query: { id: deviceId, show: 'unmanaged', pageSize: 100 } })).data.items as {
        pin: string;
        managed: boolean;
        face_url: string;
      }[]
    ).find((u) => u.pin === '9901'),
  );
  assert.equal(listed!.managed, false);
  assert.ok(listed!.face_url, 'with the face the terminal enrolled');
  const message = await until('the administrators told', async () =>
    ((await call(t.app, 'GET', '/message/list', { token: A.main, lang: 'en-US' })).data.items as { type: string; content: string; link: string }[]).find(
      (m) => m.type === 'deviceEnrolled',
    ),
  );
  assert.match(message!.content, /9901.*take-over page/);
  assert.equal(message!.link, `/device/roster/${deviceId}?show=unmanaged`);
  // another company hears nothing of it
  const other = (await call(t.app, 'GET', '/message/list', { token: B.main })).data.items as { type: string }[];
  assert.equal(other.filter((m) => m.type === 'deviceEnrolled').length, 0);
});

test(`a person linked to a terminal's user takes its face when they have no photo here, and says so; a second run keeps it (${DIALECT})`, async () => {
  const user = site.users.slice(7).find((u) => u.face)!;
  // someone another terminal's take-over made without a face (it held none for them)
  const id = await addPersonWithFace(t, A, { number: user.pin, name: user.name, department: 'Photo-less' });
  await t.app.database.db.updateTable('persons').set({ photo: '' }).where('id', '=', id).execute();
  const dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Taken over 2' } })).data.id as number;
  const info = async () => (await call(t.app, 'GET', '/person/info', { token: A.main, query: { id } })).data as { pic_url: string; pic: string };
  assert.equal((await info()).pic_url, '', 'no photo yet');
  const body = { id: deviceId, department_id: dept, rows: [{ pin: user.pin, action: 'link', person_id: id }] };
  const r = await applyReview(t.app, '/device/roster/apply', { token: A.main, lang: 'en-US', body });
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.linked, 1);
  assert.deepEqual(
    r.data.photos.map((p: { pin: string }) => p.pin),
    [user.pin],
  );
  assert.match(r.data.photos[0].reason, /they had none here/);
  const withFace = await info();
  assert.ok(withFace.pic_url, 'the terminal’s face is the person’s photo');
  const photo = await t.app.inject({ method: 'GET', url: withFace.pic_url, headers: { 'x-token': A.main } });
  assert.equal(photo.statusCode, 200);
  assert.equal(photo.headers['content-type'], 'image/jpeg');
  // again: the photo here is kept (with the face check off there are no measures to prefer the terminal's by)
  const again = await applyReview(t.app, '/device/roster/apply', { token: A.main, lang: 'en-US', body });
  assert.deepEqual(again.data.photos, []);
  assert.equal((await info()).pic, withFace.pic);
});

test(`a link is unchanged only where the terminal holds the person's current record; one the ledger has yet to send is a new link, one being removed from the terminal is refused (${DIALECT})`, async () => {
  // the terminal away, so the ledger stays as this test sets it (nothing is sent meanwhile)
  await stopTerminals();
  // the person the previous test linked, with the terminal's face as their photo now
  const user = site.users.slice(7).find((u) => u.face)!;
  const person = (await call(t.app, 'GET', '/person/list', { token: A.main, query: { keyword: user.pin } })).data.items.find(
    (p: { number: string }) => p.number === user.pin,
  ) as { id: number };
  const body = { id: deviceId, department_id: 0, rows: [{ pin: user.pin, action: 'link', person_id: person.id }] };
  const dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Ledger states' } })).data.id as number;
  body.department_id = dept;
  const db = t.app.database.db;
  const { revision } = await db.selectFrom('persons').select('revision').where('id', '=', person.id).executeTakeFirstOrThrow();
  const ledger = (set: { state: string; desired_rev: number; applied_rev: number }) =>
    db.updateTable('device_persons').set(set).where('device_id', '=', deviceId).where('person_id', '=', person.id).execute();
  const apply = async () => {
    const r = await applyReview(t.app, '/device/roster/apply', { token: A.main, lang: 'en-US', body });
    assert.equal(r.code, CODES.OK, r.message);
    return r.data as { linked: number; unchanged: number; refused: { reason: string }[] };
  };
  // the terminal holds their current record: nothing to do
  await ledger({ state: 'synced', desired_rev: revision, applied_rev: revision });
  assert.deepEqual(await apply().then((r) => [r.linked, r.unchanged, r.refused.length]), [0, 1, 0]);
  // a row queued for the terminal (a scope's new person, say), not sent yet: the link is new
  await ledger({ state: 'pending', desired_rev: revision, applied_rev: 0 });
  assert.deepEqual(await apply().then((r) => [r.linked, r.unchanged, r.refused.length]), [1, 0, 0]);
  // their removal from the terminal on its way: not taken over, saying why
  await ledger({ state: 'pending', desired_rev: 0, applied_rev: revision });
  const leaving = await apply();
  assert.deepEqual([leaving.linked, leaving.unchanged], [0, 0]);
  assert.match(leaving.refused[0]!.reason, /being removed from this terminal/);
});

test(`an apply runs in the background: the request answers at once, its progress reaches every row, then its result; while one runs in the company another is refused; one whose server stopped reads "interrupted" and holds nothing up; another company's apply is not found, a sub-admin who may not apply cannot read it (${DIALECT})`, async () => {
  const { db } = t.app.database;
  const dept = await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Applied in the background' } });
  // every user the terminal holds now (the tests above removed some)
  const pins = ((await roster()).data.items as { pin: string }[]).map((u) => u.pin);
  assert.ok(pins.length > 10, `${pins.length} users`);
  const body = { id: deviceId, department_id: dept.data.id, rows: pins.map((pin) => ({ pin, action: 'skip' })) };
  // another instance in the middle of an apply for this company
  const now = new Date().toISOString();
  const other = await db
    .insertInto('roster_applies')
    .values({ company_id: A.id, admin_id: A.mainId, scope: 'site', state: 'running', total: 10, done: 3, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const busy = await call(t.app, 'POST', '/device/roster/apply', { token: A.main, lang: 'en-US', body });
  assert.equal(busy.code, CODES.CONFLICT);
  assert.match(busy.message, /being applied in this company already/);
  // that instance stopped: its apply is over, said so, and no longer holds the company's applies up
  await db
    .updateTable('roster_applies')
    .set({ updated_at: new Date(Date.now() - 3 * 60_000).toISOString() })
    .where('id', '=', other.id)
    .execute();
  const stale = await call(t.app, 'GET', '/device/roster/apply/info', { token: A.main, query: { id: other.id } });
  assert.deepEqual(
    { state: stale.data.state, reason: stale.data.reason, done: stale.data.done, total: stale.data.total, result: stale.data.result },
    { state: 'failed', reason: 'interrupted', done: 3, total: 10, result: null },
  );

  const started = await call(t.app, 'POST', '/device/roster/apply', { token: A.main, lang: 'en-US', body });
  assert.equal(started.code, CODES.OK, started.message);
  // a review page opened meanwhile finds it (or, once over, the last one)
  const current = await call(t.app, 'GET', '/device/roster/apply/current', { token: A.main });
  assert.deepEqual({ id: current.data.id, device: current.data.device_id }, { id: started.data.id, device: deviceId });
  assert.equal((await call(t.app, 'GET', '/device/roster/apply/current', { token: B.main })).data, null, "another company's applies are not its own");
  assert.deepEqual(
    { scope: started.data.scope, total: started.data.total, result: started.data.result },
    { scope: 'device', total: pins.length, result: null },
  );
  const seen: number[] = [];
  let info = started;
  while (info.data.state === 'running') {
    seen.push(info.data.done);
    await new Promise((r) => setTimeout(r, 5));
    info = await call(t.app, 'GET', '/device/roster/apply/info', { token: A.main, query: { id: started.data.id } });
    assert.equal(info.code, CODES.OK, info.message);
  }
  assert.equal(info.data.state, 'done', info.data.reason);
  assert.deepEqual(
    seen,
    [...seen].sort((a, b) => a - b),
    'progress only grows',
  );
  assert.equal(info.data.done, pins.length);
  assert.deepEqual(
    { skipped: info.data.result.skipped, created: info.data.result.created, refused: info.data.result.refused },
    { skipped: pins.length, created: 0, refused: [] },
  );

  assert.equal((await call(t.app, 'GET', '/device/roster/apply/info', { token: B.main, query: { id: started.data.id } })).code, CODES.NOT_FOUND);
  const viewer = await makeSub(t, A, ['faceView', 'userView']);
  assert.equal((await call(t.app, 'GET', '/device/roster/apply/info', { token: viewer.token, query: { id: started.data.id } })).code, CODES.NO_AUTHORITY);
});
