import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type RuleInput } from '@faceadmin/shared';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';
import { listen, stopTerminals, terminal } from '../../../test/terminals.ts';
import { transactionRetries } from '../../db/transaction.ts';

/**
 * #17 item 0: terminals upload while the recompute job works the same people and an administrator presses
 * "attendance update" — on PostgreSQL this deadlocked, and the failure path then dropped queue rows that punches
 * had widened meanwhile, leaving stale results. Afterwards every stored result must equal a fresh computation.
 */
let t: TestApp;
let server: string;
let A: Company;
const PEOPLE = 200;
const TERMINALS = 4;
const ROUNDS = 12;
const DATES = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20']; // Monday to Friday, in the past
const ids: number[] = [];

const rule = (dept: number): RuleInput => ({
  name: 'Office',
  mode: 'fixed',
  shifts: [{ key: 'd', name: 'Day', start: '09:00', end: '18:00', late_grace_min: 0, early_grace_min: 0 }],
  weekdays: { 0: [], 1: ['d'], 2: ['d'], 3: ['d'], 4: ['d'], 5: ['d'], 6: [] },
  person_ids: [],
  department_ids: [dept],
});

before(async () => {
  t = await makeApp({ DEVICE_POLL_SECONDS: '1' });
  server = await listen(t);
  A = await makeCompany(t, 'Queue A');
  const dept = (await call(t.app, 'POST', '/org/create', { token: A.main, body: { name: 'Line' } })).data.id;
  const db = t.app.database.db;
  const rows = await db
    .insertInto('persons')
    .values(
      Array.from(
        { length: PEOPLE },
        (_, i) =>
          ({ company_id: A.id, number: `Q${i + 1}`, name: `Worker ${i + 1}`, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }) as never,
      ),
    )
    .returning('id')
    .execute();
  for (const r of rows) ids.push(r.id);
  await db
    .insertInto('person_departments')
    .values(ids.map((person_id) => ({ company_id: A.id, person_id, department_id: dept })))
    .execute();
  const r = await call(t.app, 'POST', '/attendance/rule/create', { token: A.main, body: rule(dept) });
  assert.equal(r.code, CODES.OK, r.message);
  for (let i = 0; i < TERMINALS; i++) {
    const d = await call(t.app, 'POST', '/device/create', {
      token: A.main,
      body: { name: `Gate ${i + 1}`, serial: `QUEUE00${i + 1}`, ip: `10.0.0.${i + 1}`, password: 'pw', attendance_scope: 'all' },
    });
    assert.equal(d.code, CODES.OK, d.message);
  }
});
after(async () => {
  await stopTerminals();
  await t.close();
});

/** A punch time on a date: the minutes drawn so that late and early minutes differ between uploads. */
function punchAt(date: string, round: number, person: number, term: number): string {
  const morning = (person * 7 + round * 13 + term * 3) % 70; // 08:20 … 09:29
  const evening = (person * 11 + round * 5 + term) % 70; // 17:20 … 18:29
  const m = round % 2 === 0 ? 8 * 60 + 20 + morning : 17 * 60 + 20 + evening;
  return `${date} ${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:${String((person + round) % 60).padStart(2, '0')}`;
}

// No time limit of its own: on a machine busy with other work it only takes longer (the file's hang guard, test/shards.ts,
// stops a run that never ends); 64 s quiet, 245 s beside two CPU hogs and the rest of the suite.
test(`concurrent uploads, the recompute job and "attendance update" leave no stale result behind (${DIALECT})`, async (ctx) => {
  const recompute = t.app.modules.attendance.recompute;
  const terms = Array.from({ length: TERMINALS }, (_, i) => terminal(server, `QUEUE00${i + 1}`));
  await Promise.all(terms.map((x) => x.start()));
  let uploading = true;
  const errors: string[] = [];
  // Administrators press "attendance update" while the terminals upload.
  const updates = (async () => {
    let n = 0;
    // Pressed all through the uploads, and at least three times however quickly they went.
    while (uploading || n < 3) {
      const r = await call(t.app, 'POST', '/attendance/recalculate', { token: A.main, body: { from: DATES[0], to: DATES[DATES.length - 1] } });
      if (r.code !== CODES.OK) errors.push(`recalculate ${r.status} ${r.code} ${r.message}`);
      n++;
      await new Promise((res) => setTimeout(res, 150));
    }
    return n;
  })();
  // A second worker beside the job (what a second instance does), hammering the same queue in small batches: on
  // PostgreSQL each is computed while the one before is written.
  const worker = (async () => {
    while (uploading) if (!(await recompute.runOnce(120, { batch: 30 })).people) await new Promise((res) => setTimeout(res, 20));
  })();
  await Promise.all(
    terms.map(async (term, ti) => {
      for (let round = 0; round < ROUNDS; round++) {
        const batch = [];
        // Each terminal sees every other person each round, over the whole week, in an order of its own.
        for (let k = 0; k < PEOPLE; k += 2) {
          const p = (k + ti * 37 + round * 11) % PEOPLE;
          batch.push({ pin: `Q${p + 1}`, time: punchAt(DATES[(p + round + ti) % DATES.length]!, round, p, ti) });
        }
        const res = await term.punchBatch(batch);
        if (!res.reply?.startsWith('OK')) errors.push(`upload ${term.sn} ${res.reply}`);
      }
    }),
  );
  uploading = false;
  const presses = await updates;
  await worker;
  assert.deepEqual(errors, [], 'every upload and every "attendance update" answered OK');
  assert.ok(presses >= 3, `"attendance update" pressed (${presses})`);
  // The queue drains (the job goes on by itself). Stuck is a queue that stops getting shorter for a minute; a slow one
  // only takes longer.
  for (let shortest = Infinity, since = Date.now(); ; await new Promise((res) => setTimeout(res, 200))) {
    const pending = (await call(t.app, 'GET', '/attendance/recalculate/status', { token: A.main })).data.pending as number;
    if (pending === 0) break;
    if (pending < shortest) [shortest, since] = [pending, Date.now()];
    else assert.ok(Date.now() - since < 60_000, `the queue stopped draining at ${pending} people`);
  }
  // Every stored result equals a fresh computation from the stored punches.
  const stored = await t.app.database.db
    .selectFrom('attendance_days')
    .select(['person_id', 'date', 'status', 'late_min', 'early_min', 'worked_min'])
    .where('company_id', '=', A.id)
    .where('date', 'in', DATES)
    .execute();
  assert.equal(stored.length, PEOPLE * DATES.length, 'a result for every person and day');
  const stale: string[] = [];
  for (const s of stored) {
    const fresh = await recompute.explain(A.id, s.person_id, s.date);
    assert.ok(fresh);
    const got = `${s.status} late ${s.late_min} early ${s.early_min} worked ${s.worked_min}`;
    const want = `${fresh.status} late ${fresh.lateMin} early ${fresh.earlyMin} worked ${fresh.workedMin}`;
    if (got !== want) stale.push(`${s.person_id} ${s.date}: stored ${got}, fresh ${want}`);
  }
  assert.deepEqual(stale.slice(0, 10), [], `${stale.length} stale results`);
  ctx.diagnostic(`transactions retried after a deadlock or serialization failure: ${transactionRetries.count}`);
});
