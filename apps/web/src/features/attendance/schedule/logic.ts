import type { ScheduleApply, ScheduleCell, ScheduleCellInput, ScheduleGrid } from '@faceadmin/shared';

/** A cell's identity in the editor: person and date. */
export const cellKey = (personId: number, date: string) => `${personId}|${date}`;
export const splitKey = (key: string): { person_id: number; date: string } => {
  const i = key.indexOf('|');
  return { person_id: Number(key.slice(0, i)), date: key.slice(i + 1) };
};

/** spec §186: schedule badges use 7 fixed colours; shifts take them in order. */
/** The shifts' colours: white text on each reads (5.4–9.9:1), as does each as text on its own light tint (WCAG AA). */
export const SHIFT_COLOURS = ['#0958d9', '#722ed1', '#006d75', '#ad4e00', '#c41d7f', '#237804', '#874d00'] as const;
export const shiftColour = (index: number) => SHIFT_COLOURS[((index % SHIFT_COLOURS.length) + SHIFT_COLOURS.length) % SHIFT_COLOURS.length]!;

/**
 * What the editor holds before saving: cycle applications in the order made, then single cells set by hand
 * (a shift key, '' rest, null clear). The server writes applications first and cells after, so a later
 * application drops the hand-set cells it covers (see `applyCycle`) and the preview always matches the save.
 */
export interface Draft {
  applies: ScheduleApply[];
  cells: Map<string, string | null>;
}
export const emptyDraft = (): Draft => ({ applies: [], cells: new Map() });
export const isDirty = (d: Draft) => d.applies.length > 0 || d.cells.size > 0;
/** How many person-days the draft touches (for the toolbar). */
export function draftSize(d: Draft, days: string[]): number {
  const keys = new Set(d.cells.keys());
  for (const a of d.applies) for (const p of a.person_ids) for (const date of days) if (date >= a.from_date && date <= a.to_date) keys.add(cellKey(p, date));
  return keys.size;
}

export const dayIndex = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);

/** What the rule's running cycle gives on a date (a shift key, '' rest), or undefined before it starts (plans.ts does the same). */
export function fromRunning(grid: Pick<ScheduleGrid, 'cycles' | 'running'>, date: string): string | undefined {
  const r = grid.running;
  const cycle = r && grid.cycles.find((c) => c.key === r.cycle_key);
  if (!r || !cycle?.days.length || date < r.start_date) return undefined;
  return cycle.days[(r.start_index + dayIndex(date) - dayIndex(r.start_date)) % cycle.days.length];
}

/** A cell as the grid shows it, with `edited` when the draft changes it. */
export interface ShownCell extends ScheduleCell {
  edited: boolean;
}

/** The cell after the draft: a hand-set cell, else the last application covering it, else the server's. */
export function shownCell(grid: Pick<ScheduleGrid, 'cycles' | 'running'>, draft: Draft, personId: number, date: string, server: ScheduleCell): ShownCell {
  const key = cellKey(personId, date);
  if (draft.cells.has(key)) {
    const v = draft.cells.get(key)!;
    if (v !== null) return { shift_key: v, source: 'grid', cycle_key: null, edited: true };
    const c = fromRunning(grid, date);
    return c === undefined
      ? { shift_key: '', source: 'none', cycle_key: null, edited: true }
      : { shift_key: c, source: 'cycle', cycle_key: null, edited: true };
  }
  for (let i = draft.applies.length - 1; i >= 0; i--) {
    const a = draft.applies[i]!;
    if (date < a.from_date || date > a.to_date || !a.person_ids.includes(personId)) continue;
    const cycle = grid.cycles.find((c) => c.key === a.cycle_key);
    if (!cycle?.days.length) break;
    const n = cycle.days.length;
    const shift = cycle.days[(((a.start_index + dayIndex(date) - dayIndex(a.from_date)) % n) + n) % n]!;
    return { shift_key: shift, source: 'grid', cycle_key: cycle.key, edited: true };
  }
  return { ...server, edited: false };
}

/** Sets the selected cells to a shift ('' rest, null back to the cycle). */
export function setCells(d: Draft, keys: Iterable<string>, value: string | null): Draft {
  const cells = new Map(d.cells);
  for (const k of keys) cells.set(k, value);
  return { applies: d.applies, cells };
}

/** Adds a cycle application; the hand-set cells it covers are dropped (it is newer than them). */
export function applyCycle(d: Draft, a: ScheduleApply): Draft {
  const cells = new Map(d.cells);
  for (const k of d.cells.keys()) {
    const { person_id, date } = splitKey(k);
    if (a.person_ids.includes(person_id) && date >= a.from_date && date <= a.to_date) cells.delete(k);
  }
  return { applies: [...d.applies, a], cells };
}

/** The save body's cells and applications. */
export function draftBody(d: Draft): { cells: ScheduleCellInput[]; apply: ScheduleApply[] } {
  return { cells: [...d.cells].map(([k, shift_key]) => ({ ...splitKey(k), shift_key })), apply: d.applies };
}

/** The rectangle of cells between two corners (people in the order shown, days in order). */
export function rectangle(personIds: number[], days: string[], a: { person: number; day: number }, b: { person: number; day: number }): string[] {
  const out: string[] = [];
  const [p0, p1] = [Math.min(a.person, b.person), Math.max(a.person, b.person)];
  const [d0, d1] = [Math.min(a.day, b.day), Math.max(a.day, b.day)];
  for (let p = p0; p <= p1; p++) for (let d = d0; d <= d1; d++) if (personIds[p] !== undefined && days[d]) out.push(cellKey(personIds[p]!, days[d]!));
  return out;
}

/** Saturday or Sunday (the month's days are plain dates). */
export const isWeekend = (date: string) => {
  const w = new Date(`${date}T00:00:00Z`).getUTCDay();
  return w === 0 || w === 6;
};

/** The people and first date of a selection: what "apply cycle" starts from. */
export function selectionPeople(keys: Iterable<string>): { personIds: number[]; firstDate: string | undefined } {
  const people = new Set<number>();
  let first: string | undefined;
  for (const k of keys) {
    const { person_id, date } = splitKey(k);
    people.add(person_id);
    if (!first || date < first) first = date;
  }
  return { personIds: [...people], firstDate: first };
}

/** A touch screen's primary pointer (no Ctrl key there, and a drag scrolls the grid). */
export const isTouchScreen = (): boolean => typeof window !== 'undefined' && !!window.matchMedia?.('(pointer: coarse)').matches;

/** Whether a press on a day adds to (or takes from) the selection: Ctrl/Cmd, or any tap on a touch screen. */
export const isAdditive = (e: { ctrlKey: boolean; metaKey: boolean }, touch: boolean): boolean => touch || e.ctrlKey || e.metaKey;

/** The grid's hint: what works with a mouse and keyboard, or on a touch screen. */
export const selectionHintKey = (touch: boolean) => (touch ? 'schedule.hintTouch' : 'schedule.hint');
