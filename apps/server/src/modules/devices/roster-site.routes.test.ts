import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { seedSite, type Site, type SiteUser } from '../../../../../tools/zk-emulator/site.ts';
import { applyReview, call, DIALECT, makeApp, makeCompany, makeSub, type Company, type TestApp } from '../../../test/helpers.ts';
import { blurredFace, smallFace } from '../../../test/files.ts';
import { listen, stopTerminals, terminal, until } from '../../../test/terminals.ts';

/**
 * Taking over a site of several terminals (#30, "several terminals, one person"): two ZK terminals in service before
 * this server, sharing some of their users, reviewed as one site and applied once. The face check is on (real
 * portraits): a face it refuses is shown in the review, and a number's face is taken from where it passes.
 */
let t: TestApp;
let server: string;
let A: Company;
let B: Company;
const ids: Record<string, number> = {};
const base = seedSite({ users: 8, punches: 0, seed: 31, faces: 1 });
const [u1, u2, u3, u4, u5, u6, u7, u8] = base.users as [SiteUser, SiteUser, SiteUser, SiteUser, SiteUser, SiteUser, SiteUser, SiteUser];
const bigger = (face: Buffer) => Buffer.concat([face.subarray(0, face.length - 2), Buffer.alloc(4096), face.subarray(face.length - 2)]);
// The gate holds 1–5, 4 with a face too small, and 8 without a name (enrolled by fingerprint, say); the door holds 1 (a
// larger file), 2 under another name, 5 out of focus (a larger file the check refuses), 6 under 3's name, 7 and 8.
const gate: Site = { users: [u1, u2, u3, u4, u5, { ...u8, name: '' }], punches: [] };
const door: Site = { users: [{ ...u1, face: bigger(u1.face!) }, { ...u2, name: `${u2.name} Jr` }, u5, { ...u6, name: u3.name }, u7, u8], punches: [] };

before(async () => {
  gate.users[3] = { ...u4, face: await smallFace() };
  door.users[2] = { ...u5, face: bigger(await blurredFace()) };
  t = await makeApp({ DEVICE_POLL_SECONDS: '1', FACE_CHECK: 'on' });
  server = await listen(t);
  A = await makeCompany(t, 'Site A');
  B = await makeCompany(t, 'Site B');
  for (const [name, serial, site] of [
    ['Gate', 'SITE0001', gate],
    ['Door', 'SITE0002', door],
  ] as const) {
    const d = await call(t.app, 'POST', '/device/create', { token: A.main, body: { name, serial, ip: '10.0.0.9', password: 'pw' } });
    assert.equal(d.code, CODES.OK, d.message);
    ids[name] = d.data.id;
    await terminal(server, serial, { site }).start();
    assert.equal((await call(t.app, 'POST', '/device/command', { token: A.main, body: { id: d.data.id, kind: 'readRoster' } })).code, CODES.OK);
  }
  await until('both rosters read with their faces, checked', async () => {
    const r = await call(t.app, 'GET', '/device/roster/site', { token: A.main, query: { pageSize: 100 } });
    const items = (r.data?.items ?? []) as { terminals: { face_url: string }[] }[];
    return items.flatMap((i) => i.terminals).filter((x) => x.face_url).length === 12 && r.data.counts.faceUnchecked === 0;
  });
});
after(async () => {
  await stopTerminals();
  await t.close();
});

const site = (token = A.main, show?: string) =>
  call(t.app, 'GET', '/device/roster/site', { token, lang: 'en-US', query: { pageSize: 100, ...(show ? { show } : {}) } });
type Item = {
  pin: string;
  name: string;
  terminals: { id: number; user_name: string; face_bytes: number; face_refused: string; face_checking: boolean }[];
  face_from: number | null;
  split: boolean;
  twins: string[];
  match: string;
};

test(`the site's review lists each number once with the terminals holding it: shared numbers, names the terminals disagree on, one name on two numbers, a face the check refuses and why, the face to take (${DIALECT})`, async () => {
  const r = await site();
  assert.equal(r.code, CODES.OK, r.message);
  const items = r.data.items as Item[];
  const by = new Map(items.map((i) => [i.pin, i]));
  assert.deepEqual(
    items.map((i) => i.pin),
    [u1, u2, u3, u4, u5, u6, u7, u8].map((u) => u.pin),
  );
  assert.deepEqual(r.data.counts, {
    people: 8,
    terminals: 2,
    across: 4,
    matched: 0,
    conflict: 0,
    byName: 0,
    new: 8,
    split: 1,
    twin: 2,
    unmanaged: 8,
    faceRefused: 1,
    faceUnchecked: 0,
    conflicts: 4,
  });
  assert.deepEqual(
    by.get(u1.pin)!.terminals.map((x) => x.id),
    [ids.Gate, ids.Door],
  );
  assert.equal(by.get(u1.pin)!.face_from, ids.Door, 'the same face in a larger file');
  // 8: the door's name, the number made from the door (the gate holds no name for it)
  assert.deepEqual([by.get(u8.pin)!.name, by.get(u8.pin)!.split, by.get(u8.pin)!.face_from], [u8.name, false, ids.Door]);
  // the door's file of 5 is larger, but the check refuses it: the gate's is taken
  const five = by.get(u5.pin)!;
  assert.equal(five.face_from, ids.Gate);
  assert.deepEqual(
    five.terminals.map((x) => [x.id, x.face_refused !== '']),
    [
      [ids.Gate, false],
      [ids.Door, true],
    ],
  );
  // the face check's own words, in the caller's language
  const small = by.get(u4.pin)!.terminals[0]!;
  assert.match(small.face_refused, /too small/i);
  assert.equal(small.face_checking, false);
  assert.equal(by.get(u2.pin)!.split, true);
  assert.deepEqual(by.get(u3.pin)!.twins, [u6.pin]);
  assert.deepEqual(by.get(u6.pin)!.twins, [u3.pin]);
  assert.deepEqual(
    ((await site(A.main, 'across')).data.items as Item[]).map((i) => i.pin),
    [u1.pin, u2.pin, u5.pin, u8.pin],
  );
  assert.deepEqual(
    ((await site(A.main, 'conflicts')).data.items as Item[]).map((i) => i.pin),
    [u2.pin, u3.pin, u4.pin, u6.pin],
  );
  // a terminal that never called in: its read waits for it, and says it is offline (the site's read is not held up)
  const silent = await call(t.app, 'POST', '/device/create', { token: A.main, body: { name: 'Shed', serial: 'SITE0003', ip: '10.0.0.9', password: 'pw' } });
  const asked = await call(t.app, 'POST', '/device/command', { token: A.main, body: { id: silent.data.id, kind: 'readRoster' } });
  assert.deepEqual([asked.data.state, asked.data.offline], ['pending', true]);
  const online = await call(t.app, 'GET', '/device/command/result', { token: A.main, query: { id: asked.data.command_id } });
  assert.equal(online.data.offline, true);
  assert.equal((await site()).data.counts.terminals, 2, 'a terminal not read holds no one here');
  // another company's site is its own (empty); a sub-admin without device rights is refused
  assert.equal((await site(B.main)).data.total, 0);
  assert.equal((await site((await makeSub(t, A, ['attendance'])).token)).code, CODES.NO_AUTHORITY);
});

test(`applying the site's review makes one person a number, on every terminal holding it, the largest face theirs; skipped stays on the terminals; a second run changes nothing; another company's or a refused sub-admin's apply writes nothing (${DIALECT})`, async () => {
  const dept = await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Taken over' } });
  const body = {
    department_id: dept.data.id,
    rows: [
      ...[u1, u3, u4, u5, u7, u8].map((u) => ({ pin: u.pin, action: 'create' })),
      { pin: u2.pin, action: 'skip' },
      { pin: u6.pin, action: 'skip' },
      { pin: 'NOPE', action: 'create' },
    ],
  };
  // refused before anything is written: another company, a sub-admin who may not edit people
  const other = await applyReview(t.app, '/device/roster/site/apply', {
    token: B.main,
    lang: 'en-US',
    body: { ...body, department_id: (await call(t.app, 'POST', '/org/create', { token: B.main, body: { name: 'B' } })).data.id },
  });
  assert.equal(other.code, CODES.OK, other.message);
  assert.equal(other.data.created, 0, 'B holds none of A’s terminals’ users');
  assert.equal(other.data.refused.length, body.rows.length);
  const devicesOnly = await makeSub(t, A, ['faceEdit']);
  assert.equal((await applyReview(t.app, '/device/roster/site/apply', { token: devicesOnly.token, body })).code, CODES.NO_AUTHORITY);
  const wrongDept = await applyReview(t.app, '/device/roster/site/apply', { token: A.main, lang: 'en-US', body: { ...body, department_id: 999999 } });
  assert.equal(wrongDept.code, CODES.RULE, wrongDept.message);
  assert.equal((await call(t.app, 'GET', '/person/list', { token: A.main })).data.total, 0);

  const r = await applyReview(t.app, '/device/roster/site/apply', { token: A.main, lang: 'en-US', body });
  assert.equal(r.code, CODES.OK, r.message);
  assert.deepEqual(
    {
      created: r.data.created,
      linked: r.data.linked,
      skipped: r.data.skipped,
      unchanged: r.data.unchanged,
      refused: r.data.refused.map((x: { pin: string }) => x.pin),
    },
    { created: 6, linked: 0, skipped: 2, unchanged: 0, refused: ['NOPE'] },
  );
  // 4's only face is too small: made without it, saying why
  assert.deepEqual(
    r.data.faceless.map((x: { pin: string }) => x.pin),
    [u4.pin],
  );
  assert.match(r.data.faceless[0].reason, /too small/i);
  const people = (await call(t.app, 'GET', '/person/list', { token: A.main, query: { pageSize: 100 } })).data.items as {
    id: number;
    number: string;
    name: string;
  }[];
  assert.deepEqual(people.map((p) => p.number).sort(), [u1, u3, u4, u5, u7, u8].map((u) => u.pin).sort());
  // the shared number is one person, held on both terminals, made from the door's record (its face the larger file)
  const one = people.find((p) => p.number === u1.pin)!;
  const held = async (device: number) =>
    new Map(
      (
        (await call(t.app, 'GET', '/device/persons', { token: A.main, query: { id: device, pageSize: 100 } })).data.items as { number: string; state: string }[]
      ).map((x) => [x.number, x.state]),
    );
  const onGate = await held(ids.Gate!);
  const onDoor = await held(ids.Door!);
  assert.deepEqual([...onGate.keys()].sort(), [u1, u3, u4, u5, u8].map((u) => u.pin).sort());
  assert.deepEqual([...onDoor.keys()].sort(), [u1, u5, u7, u8].map((u) => u.pin).sort());
  assert.equal(onDoor.get(u8.pin), 'synced', 'made from the door, which holds a name for 8');
  assert.equal(people.find((p) => p.number === u8.pin)!.name, u8.name);
  assert.equal(onDoor.get(u1.pin), 'synced', 'created from the door’s record');
  assert.equal(onGate.get(u5.pin), 'synced', 'created from the gate’s, whose face passes');
  const photo = await call(t.app, 'GET', '/person/info', { token: A.main, query: { id: one.id } });
  const img = await t.app.inject({ method: 'GET', url: photo.data.pic_url, headers: { 'x-token': A.main } });
  assert.equal(img.statusCode, 200, 'with a photo');
  const review = new Map(((await site()).data.items as Item[]).map((i) => [i.pin, i]));
  assert.equal(review.get(u1.pin)!.match, 'matched');
  // the skipped stay on the terminals, not managed
  assert.equal(review.get(u2.pin)!.match, 'new');
  assert.equal((await site()).data.counts.unmanaged, 2);

  // again: nothing new, not even a log line
  const logs = async () =>
    ((await call(t.app, 'GET', '/log/list', { token: A.main, query: { pageSize: 100 } })).data.items as { action: string }[]).filter(
      (l) => l.action === 'device.takeOver',
    ).length;
  const before = await logs();
  const again = await applyReview(t.app, '/device/roster/site/apply', { token: A.main, lang: 'en-US', body });
  assert.equal(again.code, CODES.OK, again.message);
  assert.deepEqual([again.data.created, again.data.unchanged, again.data.skipped], [0, 6, 2]);
  assert.equal((await call(t.app, 'GET', '/person/list', { token: A.main })).data.total, 6);
  assert.equal(await logs(), before);
  // as the review offers it now (each number matched: link on every terminal holding it): nothing written, and said so
  const idOf = new Map(
    ((await call(t.app, 'GET', '/person/list', { token: A.main })).data.items as { id: number; number: string }[]).map((p) => [p.number, p.id]),
  );
  const links = body.rows.map((r) => (idOf.has(r.pin) ? { pin: r.pin, action: 'link' as const, person_id: idOf.get(r.pin)! } : r));
  const relinked = await applyReview(t.app, '/device/roster/site/apply', { token: A.main, lang: 'en-US', body: { ...body, rows: links } });
  assert.deepEqual([relinked.data.created, relinked.data.linked, relinked.data.unchanged, relinked.data.skipped], [0, 0, 6, 2]);
  assert.equal(await logs(), before);
});
