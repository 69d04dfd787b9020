/**
 * Hikvision ISAPI figures (issue #20), one run, printed (never asserted): a full roster of people with faces
 * dialled to one emulated ISAPI terminal, and events per second taken from many ISAPI terminals pushing at once.
 * Server and emulators share this process and loopback (the emulators' work is included in the figures).
 *   BENCH_ROSTER (10000)  people with faces for the roster figure
 *   BENCH_TERMINALS (50)  terminals pushing at once; BENCH_EVENTS (200) events each
 */
import sharp from 'sharp';
import { nowIso } from '../apps/server/src/lib/time.ts';
import { newPersonRow } from '../apps/server/src/modules/persons/persons.repository.ts';
import { photoStore } from '../apps/server/src/modules/persons/photos.ts';
import { createIsapiTerminal, type IsapiTerminal } from '../tools/isapi-emulator/terminal.ts';
import { benchServer, fmt, punchCount } from './lib.ts';

const ROSTER = Number(process.env.BENCH_ROSTER ?? 10_000);
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 50);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200);

const { app, companyId, api, close } = await benchServer({ listen: true });
const count = async (deviceId: number, state: string) =>
  Number(
    (
      await app.database.db
        .selectFrom('device_persons')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('device_id', '=', deviceId)
        .where('state', '=', state)
        .executeTakeFirstOrThrow()
    ).n,
  );

// 1. Roster: ROSTER people with face photos onto one emulated ISAPI terminal.
const face = await sharp({ create: { width: 480, height: 640, channels: 3, background: { r: 200, g: 170, b: 150 } } })
  .composite([
    {
      input: Buffer.from(
        '<svg width="480" height="640"><ellipse cx="240" cy="300" rx="150" ry="200" fill="#e9c4a6"/><circle cx="190" cy="270" r="14"/><circle cx="290" cy="270" r="14"/></svg>',
      ),
    },
  ])
  .jpeg({ quality: 85 })
  .toBuffer();
// faces are only written and read here: every one counts as held (none is ever released)
const photos = photoStore(app.files, undefined, async (_company, names) => new Set(names));
const now = nowIso();
const dept = (await api('/org/create', { name: 'Roster' })).json().data.id as number;
await app.database.db.transaction().execute(async (trx) => {
  for (let start = 0; start < ROSTER; start += 500) {
    const rows = [];
    for (let i = start; i < Math.min(ROSTER, start + 500); i++)
      rows.push({
        ...newPersonRow({ number: String(500000 + i), name: `Roster ${i}`, phone: '1', photo: await photos.save(companyId, face), created_at: now }),
        company_id: companyId,
        search: '',
      });
    const ids = await trx.insertInto('persons').values(rows).returning('id').execute();
    await trx
      .insertInto('person_departments')
      .values(ids.map((r) => ({ company_id: companyId, person_id: r.id, department_id: dept })))
      .execute();
  }
});
const roster = await createIsapiTerminal({ capacity: ROSTER + 10, serial: 'DS-BENCH-ROSTER' });
const created = (
  await api('/device/create', {
    name: 'Roster door',
    serial: 'ISAPIROSTER',
    protocol: 'isapi',
    ip: '127.0.0.1',
    port: roster.port,
    account: 'admin',
    password: roster.options.password,
    capacity: ROSTER + 10,
  })
).json().data.id as number;
const t0 = performance.now();
await api('/device/persons/add', { id: created, department_ids: [dept] });
for (;;) {
  if ((await count(created, 'synced')) >= ROSTER) break;
  if ((await count(created, 'failed')) > 0) throw new Error('a person failed to sync');
  await new Promise((r) => setTimeout(r, 250));
}
const syncMs = performance.now() - t0;
const requests = roster.requests.length;
console.log(`database: ${app.database.dialect}`);
console.log(
  `isapi roster: ${ROSTER} people with ${fmt(face.length / 1024)} KB faces dialled to one emulated terminal in ${fmt(syncMs / 1000, 1)} s ` +
    `(${fmt(ROSTER / (syncMs / 1000), 0)} people/s, ${requests} HTTP requests incl. digest challenges; target < 5 min)`,
);
console.log(`  emulator holds ${roster.users.size} users and ${roster.faces.size} faces`);
await roster.stop();

// 2. Events: TERMINALS terminals each pushing EVENTS recognitions at once.
const terminals: IsapiTerminal[] = [];
const ids: number[] = [];
for (let i = 0; i < TERMINALS; i++) {
  const t = await createIsapiTerminal({ serial: `DS-BENCH-EV${i}` });
  const id = (
    await api('/device/create', {
      name: `Gate ${i}`,
      serial: `ISAPIEV${i}`,
      protocol: 'isapi',
      ip: '127.0.0.1',
      port: t.port,
      account: 'admin',
      password: t.options.password,
    })
  ).json().data.id as number;
  terminals.push(t);
  ids.push(id);
  t.users.set('1', { employeeNo: '1', name: 'One', userType: 'normal', valid: { enable: false, beginTime: '', endTime: '' }, password: '' });
  t.faces.set('1', Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
}
// every terminal has been dialled and told where to post
for (;;) {
  if (terminals.every((t) => t.httpHost)) break;
  await new Promise((r) => setTimeout(r, 100));
}
const before = await punchCount(app);
const base = Date.now() - EVENTS * 1000 - 60_000;
const t1 = performance.now();
let refused = 0;
await Promise.all(
  terminals.map(async (t) => {
    for (let e = 0; e < EVENTS; e++) if (!(await t.recognize('1', base + e * 1000)).pushed) refused++;
  }),
);
const eventMs = performance.now() - t1;
const stored = (await punchCount(app)) - before;
console.log(
  `isapi events: ${TERMINALS} terminals × ${EVENTS} recognitions pushed at once (multipart JSON + picture): ${fmt((TERMINALS * EVENTS) / (eventMs / 1000), 0)} events/s ingested, ` +
    `${stored} punches stored (expected ${TERMINALS * EVENTS}), ${refused} posts not acknowledged`,
);
await Promise.all(terminals.map((t) => t.stop()));
await close();
