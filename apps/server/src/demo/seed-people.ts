import sharp from 'sharp';
import type { Executor } from '../db/database.ts';
import { departmentsRepository } from '../modules/departments/departments.repository.ts';
import { newPersonRow, personsRepository } from '../modules/persons/persons.repository.ts';
import type { PhotoStore } from '../modules/persons/photos.ts';
import { nowIso } from '../lib/time.ts';

const TREE: [string, string[]][] = [
  ['总部 Headquarters', []],
  ['研发中心 R&D', ['前端组 Web', '后端组 Platform', '硬件组 Hardware']],
  ['销售部 Sales', ['华东区 East', '华南区 South']],
  ['人力资源部 HR', []],
  ['行政部 Administration', []],
  ['生产部 Production', ['一车间 Workshop 1', '二车间 Workshop 2']],
];
const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈'.split('');
const GIVEN = '伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰飞鹏辉斌宇浩凯婷雪琳晨阳欣怡子涵梓萱俊杰思远嘉怡雨轩'.split('');

/** A deterministic pseudo-random sequence, so the demo is the same on every start. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** A drawn (not photographed) face: enough for the console's thumbnails and a terminal's picture slot. */
function faceSvg(r: () => number): string {
  const skin = ['#f5d0b5', '#eac3a2', '#d9a47f', '#c68863', '#f2c9a0'][Math.floor(r() * 5)];
  const hair = ['#1f1a17', '#3b2a20', '#5a3b28', '#2b2b2b', '#6b4a2f'][Math.floor(r() * 5)];
  const bg = ['#dfe8f5', '#e8f0e0', '#f3e9dc', '#e6e1f2', '#f0f0f0'][Math.floor(r() * 5)];
  const long = r() > 0.5;
  const mouth = 10 + Math.floor(r() * 10);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="480" viewBox="0 0 360 480">
  <rect width="360" height="480" fill="${bg}"/>
  <path d="M40 480 Q180 330 320 480Z" fill="#4a6fa5"/>
  ${long ? `<rect x="85" y="120" width="190" height="230" rx="90" fill="${hair}"/>` : ''}
  <ellipse cx="180" cy="210" rx="${80 + r() * 12}" ry="${100 + r() * 12}" fill="${skin}"/>
  <path d="M95 180 Q180 ${60 + r() * 30} 265 180 Q250 120 180 110 Q110 120 95 180Z" fill="${hair}"/>
  <ellipse cx="148" cy="205" rx="9" ry="6" fill="#222"/><ellipse cx="212" cy="205" rx="9" ry="6" fill="#222"/>
  <path d="M130 188 q18 -8 36 0 M194 188 q18 -8 36 0" stroke="${hair}" stroke-width="5" fill="none"/>
  <path d="M180 215 q-8 25 0 32" stroke="#b07a5a" stroke-width="3" fill="none"/>
  <path d="M${180 - mouth * 2} 268 q${mouth * 2} ${mouth} ${mouth * 4} 0" stroke="#a0524a" stroke-width="5" fill="none" stroke-linecap="round"/>
</svg>`;
}

/** Capture photos for the demo terminals' punches (ATTPHOTO), as a face terminal takes them: small JPEGs. */
export async function captureJpegs(n: number): Promise<Buffer[]> {
  const r = rng(20261123);
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++)
    out.push(
      await sharp(Buffer.from(faceSvg(r)))
        .resize(240, 320)
        .jpeg({ quality: 70 })
        .toBuffer(),
    );
  return out;
}

/** Departments and a few hundred people with face pictures for the demo company. */
export async function seedPeople(trx: Executor, companyId: number, photos: PhotoStore) {
  const count = 300;
  const now = nowIso();
  const r = rng(20261121);
  const leaves: number[] = [];
  let sort = 0;
  for (const [name, children] of TREE) {
    const id = await departmentsRepository.insert(trx, companyId, { parent_id: 0, name, sort: sort++, created_at: now });
    if (!children.length) leaves.push(id);
    for (const c of children) leaves.push(await departmentsRepository.insert(trx, companyId, { parent_id: id, name: c, sort: sort++, created_at: now }));
  }
  const faces: Buffer[] = [];
  for (let i = 0; i < 24; i++) {
    const jpeg = await sharp(Buffer.from(faceSvg(r)))
      .jpeg({ quality: 82 })
      .toBuffer();
    faces.push(jpeg);
  }
  const heads = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const name =
      SURNAMES[Math.floor(r() * SURNAMES.length)]! + GIVEN[Math.floor(r() * GIVEN.length)]! + (r() > 0.5 ? GIVEN[Math.floor(r() * GIVEN.length)]! : '');
    const dept = leaves[Math.floor(r() * leaves.length)]!;
    // Every person gets their own file (as uploads do), so deleting one never removes another's picture.
    const photo = await photos.save(companyId, faces[i % faces.length]!);
    const left = r() < 0.04;
    const id = await personsRepository.insert(
      trx,
      companyId,
      newPersonRow({
        number: String(1001 + i),
        name,
        phone: `139${String(Math.floor(r() * 1e8)).padStart(8, '0')}`,
        photo,
        // The demo company has the rfid option on (cards required), so everyone holds a card; the draw is kept as it
        // was so the rest of the demo's random data stays the same.
        rfid: r() > 0.3 ? String(3_000_000_000 + Math.floor(r() * 999_999_999)) : String(2_000_000_000 + i),
        work_status: left ? 0 : 1,
        is_admin: i < 3 ? 1 : 0,
        admin_password: i < 3 ? '123456' : '',
        user_pri: r() < 0.1 ? 1 : 0,
        // not drawn from r(), which would change the rest of the demo's random data; a few not said, as on a real roster
        gender: i % 9 === 4 ? null : i % 2 ? 'female' : 'male',
        created_at: now,
      }),
    );
    await personsRepository.setDepartments(trx, companyId, id, [dept]);
    if (!left && !heads.has(dept)) heads.set(dept, id);
  }
  for (const [dept, person] of heads) await departmentsRepository.setHeads(trx, companyId, dept, [person]);
}
