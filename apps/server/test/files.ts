import { randomBytes } from 'node:crypto';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import assert from 'node:assert/strict';
import type { Person, PersonCreate } from '@faceadmin/shared';
import { API, call, type Company, type TestApp } from './helpers.ts';

/** A solid-colour test picture (a real image, so it passes content checks). */
export const picture = (w = 400, h = 500, format: 'jpeg' | 'png' = 'jpeg') =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 120, g: 160, b: 220 } } })
    [format]()
    .toBuffer();

interface Entry {
  name: string;
  data: Buffer;
  /** lie about the uncompressed size in the headers (zip-bomb style) */
  declaredSize?: number;
}

/** A minimal zip writer (deflate), so tests can build exactly the hostile archives they need. */
export function makeZip(entries: Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const comp = zlib.deflateRawSync(e.data);
    const crc = zlib.crc32(e.data);
    const size = e.declaredSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(comp.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(comp.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, comp);
    centrals.push(central, name);
    offset += local.length + name.length + comp.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** multipart/form-data body with one file and some fields. */
export function form(file: { name: string; data: Buffer; type?: string }, fields: Record<string, string> = {}) {
  const boundary = `----fa${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
    ),
  );
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function upload(
  t: TestApp,
  url: string,
  token: string,
  file: { name: string; data: Buffer },
  fields: Record<string, string> = {},
  lang = 'en-US',
) {
  const f = form(file, fields);
  const res = await t.app.inject({ method: 'POST', url: API + url, headers: { ...f.headers, 'x-token': token, 'x-lang': lang }, payload: f.payload });
  return { ...res.json<{ code: number; message: string; data: any }>(), status: res.statusCode };
}

export { libreOfficeXlsx, soffice } from './office.ts';

const PORTRAIT = path.join(import.meta.dirname, 'faces', 'astronaut.jpg');
/** A real portrait (public domain, test/faces/README.md), `w` px wide: one sharp face, about half the width. */
export const facePhoto = (w = 480) => sharp(PORTRAIT).resize({ width: w }).jpeg({ quality: 90 }).toBuffer();
/** The portrait out of focus (a Gaussian blur of σ = 4 px at 480 px wide). */
export const blurredFace = async () =>
  sharp(await facePhoto())
    .blur(4)
    .jpeg({ quality: 90 })
    .toBuffer();
/** Two people side by side. */
export const twoFaces = async () => {
  const one = await facePhoto();
  const { height = 0 } = await sharp(one).metadata();
  return sharp({ create: { width: 960, height, channels: 3, background: '#d8d4cf' } })
    .composite([
      { input: one, left: 0, top: 0 },
      { input: one, left: 480, top: 0 },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
};
/** The portrait far away: the face about 75 px wide on a 480 × 620 picture. */
export const smallFace = async () =>
  sharp({ create: { width: 480, height: 620, channels: 3, background: '#d8d4cf' } })
    .composite([{ input: await facePhoto(160), left: 160, top: 200 }])
    .jpeg({ quality: 90 })
    .toBuffer();

/**
 * What a person with a face is created with: the name, and any field of the person form (spec §3).
 * Without `organizations` the person goes in a new department (named `department`, else `Dept <number>`, or a random one);
 * without `pic` a picture is uploaded for them (`picture`, else a solid-colour test picture).
 */
export type PersonWithFace = Partial<PersonCreate> & { name: string; department?: string; picture?: Buffer };

/** A person with a face (the setup many tests need before a terminal): the record the API returned. */
export async function personWithFace(t: TestApp, c: Company, p: PersonWithFace): Promise<Person> {
  const { department, picture: data, organizations, pic, ...fields } = p;
  let orgs = organizations;
  if (!orgs) {
    const dept = await call(t.app, 'POST', '/org/create', {
      token: c.main,
      body: { name: department ?? `Dept ${p.number ?? randomBytes(4).toString('hex')}` },
    });
    assert.equal(dept.code, 20000, dept.message);
    orgs = [dept.data.id as number];
  }
  let face = pic;
  if (!face) {
    const up = await upload(t, '/person/upload', c.main, { name: 'face.jpg', data: data ?? (await picture()) });
    assert.equal(up.code, 20000, up.message);
    face = up.data.pic as string;
  }
  const person = await call<Person>(t.app, 'POST', '/person/create', {
    token: c.main,
    body: { phone: '13700000000', ...fields, organizations: orgs, pic: face },
  });
  assert.equal(person.code, 20000, `${p.name}: ${person.message}`);
  return person.data;
}

/** A person with a face in a new department of the company (or in `organizations`): its id. */
export async function addPersonWithFace(t: TestApp, c: Company, p: PersonWithFace): Promise<number> {
  return (await personWithFace(t, c, p)).id;
}

/** A person with a face signed in to self-service through a one-time link: the person token (X-Person-Token). */
export async function personSessionWithFace(t: TestApp, c: Company, p: PersonWithFace): Promise<string> {
  const person = await addPersonWithFace(t, c, p);
  const link = await call(t.app, 'POST', '/workflow/link', { token: c.main, body: { person_id: person } });
  assert.equal(link.code, 20000, link.message);
  const r = await call(t.app, 'POST', '/self/link', { body: { token: link.data.token } });
  assert.equal(r.code, 20000, `person session: ${r.message}`);
  return r.data.token as string;
}
