import {
  DEVICE_OPTION_DEFAULTS,
  DEVICE_OPTION_RANGES,
  DEVICE_SPECIAL_RANGES,
  type Device,
  type DeviceOptions,
  type DeviceProtocol,
  type DeviceUpdate,
  type LedgerItem,
  type OrgPersonsNode,
  type RosterApplyBody,
  type RosterItem,
  type SyncSummary,
} from '@faceadmin/shared';
// Address checks are shared form rules (ui/rules.ts); devices use them too.
export { isValidIp } from '../../ui/rules.ts';

/** Pure helpers of the device screens (no React, no antd), unit-tested under node --test. */

/** spec §5/§9: ranges and defaults of the device options live once in packages/shared (the server validates with them). */
export const OPTION_RANGES = DEVICE_OPTION_RANGES;
export const SPECIAL_RANGES = DEVICE_SPECIAL_RANGES;
export const OPTION_DEFAULTS: Required<DeviceOptions> = DEVICE_OPTION_DEFAULTS;

/** Serial numbers are letters and digits (ZKTeco SN). */
export const SERIAL_PATTERN = /^[A-Za-z0-9]+$/;

/** The add/edit dialog's values; flags are booleans in the form, 0/1 on the wire. */
export interface DeviceFormValues {
  name: string;
  serial: string;
  /** how the server and the terminal talk: ZK PUSH (the terminal calls) or ISAPI (the server dials ip:port) */
  protocol: DeviceProtocol;
  ip: string;
  port?: number | null;
  password?: string;
  account?: string;
  capacity?: number | null;
  direction: Device['direction'];
  attendance: boolean;
  attendance_scope: Device['attendance_scope'];
  restrict_inout: boolean;
  upload_face_image: boolean;
  upload_strangers: boolean;
  function_type: Device['function_type'];
  tz_offset: number;
}

export function emptyDeviceValues(tzOffset: number): DeviceFormValues {
  return {
    name: '',
    serial: '',
    protocol: 'zk-push',
    ip: '',
    port: 80,
    password: '',
    account: '',
    capacity: 3000,
    direction: 'in',
    attendance: true,
    attendance_scope: 'selected',
    restrict_inout: false,
    upload_face_image: true,
    upload_strangers: false,
    function_type: 'attendance',
    tz_offset: tzOffset,
  };
}

export function deviceToValues(d: Device): DeviceFormValues {
  return {
    name: d.name,
    serial: d.serial,
    protocol: d.protocol === 'isapi' ? 'isapi' : 'zk-push',
    ip: d.ip,
    port: d.port,
    password: '',
    account: d.account,
    capacity: d.capacity,
    direction: d.direction,
    attendance: Boolean(d.attendance),
    attendance_scope: d.attendance_scope,
    restrict_inout: Boolean(d.restrict_inout),
    upload_face_image: Boolean(d.upload_face_image),
    upload_strangers: Boolean(d.upload_strangers),
    function_type: d.function_type,
    tz_offset: d.tz_offset,
  };
}

/** create/update body; on edit a blank password is left out so the stored one is kept (spec §5). */
export function valuesToDeviceBody(v: DeviceFormValues, editing: boolean): Omit<DeviceUpdate, 'id'> {
  const body: Omit<DeviceUpdate, 'id'> = {
    name: v.name.trim(),
    serial: v.serial.trim(),
    protocol: v.protocol,
    ip: v.ip.trim(),
    account: (v.account ?? '').trim(),
    direction: v.direction,
    attendance: v.attendance ? 1 : 0,
    attendance_scope: v.attendance_scope,
    restrict_inout: v.restrict_inout ? 1 : 0,
    upload_face_image: v.upload_face_image ? 1 : 0,
    upload_strangers: v.upload_strangers ? 1 : 0,
    function_type: v.function_type,
    tz_offset: v.tz_offset,
  };
  if (v.capacity) body.capacity = v.capacity;
  if (v.protocol === 'isapi' && v.port) body.port = v.port;
  const password = v.password ?? '';
  if (password || !editing) body.password = password;
  return body;
}

/** "synced/total" plus whether failures must be shown in red. */
export function syncText(s: SyncSummary): { text: string; failed: number; pending: number } {
  return { text: `${s.synced}/${s.total}`, failed: s.failed, pending: s.pending };
}

/** The ledger page refreshes itself while a change is still on its way to the device. */
export function needsRefresh(items: readonly Pick<LedgerItem, 'state' | 'removing'>[], summary?: SyncSummary): boolean {
  if (summary && summary.pending > 0) return true;
  return items.some((i) => i.state === 'pending' || i.removing);
}

/** Only changed keys are sent (the server queues one SET OPTION per changed key anyway). */
export function changedKeys<T extends object>(before: T, after: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    const a = after[key];
    if (a === undefined || a === null || (a as unknown) === '') {
      if ((a as unknown) === '' && before[key] !== undefined && before[key] !== '') out[key] = a;
      continue;
    }
    if (a !== before[key]) out[key] = a;
  }
  return out;
}

/** Minutes east of UTC as "UTC+08:00". */
export function formatTzOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Whole-hour and the usual half/quarter-hour zones between UTC-12 and UTC+14. */
export const TZ_OFFSETS: number[] = [...Array.from({ length: 27 }, (_, i) => (i - 12) * 60), -570, -210, 210, 270, 330, 345, 390, 525, 570, 630, 765].sort(
  (a, b) => a - b,
);

/** Tree of the people picker: a department key is `d<id>`, a person key `p<id>` (a person may sit in several departments). */
export interface PickerNode {
  key: string;
  title: string;
  children?: PickerNode[];
  isLeaf?: boolean;
}

export function pickerTree(nodes: readonly OrgPersonsNode[]): PickerNode[] {
  return nodes.map((n) => ({
    key: `d${n.id}`,
    title: n.name,
    children: [
      ...pickerTree(n.children ?? []),
      ...n.persons.map((p) => ({ key: `p${p.id}:d${n.id}`, title: p.number ? `${p.name} (${p.number})` : p.name, isLeaf: true })),
    ],
  }));
}

/**
 * Checked keys → the add body. A checked department covers its sub-departments and people (the server
 * expands departments itself), so only the topmost checked departments and the people outside them are sent.
 */
export function pickedToBody(checked: readonly string[]): { person_ids: number[]; department_ids: number[] } {
  const depts = new Set<number>();
  const people = new Set<number>();
  for (const k of checked) {
    const p = /^p(\d+):d\d+$/.exec(k);
    if (p) people.add(Number(p[1]));
    else if (/^d\d+$/.test(k)) depts.add(Number(k.slice(1)));
  }
  return { department_ids: [...depts].sort((a, b) => a - b), person_ids: [...people].sort((a, b) => a - b) };
}

/** Keeps only the topmost checked departments: a department whose ancestor is checked adds nothing. */
export function topDepartments(nodes: readonly OrgPersonsNode[], checked: ReadonlySet<number>): number[] {
  const out: number[] = [];
  const walk = (list: readonly OrgPersonsNode[]) => {
    for (const n of list) {
      if (checked.has(n.id)) out.push(n.id);
      else walk(n.children ?? []);
    }
  };
  walk(nodes);
  return out;
}

/** People checked individually whose departments were not (fully) checked. */
export function peopleOutside(nodes: readonly OrgPersonsNode[], checkedDepts: ReadonlySet<number>, people: ReadonlySet<number>): number[] {
  const covered = new Set<number>();
  const walk = (list: readonly OrgPersonsNode[], inside: boolean) => {
    for (const n of list) {
      const here = inside || checkedDepts.has(n.id);
      if (here) for (const p of n.persons) covered.add(p.id);
      walk(n.children ?? [], here);
    }
  };
  walk(nodes, false);
  return [...people].filter((id) => !covered.has(id)).sort((a, b) => a - b);
}

/**
 * A roster user's validity as the terminal holds it (device-local `YYYY-MM-DD HH:mm:ss`, '' = no bound; issue #30):
 * always, from a time, until one, or between two; shown to the minute.
 */
export function rosterValidity(from: string, to: string): { kind: 'always' | 'from' | 'until' | 'range'; from: string; to: string } {
  const f = from.slice(0, 16);
  const u = to.slice(0, 16);
  return { kind: f && u ? 'range' : f ? 'from' : u ? 'until' : 'always', from: f, to: u };
}

/**
 * A row of either take-over review: one terminal's user (RosterItem) or one number across the site (RosterSiteItem),
 * whose `split` (the terminals disagree on its name) and `twins` (other numbers under its name) the first lacks.
 */
type RosterRow = Pick<RosterItem, 'pin' | 'match' | 'person_id' | 'kind'> & { split?: boolean; twins?: readonly string[] };
type RosterAction = RosterApplyBody['rows'][number]['action'];

/**
 * What an administrator may do with one roster row (issue #30), the first being what applying does unless told
 * otherwise: a new user or one sharing a name with someone here may become a person (the same-name person is
 * someone else: their number differs) or stay; the same person is linked or stays; a number taken by another
 * name, a visitor or a blacklisted user only stays (settled by hand). Across the site, a number the terminals hold
 * under different names, or whose name another number holds too, stays unless chosen otherwise, as a same name does:
 * which name (or which number) is the person is the administrator's call.
 */
export function rosterChoices(row: RosterRow): RosterAction[] {
  if (row.kind !== 'normal' || row.match === 'conflict') return ['skip'];
  const doubtful = Boolean(row.split) || (row.twins?.length ?? 0) > 0;
  if (row.match === 'matched') return !row.person_id ? ['skip'] : doubtful ? ['skip', 'link'] : ['link', 'skip'];
  return row.match === 'new' && !doubtful ? ['create', 'skip'] : ['skip', 'create'];
}

/**
 * The terminal whose face a site row shows (issue #30): the one a new person takes it from (`face_from`, the largest),
 * else the first terminal holding a face; none when no terminal holds one.
 */
export function siteFace<T extends { id: number; face_url: string }>(row: { face_from: number | null; terminals: readonly T[] }): T | undefined {
  return row.terminals.find((x) => x.id === row.face_from && x.face_url) ?? row.terminals.find((x) => x.face_url);
}

/** "Gate: Ann Lee · Door: Ann Li": the name each terminal holds a number under (a split row's tag). */
export function siteNames(terminals: readonly { name: string; user_name: string }[]): string {
  return terminals.map((x) => `${x.name}: ${x.user_name || '—'}`).join(' · ');
}

/**
 * What applying does with the chosen roster rows: each row's own choice where the administrator made one it allows,
 * otherwise its first choice (rosterChoices). Counts for the confirmation.
 */
export function rosterApplyRows(
  rows: readonly RosterRow[],
  choices: Readonly<Record<string, RosterAction>> = {},
): {
  rows: RosterApplyBody['rows'];
  create: number;
  link: number;
  skip: number;
} {
  const out: RosterApplyBody['rows'] = rows.map((r) => {
    const allowed = rosterChoices(r);
    const action = allowed.includes(choices[r.pin]!) ? choices[r.pin]! : allowed[0]!;
    return action === 'link' ? { pin: r.pin, action, person_id: r.person_id! } : { pin: r.pin, action };
  });
  const count = (a: string) => out.filter((r) => r.action === a).length;
  return { rows: out, create: count('create'), link: count('link'), skip: count('skip') };
}
