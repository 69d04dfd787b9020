import { LIMITS, SYNC_STATUS, TIME_PATTERN, WORK_STATUS, type AccessPeriod, type Gender, type Person, type PersonCreate } from '@faceadmin/shared';

/** Pure helpers of the person screens (no React, no antd), so they are unit-tested under node --test. */

export type PeriodProblem = 'required' | 'pattern' | 'order' | 'overlap';

const TIME = new RegExp(TIME_PATTERN);

/** spec §3 limited-time access: each daily period needs start < end (HH:mm); periods must not overlap. */
export function periodProblems(periods: readonly Partial<AccessPeriod>[]): (PeriodProblem | null)[] {
  const out = periods.map((p): PeriodProblem | null => {
    if (!p.start || !p.end) return 'required';
    if (!TIME.test(p.start) || !TIME.test(p.end)) return 'pattern';
    return p.start < p.end ? null : 'order';
  });
  const valid = out.map((o) => o === null);
  return out.map((o, i) => {
    if (o !== null) return o;
    const p = periods[i]!;
    const clash = periods.some((q, j) => j !== i && valid[j] && q.start! < p.end! && p.start! < q.end!);
    return clash ? 'overlap' : null;
  });
}

export const canAddPeriod = (count: number): boolean => count < LIMITS.accessPeriodsMax;

/** Values of the person drawer's form. Passwords are write-only: blank keeps the stored one. */
export interface PersonFormValues {
  number: string;
  name: string;
  phone: string;
  description?: string;
  organizations: number[];
  pic: string;
  pic_url?: string;
  rfid?: string;
  idcard?: string;
  /** plate numbers (sent to bound parking operators) */
  plates?: string[];
  address?: string;
  workStatus: number;
  /** hire date 'YYYY-MM-DD' */
  joined_on?: string | null;
  /** '' not said */
  gender?: Gender | '';
  notify: boolean;
  accessFrom?: string | null;
  accessTo?: string | null;
  periods?: Partial<AccessPeriod>[];
  door_password?: string;
  clear_door_password?: boolean;
  remote_open: boolean;
  is_admin: boolean;
  admin_password?: string;
  incharges?: number[];
  user_pri: number;
}

export function emptyPersonValues(number: string, departmentId?: number): Partial<PersonFormValues> {
  return {
    number,
    organizations: departmentId ? [departmentId] : [],
    workStatus: WORK_STATUS.working,
    gender: '',
    notify: false,
    periods: [],
    remote_open: false,
    is_admin: false,
    incharges: [],
    user_pri: 0,
  };
}

export function personToValues(p: Person): PersonFormValues {
  return {
    number: p.number,
    name: p.name,
    phone: p.phone,
    description: p.description,
    organizations: p.organizations.map((o) => o.id),
    pic: p.pic,
    pic_url: p.pic_url,
    rfid: p.rfid,
    idcard: p.idcard,
    plates: p.plates ?? [],
    address: p.address,
    workStatus: p.workStatus,
    joined_on: p.joined_on,
    gender: p.gender ?? '',
    notify: Boolean(p.notify),
    accessFrom: p.access.from,
    accessTo: p.access.to,
    periods: p.access.periods.map((x) => ({ ...x })),
    door_password: '',
    clear_door_password: false,
    remote_open: Boolean(p.remote_open),
    is_admin: Boolean(p.is_admin),
    admin_password: '',
    incharges: p.incharges.map((d) => d.id),
    user_pri: p.user_pri,
  };
}

/** The create/update body (docs/api-people.md): omitted passwords are kept, '' clears the door password. */
export function valuesToBody(v: PersonFormValues, existing?: Person): PersonCreate {
  const trim = (s: string | undefined | null) => (s ?? '').trim();
  const body: PersonCreate = {
    name: trim(v.name),
    phone: trim(v.phone),
    description: trim(v.description),
    organizations: v.organizations ?? [],
    pic: v.pic,
    rfid: trim(v.rfid),
    idcard: trim(v.idcard),
    ...(v.plates ? { plates: [...new Set(v.plates.map((x) => x.trim().toUpperCase()).filter(Boolean))] } : {}),
    address: trim(v.address),
    workStatus: v.workStatus,
    joined_on: v.joined_on || null,
    gender: v.gender || null,
    notify: v.notify ? 1 : 0,
    access: {
      from: v.accessFrom || null,
      to: v.accessTo || null,
      periods: (v.periods ?? []).filter((p): p is AccessPeriod => Boolean(p.start && p.end)).map((p) => ({ start: p.start, end: p.end })),
    },
    remote_open: v.remote_open ? 1 : 0,
    is_admin: v.is_admin ? 1 : 0,
    incharges: v.incharges ?? [],
    user_pri: v.user_pri,
  };
  const number = trim(v.number);
  if (number) body.number = number;
  if (v.clear_door_password) body.door_password = '';
  else if (trim(v.door_password)) body.door_password = trim(v.door_password);
  if (v.is_admin && trim(v.admin_password)) body.admin_password = trim(v.admin_password);
  if (existing) body.feature_rights = existing.feature_rights;
  return body;
}

/** The admin password is needed when switching the device-administrator flag on and none is stored. */
export const adminPasswordRequired = (isAdmin: boolean, existing?: Pick<Person, 'has_admin_password'>): boolean => isAdmin && !existing?.has_admin_password;

/** Server validation (40001, data.field) names API fields; these are the drawer's form fields. */
export function formFieldOf(serverField: string): string {
  const root = serverField.replace(/^\/+/, '').split(/[./[]/)[0] ?? serverField;
  // the access object (date order, period order) is shown on the date-range field
  if (root === 'access') return 'accessRange';
  return root;
}

/** Portrait crop (3:4) centred on the picture, scaled down so the longer side is at most `maxHeight`. */
export function portraitCrop(width: number, height: number, ratio = 3 / 4, maxHeight = 1280) {
  let sw = width;
  let sh = height;
  if (width / height > ratio) sw = Math.round(height * ratio);
  else sh = Math.round(width / ratio);
  const sx = Math.round((width - sw) / 2);
  // Faces sit in the upper part of tall pictures: keep the top third rather than the exact middle.
  const sy = Math.round((height - sh) / 3);
  const scale = Math.min(1, maxHeight / sh);
  return { sx, sy, sw, sh, dw: Math.round(sw * scale), dh: Math.round(sh * scale) };
}

/**
 * After people change (saved, imported, moved, put on a device, synced), the list follows their sync state
 * on its own: it refreshes every few seconds while a working person it shows is not synced yet, for a while
 * (an offline terminal may never take the change; people on no device stay "not synced").
 */
export const SYNC_FOLLOW = { everyMs: 3000, forMs: 2 * 60_000 } as const;

export function syncFollowInterval(rows: readonly Pick<Person, 'sync_status' | 'workStatus'>[], changedAt: number, now: number): number | false {
  if (!changedAt || now - changedAt > SYNC_FOLLOW.forMs) return false;
  // people who have left are not synced (spec §4), so they never become "synced"
  const waiting = rows.some((r) => r.workStatus !== WORK_STATUS.left && r.sync_status === SYNC_STATUS.notSynced);
  return waiting ? SYNC_FOLLOW.everyMs : false;
}
