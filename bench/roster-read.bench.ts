/**
 * Reading what a working terminal holds (issue #30, "Take over a working site"): every user with card, validity and
 * enrolment face, from one emulated ZK PUSH terminal at Delay=10 s and one emulated ISAPI terminal, then the face
 * check of every face read. One run, printed (never asserted); each size beside a tenth of it in the same run.
 *
 * How the time is counted (ZK): the terminal does not sleep its Delay between polls (`virtualDelay`); every wait it
 * would have slept is counted and added. So a figure is what a terminal polling every 10 s takes, less a real network.
 * The faces are the repository's test portrait, each made unique (tools/site-faces.ts), so the face check measures a
 * real face every time. Targets (issue #30): ZK < 10 min, ISAPI < 3 min for 3,000 users with faces.
 *   BENCH_USERS (3000)  users with faces on each terminal
 */
import { createIsapiTerminal } from '../tools/isapi-emulator/terminal.ts';
import { seedSite as seedIsapiSite } from '../tools/isapi-emulator/site.ts';
import { createTerminal } from '../tools/zk-emulator/terminal.ts';
import { seedSite } from '../tools/zk-emulator/site.ts';
import { benchServer, fmt } from './lib.ts';

const USERS = Number(process.env.BENCH_USERS ?? 3000);
const DELAY_S = 10;
const minutes = (s: number) => `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;

const { app, url, api, close } = await benchServer({ listen: true });
const db = app.database.db;
console.log(`database: ${app.database.dialect}; face check ${app.config.faceCheck}`);

/** Rows read for a device: users, with a face, with the face checked. */
async function progress(device: number) {
  const rows = await db.selectFrom('terminal_users').select(['face', 'face_check']).where('device_id', '=', device).execute();
  return { users: rows.length, faces: rows.filter((r) => r.face).length, checked: rows.filter((r) => r.face && r.face_check).length };
}

/** Polls until `done`, then answers the time since `t0` (s). */
async function until(device: number, t0: number, done: (p: Awaited<ReturnType<typeof progress>>) => boolean) {
  for (;;) {
    if (done(await progress(device))) return (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function zk(users: number) {
  const serial = `ZKREAD${users}`;
  const id = (await api('/device/create', { name: `Old gate ${users}`, serial, ip: '127.0.0.1', password: 'x', capacity: users + 10 })).json().data
    .id as number;
  const term = createTerminal({
    server: url,
    sn: serial,
    retryMs: 50,
    capacity: users + 10,
    timezone: 8,
    virtualDelay: true,
    site: seedSite({ users, punches: 0, seed: users, faces: 1, validity: 0.1 }),
  });
  await term.start();
  const t0 = performance.now();
  const waited0 = term.virtualWaitMs;
  await api('/device/command', { id, kind: 'readRoster' });
  const read = await until(id, t0, (p) => p.users >= users && p.faces >= users);
  const waits = (term.virtualWaitMs - waited0) / 1000;
  const checked = await until(id, t0, (p) => p.checked >= users);
  await term.stop();
  return { read: read + waits, work: read, waits, checked: checked + waits };
}

async function isapi(users: number) {
  const t = await createIsapiTerminal({ capacity: users + 10, serial: `DS-READ-${users}` });
  seedIsapiSite(t, { people: users, seed: users });
  const id = (
    await api('/device/create', {
      name: `Old door ${users}`,
      serial: `ISAPIREAD${users}`,
      protocol: 'isapi',
      ip: '127.0.0.1',
      port: t.port,
      account: 'admin',
      password: t.options.password,
      capacity: users + 10,
    })
  ).json().data.id as number;
  const faces = t.faces.size;
  const t0 = performance.now();
  await api('/device/command', { id, kind: 'readRoster' });
  const read = await until(id, t0, (p) => p.users >= t.users.size && p.faces >= faces);
  const checked = await until(id, t0, (p) => p.checked >= faces);
  const held = t.users.size;
  await t.stop();
  return { read, checked, held, faces };
}

for (const n of [Math.round(USERS / 10), USERS]) {
  const z = await zk(n);
  console.log(
    `zk-push  ${String(n).padStart(5)} users with faces: read in ${minutes(z.read)} at Delay=${DELAY_S} s (${fmt(z.work, 1)} s of work + ${fmt(z.waits, 0)} s of Delay waits); ` +
      `every face checked after ${minutes(z.checked)}${n === USERS ? ' (target: read < 10 min)' : ''}`,
  );
  const i = await isapi(n);
  console.log(
    `isapi    ${String(i.held).padStart(5)} users, ${i.faces} faces: read in ${minutes(i.read)}; every face checked after ${minutes(i.checked)}${n === USERS ? ' (target: read < 3 min)' : ''}`,
  );
}
await close();
