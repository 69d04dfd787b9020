import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accrued, balanceOf, carryExpiry, ruleQuota, seniorityYears } from './leave.logic.ts';

/** The balance arithmetic of leave types (#17 item 15): seniority, accrual, carry-over and its expiry. */
const tiers = [
  { years: 10, days: 15 },
  { years: 0, days: 5 },
  { years: 1, days: 10 },
];

test('seniority: completed years on 1 January; the highest tier reached', () => {
  const cases: [string | null, number, number][] = [
    ['2014-03-10', 2026, 15], // 11 years
    ['2016-01-01', 2026, 15], // exactly 10 on 1 January
    ['2016-01-02', 2026, 10], // 9 years
    ['2025-01-01', 2026, 10], // one year on the day
    ['2025-06-30', 2026, 5], // not a full year yet
    ['2026-07-15', 2026, 2.5], // hired this year: 6 months of the first tier
    ['2026-01-01', 2026, 5], // hired on 1 January: the whole first tier
    ['2026-12-05', 2026, 0], // one month: 5/12 rounds down to 0
    ['2027-02-01', 2026, 0], // hired later
    [null, 2026, 5], // no hire date: the first tier
  ];
  for (const [joined, year, days] of cases) assert.equal(ruleQuota({ mode: 'seniority', days: 0, tiers }, joined, year), days, `${joined} ${year}`);
  assert.equal(seniorityYears('2020-02-29', 2026), 5);
  assert.equal(ruleQuota({ mode: 'fixed', days: 7.5, tiers: [] }, null, 2026), 7.5);
  assert.equal(ruleQuota({ mode: 'manual', days: 7.5, tiers }, '2000-01-01', 2026), 0);
});

test('monthly accrual: a twelfth at the start of each month, to the half day; other years whole or nothing', () => {
  assert.equal(accrued(12, 'month', 2026, '2026-03-15'), 3);
  assert.equal(accrued(10, 'month', 2026, '2026-01-01'), 0.5);
  assert.equal(accrued(10, 'month', 2025, '2026-03-15'), 10);
  assert.equal(accrued(10, 'month', 2027, '2026-03-15'), 0);
  assert.equal(accrued(10, 'year', 2026, '2026-01-01'), 10);
});

test('carried days expire at the end of the chosen month; what was used of them by then stays', () => {
  assert.equal(carryExpiry(2026, 3), '2026-03-31');
  assert.equal(carryExpiry(2028, 2), '2028-02-29');
  assert.equal(carryExpiry(2026, 0), null);
  const base = { annual: 10, accrual: 'year' as const, year: 2026, carried: 4, carryExpires: '2026-03-31', pending: 1 };
  // Before the expiry: everything counts.
  assert.deepEqual(balanceOf({ ...base, today: '2026-02-01', used: [{ days: 1, date: '2026-01-10' }] }), {
    quota: 10,
    annual: 10,
    carried: 4,
    used: 1,
    pending: 1,
    remaining: 13,
  });
  // After it: 1 day used before the expiry keeps 1 of the 4 carried; later leave comes from the quota.
  const after = balanceOf({
    ...base,
    today: '2026-06-01',
    used: [
      { days: 1, date: '2026-01-10' },
      { days: 2, date: '2026-05-04' },
    ],
  });
  assert.deepEqual([after.carried, after.used, after.remaining], [1, 3, 8]);
});
