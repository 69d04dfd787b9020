import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { API, call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { addPersonWithFace, blurredFace, facePhoto, form, makeZip, personWithFace, picture, smallFace, twoFaces, upload } from '../../../test/files.ts';
import { examine, FACE_MIN_PX, SHARPNESS_MIN } from './face-check.ts';
import { normalizePhoto } from './photos.ts';

// The real detector on real photos (test/faces/README.md): every upload path refuses what a terminal would.
let t: TestApp;
let A: Company;
let dept: number;
let door: number;

const HOUR = 3600_000;
/** Face files stored for company A (a refused photo stores none). */
const stored = async () => {
  let n = 0;
  for await (const _ of t.app.files.list(`faces/${A.id}/`)) n++;
  return n;
};

const bad = async () => ({
  noFace: await picture(480, 600),
  twoFaces: await twoFaces(),
  small: await smallFace(),
  blurred: await blurredFace(),
});
const REASONS = {
  noFace: /No face was found/,
  twoFaces: /shows 2 faces/,
  small: /too small for terminals \(at least 120 pixels wide, 40 pixels between the eyes\)/,
  blurred: /too blurred/,
};

before(async () => {
  t = await makeApp({ FACE_CHECK: 'on' });
  A = await makeCompany(t, 'Faces A');
  dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'HQ' } })).data.id;
  const d = await call(t.app, 'POST', '/device/create', {
    token: A.main,
    body: { name: 'Lobby gate', serial: 'FCHK01', ip: '192.168.1.41', password: 'dev-secret' },
  });
  assert.equal(d.code, CODES.OK, d.message);
  door = d.data.id;
  assert.equal((await call(t.app, 'POST', '/device/options', { token: A.main, body: { id: door, options: { allowvisit: 1 } } })).code, CODES.OK);
});
after(() => t.close());

test('the detector measures the test photos as the rules expect (one sharp large face; the others fail one rule each)', async () => {
  const good = await examine(await normalizePhoto(await facePhoto()));
  assert.equal(good.faces, 1);
  assert.ok(good.box!.width >= FACE_MIN_PX, `face ${good.box!.width} px`);
  assert.ok(good.sharpness! >= SHARPNESS_MIN, `sharpness ${good.sharpness}`);
  assert.equal((await examine(await normalizePhoto(await picture(480, 600)))).faces, 0);
  assert.equal((await examine(await normalizePhoto(await twoFaces()))).faces, 2);
  const small = await examine(await normalizePhoto(await smallFace()));
  assert.equal(small.faces, 1);
  assert.ok(small.box!.width < FACE_MIN_PX, `small face ${small.box!.width} px`);
  const blurred = await examine(await normalizePhoto(await blurredFace()));
  assert.equal(blurred.faces, 1, 'a blurred face is still found');
  assert.ok(blurred.sharpness! < SHARPNESS_MIN, `blurred sharpness ${blurred.sharpness}`);
});

test(`the person form's upload keeps a good face and refuses no face, two faces, a small and a blurred face with the reason, storing nothing (${DIALECT})`, async () => {
  const before = await stored();
  for (const [kind, data] of Object.entries(await bad())) {
    const r = await upload(t, '/person/upload', A.main, { name: `${kind}.jpg`, data });
    assert.equal(r.status, 422, kind);
    assert.equal(r.code, CODES.RULE, kind);
    assert.equal(r.data?.field, 'pic', kind);
    assert.match(r.message, REASONS[kind as keyof typeof REASONS], `${kind}: ${r.message}`);
  }
  assert.equal(await stored(), before, 'refused photos are not stored');
  // translated: the reason in the administrator's language
  const zh = await upload(t, '/person/upload', A.main, { name: 'x.jpg', data: await twoFaces() }, {}, 'zh-CN');
  assert.equal(zh.message, '图片中有 2 张人脸，请上传本人单独的照片');
  const ja = await upload(t, '/person/upload', A.main, { name: 'x.jpg', data: await blurredFace() }, {}, 'ja');
  assert.match(ja.message, /ぼやけ/);
  const ok = await upload(t, '/person/upload', A.main, { name: 'me.jpg', data: await facePhoto() });
  assert.equal(ok.code, CODES.OK, ok.message);
  assert.match(ok.data.pic, /^[a-f0-9]{32}\.jpg$/);
  assert.equal(await stored(), before + 1);
  // the same photo as a PNG, and large (the pipeline shrinks it to 640 px before the check)
  assert.equal((await upload(t, '/person/upload', A.main, { name: 'big.jpg', data: await facePhoto(1600) })).code, CODES.OK);
});

test(`the zip of face photos keeps the good ones and reports each refused photo with its reason (${DIALECT})`, async () => {
  // five people sharing one good face, each then sent a photo of their own in the zip
  const { pic: good } = await personWithFace(t, A, { name: 'Face F1', number: 'F1', organizations: [dept], picture: await facePhoto() });
  for (const number of ['F2', 'F3', 'F4', 'F5']) await addPersonWithFace(t, A, { name: `Face ${number}`, number, organizations: [dept], pic: good });
  const b = await bad();
  const zip = makeZip([
    { name: 'F1.jpg', data: await facePhoto(520) },
    { name: 'F2.jpg', data: b.noFace },
    { name: 'F3.jpg', data: b.twoFaces },
    { name: 'F4.jpg', data: b.small },
    { name: 'F5.jpg', data: b.blurred },
  ]);
  const r = await upload(t, '/person/xlsx2', A.main, { name: 'faces.zip', data: zip });
  assert.equal(r.code, CODES.OK, r.message);
  assert.equal(r.data.matched, 1);
  assert.equal(r.data.failed, 4);
  const reasons = Object.fromEntries((r.data.errors as { file: string; reason: string }[]).map((e) => [e.file, e.reason]));
  assert.match(reasons.F2!, REASONS.noFace);
  assert.match(reasons.F3!, REASONS.twoFaces);
  assert.match(reasons.F4!, REASONS.small);
  assert.match(reasons.F5!, REASONS.blurred);
});

test(`the visitor's page refuses a photo without one clear face with the reason, and keeps a good one (${DIALECT})`, async () => {
  const inv = await call(t.app, 'POST', '/visitor/invite', {
    token: A.main,
    body: {
      name: 'Vera Visitor',
      phone: '13800001111',
      company: 'Acme Ltd',
      reason: 'Meeting',
      starts_at: new Date(Date.now() - 60_000).toISOString(),
      ends_at: new Date(Date.now() + 2 * HOUR).toISOString(),
      device_ids: [door],
    },
  });
  assert.equal(inv.code, CODES.OK, inv.message);
  const token = (inv.data.link as string).split('/visit/')[1]!;
  const face = async (data: Buffer, lang = 'en-US') => {
    const f = form({ name: 'me.jpg', data });
    const res = await t.app.inject({ method: 'POST', url: `${API}/visit/${token}/face`, headers: { ...f.headers, 'x-lang': lang }, payload: f.payload });
    return res.json<{ code: number; message: string; data: any }>();
  };
  for (const [kind, data] of Object.entries(await bad())) {
    const r = await face(data);
    assert.equal(r.code, CODES.RULE, kind);
    assert.match(r.message, REASONS[kind as keyof typeof REASONS], `${kind}: ${r.message}`);
  }
  assert.match((await face(await smallFace(), 'zh-TW')).message, /人臉太小/);
  assert.equal((await call(t.app, 'GET', `/visit/${token}`)).data.has_face, false, 'no refused photo became the face');
  const ok = await face(await facePhoto());
  assert.equal(ok.code, CODES.OK, ok.message);
  assert.equal(ok.data.has_face, true);
});
