import type { DayResult, ShiftDef, Why } from './types.ts';
import { CODED_PARAMS, WHY_EN, WHY_VALUE_EN } from './why.ts';

const STATUS_EN: Record<string, string> = {
  normal: 'normal',
  late: 'late',
  early: 'left early',
  lateEarly: 'late and left early',
  missingIn: 'missing check-in',
  missingOut: 'missing check-out',
  absent: 'absent',
  halfDay: 'half day',
  leave: 'leave',
  out: 'out-of-office',
  holiday: 'holiday',
  rest: 'rest',
  pending: 'pending',
};

/** One explanation line in English (unknown keys show as themselves, so a missing text is visible). */
export function whyText(w: Why): string {
  const template: string = (WHY_EN as Record<string, string>)[w.key] ?? w.key;
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const v = w.params?.[name];
    if (v === undefined) return `{{${name}}}`;
    const coded = (CODED_PARAMS as readonly string[]).includes(name) ? WHY_VALUE_EN[`att.value.${name}.${v}`] : undefined;
    return coded ?? String(v);
  });
}

/** A day result as English text, for tests and logs (the console translates the keys itself). */
export function describe(result: DayResult, shifts: ShiftDef[] = []): string {
  const name = (id: number) => (id === 0 ? 'day' : (shifts.find((s) => s.id === id)?.name ?? `#${id}`));
  const minutes = `late ${result.lateMin}, early ${result.earlyMin}, worked ${result.workedMin}, overtime ${result.overtimeMin} min`;
  const lines = [`${result.date}: ${STATUS_EN[result.status] ?? result.status} (${minutes})`];
  for (const s of result.shifts) {
    const punch = (id: number | null) => (id === null ? '—' : id < 0 ? `supplement #${-id}` : `#${id}`);
    lines.push(`  ${name(s.shiftId)}: ${STATUS_EN[s.status] ?? s.status}, in ${punch(s.checkIn)}, out ${punch(s.checkOut)}`);
  }
  for (const w of result.why) lines.push(`  · ${whyText(w)}`);
  for (const i of result.ignored) lines.push(`  ✗ #${i.punchId} ${i.reason}${i.detail ? `: ${whyText(i.detail)}` : ''}`);
  return lines.join('\n');
}
