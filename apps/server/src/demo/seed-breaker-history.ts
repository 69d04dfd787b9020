import type { Insertable } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { BreakerAlarmTable, BreakerMinuteTable } from '../db/schema.ts';
import { clock, zoneOffsetMs } from '../lib/time.ts';
import { seededRandom } from '../lib/random.ts';

/** How far back the demo's history goes: the energy chart's 30 days, and the day before them for its first day. */
export const HISTORY_DAYS = 31;
const MINUTE = 60_000;
const DAY = 86_400_000;
/** Rows every 5 minutes in the last day (the power chart's 5-minute steps), every 15 minutes before. */
const RECENT_STEP = 5 * MINUTE;
const OLDER_STEP = 15 * MINUTE;
const CHUNK = 500;
const VOLTS = 220;
/** The readings that raised the demo's alarms (the demo lines' limits are 32 A and 6,600 W). */
const OVERCURRENT_A = 41.6;
const OVERPOWER_W = 7920;

export interface HistoryBreaker {
  id: number;
  companyId: number;
  /** Weekday loads only (an office): weekends draw a third. */
  office: boolean;
  lines: { id: number; title: string; energy_wh: number; baseW: number }[];
  /** Past alarms, each cleared: days ago (fractional), the line's index (null: the whole breaker went offline), minutes it lasted. */
  alarms: { daysAgo: number; line: number | null; type: 'overcurrent' | 'overpower' | 'offline'; minutes: number }[];
}

/** Morning and evening peaks, as the emulator draws them (tools/breaker-emulator). */
const dailyShape = (h: number) => 0.25 + 0.6 * Math.exp(-((h - 8) ** 2) / 4) + 1.0 * Math.exp(-((h - 20) ** 2) / 6);
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/**
 * The demo's breakers get a past (issue #18: the energy charts and the alarm list are alive on a fresh demo): a month
 * of per-minute aggregates (`breaker_minutes`, what the power and energy charts read) ending where the line's
 * recorded figures begin, and a few cleared overcurrent, over-power and offline alarms. The meter readings run
 * backwards from the line's first recorded reading (or its last known one), so the live emulator continues the
 * series without a jump. Idempotent: a breaker whose lines already reach back more than two days is left alone.
 * Bulk inserts (500 rows a statement): about 3,000 rows a line.
 */
export async function seedBreakerHistory(db: Executor, zone: string, b: HistoryBreaker): Promise<{ minutes: number; alarms: number }> {
  const now = clock.now();
  const start = Math.floor((now - HISTORY_DAYS * DAY) / OLDER_STEP) * OLDER_STEP;
  const ids = b.lines.map((l) => l.id);
  if (!ids.length) return { minutes: 0, alarms: 0 };
  const old = await db
    .selectFrom('breaker_minutes')
    .select('line_id')
    .where('line_id', 'in', ids)
    .where('minute', '<', new Date(now - 2 * DAY).toISOString().slice(0, 16))
    .executeTakeFirst();
  if (old) return { minutes: 0, alarms: 0 };

  // Where each line's own figures begin (the series ends just before) and the meter reading there.
  const firsts = await db
    .selectFrom('breaker_minutes')
    .select((eb) => ['line_id', eb.fn.min<string>('minute').as('minute')])
    .where('line_id', 'in', ids)
    .groupBy('line_id')
    .execute();
  const firstOf = new Map(firsts.map((r) => [r.line_id, r.minute]));

  // The alarms' spans (a tripped line draws nothing until switched on again; an offline breaker reports nothing).
  const spans = b.alarms.map((a) => {
    const at = Math.floor((now - a.daysAgo * DAY) / MINUTE) * MINUTE;
    return { ...a, at, until: at + a.minutes * MINUTE };
  });
  const within = (t: number, line: number | null) => spans.find((s) => s.line === line && t >= s.at && t < s.until);

  const rows: Insertable<BreakerMinuteTable>[] = [];
  const newMeters: { id: number; energy_wh: number }[] = [];
  for (const [k, line] of b.lines.entries()) {
    const rnd = seededRandom(line.id * 7919 + 17);
    const first = firstOf.get(line.id);
    const end = first ? Date.parse(`${first}:00Z`) : Math.floor(now / MINUTE) * MINUTE;
    let meter = first
      ? Number(
          (await db.selectFrom('breaker_minutes').select('energy_wh').where('line_id', '=', line.id).where('minute', '=', first).executeTakeFirstOrThrow())
            .energy_wh,
        )
      : Math.max(line.energy_wh, Math.round(2_000_000 + rnd() * 2_000_000));
    if (!first && meter !== line.energy_wh) newMeters.push({ id: line.id, energy_wh: meter });
    // Backwards from the end: each row is the minute ending an interval of `step`, its meter the reading then.
    let t = end - RECENT_STEP;
    while (t >= start && meter > 0) {
      const step = now - t < DAY ? RECENT_STEP : OLDER_STEP;
      const local = t + zoneOffsetMs(zone, t);
      const d = new Date(local);
      const hour = d.getUTCHours() + d.getUTCMinutes() / 60;
      const weekend = d.getUTCDay() === 0 || d.getUTCDay() === 6;
      const tripped = within(t, k);
      const offline = within(t, null);
      const lightsOut = k === 0 && /照明|Lighting/.test(line.title) && hour < 6.5;
      let w = tripped || lightsOut ? 0 : line.baseW * dailyShape(hour) * (0.85 + rnd() * 0.3) * (b.office && weekend ? 0.3 : 1);
      w = round(w, 1);
      let peak = round(w * (1.05 + rnd() * 0.3), 1);
      // the minute an alarm was raised shows the reading that raised it
      const raised = spans.find((s) => s.line === k && s.type !== 'offline' && s.at >= t && s.at < t + step);
      if (raised) peak = raised.type === 'overcurrent' ? round(OVERCURRENT_A * VOLTS, 1) : OVERPOWER_W;
      if (!offline)
        rows.push({ line_id: line.id, minute: new Date(t).toISOString().slice(0, 16), avg_w: w, max_w: Math.max(peak, w), energy_wh: round(meter, 3), n: 12 });
      meter -= (w * step) / 3_600_000;
      t -= step;
    }
  }
  for (let i = 0; i < rows.length; i += CHUNK)
    await db
      .insertInto('breaker_minutes')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(['line_id', 'minute']).doNothing())
      .execute();
  // The live emulator starts from these readings (the series goes on without a jump).
  for (const m of newMeters) await db.updateTable('breaker_lines').set({ energy_wh: m.energy_wh }).where('id', '=', m.id).execute();

  const alarms: Insertable<BreakerAlarmTable>[] = spans.map((s) => ({
    company_id: b.companyId,
    breaker_id: b.id,
    line_id: s.line === null ? null : b.lines[s.line]!.id,
    type: s.type,
    value: s.type === 'overcurrent' ? OVERCURRENT_A : s.type === 'overpower' ? OVERPOWER_W : null,
    at: new Date(s.at).toISOString(),
    cleared_at: new Date(s.until).toISOString(),
  }));
  if (alarms.length) await db.insertInto('breaker_alarms').values(alarms).execute();
  return { minutes: rows.length, alarms: alarms.length };
}
