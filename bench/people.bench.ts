/**
 * People benchmarks (issue 3): list p50/p99 at 50k people, import of 10k rows, export of 50k rows, each
 * with a baseline measured in the same run. Prints figures; asserts nothing (targets are in the issue:
 * list p99 < 50 ms, import 10k < 10 s, export 50k < 3 s under 300 MB).
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { API_PREFIX } from '../apps/server/src/lib/api.ts';
import { nowIso } from '../apps/server/src/lib/time.ts';
import { newPersonRow } from '../apps/server/src/modules/persons/persons.repository.ts';
import { benchServer, fmt, measure, percentile } from './lib.ts';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 50_000);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT ?? 10_000);
const { app, token, companyId, api, close } = await benchServer();

// 50k people in 20 departments, written straight through the query layer (setup, not measured).
const db = app.database.db;
const depts: number[] = [];
for (let i = 0; i < 20; i++) depts.push((await api('/org/create', { name: `Dept ${i}` })).json().data.id);
const now = nowIso();
await db.transaction().execute(async (trx) => {
  for (let start = 0; start < PEOPLE; start += 500) {
    const rows = Array.from({ length: Math.min(500, PEOPLE - start) }, (_, k) => {
      const i = start + k;
      const number = String(100000 + i);
      const phone = `139${String(i).padStart(8, '0')}`;
      const rfid = String(5_000_000 + i);
      const row = newPersonRow({ number, name: `Person ${i}`, phone, rfid, work_status: i % 25 === 0 ? 0 : 1, sync_status: i % 3, created_at: now });
      return { ...row, company_id: companyId, search: `person ${i} ${number} ${phone} ${rfid}` };
    });
    const ids = await trx.insertInto('persons').values(rows).returning('id').execute();
    await trx
      .insertInto('person_departments')
      .values(ids.map((r, k) => ({ company_id: companyId, person_id: r.id, department_id: depts[(start + k) % depts.length]! })))
      .execute();
  }
});
console.log(`database: ${app.database.dialect}, ${PEOPLE} people in ${depts.length} departments`);

async function latencies(n: number, url: () => string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await api(url());
    out.push(performance.now() - t0);
    if (r.statusCode !== 200) throw new Error(`${url()}: ${r.statusCode} ${r.body}`);
  }
  return out;
}
// Baseline: the cheapest authenticated route (session check + envelope), same process, same moment.
const base = await latencies(300, () => '/message/count');
const queries = [
  () => `/person/list?page=${1 + Math.floor(Math.random() * 100)}&pageSize=20`,
  () => `/person/list?keyword=${Math.floor(Math.random() * 50_000)}&pageSize=20`,
  () => `/person/list?department_id=${depts[Math.floor(Math.random() * depts.length)]}&pageSize=20&sort=name`,
  () => `/person/list?workStatus=0&sync_status=1&pageSize=20`,
];
let qi = 0;
const list = await latencies(400, () => queries[qi++ % queries.length]!());
if (process.env.BENCH_DETAIL) {
  for (const [i, q] of queries.entries()) {
    const l = await latencies(100, q);
    console.log(`  shape ${i}: p50 ${fmt(percentile(l, 50), 2)} ms  p99 ${fmt(percentile(l, 99), 2)} ms`);
  }
}
console.log(`baseline GET /message/count      p50 ${fmt(percentile(base, 50), 2)} ms  p99 ${fmt(percentile(base, 99), 2)} ms`);
console.log(
  `GET /person/list at ${PEOPLE} people p50 ${fmt(percentile(list, 50), 2)} ms  p99 ${fmt(percentile(list, 99), 2)} ms  (p99 ratio to baseline ${fmt(percentile(list, 99) / percentile(base, 99))}x; target p99 < 50 ms)`,
);

// Import: a 10k-row workbook; baseline = only reading it with exceljs.
const wb = new ExcelJS.Workbook();
const ws = wb.addWorksheet('People');
ws.addRow(['Number', 'Name', 'Phone', 'Departments', 'Card number']);
for (let i = 0; i < IMPORT_ROWS; i++) ws.addRow([`IMP${i}`, `Imported ${i}`, `137${String(i).padStart(8, '0')}`, `Dept ${i % 20}`, String(9_000_000 + i)]);
const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
const parse = await measure(async () => new ExcelJS.Workbook().xlsx.load(xlsx as unknown as ArrayBuffer));
const boundary = 'benchboundary';
const body = Buffer.concat([
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
  xlsx,
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);
const imp = await measure(async () =>
  app.inject({
    method: 'POST',
    url: `${API_PREFIX}/person/import`,
    headers: { 'x-token': token, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  }),
);
const report = imp.result.json<{ data: { created: number; failed: number } }>();
console.log(`baseline exceljs read of ${IMPORT_ROWS} rows (${fmt(xlsx.length / 1024)} KB)  ${fmt(parse.ms, 0)} ms`);
console.log(
  `POST /person/import ${IMPORT_ROWS} rows: ${report.data.created} created, ${report.data.failed} failed in ${fmt(imp.ms, 0)} ms, peak +${fmt(imp.peakMb, 0)} MB  (ratio to read-only ${fmt(imp.ms / parse.ms)}x; target < 10 s)`,
);

// Export: all people streamed; baseline = exceljs streaming the same number of constant rows to nowhere.
const total = PEOPLE + report.data.created;
const raw = await measure(async () => {
  const sink = new PassThrough();
  sink.resume();
  const w = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: false, useSharedStrings: false });
  const s = w.addWorksheet('x');
  for (let i = 0; i < total; i++)
    s.addRow(['100000', 'Person', '13900000000', 'Dept/Sub', '5000000', '', '', '', 'On the job', 0, 'Synced', '', '2026-01-01 00:00:00']).commit();
  s.commit();
  await w.commit();
});
const exp = await measure(async () => {
  const r = await app.inject({ method: 'POST', url: `${API_PREFIX}/person/exportPerson`, headers: { 'x-token': token }, payload: {} });
  return r.rawPayload.length;
});
console.log(`baseline exceljs stream of ${total} constant rows  ${fmt(raw.ms, 0)} ms, peak +${fmt(raw.peakMb, 0)} MB`);
console.log(
  `POST /person/exportPerson ${total} people: ${fmt(exp.result / 1024 / 1024)} MB xlsx in ${fmt(exp.ms, 0)} ms, peak +${fmt(exp.peakMb, 0)} MB  (ratio ${fmt(exp.ms / raw.ms)}x; target < 3 s under 300 MB)`,
);
console.log('note: inject() buffers the whole response body in memory, so the export peak includes the finished file once.');
await close();
