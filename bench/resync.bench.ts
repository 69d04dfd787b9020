/**
 * Full re-sync of one ZK PUSH terminal (issue #20, "The fleet"): 10,000 people with faces (JPEGs of 15–40 KB)
 * onto one emulated terminal at Delay=10 s, as today's planning does it and as the old one did, in one run.
 *
 * How the time is counted: the terminal does not sleep its Delay between polls (`virtualDelay`); it counts
 * every wait it would have slept (10 s each) and polls at once. The figure printed is the wall time of all
 * the work done (server planning and answering, the transfer on loopback, the emulator storing the
 * commands and posting results) plus the waits counted, up to the devicecmd that made the last person
 * synced. So it is what a terminal polling every 10 s takes, less the terminal's own face extraction
 * (the emulator extracts nothing) and a real network's transfer time.
 *
 * Runs: "old" = the planning limits before issue #20 (2 MB per reply, 50 people) and a terminal that
 * waits Delay after every reply; "fill" = replies filled to the terminal's 6 MB, no pipelining;
 * "new" = filled replies and the terminal asking again right after the results of a full reply.
 * BENCH_ROSTER (default 10000) sets the people; BENCH_RUNS (default "old,fill,new") the runs.
 */
import sharp from 'sharp';
import { zkPushWire } from '../apps/server/src/gateways/zk-push/driver.ts';
import { nowIso } from '../apps/server/src/lib/time.ts';
import { ROWS_PER_BATCH } from '../apps/server/src/modules/devices/sync.service.ts';
import { newPersonRow } from '../apps/server/src/modules/persons/persons.repository.ts';
import { photoStore } from '../apps/server/src/modules/persons/photos.ts';
import { createTerminal } from '../tools/zk-emulator/terminal.ts';
import { benchServer, fmt } from './lib.ts';

const ROSTER = Number(process.env.BENCH_ROSTER ?? 10_000);
const RUNS = (process.env.BENCH_RUNS ?? 'old,fill,new').split(',').map((s) => s.trim());
const DELAY_S = 10;
const minutes = (s: number) => `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;

/** A face-sized JPEG of about `kb` KB: a skin-toned picture with noise, blurred until it weighs that. */
async function jpegOf(kb: number): Promise<Buffer> {
  const make = (blur: number) =>
    sharp({ create: { width: 360, height: 480, channels: 3, background: { r: 200, g: 170, b: 150 }, noise: { type: 'gaussian', mean: 150, sigma: 40 } } })
      .blur(blur)
      .jpeg({ quality: 80 })
      .toBuffer();
  let lo = 0.4;
  let hi = 4;
  let best = await make(1);
  for (let i = 0; i < 10; i++) {
    const mid = (lo + hi) / 2;
    best = await make(mid);
    if (best.length > kb * 1024) lo = mid;
    else hi = mid;
  }
  return best;
}

const { app, url, companyId, api, close } = await benchServer({ listen: true });
const db = app.database.db;
const variants: Buffer[] = [];
for (let kb = 15; kb <= 40; kb++) variants.push(await jpegOf(kb));
// faces are only written and read here: every one counts as held (none is ever released)
const photos = photoStore(app.files, undefined, async (_company, names) => new Set(names));
const now = nowIso();
const dept = (await api('/org/create', { name: 'Roster' })).json().data.id as number;
let faceBytes = 0;
for (let start = 0; start < ROSTER; start += 500) {
  const rows: (ReturnType<typeof newPersonRow> & { company_id: number; search: string })[] = [];
  for (let i = start; i < Math.min(ROSTER, start + 500); i++) {
    const face = variants[(i * 7) % variants.length]!;
    faceBytes += face.length;
    rows.push({
      ...newPersonRow({ number: String(500000 + i), name: `Roster ${i}`, phone: '1', photo: await photos.save(companyId, face), created_at: now }),
      company_id: companyId,
      search: '',
    });
  }
  await db.transaction().execute(async (trx) => {
    const ids = await trx.insertInto('persons').values(rows).returning('id').execute();
    await trx
      .insertInto('person_departments')
      .values(ids.map((r) => ({ company_id: companyId, person_id: r.id, department_id: dept })))
      .execute();
  });
}
console.log(
  `database: ${app.database.dialect}; ${ROSTER} people with faces of 15–40 KB (mean ${fmt(faceBytes / ROSTER / 1024)} KB JPEG, ${fmt((faceBytes / ROSTER / 1024) * 1.34)} KB in base64), Delay=${DELAY_S} s`,
);

/** The planning limits before issue #20, for the "old" run only. */
const OLD = { maxBatchBytes: 2 * 1024 * 1024, maxBatchPeople: 50 };
const NEW = { maxBatchBytes: zkPushWire.maxBatchBytes, maxBatchPeople: zkPushWire.maxBatchPeople };
const wire = zkPushWire as { maxBatchBytes: number; maxBatchPeople?: number };

async function run(name: string, limits: { maxBatchBytes: number; maxBatchPeople?: number | undefined }, pipeline: boolean) {
  Object.assign(wire, limits);
  const serial = `RESYNC${name.toUpperCase()}`;
  await api('/device/create', { name: `Re-sync ${name}`, serial, ip: '127.0.0.1', password: 'x', capacity: ROSTER + 10 });
  const device = (await db.selectFrom('devices').select('id').where('serial', '=', serial).executeTakeFirstOrThrow()).id;
  await api('/device/persons/add', { id: device, department_ids: [dept] });
  const synced = async () =>
    Number(
      (
        await db
          .selectFrom('device_persons')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('device_id', '=', device)
          .where('state', '=', 'synced')
          .executeTakeFirstOrThrow()
      ).n,
    );
  let done: { at: number; waited: number; replies: number; bytes: number; pipelined: number } | undefined;
  let resolveDone: () => void = () => {};
  const finished = new Promise<void>((r) => (resolveDone = r));
  const term = createTerminal({
    server: url,
    sn: serial,
    retryMs: 50,
    capacity: ROSTER + 10,
    timezone: 8,
    pipeline,
    virtualDelay: true,
    onEvent: (e) => {
      if (e.type !== 'result') return;
      // The devicecmd was answered after its commit: this moment (and the waits counted so far) is when
      // the people it carried became synced.
      const mark = {
        at: performance.now(),
        waited: term.virtualWaitMs,
        replies: term.stats.replies,
        bytes: term.stats.replyBytes,
        pipelined: term.stats.pipelined,
      };
      void synced().then((n) => {
        if (n >= ROSTER && (!done || mark.at < done.at)) {
          done = mark;
          resolveDone();
        }
      });
    },
  });
  const t0 = performance.now();
  await term.start();
  await finished;
  await term.stop();
  const d = done!;
  const busy = (d.at - t0) / 1000;
  const total = busy + d.waited / 1000;
  console.log(
    `${name.padEnd(5)} ${fmt(limits.maxBatchBytes / 1024 / 1024, 0)} MB/${limits.maxBatchPeople ?? ROWS_PER_BATCH} people cap, ${pipeline ? 'pipelined' : 'Delay after every reply'}: ` +
      `fully synced in ${minutes(total)} at Delay=${DELAY_S} s (${fmt(busy, 1)} s of work + ${fmt(d.waited / 1000, 0)} s of Delay waits); ` +
      `${d.replies} replies (${d.pipelined} asked at once), ${fmt(d.bytes / d.replies / 1024 / 1024, 2)} MB and ${fmt(ROSTER / d.replies, 0)} people per reply`,
  );
  return total;
}

const times: Record<string, number> = {};
for (const r of RUNS) {
  if (r === 'old') times.old = await run('old', OLD, false);
  else if (r === 'fill') times.fill = await run('fill', NEW, false);
  else if (r === 'new') times.new = await run('new', NEW, true);
}
Object.assign(wire, NEW);
if (times.old && times.new) console.log(`new / old: ${fmt(times.old / times.new, 1)}× faster (target: under 5 min)`);
await close();
