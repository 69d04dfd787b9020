import type { DormitoryBuilding, DormitoryPerson, DormitoryStatus } from '@faceadmin/shared';
import { isoToMs, zonedToUtcMs, zoneOffsetMs } from '../../lib/time.ts';
import { descendantsOf } from '../departments/departments.service.ts';

const DAY_MS = 86_400_000;

/**
 * The latest instant `returnBy` ('HH:mm') struck in the zone at or before `now`: today's when it has passed,
 * else yesterday's (at 02:00 the figures are still about last night's 23:00).
 */
export function lastDeadline(now: number, zone: string, returnBy: string): { deadline: number; passedToday: boolean } {
  const today = new Date(now + zoneOffsetMs(zone, now)).toISOString().slice(0, 10);
  const todays = zonedToUtcMs(`${today} ${returnBy}`, zone);
  if (todays <= now) return { deadline: todays, passedToday: true };
  const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
  return { deadline: zonedToUtcMs(`${yesterday} ${returnBy}`, zone), passedToday: false };
}

/** Punches from here on count: a day before the deadline (a resident out when it struck stays listed until back). */
export const windowStart = (deadline: number) => deadline - DAY_MS;

interface Resident {
  person_id: number;
  number: string;
  name: string;
  department_id: number;
}
interface PunchRow {
  person_id: number | null;
  time: string;
  direction: string;
  device: string;
}
interface Department {
  id: number;
  parent_id: number;
  name: string;
  sort: number;
}

type Where = 'inside' | 'out' | 'unknown';
interface PersonState {
  where: Where;
  notBack: DormitoryPerson | null;
  late: DormitoryPerson | null;
}

/**
 * Where each resident is, from their punches since the window start (oldest first): the last punch's device
 * direction says inside or out; out at the deadline (the last punch before it at an exit) and nothing since is
 * "not back"; out at the deadline and an entrance punch after it is a late return (the first such punch).
 */
function stateOf(person: { person_id: number; number: string; name: string }, punches: readonly PunchRow[], deadline: number): PersonState {
  const last = punches.at(-1);
  if (!last) return { where: 'unknown', notBack: null, late: null };
  const where: Where = last.direction === 'out' ? 'out' : 'inside';
  let before: PunchRow | undefined;
  let firstInAfter: PunchRow | undefined;
  for (const p of punches) {
    const ms = isoToMs(p.time);
    if (ms < deadline) before = p;
    else if (!firstInAfter && p.direction !== 'out') firstInAfter = p;
  }
  const outAtDeadline = before?.direction === 'out';
  const named = (p: PunchRow, late: number | null): DormitoryPerson => ({
    person_id: person.person_id,
    number: person.number,
    name: person.name,
    time: new Date(isoToMs(p.time)).toISOString(),
    device: p.device,
    late_min: late,
  });
  return {
    where,
    notBack: outAtDeadline && last === before ? named(last, null) : null,
    late: outAtDeadline && firstInAfter ? named(firstInAfter, Math.floor((isoToMs(firstInAfter.time) - deadline) / 60_000)) : null,
  };
}

/** The buildings: the chosen departments, or every top-level one (in the tree's order). */
export function buildingsOf(departments: readonly Department[], chosen: readonly number[]): Department[] {
  const sorted = [...departments].sort((a, b) => a.sort - b.sort || a.id - b.id);
  if (chosen.length) {
    const want = new Set(chosen);
    return sorted.filter((d) => want.has(d.id));
  }
  return sorted.filter((d) => d.parent_id === 0);
}

/** The dormitory's figures at `now` (pure: the service reads the rows). */
export function dormitoryFigures(input: {
  now: number;
  returnBy: string;
  deadline: number;
  passedToday: boolean;
  departments: readonly Department[];
  chosen: readonly number[];
  residents: readonly Resident[];
  punches: readonly PunchRow[];
}): DormitoryStatus {
  const { deadline } = input;
  const byPerson = new Map<number, PunchRow[]>();
  for (const p of input.punches) {
    if (p.person_id === null) continue;
    let list = byPerson.get(p.person_id);
    if (!list) byPerson.set(p.person_id, (list = []));
    list.push(p);
  }
  const people = new Map<number, Resident>();
  for (const r of input.residents) if (!people.has(r.person_id)) people.set(r.person_id, r);
  const states = new Map<number, PersonState>();
  for (const [id, r] of people) states.set(id, stateOf(r, byPerson.get(id) ?? [], deadline));

  const byName = (a: DormitoryPerson, b: DormitoryPerson) => a.time.localeCompare(b.time) || a.name.localeCompare(b.name);
  const buildings: DormitoryBuilding[] = buildingsOf(input.departments, input.chosen).map((b) => {
    const depts = descendantsOf([...input.departments], b.id);
    const members = new Set(input.residents.filter((r) => depts.has(r.department_id)).map((r) => r.person_id));
    const figures: DormitoryBuilding = { id: b.id, name: b.name, total: members.size, inside: 0, out: 0, unknown: 0, not_back: [], late: [] };
    for (const id of members) {
      const s = states.get(id)!;
      figures[s.where]++;
      if (s.notBack) figures.not_back.push(s.notBack);
      if (s.late) figures.late.push(s.late);
    }
    figures.not_back.sort(byName);
    figures.late.sort(byName);
    return figures;
  });

  // The totals count each resident of any building once.
  const counted = new Set<number>();
  for (const b of buildingsOf(input.departments, input.chosen)) {
    const depts = descendantsOf([...input.departments], b.id);
    for (const r of input.residents) if (depts.has(r.department_id)) counted.add(r.person_id);
  }
  const totals = { total: counted.size, inside: 0, out: 0, unknown: 0, not_back: 0, late: 0 };
  for (const id of counted) {
    const s = states.get(id)!;
    totals[s.where]++;
    if (s.notBack) totals.not_back++;
    if (s.late) totals.late++;
  }
  return {
    return_by: input.returnBy,
    deadline: new Date(deadline).toISOString(),
    passed_today: input.passedToday,
    since: new Date(windowStart(deadline)).toISOString(),
    at: new Date(input.now).toISOString(),
    buildings,
    totals,
  };
}
