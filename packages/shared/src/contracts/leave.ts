import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.ts';
import { Id, Nullable, Page, PageQuery, StringEnum, XLSX_TYPE } from './common.ts';
import { binary, endpoint } from './endpoint.ts';
import { ImportReport } from './persons.ts';

/** Leave balances (#17 item 15): days, to the half day. */
export const LEAVE_LIMITS = { daysMax: 366, tiersMax: 20, yearMin: 2000, yearMax: 2100 } as const;
/** days; the server refuses anything but whole and half days (422, naming the field) */
const Days = Type.Number({ minimum: 0, maximum: LEAVE_LIMITS.daysMax });
const Year = Type.Integer({ minimum: LEAVE_LIMITS.yearMin, maximum: LEAVE_LIMITS.yearMax });
/** A value of the leave form's type field (built-in or added by the company). */
const LeaveType = Type.String({ minLength: 1, maxLength: 50 });

/** Where a leave type's annual quota comes from when none was set by hand or import. */
export const LEAVE_QUOTA_MODES = ['manual', 'fixed', 'seniority'] as const;
export type LeaveQuotaMode = (typeof LEAVE_QUOTA_MODES)[number];

/**
 * The balance rule of a leave type: tracked types are deducted on approval and checked against the balance
 * (refused below zero unless allowed); the quota set by hand, the same for everyone (fixed) or by completed
 * years of service on 1 January (seniority tiers), granted at once or a twelfth a month; unused days of the year
 * before carried over up to a cap, expiring after some months of the new year (0: they do not expire).
 */
export const LeavePolicy = Type.Object({
  leave_type: LeaveType,
  tracked: Type.Boolean(),
  allow_negative: Type.Boolean(),
  mode: Type.Union([Type.Literal('manual'), Type.Literal('fixed'), Type.Literal('seniority')]),
  /** the fixed quota */
  days: Days,
  /** seniority: from `years` completed years on, `days` a year (the highest tier reached counts) */
  tiers: Type.Array(Type.Object({ years: Type.Integer({ minimum: 0, maximum: 60 }), days: Days }), { maxItems: LEAVE_LIMITS.tiersMax }),
  accrual: Type.Union([Type.Literal('year'), Type.Literal('month')]),
  carry_max: Days,
  carry_months: Type.Integer({ minimum: 0, maximum: 12 }),
});
export type LeavePolicy = Static<typeof LeavePolicy>;
export const LeavePolicyView = Type.Object({ ...LeavePolicy.properties, label: Type.String() });
export type LeavePolicyView = Static<typeof LeavePolicyView>;
/** One per option of the leave form's type field. */
export const LeavePolicies = Type.Object({ items: Type.Array(LeavePolicyView) });
export type LeavePolicies = Static<typeof LeavePolicies>;

/** A person's balance of a leave type in a year (days). */
export const LeaveBalance = Type.Object({
  person_id: Type.Integer(),
  number: Type.String(),
  name: Type.String(),
  /** the person's departments by name, joined with ', ' */
  department: Type.String(),
  leave_type: Type.String(),
  label: Type.String(),
  year: Type.Integer(),
  /** the year's quota (accrued so far, under monthly accrual) */
  quota: Type.Number(),
  /** the year's full quota */
  annual: Type.Number(),
  /** where the quota comes from */
  source: StringEnum(['manual', 'import', 'rule'] as const),
  /** carried over from the year before (what is left of it after its expiry) */
  carried: Type.Number(),
  /** the last day carried days may be used ('YYYY-MM-DD'), null when they do not expire */
  carry_expires: Nullable(Type.String()),
  /** approved leave (working time) */
  used: Type.Number(),
  /** applied for, not decided yet */
  pending: Type.Number(),
  /** quota + carried − used */
  remaining: Type.Number(),
  allow_negative: Type.Boolean(),
});
export type LeaveBalance = Static<typeof LeaveBalance>;

const Filters = {
  year: Year,
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  department_id: Type.Optional(Id),
};
export const LeaveBalanceQuery = Type.Object({ ...PageQuery, ...Filters, leave_type: LeaveType });
export type LeaveBalanceQuery = Static<typeof LeaveBalanceQuery>;
export const LeaveBalanceExport = Type.Object({ ...Filters, leave_type: Type.Optional(LeaveType) });
export type LeaveBalanceExport = Static<typeof LeaveBalanceExport>;
export const LeaveBalancePage = Page(LeaveBalance);
export type LeaveBalancePage = Static<typeof LeaveBalancePage>;
/** A quota set by hand; null quota: back to the rule. Carried null: computed from the year before. */
export const SetLeaveBalance = Type.Object({
  person_id: Id,
  leave_type: LeaveType,
  year: Year,
  quota: Nullable(Days),
  carried: Type.Optional(Nullable(Days)),
});
export type SetLeaveBalance = Static<typeof SetLeaveBalance>;
export const SelfLeaveQuery = Type.Object({ year: Type.Optional(Year) });
export const SelfLeaveBalances = Type.Object({ year: Type.Integer(), items: Type.Array(LeaveBalance) });
export type SelfLeaveBalances = Static<typeof SelfLeaveBalances>;

/** Leave balances: the attendance right; the person's own on the self-service page. */
export const leaveApi = {
  list: endpoint({ method: 'GET', path: '/attendance/balance/list', query: LeaveBalanceQuery, response: LeaveBalancePage }),
  set: endpoint({ method: 'POST', path: '/attendance/balance/set', body: SetLeaveBalance, response: LeaveBalance }),
  import: endpoint({ method: 'POST', path: '/attendance/balance/import', multipart: true, response: ImportReport }),
  export: endpoint({ method: 'POST', path: '/attendance/balance/export', body: LeaveBalanceExport, response: binary(XLSX_TYPE) }),
  policies: endpoint({ method: 'GET', path: '/attendance/balance/policy', response: LeavePolicies }),
  savePolicy: endpoint({ method: 'POST', path: '/attendance/balance/policy', body: LeavePolicy, response: LeavePolicies }),
  self: endpoint({ method: 'GET', path: '/self/leave/balance', query: SelfLeaveQuery, response: SelfLeaveBalances }),
};
