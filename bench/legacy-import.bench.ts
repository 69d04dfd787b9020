/**
 * Legacy import benchmark (issue #30): a ZKBioTime-style transaction export of BENCH_LEGACY_ROWS rows (default
 * 100,000) over 60 days for 300 people (2% of the rows by numbers no one has here) and 3 terminals, taken through the
 * API as an administrator does: POST /legacy/preview (upload + parse), POST /legacy/run dry, then for real, then the
 * same file again (everything already stored), each polled with GET /legacy/info every 100 ms until done.
 * Baseline in the same run: the same records handed straight to the terminals' punch writer (punches.ingest with
 * `history`, 2,000 rows at a time) onto 3 other terminals, so nothing is deduplicated.
 * Prints figures; asserts nothing. Target: 100,000 transactions imported in < 60 s on SQLite.
 * Run as the server runs (`npm run bench:legacy`: node --max-semi-space-size=64, as scripts/start.ts starts it).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { LegacyImport, LegacyPreview } from '@faceadmin/shared';
import type { PunchRecord } from '../apps/server/src/gateways/terminal-events.ts';
import { API_PREFIX } from '../apps/server/src/lib/api.ts';
import { nowIso } from '../apps/server/src/lib/time.ts';
import type { DeviceRow } from '../apps/server/src/modules/devices/devices.repository.ts';
import { newPersonRow } from '../apps/server/src/modules/persons/persons.repository.ts';
import { benchServer, fmt, measure } from './lib.ts';

const ROWS = Number(process.env.BENCH_LEGACY_ROWS ?? 100_000);
const PEOPLE = 300;
const DAYS = 60;
const FIRST_DAY = Date.UTC(2026, 7, 1);
const STRANGER_SHARE = 0.02;
const BASELINE_BATCH = 2000;
const POLL_MS = 100;
const TARGET_S = 60;

const { app, token, companyId, api, close } = await benchServer();
const db = app.database.db;

// Setup (not measured): 300 people numbered 1001..1300 straight through the query layer, 3 terminals through the API.
const dept = (await api('/org/create', { name: 'Everyone' })).json().data.id as number;
const now = nowIso();
await db.transaction().execute(async (trx) => {
  const rows = Array.from({ length: PEOPLE }, (_, i) => {
    const number = String(1001 + i);
    return { ...newPersonRow({ number, name: `Person ${i}`, phone: '1', created_at: now }), company_id: companyId, search: `person ${i} ${number}` };
  });
  const made = await trx.insertInto('persons').values(rows).returning('id').execute();
  await trx
    .insertInto('person_departments')
    .values(made.map((r) => ({ company_id: companyId, person_id: r.id, department_id: dept })))
    .execute();
});
async function terminals(prefix: string, first: number): Promise<DeviceRow[]> {
  const out: DeviceRow[] = [];
  for (let i = 1; i <= 3; i++) {
    const r = (await api('/device/create', { name: `${prefix} door ${i}`, serial: `${prefix}${i}`, ip: `10.0.0.${first + i}`, password: 'x' })).json();
    if (r.code !== 20000) throw new Error(`device/create: ${r.message}`);
    out.push(await db.selectFrom('devices').selectAll().where('id', '=', r.data.id).executeTakeFirstOrThrow());
  }
  return out;
}
const doors = await terminals('LEGACY', 0);

// The export, generated: rows spread over 06:00–20:00 of each day in file order (times distinct within a day, so no
// row repeats another), a person or (2%) an unknown number at random, one of the 3 terminals at random.
let seed = 7;
const rand = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
const two = (n: number) => String(n).padStart(2, '0');
const perDay = Math.ceil(ROWS / DAYS);
const records: { door: number; record: PunchRecord }[] = [];
const lines = ['Employee ID,Punch Time,Device SN,Punch State'];
let unknown = 0;
for (let d = 0; d < DAYS && records.length < ROWS; d++) {
  const day = new Date(FIRST_DAY + d * 86_400_000).toISOString().slice(0, 10);
  for (let k = 0; k < perDay && records.length < ROWS; k++) {
    const sec = 6 * 3600 + Math.floor((k * 14 * 3600) / perDay);
    const time = `${day} ${two(Math.floor(sec / 3600))}:${two(Math.floor(sec / 60) % 60)}:${two(sec % 60)}`;
    const stranger = rand() < STRANGER_SHARE;
    if (stranger) unknown++;
    const pin = stranger ? String(9000 + Math.floor(rand() * 500)) : String(1001 + Math.floor(rand() * PEOPLE));
    const door = Math.floor(rand() * doors.length);
    const status = sec < 13 * 3600 ? 0 : 1;
    records.push({ door, record: { pin, time, status, verify: 0, workcode: '0', mask: null, temperature: null, alcohol: null } });
    lines.push(`${pin},${time},${doors[door]!.serial},${status ? 'Check Out' : 'Check In'}`);
  }
}
const csv = Buffer.from(lines.join('\r\n') + '\r\n');
console.log(
  `database: ${app.database.dialect}; ${PEOPLE} people, ${doors.length} terminals; transactions.csv: ${records.length} rows over ${DAYS} days ` +
    `(${unknown} by unknown numbers), ${fmt(csv.length / 1024 / 1024, 2)} MB`,
);

type Envelope<T> = { code: number; message: string; data: T };
const boundary = `----legacybench${Date.now().toString(16)}`;
const body = Buffer.concat([
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\ntransactions\r\n`),
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="transactions.csv"\r\nContent-Type: text/csv\r\n\r\n`),
  csv,
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);
const punchesOn = async (devices: DeviceRow[]) =>
  Number(
    (
      await db
        .selectFrom('punches')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(
          'device_id',
          'in',
          devices.map((d) => d.id),
        )
        .executeTakeFirstOrThrow()
    ).n,
  );
/** The attendance queue the stored punches filled, worked off by its job in this process (not measured). */
async function settle(): Promise<string> {
  const t0 = performance.now();
  for (;;) {
    const r = await db
      .selectFrom('attendance_dirty')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(r.n) === 0 || performance.now() - t0 > 120_000) return `${Number(r.n)} queued after ${fmt((performance.now() - t0) / 1000)} s`;
    await sleep(POLL_MS);
  }
}

// 1. Preview: upload + parse + the file kept.
const preview = await measure(async () => {
  const r = await app.inject({
    method: 'POST',
    url: `${API_PREFIX}/legacy/preview`,
    headers: { 'x-token': token, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
  const j = r.json<Envelope<LegacyPreview>>();
  if (j.code !== 20000) throw new Error(`legacy/preview: ${r.statusCode} ${j.message}`);
  return j.data;
});
const { id, mapping } = preview.result;
console.log(`preview: ${preview.result.rows} rows, ${preview.result.encoding}, mapping ${JSON.stringify(mapping)}`);

interface Sample {
  ms: number;
  done: number;
  total: number;
}
/** A run from POST /legacy/run until GET /legacy/info says it is over, its progress sampled at each poll. */
async function run(dry: boolean) {
  const samples: Sample[] = [];
  let startMs = 0;
  let startState = '';
  // the longest gap between ticks of a 10 ms timer: how long the run kept the event loop (every other request) waiting
  let tick = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    stallMs = Math.max(stallMs, performance.now() - tick - 10);
    tick = performance.now();
  }, 10);
  const m = await measure(async () => {
    const t0 = performance.now();
    const started = (await api('/legacy/run', { id, mapping, dry_run: dry })).json<Envelope<LegacyImport>>();
    if (started.code !== 20000) throw new Error(`legacy/run: ${started.message}`);
    startMs = performance.now() - t0;
    startState = started.data.state;
    for (;;) {
      const r = (await api(`/legacy/info?id=${id}`)).json<Envelope<LegacyImport>>();
      if (r.code !== 20000) throw new Error(`legacy/info: ${r.message}`);
      samples.push({ ms: performance.now() - t0, done: r.data.done, total: r.data.total });
      if (r.data.state === 'failed') throw new Error(`import failed: ${r.data.reason}`);
      if (r.data.state === 'done') return r.data;
      await sleep(POLL_MS);
    }
  });
  stallMs = Math.max(stallMs, performance.now() - tick - 10);
  clearInterval(ticker);
  return { ...m, samples, startMs, startState, stallMs };
}
function progress(what: string, r: Awaited<ReturnType<typeof run>>) {
  const s = r.samples;
  const shown = [...new Set([0.1, 0.25, 0.5, 0.75, 0.9, 1].map((q) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!))];
  console.log(
    `  ${what}: POST /legacy/run answered '${r.startState}' in ${fmt(r.startMs / 1000, 2)} s (the file read again and parsed); ` +
      `longest event-loop stall ${fmt(r.stallMs, 0)} ms; progress ` +
      shown.map((x) => `${fmt(x.ms / 1000)} s ${x.done}/${x.total}`).join(', ') +
      `; ${s.length} polls`,
  );
  // rows/s over the first and the second half of the rows, from the samples: does it slow down as punches pile up?
  const half = s.find((x) => x.done >= x.total / 2);
  const first = s.find((x) => x.done > 0);
  const last = s[s.length - 1]!;
  if (half && first && half !== last && half.ms > first.ms)
    console.log(
      `  ${what}: first rows done at ${fmt(first.ms / 1000, 2)} s; rate ${fmt((half.done - first.done) / ((half.ms - first.ms) / 1000), 0)} rows/s up to half, ` +
        `${fmt((last.done - half.done) / ((last.ms - half.ms) / 1000), 0)} rows/s after`,
    );
}

// 2. Dry run, real run, the same file again.
const dry = await run(true);
progress('dry run', dry);
const real = await run(false);
progress('real run', real);
const afterReal = await punchesOn(doors);
console.log(`  attendance queue after the real run: ${await settle()}`);
const again = await run(false);
progress('again', again);
console.log(`  attendance queue after the second run: ${await settle()}`);

// 3. Baseline: the same records straight into the punch writer, onto 3 fresh terminals, 2,000 rows at a time.
const fresh = await terminals('BASE', 10);
const base = await measure(async () => {
  for (let start = 0; start < records.length; start += BASELINE_BATCH) {
    const byDoor = new Map<number, PunchRecord[]>();
    for (const { door, record } of records.slice(start, start + BASELINE_BATCH)) (byDoor.get(door) ?? byDoor.set(door, []).get(door)!).push({ ...record });
    for (const [door, batch] of byDoor) await app.modules.punches.punches.ingest(fresh[door]!, batch, { history: true });
  }
});
const baseStored = await punchesOn(fresh);
console.log(`  attendance queue after the baseline: ${await settle()}`);

const table: [string, number, number, string][] = [
  ['preview (upload + parse)', preview.result.rows, preview.ms, `peak +${fmt(preview.peakMb, 0)} MB`],
  ['dry run', dry.result.total, dry.ms, `peak +${fmt(dry.peakMb, 0)} MB`],
  ['real run (import)', real.result.total, real.ms, `peak +${fmt(real.peakMb, 0)} MB; ${fmt(real.ms / base.ms)}x the baseline`],
  ['preview + real run', real.result.total, preview.ms + real.ms, `target < ${TARGET_S} s`],
  ['second real run (all stored)', again.result.total, again.ms, `peak +${fmt(again.peakMb, 0)} MB`],
  ['baseline: punches.ingest', records.length, base.ms, `peak +${fmt(base.peakMb, 0)} MB; ${baseStored} stored`],
];
console.log('');
console.log(`${'step'.padEnd(30)} ${'rows'.padStart(8)} ${'seconds'.padStart(9)} ${'rows/s'.padStart(9)}`);
for (const [step, rows, ms, note] of table)
  console.log(`${step.padEnd(30)} ${String(rows).padStart(8)} ${fmt(ms / 1000, 2).padStart(9)} ${fmt(rows / (ms / 1000), 0).padStart(9)}  ${note}`);
console.log('');

const report = (r: LegacyImport) => {
  const x = r.report!;
  return `stored ${x.stored}, already ${x.already}, strangers ${x.strangers}, duplicates ${x.duplicates}, failed ${x.failed}`;
};
console.log(`dry run report: ${report(dry.result)}`);
console.log(`real run report: ${report(real.result)}`);
console.log(`second run report: ${report(again.result)}`);
const r = real.result.report!;
console.log(
  `punches stored on the import's terminals after the real run: ${afterReal}; the report's stored ${r.stored} ` +
    `(strangers ${r.strangers} among them, ${r.stored - r.strangers} of known people): ${afterReal === r.stored ? 'matches' : 'DIFFERS'}; ` +
    `after the second run: ${await punchesOn(doors)}`,
);
console.log(
  `generated: ${records.length} rows, ${unknown} by unknown numbers; report strangers ${r.strangers}: ${unknown === r.strangers ? 'matches' : 'DIFFERS'}`,
);
await close();
