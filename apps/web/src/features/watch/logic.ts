import { DEVICE_OPTION_DEFAULTS, HOUR_MINUTE_PATTERN, type LivePunch, type Punch } from '@faceadmin/shared';

/** Pure helpers of the guard desk and dormitory screens (issue #16), unit-tested under node --test. */

/** A recognition as the guard desk shows it: a live punch, or a listed one without the live extras. */
export type Recognition = Punch & Partial<Pick<LivePunch, 'face_url' | 'department' | 'department_ids' | 'health' | 'refused'>>;

/** How many recognitions the history keeps. */
export const HISTORY_MAX = 50;

export type Verdict = 'pass' | 'warn' | 'alarm';
export type Reason = 'stranger' | 'refused' | 'fever' | 'alcohol' | 'redCode' | 'yellowCode';

/** The device's alarm temperature (its option, else the terminal's default). */
export function alarmTempOf(options: Record<string, unknown> | undefined): number {
  const v = options?.alarmTemp;
  return typeof v === 'number' && Number.isFinite(v) ? v : DEVICE_OPTION_DEFAULTS.alarmTemp;
}

/**
 * The colour of a recognition: red for a stranger, a fever (at or above the device's alarm temperature), alcohol
 * over the device's threshold or a red health code (the terminal refuses these people); amber for a yellow code;
 * green otherwise. The reasons say why, most serious first.
 */
export function verdictOf(r: Recognition, alarmTemp: number): { verdict: Verdict; reasons: Reason[] } {
  const reasons: Reason[] = [];
  // a registered person the terminal refused carries their name; an unknown face is a stranger
  if (r.refused) reasons.push('refused');
  else if (r.stranger) reasons.push('stranger');
  if (r.temperature !== null && r.temperature >= alarmTemp) reasons.push('fever');
  if (r.alcohol_over) reasons.push('alcohol');
  const code = r.health?.toLowerCase();
  if (code === 'red') reasons.push('redCode');
  if (code === 'yellow') reasons.push('yellowCode');
  const verdict: Verdict = reasons.some((x) => x !== 'yellowCode') ? 'alarm' : reasons.length ? 'warn' : 'pass';
  return { verdict, reasons };
}

/** Whether this recognition should ring (spec §3 Company alarmRing): strangers and refused people. */
export const ringsFor = (r: Recognition, alarmTemp: number): boolean => verdictOf(r, alarmTemp).verdict === 'alarm';

/** Newest first by instant, then id (a device's clock may be behind: the server's instant orders). */
const newer = (a: Recognition, b: Recognition) => b.utc.localeCompare(a.utc) || b.id - a.id;

/**
 * Merges recognitions into the history, newest first, at most `max`: a known id is updated in place (a live
 * event carries more than the list did), and a photo that arrived before keeps its url.
 */
export function mergeRecognitions(history: readonly Recognition[], incoming: readonly Recognition[], max = HISTORY_MAX): Recognition[] {
  const byId = new Map(history.map((r) => [r.id, r]));
  for (const r of incoming) {
    const old = byId.get(r.id);
    byId.set(r.id, old ? { ...old, ...r, pic_url: r.pic_url || old.pic_url, face_url: r.face_url || old.face_url } : r);
  }
  return [...byId.values()].sort(newer).slice(0, max);
}

/** A `photo` event: the capture photo of a recognition already shown (unknown ids are ignored). */
export function withPhoto(history: readonly Recognition[], id: number, picUrl: string): Recognition[] {
  return history.some((r) => r.id === id) ? history.map((r) => (r.id === id ? { ...r, pic_url: picUrl } : r)) : [...history];
}

/** The recognitions of the doors a desk watches (none chosen: every door). */
export const atDoors = (history: readonly Recognition[], doors: readonly number[]): Recognition[] =>
  doors.length ? history.filter((r) => doors.includes(r.device_id)) : [...history];

/**
 * A recognition's direction: the one the punch carries (the device's at the time), else the device's now.
 * Devices without one count as entrances (the device form's default).
 */
export const directionOf = (r: Pick<Recognition, 'direction' | 'device_id'>, deviceDirections: ReadonlyMap<number, string>): 'in' | 'out' =>
  (r.direction || deviceDirections.get(r.device_id)) === 'out' ? 'out' : 'in';

/** The doors a desk watches, as remembered in the browser: a list of device ids (anything else reads as none). */
export function parseDoors(raw: unknown): number[] {
  return Array.isArray(raw) ? [...new Set(raw.filter((x): x is number => Number.isInteger(x) && x > 0))] : [];
}

/** 'HH:mm' with real hours and minutes (00:00–23:59), as the server checks it. */
const HOUR_MINUTE = new RegExp(HOUR_MINUTE_PATTERN);
export const isHourMinute = (s: string): boolean => HOUR_MINUTE.test(s);

/**
 * The departments whose people live in the buildings: each building's department and everything below it
 * (the buildings the status names; a department list without them: nothing).
 */
export function buildingDepartments(departments: readonly { id: number; parent_id: number }[], buildings: readonly number[]): Set<number> {
  const children = new Map<number, number[]>();
  for (const d of departments) children.set(d.parent_id, [...(children.get(d.parent_id) ?? []), d.id]);
  const out = new Set<number>();
  const stack = [...buildings];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

/** Everyone of a list across the buildings, with their building's name, ordered by time. */
export function acrossBuildings<T extends { time: string }>(buildings: readonly { name: string; people: readonly T[] }[]): (T & { building: string })[] {
  const seen = new Set<string>();
  const out: (T & { building: string })[] = [];
  for (const b of buildings)
    for (const p of b.people) {
      const key = JSON.stringify(p);
      if (seen.has(key)) continue; // a person in two buildings is listed once
      seen.add(key);
      out.push({ ...p, building: b.name });
    }
  return out.sort((a, b) => a.time.localeCompare(b.time));
}
