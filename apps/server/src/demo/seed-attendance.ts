import type { Modules } from '../app.ts';
import type { Database } from '../db/database.ts';
import { transaction } from '../db/transaction.ts';
import { clock, zonedToUtcMs } from '../lib/time.ts';
import { markDirty } from '../modules/attendance/dirty.ts';
import { addDays, datesBetween } from '../modules/attendance/plans.ts';
import { localDate } from '../modules/attendance/recompute.service.ts';
import { plainPunch, punchWriter, type PunchInsert } from '../modules/punches/punches.repository.ts';
import type { Tenant } from '../plugins/auth.ts';

/** A deterministic pseudo-random sequence, so the demo month is the same on every start. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const ZONE = 'Asia/Shanghai';
const pad = (n: number) => String(n).padStart(2, '0');
/** 'HH:mm:ss' of a minute offset from midnight (may pass 24h: the next day). */
const wall = (date: string, minute: number, second: number) => {
  const day = addDays(date, Math.floor(minute / 1440));
  const m = ((minute % 1440) + 1440) % 1440;
  return `${day} ${pad(Math.floor(m / 60))}:${pad(m % 60)}:${pad(second)}`;
};

/**
 * The demo company's attendance (issue #10): an office rule with two shifts a day, a production rule on a
 * 2 days / 2 nights / 2 rest cycle with a night shift across midnight, a company holiday, a month of punches
 * from the two gate terminals (mostly on time; some late, some leaving early, a few missing or absent), two
 * recorded leaves, and every day computed before the console opens.
 */
export async function seedAttendance(database: Database, modules: Pick<Modules, 'attendance'>, tenant: Tenant, devices: { entrance: number; exit: number }) {
  const { db } = database;
  const departments = await db.selectFrom('departments').select(['id', 'name', 'parent_id']).where('company_id', '=', tenant.companyId).execute();
  const top = departments.filter((d) => d.parent_id === 0);
  const production = top.find((d) => d.name.includes('Production'))!;
  const office = top.filter((d) => d.id !== production.id).map((d) => d.id);
  const { rules, holidays, days, recompute } = modules.attendance;

  await rules.create(tenant, {
    name: '办公室 Office hours',
    mode: 'fixed',
    shifts: [
      { key: 'am', name: '上午 Morning', start: '09:00', end: '12:00', late_grace_min: 5, early_grace_min: 5 },
      { key: 'pm', name: '下午 Afternoon', start: '13:00', end: '18:00', late_grace_min: 0, early_grace_min: 5 },
    ],
    weekdays: { 0: [], 1: ['am', 'pm'], 2: ['am', 'pm'], 3: ['am', 'pm'], 4: ['am', 'pm'], 5: ['am', 'pm'], 6: [] },
    person_ids: [],
    department_ids: office,
  });
  const today = localDate(clock.now(), ZONE);
  const first = addDays(today, -30);
  await rules.create(tenant, {
    name: '生产倒班 Production',
    mode: 'shift',
    shifts: [
      { key: 'd', name: '白班 Day', start: '08:00', end: '20:00', late_grace_min: 5 },
      { key: 'n', name: '夜班 Night', start: '20:00', end: '08:00', late_grace_min: 5 },
    ],
    cycles: [{ key: 'c', name: '两白两夜', days: ['d', 'd', 'n', 'n', '', ''] }],
    cycle_key: 'c',
    start_date: first,
    start_index: 0,
    person_ids: [],
    department_ids: [production.id],
  });
  const companyDay = addDays(today, -9);
  await holidays.create(tenant, { name: '公司活动日 Company day', kind: 'holiday', from_date: companyDay, to_date: companyDay, rule_ids: [] });

  // A month of punches: what each person's rule expects, with people being people.
  const people = await db
    .selectFrom('persons as p')
    .innerJoin('person_departments as pd', 'pd.person_id', 'p.id')
    .innerJoin('departments as d', 'd.id', 'pd.department_id')
    .select(['p.id', 'p.number', 'd.id as dept', 'd.parent_id'])
    .where('p.company_id', '=', tenant.companyId)
    .where('p.work_status', '=', 1)
    .execute();
  const r = rng(20261123);
  const rows: PunchInsert[] = [];
  const punch = (personId: number, number: string, device: number, local: string) => {
    if (zonedToUtcMs(local, ZONE) > clock.now()) return;
    rows.push(plainPunch({ companyId: tenant.companyId, deviceId: device, personId, pin: number, local, zone: ZONE }));
  };
  const jitter = (base: number, spread: number) => base + Math.round((r() - 0.5) * spread);
  for (const p of people) {
    const inProduction = p.dept === production.id || p.parent_id === production.id;
    for (const [i, date] of datesBetween(first, addDays(today, -1)).entries()) {
      if (date === companyDay) continue;
      const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
      const roll = r();
      if (roll < 0.03) continue; // absent
      if (inProduction) {
        const slot = i % 6;
        if (slot > 3) continue;
        const start = slot < 2 ? 8 * 60 : 20 * 60;
        const late = roll < 0.1 ? 6 + Math.floor(r() * 20) : 0;
        punch(p.id, p.number, devices.entrance, wall(date, jitter(start - 10, 16) + late, Math.floor(r() * 60)));
        punch(p.id, p.number, devices.exit, wall(date, jitter(start + 12 * 60 + 6, 10), Math.floor(r() * 60)));
      } else {
        if (weekday === 0 || weekday === 6) continue;
        const late = roll < 0.12 ? 6 + Math.floor(r() * 25) : 0;
        const early = roll > 0.95 ? 10 + Math.floor(r() * 40) : 0;
        punch(p.id, p.number, devices.entrance, wall(date, jitter(8 * 60 + 50, 16) + late, Math.floor(r() * 60)));
        // Out for lunch by 12:00: where two shifts' windows meet, the morning's ends at its off-work time.
        if (r() > 0.02) punch(p.id, p.number, devices.exit, wall(date, 11 * 60 + 56 + Math.floor(r() * 4), Math.floor(r() * 60)));
        punch(p.id, p.number, devices.entrance, wall(date, jitter(12 * 60 + 52, 6), Math.floor(r() * 60)));
        if (roll > 0.015) punch(p.id, p.number, devices.exit, wall(date, jitter(18 * 60 + 8, 12) - early, Math.floor(r() * 60)));
      }
    }
  }
  const writer = punchWriter();
  await transaction(db, async (trx) => {
    await writer.insertIgnore(trx, rows);
    await markDirty(
      trx,
      tenant.companyId,
      people.map((p) => p.id),
      { from: first, to: today },
    );
  });
  // Two leaves the results show.
  const [a, b] = people;
  if (a)
    await days.createAbsence(tenant, {
      person_id: a.id,
      kind: 'leave',
      from: `${addDays(today, -5)}T09:00:00+08:00`,
      to: `${addDays(today, -5)}T18:00:00+08:00`,
      reason: '年假 Annual leave',
    });
  if (b)
    await days.createAbsence(tenant, {
      person_id: b.id,
      kind: 'out',
      from: `${addDays(today, -3)}T13:00:00+08:00`,
      to: `${addDays(today, -3)}T18:00:00+08:00`,
      reason: '拜访客户 Client visit',
    });
  // Computed now, so the first look at the results page finds the month done.
  while ((await recompute.runOnce(200)).people) {
    /* next batch */
  }
  return rows.length;
}
