/**
 * The rights object of spec §3/§6. Each value is 0 (none) or non-zero.
 * person and face distinguish view (1) from edit (2); the others are on/off.
 */
export const RIGHT_KEYS = ['person', 'attendance', 'face', 'breaker', 'log', 'workflow', 'manager'] as const;
export type RightKey = (typeof RIGHT_KEYS)[number];
export type RightValues = Record<RightKey, number>;
export interface Rights extends RightValues {
  /** 1 when the administrator belongs to the current company (spec §6: 0 hides every feature menu). */
  is_admin: number;
}

export const NO_RIGHTS: RightValues = { person: 0, attendance: 0, face: 0, breaker: 0, log: 0, workflow: 0, manager: 0 };
export const ALL_RIGHTS: RightValues = { person: 2, attendance: 1, face: 2, breaker: 1, log: 1, workflow: 1, manager: 1 };

/**
 * Sub-account function rights as the manager form offers them (spec §6), and what each grants.
 * "all" grants everything.
 */
export const FUNCTION_RIGHTS = {
  userView: { person: 1 },
  userEdit: { person: 2 },
  attendance: { attendance: 1 },
  faceView: { face: 1 },
  faceEdit: { face: 2 },
  breaker: { breaker: 1 },
  rightsSetting: { manager: 1 },
  logView: { log: 1 },
  workflow: { workflow: 1 },
  all: ALL_RIGHTS,
} as const satisfies Record<string, Partial<RightValues>>;
export type FunctionRight = keyof typeof FUNCTION_RIGHTS;
export const FUNCTION_RIGHT_KEYS = Object.keys(FUNCTION_RIGHTS) as FunctionRight[];

/** Folds the chosen function rights into a rights object (the highest grant wins). */
export function rightsFromFunctions(list: readonly FunctionRight[]): RightValues {
  const out: RightValues = { ...NO_RIGHTS };
  for (const f of list) {
    for (const [k, v] of Object.entries(FUNCTION_RIGHTS[f]) as [RightKey, number][]) out[k] = Math.max(out[k], v);
  }
  return out;
}

/** The inverse, for showing a rights object as checked boxes. */
export function functionsFromRights(r: RightValues): FunctionRight[] {
  if (RIGHT_KEYS.every((k) => r[k] >= ALL_RIGHTS[k])) return ['all'];
  const out: FunctionRight[] = [];
  if (r.person >= 1) out.push('userView');
  if (r.person >= 2) out.push('userEdit');
  if (r.attendance >= 1) out.push('attendance');
  if (r.face >= 1) out.push('faceView');
  if (r.face >= 2) out.push('faceEdit');
  if (r.breaker >= 1) out.push('breaker');
  if (r.manager >= 1) out.push('rightsSetting');
  if (r.log >= 1) out.push('logView');
  if (r.workflow >= 1) out.push('workflow');
  return out;
}

export const ADMIN_ROLES = ['main', 'sub'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];
/** Manager status (spec §4): normal, enabled, disabled. Only "disabled" blocks sign-in. */
export const MANAGER_STATUSES = ['normal', 'enabled', 'disabled'] as const;
export type ManagerStatus = (typeof MANAGER_STATUSES)[number];
