import assert from 'node:assert/strict';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { API, call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { personsRepository } from './persons.repository.ts';
import { personWithFace, picture, upload } from '../../../test/files.ts';

let t: TestApp;
let A: Company;
let B: Company;

before(async () => {
  // ages files on disk (utimes); the sweep over this run's own store (the database on PostgreSQL) is the last test
  t = await makeApp({ FILE_STORE: 'disk' });
  A = await makeCompany(t, 'Sweep A');
  B = await makeCompany(t, 'Sweep B');
});
after(() => t.close());

async function pic(c: Company): Promise<string> {
  const r = await upload(t, '/person/upload', c.main, { name: 'face.jpg', data: await picture() });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data.pic as string;
}

const file = (c: Company, name: string) => path.join(t.app.config.dataDir, 'faces', String(c.id), name);
const twoDaysOld = (c: Company, name: string) => {
  const then = new Date(Date.now() - 2 * 86400_000);
  utimesSync(file(c, name), then, then);
};

test('housekeeping deletes face files no person holds once a day old, in every company, and nothing else', async () => {
  const { id: heldId, pic: held } = await personWithFace(t, A, { name: 'Held' });
  const orphan = await pic(A); // the drawer was cancelled
  const recent = await pic(A); // a drawer still open
  const bHeld = (await personWithFace(t, B, { name: 'Held' })).pic;
  const bOrphan = await pic(B);
  const torn = `${'ab'.repeat(16)}.jpg.tmp`; // a write cut short
  writeFileSync(file(A, torn), 'partial');
  for (const [c, name] of [
    [A, held],
    [A, orphan],
    [A, torn],
    [B, bHeld],
    [B, bOrphan],
  ] as const)
    twoDaysOld(c, name);

  assert.equal(await t.app.modules.persons.sweepFaces(), 3);

  assert.ok(existsSync(file(A, held)) && existsSync(file(B, bHeld)), "people's faces stay");
  assert.ok(existsSync(file(A, recent)), 'an upload under a day old waits for its form');
  assert.ok(!existsSync(file(A, orphan)) && !existsSync(file(B, bOrphan)) && !existsSync(file(A, torn)));
  const img = await t.app.inject({ method: 'GET', url: `${API}/person/pic/${heldId}`, headers: { cookie: `Admin-Token=${A.main}` } });
  assert.equal(img.statusCode, 200);
  // a form saved after its upload was swept is told to upload again, not given a person without a face
  const late = await call(t.app, 'POST', '/person/create', {
    token: A.main,
    lang: 'en-US',
    body: { name: 'Late', phone: '13800000001', organizations: [], pic: orphan },
  });
  assert.equal(late.code, CODES.VALIDATION);

  assert.equal(await t.app.modules.persons.sweepFaces(), 0, 'a second run finds nothing');
});

test(`the sweep works on the store this run uses (${DIALECT === 'postgres' ? 'the database' : 'disk'}), and only on unclaimed faces`, async () => {
  const own = await makeApp();
  try {
    const C = await makeCompany(own, 'Sweep C');
    const held = (await personWithFace(own, C, { name: 'Held', department: 'C staff' })).pic;
    const orphan = (await upload(own, '/person/upload', C.main, { name: 'face.jpg', data: await picture() })).data.pic as string;
    const { photos } = own.app.modules.persons;
    const inUse = (companyId: number) => personsRepository.photoNames(own.app.database.db, companyId);
    assert.equal(await photos.sweep(Date.now() - 60_000, inUse), 0, 'nothing is old enough yet');
    // as if a day went by: both files are older than the cut
    assert.equal(await photos.sweep(Date.now() + 60_000, inUse), 1);
    assert.equal(await photos.exists(C.id, held), true);
    assert.equal(await photos.exists(C.id, orphan), false);
  } finally {
    await own.close();
  }
});
