import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { CODES, type BreakerDetail, type EnergyItem, type PowerSeries } from '@faceadmin/shared';
import { clock, zonedToUtcMs, zoneOffsetMs } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { linesRepository } from './breakers.repository.ts';
import { call, DIALECT, makeApp, makeCompany, type Company, type TestApp } from '../../../test/helpers.ts';

/**
 * Issue #18 (5): the power and energy figures, as properties. For random reading streams over random lines (main or
 * not), folded up to a random minute (the rest read raw), in random zones (DST changes and quarter-hour offsets in
 * the month):
 * - every bucket of GET /breaker/power has peak ≥ average ≥ 0, and both equal the definitions of
 *   docs/api-breakers.md computed here from the readings themselves: the total power minute by minute is the sum of
 *   the counted lines' one-minute averages; a bucket's average is the mean of its minutes' totals, its peak the highest;
 * - the energy of a period (GET /breaker/line/energy) is the meter difference: the reading at the end of the period's
 *   last minute with readings less the reading at the end of the last minute before it (a line's first minute counts
 *   from its first reading), so the periods add up to the meter's whole advance.
 */
let t: TestApp;
let A: Company;
let breakerId: number;
let lineIds: number[];
let tenant: Tenant;
before(async () => {
  t = await makeApp();
  A = await makeCompany(t, 'Power Co');
  const r = await call(t.app, 'POST', '/breaker/create', { token: A.main, body: { uuid: 'POWER-0001', sort: 1, linenum: 3 } });
  assert.equal(r.code, CODES.OK, r.message);
  breakerId = r.data.breaker.id;
  lineIds = (await call<BreakerDetail>(t.app, 'GET', '/breaker/info', { token: A.main, query: { id: breakerId } })).data.lines.map((l) => l.id);
  tenant = { companyId: A.id, adminId: A.mainId, adminName: 'owner', ip: '127.0.0.1' };
});
after(() => t.close());

/** A fixed "now" 12 days after Europe's and 33 after America's DST change, days after Chatham's (+13:45 → +12:45). */
const NOW = Date.UTC(2026, 3, 10, 9, 37, 20, 500);
const ZONES = ['UTC', 'Asia/Shanghai', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Pacific/Chatham'];
const MINUTE = 60_000;
const nowMinute = Math.floor(NOW / MINUTE) * MINUTE;

const reading = fc.option(
  fc.record({
    // watts to 0.1 W as breakers report them, sometimes any double (fast-check's lean to tiny values and edges)
    power: fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 50_000 }).map((x) => x / 10), weight: 4 },
      { arbitrary: fc.double({ min: 0, max: 5000, noNaN: true }), weight: 1 },
    ),
    /** the meter's advance since the line's previous reading, Wh */
    wh: fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 4000 }).map((x) => x / 100), weight: 4 },
      { arbitrary: fc.double({ min: 0, max: 40, noNaN: true }), weight: 1 },
    ),
  }),
  { nil: null },
);
/** Reports as a breaker sends them (breaker-protocol.md: every 5 s, all lines or the changed ones), in spells. */
const reports = fc.array(
  fc.record({
    // most spells in the last day (the 5-minute chart), the others over five weeks (the month and the energy)
    back: fc.oneof(fc.integer({ min: 0, max: 24 * 60 + 10 }), fc.integer({ min: 0, max: 40 * 1440 })),
    second: fc.integer({ min: 0, max: 59 }),
    /** reports 5 s apart in this spell, the power moving by up to ±20 % */
    repeat: fc.integer({ min: 1, max: 30 }),
    swing: fc.double({ min: -0.2, max: 0.2, noNaN: true }),
    lines: fc.tuple(reading, reading, reading),
  }),
  { maxLength: 25 },
);
const scenario = fc.record({
  reports,
  meterStart: fc.tuple(fc.integer({ min: 0, max: 900_000 }), fc.integer({ min: 0, max: 900_000 }), fc.integer({ min: 0, max: 900_000 })),
  main: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
  /** minutes before now the measurements job has folded up to (the rest is read from the raw readings) */
  unfolded: fc.integer({ min: 0, max: 12 }),
  zone: fc.constantFrom(...ZONES),
  target: fc.constantFrom(-1, 0, 1, 2),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

interface Sample {
  line: number;
  at: number;
  power: number;
  meter: number;
}
function samplesOf(s: Scenario): Sample[] {
  const perLine: { at: number; power: number; wh: number }[][] = [[], [], []];
  for (const r of s.reports) {
    for (let k = 0; k < r.repeat; k++) {
      const at = nowMinute - r.back * MINUTE + r.second * 1000 + k * 5000;
      if (at > NOW) break;
      r.lines.forEach((x, i) => {
        if (x) perLine[i]!.push({ at, power: x.power * (1 + (r.swing * (k % 5)) / 4), wh: x.wh });
      });
    }
  }
  const out: Sample[] = [];
  perLine.forEach((readings, i) => {
    let meter = s.meterStart[i]!;
    for (const r of readings.sort((a, b) => a.at - b.at)) {
      meter += r.wh;
      out.push({ line: lineIds[i]!, at: r.at, power: r.power, meter });
    }
  });
  return out;
}

/** Per line and minute: the mean of the readings and the last meter reading. */
function minutesOf(samples: Sample[]) {
  const byLine = new Map<number, Map<number, { sum: number; n: number; meter: number }>>();
  for (const s of samples) {
    const m = Math.floor(s.at / MINUTE) * MINUTE;
    const line = byLine.get(s.line) ?? byLine.set(s.line, new Map()).get(s.line)!;
    const x = line.get(m) ?? { sum: 0, n: 0, meter: -Infinity };
    x.sum += s.power;
    x.n++;
    x.meter = Math.max(x.meter, s.meter);
    line.set(m, x);
  }
  return byLine;
}

function expectedPower(s: Scenario, samples: Sample[], range: 'day' | 'month') {
  const counted = s.target >= 0 ? [lineIds[s.target]!] : s.main.some((m) => !m) ? lineIds.filter((_, i) => !s.main[i]) : lineIds;
  const totals = new Map<number, number>();
  for (const [line, minutes] of minutesOf(samples)) {
    if (!counted.includes(line)) continue;
    for (const [m, x] of minutes) totals.set(m, (totals.get(m) ?? 0) + x.sum / x.n);
  }
  const start = range === 'day' ? Math.floor((NOW - 24 * 3600_000) / 300_000) * 300_000 : zonedToUtcMs(localDay(s.zone, 29), s.zone);
  const buckets = new Map<string, { sum: number; n: number; max: number }>();
  for (const [m, w] of totals) {
    if (m < start) continue;
    const key = range === 'day' ? new Date(Math.floor(m / 300_000) * 300_000).toISOString() : new Date(m + zoneOffsetMs(s.zone, m)).toISOString().slice(0, 10);
    const b = buckets.get(key) ?? { sum: 0, n: 0, max: -Infinity };
    b.sum += w;
    b.n++;
    b.max = Math.max(b.max, w);
    buckets.set(key, b);
  }
  return buckets;
}
/** The local date `daysBack` days before now's local date. */
function localDay(zone: string, daysBack: number): string {
  const today = Date.parse(new Date(NOW + zoneOffsetMs(zone, NOW)).toISOString().slice(0, 10));
  return new Date(today - daysBack * 86400_000).toISOString().slice(0, 10);
}

function expectedEnergy(s: Scenario, samples: Sample[], line: number, by: 'day' | 'month') {
  const local = (ms: number) => new Date(ms + zoneOffsetMs(s.zone, ms)).toISOString();
  const today = local(NOW);
  const first = by === 'day' ? localDay(s.zone, 29) : monthsBack(today.slice(0, 7), 11);
  const minutes = [...(minutesOf(samples).get(line) ?? new Map<number, { meter: number }>())].sort(([a], [b]) => a - b);
  const periods = new Map<string, number>();
  let prev: number | undefined;
  for (const [m, x] of minutes) {
    const key = by === 'day' ? local(m).slice(0, 10) : local(m).slice(0, 7);
    if (key >= first) periods.set(key, (periods.get(key) ?? 0) + (prev === undefined ? 0 : x.meter - prev));
    prev = x.meter;
  }
  return periods;
}
function monthsBack(month: string, n: number): string {
  const d = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1 - n, 1));
  return d.toISOString().slice(0, 7);
}

async function load(s: Scenario, samples: Sample[]) {
  const db = t.app.database.db;
  await db.deleteFrom('breaker_samples').where('line_id', 'in', lineIds).execute();
  await db.deleteFrom('breaker_minutes').where('line_id', 'in', lineIds).execute();
  for (let i = 0; i < 3; i++)
    await db
      .updateTable('breaker_lines')
      .set({ main: s.main[i] ? 1 : 0 })
      .where('id', '=', lineIds[i]!)
      .execute();
  const rows = samples.map((x) => ({ line_id: x.line, at: new Date(x.at).toISOString(), power: x.power, current: 0, voltage: 220, energy_wh: x.meter }));
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('breaker_samples')
      .values(rows.slice(i, i + 200))
      .execute();
  // the measurements job, having run every minute up to `unfolded` minutes ago
  await linesRepository.aggregate(db, '2000-01-01T00:00:00.000Z', new Date(nowMinute - s.unfolded * MINUTE).toISOString());
}

/** Rounding: folded minutes keep averages to 0.1 W (three lines: ±0.15 W), answers to 0.1 W. */
const W_TOLERANCE = 0.3;
const close = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol + Math.abs(b) * 1e-6;

test(`every power bucket has peak ≥ average ≥ 0 and the figures the definitions give; energy per period is the meter's advance (${DIALECT})`, async () => {
  const service = t.app.modules.breakers.service;
  const realNow = clock.now;
  let runs = 0;
  try {
    clock.now = () => NOW;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        runs++;
        const samples = samplesOf(s);
        await load(s, samples);
        const q = { id: breakerId, range: 'day' as const, ...(s.target >= 0 ? { line_id: lineIds[s.target]! } : {}) };
        for (const range of ['day', 'month'] as const) {
          const got: PowerSeries = await service.power(tenant, { ...q, range }, s.zone);
          for (const p of got.points) {
            assert.ok(p.max >= p.avg, `${range} ${p.t}: peak ${p.max} below average ${p.avg}`);
            assert.ok(p.avg >= 0, `${range} ${p.t}: average ${p.avg} below 0`);
          }
          const want = expectedPower(s, samples, range);
          assert.deepEqual(
            got.points.map((p) => p.t),
            [...want.keys()].sort(),
            `${range}: the buckets with readings`,
          );
          for (const p of got.points) {
            const w = want.get(p.t)!;
            assert.ok(close(p.avg, w.sum / w.n, W_TOLERANCE), `${range} ${p.t}: average ${p.avg}, expected ${w.sum / w.n}`);
            assert.ok(close(p.max, w.max, W_TOLERANCE), `${range} ${p.t}: peak ${p.max}, expected ${w.max}`);
          }
        }
        const line = lineIds[Math.max(0, s.target)]!;
        for (const by of ['day', 'month'] as const) {
          const got: EnergyItem[] = await service.energy(tenant, line, by, s.zone);
          const want = expectedEnergy(s, samples, line, by);
          assert.deepEqual(
            got.map((e) => e.period),
            [...want.keys()].sort(),
            `${by}: the periods with readings`,
          );
          for (const e of got) {
            assert.ok(e.kwh >= 0);
            // to the Wh (answers are rounded to it)
            assert.ok(Math.abs(e.kwh - want.get(e.period)! / 1000) <= 0.0011, `${by} ${e.period}: ${e.kwh} kWh, expected ${want.get(e.period)! / 1000}`);
          }
        }
        return true;
      }),
      { numRuns: DIALECT === 'postgres' ? 25 : 60, seed: Number(process.env.FC_SEED ?? 18) },
    );
  } finally {
    clock.now = realNow;
  }
  assert.ok(runs >= 25);
});
