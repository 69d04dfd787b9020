import type { LeavePolicy } from '@faceadmin/shared';

/** Rounds down to the half day (a quota is never granted in smaller parts). */
export const floorHalf = (d: number) => Math.floor(d * 2 + 1e-9) / 2;
const round2 = (d: number) => Math.round(d * 100) / 100;

/** Completed years of service on 1 January of `year` from the hire date 'YYYY-MM-DD'. */
export function seniorityYears(joinedOn: string, year: number): number {
  const [y, m, d] = joinedOn.split('-').map(Number) as [number, number, number];
  let years = year - y;
  // 1 January counts as an anniversary only for someone hired on 1 January.
  if (m !== 1 || d !== 1) years -= 1;
  return Math.max(0, years);
}

/**
 * The year's full quota under the rule. Seniority: the highest tier whose years are completed on 1 January (no
 * hire date: the first tier); hired during the year, the first tier's days for the months left (the hire month
 * counts), to the half day; hired after the year, nothing.
 */
export function ruleQuota(policy: Pick<LeavePolicy, 'mode' | 'days' | 'tiers'>, joinedOn: string | null, year: number): number {
  if (policy.mode === 'fixed') return policy.days;
  if (policy.mode !== 'seniority') return 0;
  const tiers = [...policy.tiers].sort((a, b) => a.years - b.years);
  if (!tiers.length) return 0;
  if (!joinedOn) return tiers[0]!.days;
  const joinYear = Number(joinedOn.slice(0, 4));
  if (joinYear > year) return 0;
  if (joinYear === year && joinedOn.slice(5) !== '01-01') {
    const months = 13 - Number(joinedOn.slice(5, 7));
    return floorHalf((tiers[0]!.days * months) / 12);
  }
  const years = seniorityYears(joinedOn, year);
  let days = 0;
  for (const t of tiers) if (years >= t.years) days = t.days;
  return days;
}

/** Under monthly accrual, a twelfth of the quota at the start of each month (to the half day); a past year whole. */
export function accrued(quota: number, accrual: 'year' | 'month', year: number, today: string): number {
  if (accrual !== 'month') return quota;
  const thisYear = Number(today.slice(0, 4));
  if (year < thisYear) return quota;
  if (year > thisYear) return 0;
  return floorHalf((quota * Number(today.slice(5, 7))) / 12);
}

/** The last day carried days may be used: the end of the `months`th month of the year (0: never). */
export function carryExpiry(year: number, months: number): string | null {
  if (!months) return null;
  const last = new Date(Date.UTC(year, months, 0)).getUTCDate();
  return `${year}-${String(months).padStart(2, '0')}-${String(last).padStart(2, '0')}`;
}

export interface BalanceInput {
  annual: number;
  accrual: 'year' | 'month';
  year: number;
  today: string;
  carried: number;
  carryExpires: string | null;
  /** approved leave of the year: days and first day */
  used: { days: number; date: string }[];
  pending: number;
}

/**
 * A balance: quota (accrued so far) + carried − used. Carried days are used first; after their expiry what was
 * not used of them by then is gone.
 */
export function balanceOf(b: BalanceInput) {
  const quota = accrued(b.annual, b.accrual, b.year, b.today);
  const used = b.used.reduce((s, u) => s + u.days, 0);
  let carried = b.carried;
  if (b.carryExpires && b.today > b.carryExpires) {
    const before = b.used.filter((u) => u.date <= b.carryExpires!).reduce((s, u) => s + u.days, 0);
    carried = Math.min(carried, before);
  }
  return { quota, annual: b.annual, carried: round2(carried), used: round2(used), pending: round2(b.pending), remaining: round2(quota + carried - used) };
}
