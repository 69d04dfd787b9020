import type { RightKey, Rights, RunMode } from '@faceadmin/shared';

/** Pages the router knows how to render; router.tsx maps each to a lazily loaded component. */
export type PageKey =
  | 'dashboard'
  | 'log'
  | 'manager'
  | 'companyForm'
  | 'companyList'
  | 'message'
  | 'organization'
  | 'personList'
  | 'deviceList'
  | 'devicePersons'
  | 'deviceRoster'
  | 'deviceTakeover'
  | 'legacyImport'
  | 'punchList'
  | 'attendanceHealth'
  | 'attendanceAlcohol'
  | 'freeSchedule'
  | 'attendanceRule'
  | 'attendanceHoliday'
  | 'attendanceResult'
  | 'attendanceReport'
  | 'attendanceBalance'
  | 'breakerList'
  | 'breakerDetail'
  | 'breakerLine'
  | 'workflowIndex'
  | 'workflowForm'
  | 'workflowFlow'
  | 'workflowApproval'
  | 'consoles'
  | 'ioconsoles'
  | 'ioconsoles2'
  | 'dormitory'
  | 'dormitory2'
  | 'maininfo'
  | 'fullscreen'
  | 'spotconsoles'
  | 'map'
  | 'stranger'
  | 'visitors'
  | 'visitorLog'
  | 'integrations'
  | 'clientErrors';

export type IconKey =
  | 'dashboard'
  | 'system'
  | 'log'
  | 'manager'
  | 'company'
  | 'message'
  | 'user'
  | 'organization'
  | 'personList'
  | 'device'
  | 'deviceList'
  | 'attendance'
  | 'punchList'
  | 'attendanceHealth'
  | 'attendanceAlcohol'
  | 'schedule'
  | 'attendanceRule'
  | 'attendanceHoliday'
  | 'attendanceResult'
  | 'breaker'
  | 'breakerList'
  | 'workflow'
  | 'map'
  | 'watch'
  | 'integrations';

export interface RouteNode {
  /** Absolute path; `:name` segments match one path segment. */
  path: string;
  /** i18n key of the menu, breadcrumb, tab and page title. */
  titleKey: string;
  icon?: IconKey;
  /** Reachable but not shown in the sidebar (spec §2 "hidden"). */
  hidden?: boolean;
  /** Pinned tag that cannot be closed (spec §2: the dashboard). */
  affix?: boolean;
  /** Where a section's own path goes (e.g. /system → /system/log). */
  redirect?: string;
  /** A section whose own path goes to the page of it this browser opened last (lib/lastPage.ts), else to `redirect`. */
  rememberLast?: boolean;
  /**
   * spec §6: the rights-object key this route needs (non-zero), only when is_admin is non-zero; `{ anyOf }`: any one
   * of them suffices (the server's rule for breaker reads: the breaker right or face-device view).
   */
  right?: RightKey | { anyOf: readonly RightKey[] };
  /** Hidden in LAN mode (spec §2: e.g. the visitor log, workflow, the message bell). */
  notInLan?: boolean;
  /** Only for main administrators of the current company (the server's access 'main'). */
  mainOnly?: boolean;
  /** A company option that must be on (spec §3/§6: option switches enable features), e.g. thirdParty → integrations. */
  option?: keyof RouteOptions;

  page?: PageKey;
  children?: RouteNode[];
}

/** Breaker reads on the server (breakers.routes.ts, sites.routes.ts): the breaker right or face-device view. */
export const BREAKER_READ = { anyOf: ['breaker', 'face'] } as const satisfies RouteNode['right'];
/** What the doors saw (dashboard.routes.ts recognitions, dormitory.routes.ts): the attendance right or face-device view. */
export const PUNCH_READ = { anyOf: ['attendance', 'face'] } as const satisfies RouteNode['right'];

/**
 * The console's route table (spec §2 "Routes added according to the rights object").
 *
 * Extension point for later issues: a feature section is one more entry here whose children carry
 * `right` (person → /user, attendance → /attendance, face → /device, breaker → /circuitBreaker,
 * workflow → /workflow with notInLan), plus its page keys in router.tsx. Nothing else changes:
 * filterRoutes() builds the menu and the allowed-path list from `user.rights` and the run mode.
 */
export const ROUTE_TABLE: RouteNode[] = [
  { path: '/dashboard', titleKey: 'route.dashboard', icon: 'dashboard', affix: true, page: 'dashboard' },
  // The watchers' screens (issue #16; spec §2 has them as hidden children of /): one menu section, so a guard finds them
  // without typing an address (issue #31). The section's own path opens the screen this browser used last
  // (rememberLast). A screen is in the menu for the rights its reads need; each shows what they allow (the server
  // filters every figure and event).
  {
    path: '/watch',
    titleKey: 'route.watch',
    icon: 'watch',
    redirect: '/consoles',
    rememberLast: true,
    children: [
      { path: '/consoles', titleKey: 'route.consoles', right: BREAKER_READ, page: 'consoles' },
      { path: '/ioconsoles', titleKey: 'route.ioconsoles', right: PUNCH_READ, page: 'ioconsoles' },
      { path: '/ioconsoles2', titleKey: 'route.ioconsoles2', right: PUNCH_READ, page: 'ioconsoles2' },
      { path: '/dormitory', titleKey: 'route.dormitory', right: PUNCH_READ, page: 'dormitory' },
      { path: '/dormitory2', titleKey: 'route.dormitory2', right: PUNCH_READ, page: 'dormitory2' },
      { path: '/maininfo', titleKey: 'route.maininfo', page: 'maininfo' },
      { path: '/fullscreen', titleKey: 'route.fullscreen', page: 'fullscreen' },
      { path: '/spotconsoles', titleKey: 'route.spotconsoles', page: 'spotconsoles' },
    ],
  },
  // spec §2 "Other routes": the device map (in the menu) and strangers (hidden, reached from the dashboard and consoles).
  // The map shows face devices and breakers; the server reads it with face-device view or the breaker right (sites.routes.ts).
  { path: '/map', titleKey: 'route.map', icon: 'map', right: BREAKER_READ, page: 'map' },
  { path: '/stranger', titleKey: 'route.stranger', hidden: true, page: 'stranger' },
  // spec §2: people and departments, added when rights.person is non-zero (writing needs person ≥ 2, checked per button).
  {
    path: '/user',
    titleKey: 'route.user',
    icon: 'user',
    redirect: '/user/organization',
    children: [
      { path: '/user/organization', titleKey: 'route.organization', icon: 'organization', right: 'person', page: 'organization' },
      { path: '/user/list', titleKey: 'route.personList', icon: 'personList', right: 'person', page: 'personList' },
      // issue #30: taking over a working site from the old software's files (people's edit right on the server)
      { path: '/user/legacy', titleKey: 'route.legacyImport', right: 'person', hidden: true, page: 'legacyImport' },
    ],
  },
  // spec §2: face devices, added when rights.face is non-zero (writing needs face ≥ 2, checked per button).
  {
    path: '/device',
    titleKey: 'route.device',
    icon: 'device',
    redirect: '/device/list',
    children: [
      { path: '/device/list', titleKey: 'route.deviceList', icon: 'deviceList', right: 'face', page: 'deviceList' },
      { path: '/device/personManage/:id', titleKey: 'route.devicePersons', right: 'face', hidden: true, page: 'devicePersons' },
      // issue #30: taking over a working site, what a terminal already holds (reading needs face ≥ 1, asking the terminal ≥ 2)
      { path: '/device/roster/:id', titleKey: 'route.deviceRoster', right: 'face', hidden: true, page: 'deviceRoster' },
      // issue #30: the whole site at once, one row a number across every terminal (several terminals, one person)
      { path: '/device/takeover', titleKey: 'route.deviceTakeover', right: 'face', hidden: true, page: 'deviceTakeover' },
    ],
  },
  // spec §2: attendance, added when rights.attendance is non-zero: punch records, rules, holidays, day results, the shift grid, health-code and alcohol records (issue #10).
  // "Unless LAN mode, also: freeSchedule, holiday, alcohol": those three are not there in LAN mode (docs/lan-mode.md).
  {
    path: '/attendance',
    titleKey: 'route.attendance',
    icon: 'attendance',
    redirect: '/attendance/list',
    children: [
      { path: '/attendance/list', titleKey: 'route.attendanceList', icon: 'punchList', right: 'attendance', page: 'punchList' },
      { path: '/attendance/result', titleKey: 'route.attendanceResult', icon: 'attendanceResult', right: 'attendance', page: 'attendanceResult' },
      { path: '/attendance/report', titleKey: 'route.attendanceReport', icon: 'attendanceResult', right: 'attendance', page: 'attendanceReport' },
      { path: '/attendance/rule', titleKey: 'route.attendanceRule', icon: 'attendanceRule', right: 'attendance', page: 'attendanceRule' },
      {
        path: '/attendance/holiday',
        titleKey: 'route.attendanceHoliday',
        icon: 'attendanceHoliday',
        right: 'attendance',
        notInLan: true,
        page: 'attendanceHoliday',
      },
      // leave balances per person and leave type (#17 item 15)
      { path: '/attendance/balance', titleKey: 'route.attendanceBalance', icon: 'attendanceHoliday', right: 'attendance', page: 'attendanceBalance' },
      // the free scheduling grid of shift-mode rules (spec §2 freeSchedule); the rule list may link here with ?rule_id=
      { path: '/attendance/freeSchedule', titleKey: 'schedule.title', icon: 'schedule', right: 'attendance', notInLan: true, page: 'freeSchedule' },
      { path: '/attendance/health', titleKey: 'route.attendanceHealth', icon: 'attendanceHealth', right: 'attendance', page: 'attendanceHealth' },
      {
        path: '/attendance/alcohol',
        titleKey: 'route.attendanceAlcohol',
        icon: 'attendanceAlcohol',
        right: 'attendance',
        notInLan: true,
        page: 'attendanceAlcohol',
      },
    ],
  },
  // spec §2/§6: smart circuit breakers. spec §6 says "the circuit-breaker menu is not tied to a right in the route
  // list"; it is tied here to the server's own rule (the breaker right or face-device view reads, face-device edit
  // writes), so a sub-administrator never follows a menu entry to "No authority" (issue #18). Detail pages are hidden.
  {
    path: '/circuitBreaker',
    titleKey: 'route.circuitBreaker',
    icon: 'breaker',
    redirect: '/circuitBreaker/index',
    children: [
      { path: '/circuitBreaker/index', titleKey: 'route.circuitBreakerList', icon: 'breakerList', right: BREAKER_READ, page: 'breakerList' },
      { path: '/circuitBreaker/:id', titleKey: 'route.circuitBreakerDetail', right: BREAKER_READ, hidden: true, page: 'breakerDetail' },
      // spec §2 names the line page /circuitBreakerLine/{id}; listed here so its breadcrumb reads "Circuit breakers / Line detail"
      { path: '/circuitBreakerLine/:id', titleKey: 'route.circuitBreakerLine', right: BREAKER_READ, hidden: true, page: 'breakerLine' },
    ],
  },
  // spec §2: approvals, added when rights.workflow = 1 and not in LAN mode; the {id} pages are reached from the index (issue #11).
  {
    path: '/workflow',
    titleKey: 'route.workflow',
    icon: 'workflow',
    redirect: '/workflow/index',
    notInLan: true,
    children: [
      { path: '/workflow/index', titleKey: 'route.workflowIndex', icon: 'workflow', right: 'workflow', notInLan: true, page: 'workflowIndex' },
      { path: '/workflow/flow/:id', titleKey: 'route.workflowFlow', right: 'workflow', notInLan: true, hidden: true, page: 'workflowFlow' },
      { path: '/workflow/form/:id', titleKey: 'route.workflowForm', right: 'workflow', notInLan: true, hidden: true, page: 'workflowForm' },
      { path: '/workflow/approval/:id', titleKey: 'route.workflowApproval', right: 'workflow', notInLan: true, hidden: true, page: 'workflowApproval' },
    ],
  },
  {
    path: '/system',
    titleKey: 'route.system',
    icon: 'system',
    redirect: '/system/log',
    children: [
      { path: '/system/log', titleKey: 'route.log', icon: 'log', right: 'log', page: 'log' },
      // spec §2 names the operation log /system/list; the console's page is /system/log, so the spec's path leads there.
      { path: '/system/list', titleKey: 'route.log', right: 'log', hidden: true, redirect: '/system/log' },
      { path: '/system/manager', titleKey: 'route.manager', icon: 'manager', right: 'manager', page: 'manager' },
      // spec §2: the visit log unless LAN mode (#19); the invitations beside it (inviting needs person edit, checked per button)
      { path: '/system/visitors', titleKey: 'route.visitors', icon: 'personList', right: 'person', notInLan: true, page: 'visitors' },
      { path: '/system/visitorlog', titleKey: 'route.visitorLog', icon: 'log', right: 'log', notInLan: true, page: 'visitorLog' },
      // API keys and webhooks (issue #19): main administrators, with the company option thirdParty on
      { path: '/system/integrations', titleKey: 'route.integrations', icon: 'integrations', mainOnly: true, option: 'thirdParty', page: 'integrations' },
      // spec §8: errors the consoles reported (issue #21); main administrators, LAN mode too
      { path: '/system/clientErrors', titleKey: 'route.clientErrors', icon: 'log', mainOnly: true, page: 'clientErrors' },
    ],
  },
  // spec §2: company routes are always added and hidden from the menu (reached from the avatar dropdown).
  {
    path: '/company',
    titleKey: 'route.company',
    icon: 'company',
    hidden: true,
    redirect: '/company/update',
    children: [
      { path: '/company/update', titleKey: 'route.companyUpdate', page: 'companyForm' },
      { path: '/company/create', titleKey: 'route.companyCreate', page: 'companyForm' },
      { path: '/company/list', titleKey: 'route.companyList', page: 'companyList' },
    ],
  },
  {
    path: '/message',
    titleKey: 'route.messages',
    icon: 'message',
    hidden: true,
    redirect: '/message/message',
    children: [{ path: '/message/message', titleKey: 'route.message', page: 'message' }],
  },
];

/** Sidebar sections opened by default (spec §2). */
export const DEFAULT_OPEN_SECTIONS = ['/user', '/attendance', '/system'];

/** spec §2: views without the tag bar / without the sidebar. */
export const NO_TAGS_PATHS = [
  '/dashboard',
  '/consoles',
  '/ioconsoles',
  '/ioconsoles2',
  '/spotconsoles',
  '/fullscreen',
  '/dormitory',
  '/dormitory2',
  '/maininfo',
];
export const NO_SIDEBAR_PATHS = ['/ioconsoles', '/ioconsoles2', '/fullscreen', '/dormitory', '/dormitory2', '/maininfo'];

/** What the session says of the current company beyond rights: the role and the options that enable features. */
export interface RouteOptions {
  thirdParty?: boolean;
}
export interface RouteContext {
  main?: boolean;
  options?: RouteOptions;
}

function allows(node: RouteNode, rights: Rights, runMode: RunMode, ctx: RouteContext): boolean {
  if (node.notInLan && runMode === 'lan') return false;
  if (node.mainOnly && !ctx.main) return false;
  if (node.option && !ctx.options?.[node.option]) return false;
  if (node.right) {
    if (!rights.is_admin) return false;
    const keys = typeof node.right === 'string' ? [node.right] : node.right.anyOf;
    return keys.some((k) => holds(rights, k));
  }
  return true;
}

/** spec §6: workflow needs exactly 1; the others any non-zero value. */
const holds = (rights: Rights, key: RightKey): boolean => (key === 'workflow' ? rights.workflow === 1 : rights[key] !== 0);

/** The routes this user may reach, with section redirects pointing at a reachable child. */
export function filterRoutes(table: RouteNode[], rights: Rights, runMode: RunMode, ctx: RouteContext = {}): RouteNode[] {
  const out: RouteNode[] = [];
  for (const node of table) {
    if (!allows(node, rights, runMode, ctx)) continue;
    if (!node.children) {
      out.push(node);
      continue;
    }
    const children = filterRoutes(node.children, rights, runMode, ctx);
    if (children.length === 0) continue;
    const redirect = children.some((c) => c.path === node.redirect) ? node.redirect : children[0]?.path;
    out.push({ ...node, children, ...(redirect ? { redirect } : {}) });
  }
  return out;
}

export function flattenRoutes(routes: RouteNode[]): RouteNode[] {
  return routes.flatMap((r) => [r, ...flattenRoutes(r.children ?? [])]);
}

/** Segment-wise match with `:param` support; trailing slashes are ignored. */
export function matchesPath(pattern: string, path: string): boolean {
  const a = pattern.split('/').filter(Boolean);
  const b = path.split('/').filter(Boolean);
  return a.length === b.length && a.every((seg, i) => seg.startsWith(':') || seg === b[i]);
}

export function findRoute(routes: RouteNode[], path: string): RouteNode | undefined {
  return flattenRoutes(routes).find((r) => matchesPath(r.path, path));
}

/** Section → page chain for the breadcrumb. */
export function routeTrail(routes: RouteNode[], path: string): RouteNode[] {
  for (const r of routes) {
    if (matchesPath(r.path, path)) return [r];
    const sub = routeTrail(r.children ?? [], path);
    if (sub.length) return [r, ...sub];
  }
  return [];
}
