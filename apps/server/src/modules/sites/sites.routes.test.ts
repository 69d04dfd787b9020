import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type Site, type SiteDetail } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, makeSub, raw, type Company, type TestApp } from '../../../test/helpers.ts';
import { picture, upload } from '../../../test/files.ts';
import { sitesRepository } from './sites.repository.ts';

let t: TestApp;
let A: Company;
let B: Company;
let serial = 0;
before(async () => {
  t = await makeApp();
  // The tests set a device online with a last-seen time long past: the presence sweep would turn it offline under them
  // (it did on PostgreSQL, beside a CPU hog).
  await t.app.jobs.stop();
  A = await makeCompany(t, 'Site Co A', 'siteowner_a');
  B = await makeCompany(t, 'Site Co B', 'siteowner_b');
});
after(() => t.close());

const db = () => t.app.database.db;
async function device(c: Company, name: string): Promise<number> {
  const r = await call(t.app, 'POST', '/device/create', {
    token: c.main,
    body: { name, serial: `SITE${process.pid}${++serial}`, ip: '192.168.1.20', password: 'dev-secret' },
  });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data.id;
}
async function breaker(c: Company, alias: string): Promise<number> {
  const r = await call(t.app, 'POST', '/breaker/create', { token: c.main, body: { alias, uuid: `SITE-${process.pid}-${++serial}`, sort: serial } });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data.breaker.id;
}
async function site(c: Company, name: string, body: Record<string, unknown> = {}): Promise<Site> {
  const r = await call<Site>(t.app, 'POST', '/site/create', { token: c.main, body: { name, ...body } });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data;
}
async function info(token: string, id: number): Promise<SiteDetail> {
  const r = await call<SiteDetail>(t.app, 'GET', '/site/info', { token, query: { id } });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data;
}
const plan = (token: string, siteId: number | string, data: Buffer, name = 'plan.png') =>
  upload(t, '/site/image', token, { name, data }, { site_id: String(siteId) });
const place = (token: string, body: Record<string, unknown>) => call(t.app, 'POST', '/site/place', { token, lang: 'en-US', body });
/** The plan files stored for a company, whatever the file store. */
const planFile = async (companyId: number) => {
  const names: string[] = [];
  for await (const f of t.app.files.list(`sites/${companyId}/`)) names.push(f.key.slice(f.key.lastIndexOf('/') + 1));
  return names;
};

test(`a site with a floor plan: create, upload, place a device and a breaker, move, unplace (${DIALECT})`, async () => {
  const gate = await device(A, 'Gate');
  const lobby = await breaker(A, 'Lobby breaker');
  const s = await site(A, ' Building 1 ', { sort: 2 });
  assert.equal(s.name, 'Building 1');
  assert.deepEqual([s.image_url, s.image_width, s.image_height, s.tile_url, s.devices, s.breakers], ['', 0, 0, '', 0, 0]);

  // Nothing can be placed before there is a plan.
  const early = await place(A.main, { site_id: s.id, kind: 'device', ref_id: gate, x: 1, y: 1 });
  assert.equal(early.code, CODES.RULE);
  assert.equal(early.data.field, 'site_id');

  const png = await picture(800, 600, 'png');
  const up = await plan(A.main, s.id, png);
  assert.equal(up.code, CODES.OK, up.message);
  assert.equal(up.data.image_width, 800);
  assert.equal(up.data.image_height, 600);
  assert.match(up.data.image_url, new RegExp(`^/api/management/site/image/${s.id}\\?v=[a-f0-9]{8}$`));
  const stored = await db().selectFrom('sites').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow();
  assert.match(stored.image, /^[a-f0-9]{32}\.png$/);
  assert.deepEqual(await planFile(A.id), [stored.image]);
  const img = await raw(t.app, 'GET', `/site/image/${s.id}`, { token: A.main });
  assert.equal(img.status, 200);
  assert.equal(img.contentType, 'image/png');

  // Every device and breaker starts unplaced.
  let d = await info(A.main, s.id);
  assert.deepEqual(d.placements, []);
  assert.ok(d.unplaced.some((i) => i.kind === 'device' && i.ref_id === gate && i.name === 'Gate' && i.state === 'offline'));
  assert.ok(d.unplaced.some((i) => i.kind === 'breaker' && i.ref_id === lobby && i.name === 'Lobby breaker'));

  const p1 = await place(A.main, { site_id: s.id, kind: 'device', ref_id: gate, x: 100, y: 50.5 });
  assert.equal(p1.code, CODES.OK, p1.message);
  assert.deepEqual(p1.data, { kind: 'device', ref_id: gate, name: 'Gate', online: false, state: 'offline', last_seen_at: null, x: 100, y: 50.5 });
  assert.equal((await place(A.main, { site_id: s.id, kind: 'breaker', ref_id: lobby, x: 800, y: 600 })).code, CODES.OK, 'the far corner is on the plan');
  // Moving is placing again.
  assert.equal((await place(A.main, { site_id: s.id, kind: 'device', ref_id: gate, x: 200, y: 300 })).code, CODES.OK);
  await db().updateTable('devices').set({ online: 1, last_seen_at: '2026-01-01T00:00:00.000Z' }).where('id', '=', gate).execute();
  await db()
    .insertInto('breaker_alarms')
    .values({ company_id: A.id, breaker_id: lobby, line_id: null, type: 'overcurrent', value: 40, at: '2026-01-01T00:00:00.000Z', cleared_at: null })
    .execute();
  d = await info(A.main, s.id);
  assert.deepEqual(
    d.placements.map((p) => [p.kind, p.ref_id, p.x, p.y, p.state]),
    [
      ['device', gate, 200, 300, 'online'],
      ['breaker', lobby, 800, 600, 'alarm'],
    ],
  );
  assert.equal(d.placements[0]!.last_seen_at, '2026-01-01T00:00:00.000Z');
  assert.ok(!d.unplaced.some((i) => (i.kind === 'device' && i.ref_id === gate) || (i.kind === 'breaker' && i.ref_id === lobby)));
  const listed = (await call<Site[]>(t.app, 'GET', '/site/list', { token: A.main })).data.find((x) => x.id === s.id)!;
  assert.deepEqual([listed.devices, listed.breakers], [1, 1]);
  assert.deepEqual(await sitesRepository.refIds(db(), A.id, s.id, 'device'), [gate]);
  assert.deepEqual(await sitesRepository.refIds(db(), A.id, s.id, 'breaker'), [lobby]);

  // Coordinates off the plan are refused, naming the field.
  for (const [x, y, field] of [
    [-1, 10, 'x'],
    [801, 10, 'x'],
    [10, 600.5, 'y'],
    [10, -0.1, 'y'],
  ] as const) {
    const r = await place(A.main, { site_id: s.id, kind: 'device', ref_id: gate, x, y });
    assert.equal(r.code, CODES.RULE, `${x},${y}`);
    assert.equal(r.data.field, field);
  }
  assert.equal((await place(A.main, { site_id: s.id, kind: 'device', ref_id: gate, x: '1', y: 2 })).code, CODES.VALIDATION);
  assert.equal((await place(A.main, { site_id: s.id, kind: 'lamp', ref_id: gate, x: 1, y: 2 })).code, CODES.VALIDATION);

  // A new plan twice the size: the placements keep their spot on it; the old file goes.
  const bigger = await plan(A.main, s.id, await picture(1600, 1200, 'jpeg'), 'plan.jpg');
  assert.equal(bigger.code, CODES.OK, bigger.message);
  assert.notEqual(bigger.data.image_url, up.data.image_url);
  d = await info(A.main, s.id);
  assert.deepEqual(
    d.placements.map((p) => [p.x, p.y]),
    [
      [400, 600],
      [1600, 1200],
    ],
  );
  const files = await planFile(A.id);
  assert.equal(files.length, 1);
  assert.match(files[0]!, /\.jpg$/);
  assert.equal((await raw(t.app, 'GET', `/site/image/${s.id}`, { token: A.main })).contentType, 'image/jpeg');

  // Unplace: back in the unplaced list; twice is not found.
  const un = await call(t.app, 'POST', '/site/unplace', { token: A.main, body: { site_id: s.id, kind: 'device', ref_id: gate } });
  assert.equal(un.code, CODES.OK, un.message);
  d = await info(A.main, s.id);
  assert.deepEqual(
    d.placements.map((p) => p.kind),
    ['breaker'],
  );
  assert.ok(d.unplaced.some((i) => i.kind === 'device' && i.ref_id === gate && i.state === 'online'));
  assert.equal((await call(t.app, 'POST', '/site/unplace', { token: A.main, body: { site_id: s.id, kind: 'device', ref_id: gate } })).code, CODES.NOT_FOUND);

  // Rename, then delete: the placements and the file go with the site (the devices stay).
  const ren = await call<Site>(t.app, 'POST', '/site/update', { token: A.main, body: { id: s.id, name: 'Building One' } });
  assert.equal(ren.code, CODES.OK, ren.message);
  assert.equal(ren.data.name, 'Building One');
  assert.equal(ren.data.sort, 2, 'sort kept when not sent');
  assert.equal(ren.data.breakers, 1, 'placements kept by a rename');
  assert.equal((await call(t.app, 'POST', '/site/delete', { token: A.main, body: { id: s.id } })).code, CODES.OK);
  assert.equal((await db().selectFrom('site_placements').selectAll().where('site_id', '=', s.id).execute()).length, 0);
  assert.deepEqual(await planFile(A.id), []);
  assert.equal((await call(t.app, 'GET', '/site/info', { token: A.main, query: { id: s.id } })).code, CODES.NOT_FOUND);
  assert.equal((await call(t.app, 'POST', '/site/delete', { token: A.main, body: { id: s.id } })).code, CODES.NOT_FOUND);
  const devices = await db().selectFrom('devices').select('id').where('id', '=', gate).execute();
  assert.equal(devices.length, 1);
});

test('a tile map: longitude and latitude; switching to a floor plan takes the placements off', async () => {
  const gate = await device(A, 'Tile gate');
  const bad = await call(t.app, 'POST', '/site/create', {
    token: A.main,
    lang: 'en-US',
    body: { name: 'Campus', tile_url: 'https://tiles.example.com/{z}/{x}.png' },
  });
  assert.equal(bad.code, CODES.RULE);
  assert.equal(bad.data.field, 'tile_url');
  assert.equal(
    (await call(t.app, 'POST', '/site/create', { token: A.main, body: { name: 'Campus', tile_url: 'ftp://x/{z}/{x}/{y}' } })).code,
    CODES.VALIDATION,
  );
  const s = await site(A, 'Campus', { tile_url: 'https://tiles.example.com/{z}/{x}/{y}.png' });
  assert.equal(s.tile_url, 'https://tiles.example.com/{z}/{x}/{y}.png');
  assert.equal((await place(A.main, { site_id: s.id, kind: 'device', ref_id: gate, x: 116.397, y: 39.908 })).code, CODES.OK);
  const off = await place(A.main, { site_id: s.id, kind: 'device', ref_id: gate, x: 116.397, y: 89 });
  assert.equal(off.code, CODES.RULE);
  assert.equal(off.data.field, 'y');
  assert.equal((await place(A.main, { site_id: s.id, kind: 'device', ref_id: gate, x: -181, y: 0 })).data.field, 'x');
  assert.deepEqual(
    (await info(A.main, s.id)).placements.map((p) => [p.x, p.y]),
    [[116.397, 39.908]],
  );
  // Another tile server: the same map, the placements stay.
  let u = await call<Site>(t.app, 'POST', '/site/update', {
    token: A.main,
    body: { id: s.id, name: 'Campus', tile_url: 'https://other.example.com/{z}/{x}/{y}.png' },
  });
  assert.equal(u.data.devices, 1);
  u = await call<Site>(t.app, 'POST', '/site/update', { token: A.main, body: { id: s.id, name: 'Campus', tile_url: '' } });
  assert.equal(u.code, CODES.OK, u.message);
  assert.equal(u.data.tile_url, '');
  assert.equal(u.data.devices, 0);
});

test('deleting a device or a breaker takes it off every site', async () => {
  const gate = await device(A, 'Doomed gate');
  const box = await breaker(A, 'Doomed breaker');
  const s1 = await site(A, 'Floor 1');
  const s2 = await site(A, 'Floor 2');
  for (const s of [s1, s2]) {
    assert.equal((await plan(A.main, s.id, await picture(200, 100, 'png'))).code, CODES.OK);
    assert.equal((await place(A.main, { site_id: s.id, kind: 'device', ref_id: gate, x: 10, y: 10 })).code, CODES.OK);
    assert.equal((await place(A.main, { site_id: s.id, kind: 'breaker', ref_id: box, x: 20, y: 20 })).code, CODES.OK);
  }
  assert.equal((await call(t.app, 'POST', '/device/delete', { token: A.main, body: { id: gate } })).code, CODES.OK);
  assert.equal((await call(t.app, 'POST', '/breaker/delete', { token: A.main, body: { id: box } })).code, CODES.OK);
  const left = await db().selectFrom('site_placements').selectAll().where('site_id', 'in', [s1.id, s2.id]).execute();
  assert.deepEqual(left, []);
  for (const s of [s1, s2]) {
    const d = await info(A.main, s.id);
    assert.deepEqual(d.placements, []);
    assert.ok(!d.unplaced.some((i) => (i.kind === 'device' && i.ref_id === gate) || (i.kind === 'breaker' && i.ref_id === box)));
  }
  // A stray row (written behind the API's back) is never shown, counted, or handed to the big screen.
  await db().insertInto('site_placements').values({ company_id: A.id, site_id: s1.id, kind: 'device', ref_id: 999_999, x: 1, y: 1 }).execute();
  assert.deepEqual((await info(A.main, s1.id)).placements, []);
  assert.equal((await call<Site[]>(t.app, 'GET', '/site/list', { token: A.main })).data.find((x) => x.id === s1.id)!.devices, 0);
  assert.deepEqual(await sitesRepository.refIds(db(), A.id, s1.id, 'device'), []);
});

test("tenancy: another company's site, device or breaker is not found", async () => {
  const aGate = await device(A, 'A gate');
  const bGate = await device(B, 'B gate');
  const bBox = await breaker(B, 'B breaker');
  const aSite = await site(A, 'A site');
  const bSite = await site(B, 'B site');
  assert.equal((await plan(A.main, aSite.id, await picture(300, 300, 'png'))).code, CODES.OK);
  assert.equal((await plan(B.main, bSite.id, await picture(300, 300, 'png'))).code, CODES.OK);
  assert.equal((await place(B.main, { site_id: bSite.id, kind: 'device', ref_id: bGate, x: 5, y: 5 })).code, CODES.OK);

  // B's device or breaker on A's site; A's device on B's site.
  assert.equal((await place(A.main, { site_id: aSite.id, kind: 'device', ref_id: bGate, x: 5, y: 5 })).code, CODES.NOT_FOUND);
  assert.equal((await place(A.main, { site_id: aSite.id, kind: 'breaker', ref_id: bBox, x: 5, y: 5 })).code, CODES.NOT_FOUND);
  assert.equal((await place(A.main, { site_id: bSite.id, kind: 'device', ref_id: aGate, x: 5, y: 5 })).code, CODES.NOT_FOUND);
  assert.equal((await place(A.main, { site_id: aSite.id, kind: 'breaker', ref_id: bGate, x: 5, y: 5 })).code, CODES.NOT_FOUND, 'a device id is no breaker');
  // B's site through every route.
  for (const [method, url, opts] of [
    ['GET', '/site/info', { query: { id: bSite.id } }],
    ['POST', '/site/update', { body: { id: bSite.id, name: 'Mine' } }],
    ['POST', '/site/delete', { body: { id: bSite.id } }],
    ['POST', '/site/unplace', { body: { site_id: bSite.id, kind: 'device', ref_id: bGate } }],
  ] as const) {
    assert.equal((await call(t.app, method, url, { token: A.main, ...opts })).code, CODES.NOT_FOUND, url);
  }
  assert.equal((await raw(t.app, 'GET', `/site/image/${bSite.id}`, { token: A.main })).status, 404);
  assert.equal((await plan(A.main, bSite.id, await picture(100, 100, 'png'))).code, CODES.NOT_FOUND);
  // Lists and the unplaced list stay in the company.
  assert.ok(!(await call<Site[]>(t.app, 'GET', '/site/list', { token: A.main })).data.some((s) => s.id === bSite.id));
  assert.ok(!(await info(A.main, aSite.id)).unplaced.some((i) => i.kind === 'device' && i.ref_id === bGate));
  // B's site is untouched.
  const b = await info(B.main, bSite.id);
  assert.equal(b.name, 'B site');
  assert.deepEqual(
    b.placements.map((p) => p.ref_id),
    [bGate],
  );
  // A site without a plan has no image to serve.
  const bare = await site(A, 'Bare');
  assert.equal((await raw(t.app, 'GET', `/site/image/${bare.id}`, { token: A.main })).status, 404);
});

test('a sub-admin with face view (or the breaker right) reads the map but cannot change it; without either, nothing', async () => {
  const s = await site(A, 'Rights site');
  assert.equal((await plan(A.main, s.id, await picture(300, 300, 'png'))).code, CODES.OK);
  const gate = await device(A, 'Rights gate');
  for (const rights of [['faceView'], ['breaker']] as const) {
    const viewer = await makeSub(t, A, [...rights]);
    assert.equal((await call(t.app, 'GET', '/site/list', { token: viewer.token })).code, CODES.OK, rights[0]);
    assert.equal((await call(t.app, 'GET', '/site/info', { token: viewer.token, query: { id: s.id } })).code, CODES.OK);
    assert.equal((await raw(t.app, 'GET', `/site/image/${s.id}`, { token: viewer.token })).status, 200);
    for (const [url, body] of [
      ['/site/create', { name: 'Nope' }],
      ['/site/update', { id: s.id, name: 'Nope' }],
      ['/site/delete', { id: s.id }],
      ['/site/place', { site_id: s.id, kind: 'device', ref_id: gate, x: 1, y: 1 }],
      ['/site/unplace', { site_id: s.id, kind: 'device', ref_id: gate }],
    ] as const) {
      assert.equal((await call(t.app, 'POST', url, { token: viewer.token, body })).code, CODES.NO_AUTHORITY, `${rights[0]} ${url}`);
    }
    assert.equal((await plan(viewer.token, s.id, await picture(100, 100, 'png'))).code, CODES.NO_AUTHORITY);
  }
  const editor = await makeSub(t, A, ['faceView', 'faceEdit']);
  assert.equal((await place(editor.token, { site_id: s.id, kind: 'device', ref_id: gate, x: 1, y: 1 })).code, CODES.OK);
  const none = await makeSub(t, A, ['logView']);
  assert.equal((await call(t.app, 'GET', '/site/list', { token: none.token })).code, CODES.NO_AUTHORITY);
});

test('bad images are refused by their content', async () => {
  const s = await site(A, 'Image checks');
  const jpeg = await picture(100, 100, 'jpeg');
  for (const [label, data, key] of [
    ['text named .png', Buffer.from('hello, this is not an image at all'), 'planType'],
    ['gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'planType'],
    ['cut-off png', (await picture(400, 400, 'png')).subarray(0, 60), 'planCorrupt'],
    ['jpeg header only', jpeg.subarray(0, 40), 'planCorrupt'],
  ] as const) {
    const r = await plan(A.main, s.id, data);
    assert.equal(r.code, CODES.RULE, label);
    assert.equal(r.data.field, 'file', label);
    assert.equal(r.message, (await import('../../i18n/i18n.ts')).t('en-US', `errors.${key}`), label);
  }
  const tooBig = Buffer.alloc(10 * 1024 * 1024 + 1, 1);
  const big = await plan(A.main, s.id, tooBig);
  assert.equal(big.code, CODES.RULE);
  assert.equal(big.data.field, 'file');
  const noSite = await upload(t, '/site/image', A.main, { name: 'p.png', data: await picture(100, 100, 'png') });
  assert.equal(noSite.code, CODES.RULE);
  assert.equal(noSite.data.field, 'site_id');
  const notMultipart = await call(t.app, 'POST', '/site/image', { token: A.main, body: {} });
  assert.equal(notMultipart.code, CODES.RULE);
  // WebP is taken.
  const webp = await (
    await import('sharp')
  )
    .default({ create: { width: 120, height: 90, channels: 3, background: '#888' } })
    .webp()
    .toBuffer();
  const ok = await plan(A.main, s.id, webp, 'plan.webp');
  assert.equal(ok.code, CODES.OK, ok.message);
  assert.deepEqual([ok.data.image_width, ok.data.image_height], [120, 90]);
  assert.equal((await raw(t.app, 'GET', `/site/image/${s.id}`, { token: A.main })).contentType, 'image/webp');
  // Nothing of the refused uploads was left behind.
  assert.equal((await planFile(A.id)).filter((n) => n.endsWith('.webp')).length, 1);
  assert.equal((await planFile(A.id)).filter((n) => n.endsWith('.tmp')).length, 0);
});
