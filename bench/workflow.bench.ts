/**
 * Approvals benchmarks (issue #11): BENCH_APPLICATIONS past records (default 20,000) of BENCH_PEOPLE people (default
 * 2,000) in one company; the records page (20, newest first; by status; by keyword); the export of every record;
 * and one decision end to end (apply on someone's behalf, approve: the absence written and the days queued).
 * Beside a baseline measured in the same run: the raw SQL page of the same rows (no steps, names or departments).
 * Prints figures; asserts nothing.
 */
import { nowIso } from '../apps/server/src/lib/time.ts';
import { newPersonRow } from '../apps/server/src/modules/persons/persons.repository.ts';
import { benchServer, fmt, measure, percentile } from './lib.ts';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 2_000);
const APPLICATIONS = Number(process.env.BENCH_APPLICATIONS ?? 20_000);
const { app, companyId, api, close } = await benchServer();
const db = app.database.db;
const dept = (await api('/org/create', { name: 'Everyone' })).json().data.id as number;
const apps = (await api('/workflow/app/list')).json().data.items as { id: number; kind: string }[];
const leave = apps.find((a) => a.kind === 'leave')!;

// Setup (not measured): people, and past records with a submitted and a decided step each.
const now = nowIso();
const ids: number[] = [];
await db.transaction().execute(async (trx) => {
  for (let start = 0; start < PEOPLE; start += 500) {
    const rows = Array.from({ length: Math.min(500, PEOPLE - start) }, (_, k) => ({
      ...newPersonRow({ number: String(100000 + start + k), name: `Person ${start + k}`, phone: '1', created_at: now }),
      company_id: companyId,
      search: `person ${start + k}`,
    }));
    const made = await trx.insertInto('persons').values(rows).returning('id').execute();
    ids.push(...made.map((r) => r.id));
    await trx
      .insertInto('person_departments')
      .values(made.map((r) => ({ company_id: companyId, person_id: r.id, department_id: dept })))
      .execute();
  }
  for (let start = 0; start < APPLICATIONS; start += 500) {
    const rows = Array.from({ length: Math.min(500, APPLICATIONS - start) }, (_, k) => {
      const i = start + k;
      const day = new Date(Date.UTC(2026, 0, 1) + (i % 300) * 86_400_000).toISOString();
      return {
        company_id: companyId,
        app_id: leave.id,
        order_no: `B${String(i).padStart(8, '0')}`,
        person_id: ids[i % ids.length]!,
        form_version: 1,
        process_version: 1,
        form_values: JSON.stringify({ leave_type: 'annual', period: { from: day, to: day }, reason: 'Bench' }),
        status: i % 10 === 0 ? 0 : 1,
        source: 'import',
        plan: '[]',
        plan_index: 0,
        leave_type: 'annual',
        period_from: day,
        period_to: day,
        created_at: day,
        updated_at: day,
        finished_at: i % 10 === 0 ? null : day,
      };
    });
    const made = await trx.insertInto('workflow_applications').values(rows).returning('id').execute();
    await trx
      .insertInto('workflow_steps')
      .values(
        made.flatMap((r, k) => [
          { company_id: companyId, application_id: r.id, seq: 0, kind: 'submit', state: 'submitted', created_at: rows[k]!.created_at },
          {
            company_id: companyId,
            application_id: r.id,
            seq: 1,
            kind: 'approver',
            state: rows[k]!.status ? 'approved' : 'pending',
            created_at: rows[k]!.created_at,
          },
        ]),
      )
      .execute();
  }
});
console.log(`database: ${app.database.dialect}; ${PEOPLE} people, ${APPLICATIONS} applications`);

// Baseline: the raw page a list without steps, names or departments would read.
const raw: number[] = [];
for (let i = 0; i < 30; i++) {
  const t0 = performance.now();
  await db
    .selectFrom('workflow_applications')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(20)
    .offset(20 * i)
    .execute();
  raw.push(performance.now() - t0);
}
console.log(`baseline raw page (20 rows): p50 ${fmt(percentile(raw, 50))} ms, p99 ${fmt(percentile(raw, 99))} ms`);

for (const [label, query] of [
  ['records page (20, newest first)', ''],
  ['records page, pending only', '&status=0'],
  ['records page, keyword', '&keyword=person%2012'],
] as const) {
  const lat: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    const r = await api(`/workflow/approval/list?page=${1 + i}&pageSize=20${query}`);
    lat.push(performance.now() - t0);
    if (r.json().code !== 20000) throw new Error(r.json().message);
  }
  console.log(
    `${label}: p50 ${fmt(percentile(lat, 50))} ms, p99 ${fmt(percentile(lat, 99))} ms (${fmt(percentile(lat, 50) / percentile(raw, 50), 1)}× the raw page)`,
  );
}

const exported = await measure(async () => {
  const r = await api('/workflow/approval/export', {});
  if (r.statusCode !== 200) throw new Error(r.body);
  return r.rawPayload.length;
});
console.log(
  `export of ${APPLICATIONS} records: ${fmt(exported.ms / 1000, 2)} s, ${fmt(exported.result / 1024 / 1024, 1)} MB, peak +${fmt(exported.peakMb, 0)} MB`,
);

// One decision end to end: apply for someone (routed to the administrators: nobody heads the department), approve.
const decide: number[] = [];
for (let i = 0; i < 40; i++) {
  const day = new Date(Date.UTC(2026, 10, 2 + (i % 20), 1)).toISOString();
  const to = new Date(Date.parse(day) + 9 * 3600_000).toISOString();
  const t0 = performance.now();
  const made = (
    await api('/workflow/approval/create', { app_id: leave.id, person_id: ids[i]!, values: { leave_type: 'sick', period: { from: day, to }, reason: 'Bench' } })
  ).json();
  if (made.code !== 20000) throw new Error(made.message);
  const done = (await api('/workflow/approval/decide', { id: made.data.id, step_id: made.data.current.step_id, decision: 'approve', comment: '' })).json();
  if (done.code !== 20000 || done.data.status !== 1) throw new Error(done.message);
  decide.push(performance.now() - t0);
}
console.log(`apply + approve (absence written, days queued): p50 ${fmt(percentile(decide, 50))} ms, p99 ${fmt(percentile(decide, 99))} ms`);
await close();
