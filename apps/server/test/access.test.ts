import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { t as tr } from '../src/i18n/i18n.ts';
import {
  API,
  apiRoutes,
  call,
  CAPTCHA,
  captcha,
  DIALECT,
  login,
  makeApp,
  makeCompany,
  makeSub,
  nextIp,
  nextMobile,
  register,
  type Answer,
  type Company,
  type TestApp,
} from './helpers.ts';

/**
 * The rights table (spec §2, §6): every /api/management route, called by every kind of caller, with the
 * outcome each must get. A route added without a row here fails the coverage test below.
 */

const CALLERS = ['anon', 'c0', 'none', 'log', 'all', 'main', 'init'] as const;
type CallerKey = (typeof CALLERS)[number];
/** ok: passes the access check; token: 50008; the rest: 40003 with that message. */
type Outcome = 'ok' | 'token' | 'noCompany' | 'noAuthority' | 'mainOnly' | 'initOnly';
type Expect = Record<CallerKey, Outcome>;

interface Caller {
  key: CallerKey;
  username: string;
  password: string;
  token: string | undefined;
  id: number;
  ip: string;
}

interface Row {
  method: 'GET' | 'POST';
  path: string;
  expect: Expect;
  body?: (c: Caller) => unknown;
  query?: Record<string, string | number>;
  /** The answer an allowed caller gets when it is not 20000 (e.g. a not-found for an admin without a company). */
  answer?: Partial<Record<CallerKey, number>>;
  /** Restores what an allowed call changed, so the next rows see the same callers. */
  after?: (c: Caller, r: Answer) => Promise<void>;
}

const PUBLIC: Expect = { anon: 'ok', c0: 'ok', none: 'ok', log: 'ok', all: 'ok', main: 'ok', init: 'ok' };
const SESSION: Expect = { ...PUBLIC, anon: 'token' };
const COMPANY: Expect = { ...SESSION, c0: 'noCompany' };
const RIGHT_MANAGER: Expect = { ...COMPANY, none: 'noAuthority', log: 'noAuthority' };
const RIGHT_PERSON: Expect = { ...COMPANY, none: 'noAuthority', log: 'noAuthority' };
const RIGHT_DEVICE: Expect = RIGHT_PERSON;
const RIGHT_ATTENDANCE: Expect = RIGHT_PERSON;
const RIGHT_LOG: Expect = { ...COMPANY, none: 'noAuthority' };
const RIGHT_WORKFLOW: Expect = { ...COMPANY, none: 'noAuthority', log: 'noAuthority' };
/** The self-service page's routes take a person session (X-Person-Token): no administrator token passes. */
const PERSON: Expect = { anon: 'token', c0: 'token', none: 'token', log: 'token', all: 'token', main: 'token', init: 'token' };
const MAIN: Expect = { ...COMPANY, none: 'mainOnly', log: 'mainOnly', all: 'mainOnly' };
const INIT: Expect = { ...COMPANY, none: 'initOnly', log: 'initOnly', all: 'initOnly', main: 'initOnly' };

let t: TestApp;
let X: Company;
const callers = {} as Record<CallerKey, Caller>;
let victimId = 0;
let n = 0;
const uniq = (p: string) => `${p}${++n}`;

async function relogin(c: Caller) {
  if (c.key !== 'anon') c.token = await login(t.app, c.username, c.password);
}

/** Creates a sub-account in X through the initial admin (not through the caller under test). */
async function newSub(name: string): Promise<{ id: number; username: string }> {
  const username = uniq('acc_x');
  const r = await call(t.app, 'POST', '/manager/create', { token: callers.init.token, body: { name, username, password: 'secret1', repassword: 'secret1' } });
  assert.equal(r.code, CODES.OK, r.message);
  return { id: r.data.id, username };
}

/** The same answer for every caller the access check lets through. */
const every = (code: number) => Object.fromEntries(CALLERS.map((k) => [k, code])) as Record<CallerKey, number>;

/** A department in X, made by the initial admin. */
async function newDept(): Promise<number> {
  const r = await call(t.app, 'POST', '/org/create', { token: callers.init.token, body: { name: uniq('Access Dept ') } });
  assert.equal(r.code, CODES.OK, r.message);
  return r.data.id;
}

const ROWS: Row[] = [
  // public
  { method: 'GET', path: '/system/config', expect: PUBLIC },
  { method: 'GET', path: '/user/captcha', expect: PUBLIC },
  { method: 'POST', path: '/user/login', expect: PUBLIC, body: () => ({ username: 'acc_loginee', password: 'secret1' }) },
  {
    method: 'POST',
    path: '/user/sendsmscode',
    expect: PUBLIC,
    body: async () => ({ phone: nextMobile(), purpose: 'register', icode: CAPTCHA, captcha_id: await captcha(t.app) }),
  },
  // A wrong SMS code: the route is reachable by anyone, the code is checked after.
  {
    method: 'POST',
    path: '/user/forget',
    expect: PUBLIC,
    answer: Object.fromEntries(CALLERS.map((k) => [k, CODES.RULE])),
    body: () => ({ mobile: nextMobile(), smscode: '000000', password: 'secret9', repassword: 'secret9' }),
  },
  {
    method: 'POST',
    path: '/admin/register',
    expect: PUBLIC,
    body: async () => {
      const mobile = nextMobile();
      const s = await call(t.app, 'POST', '/user/sendsmscode', {
        ip: nextIp(),
        body: { phone: mobile, purpose: 'register', icode: CAPTCHA, captcha_id: await captcha(t.app) },
      });
      assert.equal(s.code, CODES.OK);
      const smscode = t.sms.filter((x) => x.phone === mobile).at(-1)!.code;
      const password = 'secret1';
      return {
        name: 'Access Reg',
        username: uniq('acc_reg'),
        password,
        repassword: password,
        mobile,
        smscode,
        icode: CAPTCHA,
        captcha_id: await captcha(t.app),
      };
    },
  },
  // session (company may be 0)
  { method: 'GET', path: '/user/info', expect: SESSION },
  { method: 'POST', path: '/user/logout', expect: SESSION, after: relogin },
  {
    method: 'POST',
    path: '/user/changepwd',
    expect: SESSION,
    body: (c) => ({ orig: c.password, new: c.password === 'secret1' ? 'secret2' : 'secret1', renew: c.password === 'secret1' ? 'secret2' : 'secret1' }),
    after: async (c, r) => {
      c.password = c.password === 'secret1' ? 'secret2' : 'secret1';
      c.token = r.data.token;
    },
  },
  { method: 'GET', path: '/company/list', expect: SESSION },
  {
    method: 'POST',
    path: '/company/create',
    expect: SESSION,
    body: () => ({ name: uniq('Access Extra '), phone: '123' }),
    after: async (c) => {
      if (c.key === 'c0') {
        // Back to "no company": the API offers no way to leave a company, so reset the rows directly.
        await t.app.database.db.deleteFrom('memberships').where('admin_id', '=', c.id).execute();
        await t.app.database.db.updateTable('admins').set({ current_company_id: 0 }).where('id', '=', c.id).execute();
      } else {
        const r = await call(t.app, 'POST', '/admin/setDefaultCompany', { token: c.token, body: { company_id: X.id } });
        assert.equal(r.code, CODES.OK);
      }
    },
  },
  { method: 'POST', path: '/admin/setDefaultCompany', expect: SESSION, answer: { c0: CODES.NOT_FOUND }, body: () => ({ company_id: X.id }) },
  // company
  { method: 'GET', path: '/company/info', expect: COMPANY },
  { method: 'POST', path: '/company/update', expect: MAIN, body: () => ({ name: 'Access Co', phone: '010-1' }) },
  // parking binding (#19): check and register are the public /dzg page's; a code that verifies nowhere is a 422
  { method: 'POST', path: '/dzg/check', expect: PUBLIC, body: () => ({ code: 'eyJ2IjoxfQ.c2lnbmF0dXJl' }), answer: every(CODES.RULE) },
  {
    method: 'POST',
    path: '/dzg/register',
    expect: PUBLIC,
    answer: every(CODES.RULE),
    body: () => ({
      name: 'Access Park',
      username: uniq('acc_park'),
      password: 'secret1',
      repassword: 'secret1',
      mobile: nextMobile(),
      smscode: '000000',
      icode: CAPTCHA,
      captcha_id: 'x'.repeat(32),
      code: 'eyJ2IjoxfQ.c2lnbmF0dXJl',
    }),
  },
  {
    method: 'POST',
    path: '/dzg/bind',
    expect: MAIN,
    answer: { main: CODES.RULE, init: CODES.RULE },
    body: () => ({ code: 'eyJ2IjoxfQ.c2lnbmF0dXJl', dzg_id: 'LOT-1' }),
  },
  { method: 'GET', path: '/dzg/bindings', expect: MAIN },
  // refused while the company's internal-testing option is off (it is, for the table's company)
  { method: 'GET', path: '/company/diagnostics', expect: MAIN, answer: { main: CODES.RULE, init: CODES.RULE } },
  // client errors (#21): any console reports (session optional); main administrators read and delete them
  { method: 'POST', path: '/system/clientError', expect: PUBLIC, body: () => ({ kind: 'error', message: uniq('Access error '), url: 'https://x/' }) },
  { method: 'GET', path: '/system/clientError/list', expect: MAIN },
  { method: 'POST', path: '/system/clientError/delete', expect: MAIN, body: () => ({ ids: [2_000_000_000] }) },
  { method: 'POST', path: '/dzg/unbind', expect: MAIN, answer: { main: CODES.NOT_FOUND, init: CODES.NOT_FOUND }, body: () => ({ id: 2_000_000_000 }) },
  { method: 'GET', path: '/admin/get_adminright', expect: COMPANY },
  // integrations (issue #19): main administrators, with the company's option thirdParty on (turned on in before())
  { method: 'GET', path: '/integration/key/list', expect: MAIN },
  { method: 'POST', path: '/integration/key/create', expect: MAIN, body: () => ({ name: uniq('Access key '), scopes: ['people:read'] }) },
  { method: 'POST', path: '/integration/key/revoke', expect: MAIN, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/integration/webhook/list', expect: MAIN },
  {
    method: 'POST',
    path: '/integration/webhook/create',
    expect: MAIN,
    body: () => ({ name: uniq('Access hook '), url: 'https://hooks.example.com/hook', events: ['punch'] }),
  },
  {
    method: 'POST',
    path: '/integration/webhook/update',
    expect: MAIN,
    body: () => ({ id: 999999, name: 'x', url: 'https://hooks.example.com/hook', events: ['punch'] }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/integration/webhook/delete', expect: MAIN, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/integration/webhook/secret', expect: MAIN, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/integration/webhook/resume', expect: MAIN, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/integration/webhook/test', expect: MAIN, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/integration/webhook/deliveries', expect: MAIN, query: { endpoint_id: 999999 }, answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/integration/webhook/redeliver', expect: MAIN, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/integration/changes', expect: MAIN, query: { limit: 5 } },
  { method: 'GET', path: '/message/list', expect: COMPANY, query: { page: 1, pageSize: 5 } },
  { method: 'GET', path: '/message/count', expect: COMPANY },
  { method: 'POST', path: '/message/read', expect: COMPANY, body: () => ({ all: true }) },
  { method: 'GET', path: '/dashboard/summary', expect: COMPANY, query: { tzOffset: 480 } },
  // the live stream: a session with a company; what each event needs is filtered per event (live.routes.test.ts).
  // An unknown topic is refused before anything streams, so the row's calls end.
  { method: 'GET', path: '/events', expect: COMPANY, query: { topics: 'nonsense' }, answer: every(CODES.RULE) },
  // dashboard blocks (#16): attendance figures take the attendance right; devices and consoles face view or the breaker right; alarms any of them
  { method: 'GET', path: '/dashboard/attendance', expect: RIGHT_ATTENDANCE },
  { method: 'GET', path: '/dashboard/trend', expect: RIGHT_ATTENDANCE, query: { days: 7 } },
  { method: 'GET', path: '/dashboard/devices', expect: RIGHT_DEVICE },
  { method: 'GET', path: '/dashboard/alarms', expect: RIGHT_DEVICE },
  { method: 'GET', path: '/dashboard/flow', expect: RIGHT_ATTENDANCE },
  { method: 'GET', path: '/dashboard/recognitions', expect: RIGHT_ATTENDANCE, query: { limit: 5 } },
  { method: 'GET', path: '/dashboard/sites', expect: COMPANY },
  { method: 'GET', path: '/dashboard/consoles', expect: RIGHT_DEVICE },
  // rights
  { method: 'GET', path: '/manager/list', expect: RIGHT_MANAGER, query: { page: 1, pageSize: 10, keyword: 'acc' } },
  {
    method: 'POST',
    path: '/manager/create',
    expect: RIGHT_MANAGER,
    body: () => ({ name: 'Access New', username: uniq('acc_new'), password: 'secret1', repassword: 'secret1', rights: [] }),
  },
  { method: 'POST', path: '/manager/update', expect: RIGHT_MANAGER, body: () => ({ id: victimId, name: 'Access Victim', password: '' }) },
  { method: 'POST', path: '/manager/delete', expect: RIGHT_MANAGER, body: async () => ({ id: (await newSub('Access Doomed')).id }) },
  { method: 'GET', path: '/log/list', expect: RIGHT_LOG, query: { module: 'manager', pageSize: 5 } },
  { method: 'GET', path: '/log/modules', expect: RIGHT_LOG },
  { method: 'GET', path: '/org/tree', expect: RIGHT_PERSON },
  { method: 'GET', path: '/person/list', expect: RIGHT_PERSON, query: { keyword: 'x', pageSize: 5 } },
  { method: 'GET', path: '/person/info', expect: RIGHT_PERSON, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/person/nextNumber', expect: RIGHT_PERSON },
  { method: 'GET', path: '/person/template', expect: RIGHT_PERSON },
  {
    method: 'POST',
    path: '/person/create',
    expect: RIGHT_PERSON,
    body: () => ({ name: 'P', phone: '1', organizations: [1], pic: 'none.jpg' }),
    answer: every(CODES.RULE),
  },
  {
    method: 'POST',
    path: '/person/update',
    expect: RIGHT_PERSON,
    body: () => ({ id: 999999, name: 'P', phone: '1', organizations: [1], pic: 'none.jpg' }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/person/delete', expect: RIGHT_PERSON, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/person/deletes', expect: RIGHT_PERSON, body: () => ({ ids: [999999] }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/person/erase', expect: RIGHT_PERSON, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/person/bindAdmin', expect: MAIN, body: () => ({ person_id: 999999, admin_id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/person/fetchAdmin', expect: MAIN, body: () => ({}) },
  { method: 'POST', path: '/person/unbind', expect: COMPANY, body: () => ({ company_id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/person/transfer', expect: RIGHT_PERSON, body: () => ({ ids: [999999], department_id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/person/personOrgOptions', expect: RIGHT_PERSON },
  { method: 'POST', path: '/person/device_org_persons', expect: RIGHT_PERSON, body: () => ({ keyword: '' }) },
  // Not multipart, so an allowed caller gets a validation answer; a refused one never gets that far.
  { method: 'POST', path: '/person/upload', expect: RIGHT_PERSON, body: () => ({}), answer: every(CODES.RULE) },
  { method: 'POST', path: '/person/import', expect: RIGHT_PERSON, body: () => ({}), answer: every(CODES.RULE) },
  // the old software's files (#30): people's edit right; not multipart, so an allowed caller gets a validation answer
  { method: 'POST', path: '/legacy/preview', expect: RIGHT_PERSON, body: () => ({}), answer: every(CODES.RULE) },
  {
    method: 'POST',
    path: '/legacy/run',
    expect: RIGHT_PERSON,
    body: () => ({ id: 999999, mapping: { number: 0 }, dry_run: true }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'GET', path: '/legacy/info', expect: RIGHT_PERSON, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/person/xlsx2', expect: RIGHT_PERSON, body: () => ({}), answer: every(CODES.RULE) },
  { method: 'POST', path: '/person/exportPerson', expect: RIGHT_PERSON, body: () => ({}) },
  { method: 'GET', path: '/person/upload/:name', expect: RIGHT_PERSON, answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/person/pic/:id', expect: RIGHT_PERSON, answer: every(CODES.VALIDATION) },
  { method: 'GET', path: '/person/personSelectedDevice', expect: RIGHT_PERSON, query: { id: 999999 } },
  { method: 'POST', path: '/person/sync', expect: RIGHT_PERSON, body: () => ({ ids: [999999] }), answer: every(CODES.NOT_FOUND) },
  // devices (face view / face edit) and punch records (attendance); unknown ids answer "not found" to allowed callers
  { method: 'GET', path: '/device/list', expect: RIGHT_DEVICE },
  // the device filter's names: face view or attendance (issue #28; test/menu-reads.test.ts)
  { method: 'GET', path: '/device/names', expect: RIGHT_DEVICE },
  { method: 'GET', path: '/device/info', expect: RIGHT_DEVICE, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/device/create', expect: RIGHT_DEVICE, body: () => ({ name: 'D', serial: uniq('ACC'), ip: '10.0.0.1', password: 'p' }) },
  {
    method: 'POST',
    path: '/device/update',
    expect: RIGHT_DEVICE,
    body: () => ({ id: 999999, name: 'D', serial: 'X1', ip: '10.0.0.1' }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/device/delete', expect: RIGHT_DEVICE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  {
    method: 'POST',
    path: '/device/options',
    expect: RIGHT_DEVICE,
    body: () => ({ id: 999999, options: { recognition_threshold: 600 } }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/device/open', expect: RIGHT_DEVICE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/device/command', expect: RIGHT_DEVICE, body: () => ({ id: 999999, kind: 'info' }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/device/persons', expect: RIGHT_DEVICE, query: { state: 'failed' } },
  // what a terminal holds (issue #30): a take-over's review
  { method: 'GET', path: '/device/roster', expect: RIGHT_DEVICE, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/device/roster/face', expect: RIGHT_DEVICE, query: { id: 999999, pin: '1' }, answer: every(CODES.NOT_FOUND) },
  {
    method: 'POST',
    path: '/device/roster/apply',
    expect: RIGHT_DEVICE,
    body: () => ({ id: 999999, department_id: 1, rows: [{ pin: '1', action: 'skip' }] }),
    answer: every(CODES.NOT_FOUND),
  },
  // an apply's progress and result: only this company's applies
  { method: 'GET', path: '/device/roster/apply/info', expect: RIGHT_DEVICE, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/device/roster/apply/current', expect: RIGHT_DEVICE },
  // the whole site's review: only this company's terminals; a department not this company's is refused by name
  { method: 'GET', path: '/device/roster/site', expect: RIGHT_DEVICE },
  {
    method: 'POST',
    path: '/device/roster/site/apply',
    expect: RIGHT_DEVICE,
    body: () => ({ department_id: 999999, rows: [{ pin: '1', action: 'skip' }] }),
    answer: every(CODES.RULE),
  },
  { method: 'POST', path: '/device/roster/remove', expect: RIGHT_DEVICE, body: () => ({ id: 999999, pins: ['1'] }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/device/persons/add', expect: RIGHT_DEVICE, body: () => ({ id: 999999, person_ids: [1] }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/device/persons/remove', expect: RIGHT_DEVICE, body: () => ({ id: 999999, person_ids: [1] }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/device/persons/retry', expect: RIGHT_DEVICE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/device/unknown', expect: RIGHT_DEVICE },
  // LAN mode only (docs/lan-mode.md): in normal mode an allowed caller is told so
  { method: 'POST', path: '/device/scan', expect: RIGHT_DEVICE, body: () => ({ range: '127.0.0.1', port: 9 }), answer: every(CODES.UNAVAILABLE) },
  { method: 'GET', path: '/device/command/result', expect: RIGHT_DEVICE, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/device/failures/export', expect: RIGHT_DEVICE, body: () => ({}) },
  // Breakers (#12): reads take the breaker right or face view, writes face edit (docs/api-breakers.md).
  { method: 'GET', path: '/breaker/list', expect: RIGHT_DEVICE },
  { method: 'GET', path: '/breaker/info', expect: RIGHT_DEVICE, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/breaker/create', expect: RIGHT_DEVICE, body: () => ({ uuid: uniq('ACC-BRK-'), sort: 1 }) },
  {
    method: 'POST',
    path: '/breaker/update',
    expect: RIGHT_DEVICE,
    body: () => ({ id: 999999, uuid: uniq('ACC-BRK-'), sort: 1 }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/breaker/delete', expect: RIGHT_DEVICE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/breaker/password', expect: RIGHT_DEVICE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/breaker/line/info', expect: RIGHT_DEVICE, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  {
    method: 'POST',
    path: '/breaker/line/update',
    expect: RIGHT_DEVICE,
    body: () => ({ id: 999999, title: 'L', mxgg: 100, mxgl: 100 }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/breaker/line/switch', expect: RIGHT_DEVICE, body: () => ({ id: 999999, oc: 1 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/breaker/line/selfcheck', expect: RIGHT_DEVICE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/breaker/line/energy', expect: RIGHT_DEVICE, query: { id: 999999, by: 'day' }, answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/breaker/power', expect: RIGHT_DEVICE, query: { id: 999999, range: 'day' }, answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/breaker/timer/list', expect: RIGHT_DEVICE, query: { breaker_id: 999999 }, answer: every(CODES.NOT_FOUND) },
  {
    method: 'POST',
    path: '/breaker/timer/create',
    expect: RIGHT_DEVICE,
    body: () => ({ breaker_id: 999999, type: 'cyclic', line_ids: [1], time: '07:00', weekdays: [1], action: 'on' }),
    answer: every(CODES.NOT_FOUND),
  },
  {
    method: 'POST',
    path: '/breaker/timer/update',
    expect: RIGHT_DEVICE,
    body: () => ({ id: 999999, type: 'cyclic', line_ids: [1], time: '07:00', weekdays: [1], action: 'on' }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/breaker/timer/delete', expect: RIGHT_DEVICE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/breaker/alarm/list', expect: RIGHT_DEVICE, query: { active: 1 } },
  // Sites and the device map (#16): reads take face view or the breaker right, writes face edit.
  { method: 'GET', path: '/site/list', expect: RIGHT_DEVICE },
  { method: 'GET', path: '/site/info', expect: RIGHT_DEVICE, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/site/create', expect: RIGHT_DEVICE, body: () => ({ name: uniq('Access site ') }) },
  { method: 'POST', path: '/site/update', expect: RIGHT_DEVICE, body: () => ({ id: 999999, name: 'Access site' }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/site/delete', expect: RIGHT_DEVICE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  // Not multipart, so an allowed caller gets a validation answer; a refused one never gets that far.
  { method: 'POST', path: '/site/image', expect: RIGHT_DEVICE, body: () => ({}), answer: every(CODES.RULE) },
  { method: 'GET', path: '/site/image/:id', expect: RIGHT_DEVICE, answer: every(CODES.VALIDATION) },
  // Firmware and log capture (#20): face view reads, face edit writes.
  { method: 'GET', path: '/firmware/list', expect: RIGHT_DEVICE },
  // Not multipart, so an allowed caller gets a validation answer; a refused one never gets that far.
  { method: 'POST', path: '/firmware/upload', expect: RIGHT_DEVICE, body: () => ({}), answer: every(CODES.RULE) },
  { method: 'POST', path: '/firmware/delete', expect: RIGHT_DEVICE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/firmware/upgrade', expect: RIGHT_DEVICE, body: () => ({ firmware_id: 999999, device_ids: [1] }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/firmware/upgrades', expect: RIGHT_DEVICE },
  { method: 'POST', path: '/device/log/capture', expect: RIGHT_DEVICE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/device/log/list', expect: RIGHT_DEVICE, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/device/log/file/:id', expect: RIGHT_DEVICE, answer: every(CODES.VALIDATION) },
  {
    method: 'POST',
    path: '/site/place',
    expect: RIGHT_DEVICE,
    body: () => ({ site_id: 999999, kind: 'device', ref_id: 1, x: 1, y: 1 }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/site/unplace', expect: RIGHT_DEVICE, body: () => ({ site_id: 999999, kind: 'device', ref_id: 1 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/attendance/list', expect: RIGHT_ATTENDANCE, query: { from: '2026-01-01', to: '2026-12-31' } },
  // Dormitory (#16): the attendance right or face view reads; the attendance right or face edit sets the hour.
  { method: 'GET', path: '/dormitory/status', expect: RIGHT_ATTENDANCE, query: { return_by: '23:00' } },
  { method: 'GET', path: '/dormitory/settings', expect: RIGHT_ATTENDANCE },
  { method: 'POST', path: '/dormitory/settings', expect: RIGHT_ATTENDANCE, body: () => ({ return_by: '23:00', department_ids: [] }) },
  { method: 'GET', path: '/attendance/photo/:id', expect: RIGHT_ATTENDANCE, answer: every(CODES.VALIDATION) },
  { method: 'POST', path: '/attendance/export', expect: RIGHT_ATTENDANCE, body: () => ({}) },
  // Leave balances (#17 item 15): the attendance right.
  { method: 'GET', path: '/attendance/balance/list', expect: RIGHT_ATTENDANCE, query: { year: 2026, leave_type: 'annual' } },
  {
    method: 'POST',
    path: '/attendance/balance/set',
    expect: RIGHT_ATTENDANCE,
    body: () => ({ person_id: 999999, leave_type: 'annual', year: 2026, quota: 5 }),
    answer: every(CODES.NOT_FOUND),
  },
  // Not multipart, so an allowed caller gets a validation answer; a refused one never gets that far.
  { method: 'POST', path: '/attendance/balance/import', expect: RIGHT_ATTENDANCE, body: () => ({}), answer: every(CODES.RULE) },
  { method: 'POST', path: '/attendance/balance/export', expect: RIGHT_ATTENDANCE, body: () => ({ year: 2026 }) },
  { method: 'GET', path: '/attendance/balance/policy', expect: RIGHT_ATTENDANCE },
  {
    method: 'POST',
    path: '/attendance/balance/policy',
    expect: RIGHT_ATTENDANCE,
    body: () => ({
      leave_type: 'sick',
      tracked: false,
      allow_negative: false,
      mode: 'manual',
      days: 0,
      tiers: [],
      accrual: 'year',
      carry_max: 0,
      carry_months: 0,
    }),
  },
  // Strangers (#16): the attendance right or face view (a sub-admin with neither is refused).
  { method: 'GET', path: '/stranger/list', expect: RIGHT_DEVICE, query: { from: '2026-01-01', to: '2026-12-31' } },
  { method: 'GET', path: '/stranger/photo/:id', expect: RIGHT_DEVICE, answer: every(CODES.VALIDATION) },
  { method: 'POST', path: '/stranger/export', expect: RIGHT_DEVICE, body: () => ({}) },
  // visitors (#19): invitations need the person-edit right, the visit log the log right
  { method: 'GET', path: '/visitor/list', expect: RIGHT_PERSON },
  { method: 'GET', path: '/visitor/doors', expect: RIGHT_LOG },
  { method: 'POST', path: '/visitor/invite', expect: RIGHT_PERSON, body: () => ({}), answer: every(CODES.VALIDATION) },
  { method: 'POST', path: '/visitor/cancel', expect: RIGHT_PERSON, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/visitor/log', expect: RIGHT_LOG, query: { from: '2026-01-01', to: '2026-12-31' } },
  { method: 'GET', path: '/visitor/log/photo/:id', expect: RIGHT_LOG, answer: every(CODES.VALIDATION) },
  { method: 'POST', path: '/visitor/log/export', expect: RIGHT_LOG, body: () => ({}) },
  { method: 'GET', path: '/visit/:token', expect: PUBLIC, answer: every(CODES.VALIDATION) },
  { method: 'POST', path: '/visit/:token/face', expect: PUBLIC, answer: every(CODES.VALIDATION) },
  { method: 'GET', path: '/attendance/health/list', expect: RIGHT_ATTENDANCE, query: { color: 'red', from: '2026-01-01', to: '2026-12-31' } },
  { method: 'POST', path: '/attendance/health/export', expect: RIGHT_ATTENDANCE, body: () => ({}) },
  { method: 'GET', path: '/attendance/alcohol/list', expect: RIGHT_ATTENDANCE, query: { over: 1 } },
  { method: 'POST', path: '/attendance/alcohol/export', expect: RIGHT_ATTENDANCE, body: () => ({}) },
  { method: 'GET', path: '/attendance/rule/list', expect: RIGHT_ATTENDANCE },
  { method: 'GET', path: '/attendance/rule/info', expect: RIGHT_ATTENDANCE, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  {
    method: 'POST',
    path: '/attendance/rule/create',
    expect: RIGHT_ATTENDANCE,
    body: () => ({ name: 'x', mode: 'free', shifts: [], person_ids: [], department_ids: [999999] }),
    answer: every(CODES.RULE),
  },
  {
    method: 'POST',
    path: '/attendance/rule/update',
    expect: RIGHT_ATTENDANCE,
    body: () => ({ id: 999999, name: 'x', mode: 'free', shifts: [], person_ids: [], department_ids: [] }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/attendance/rule/delete', expect: RIGHT_ATTENDANCE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/attendance/holiday/list', expect: RIGHT_ATTENDANCE, query: { year: 2026 } },
  {
    method: 'POST',
    path: '/attendance/holiday/create',
    expect: RIGHT_ATTENDANCE,
    body: () => ({ name: 'x', kind: 'holiday', from_date: '2026-10-02', to_date: '2026-10-01', rule_ids: [] }),
    answer: every(CODES.RULE),
  },
  {
    method: 'POST',
    path: '/attendance/holiday/update',
    expect: RIGHT_ATTENDANCE,
    body: () => ({ id: 999999, name: 'x', kind: 'holiday', from_date: '2026-10-01', to_date: '2026-10-01', rule_ids: [] }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/attendance/holiday/delete', expect: RIGHT_ATTENDANCE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/attendance/day/list', expect: RIGHT_ATTENDANCE, query: { date: '2026-11-16' } },
  { method: 'GET', path: '/attendance/day/latest', expect: RIGHT_ATTENDANCE },
  { method: 'GET', path: '/attendance/leave/types', expect: RIGHT_ATTENDANCE },
  { method: 'GET', path: '/attendance/report/month', expect: RIGHT_ATTENDANCE, query: { month: '2026-11' } },
  {
    method: 'GET',
    path: '/attendance/report/person',
    expect: RIGHT_ATTENDANCE,
    query: { person_id: 999999, month: '2026-11' },
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/attendance/day/export', expect: RIGHT_ATTENDANCE, body: () => ({ from: '2026-11-01', to: '2026-11-02' }) },
  { method: 'POST', path: '/attendance/report/export', expect: RIGHT_ATTENDANCE, body: () => ({ month: '2026-11' }) },
  { method: 'GET', path: '/attendance/day/info', expect: RIGHT_ATTENDANCE, query: { person_id: 999999, date: '2026-11-16' }, answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/attendance/recalculate', expect: RIGHT_ATTENDANCE, body: () => ({}), answer: every(CODES.RULE) },
  {
    method: 'POST',
    path: '/attendance/day/manual',
    expect: RIGHT_ATTENDANCE,
    body: () => ({ person_id: 999999, date: '2026-11-16', status: null, reason: '' }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'GET', path: '/attendance/recalculate/status', expect: RIGHT_ATTENDANCE },
  { method: 'GET', path: '/attendance/absence/list', expect: RIGHT_ATTENDANCE, query: { from: '2026-11-01', to: '2026-11-30' } },
  {
    method: 'POST',
    path: '/attendance/absence/create',
    expect: RIGHT_ATTENDANCE,
    body: () => ({ person_id: 999999, kind: 'leave', from: '2026-11-16T09:00:00Z', to: '2026-11-16T10:00:00Z', reason: 'x' }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/attendance/absence/delete', expect: RIGHT_ATTENDANCE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/attendance/schedule', expect: RIGHT_ATTENDANCE, query: { rule_id: 999999, month: '2026-11' }, answer: every(CODES.NOT_FOUND) },
  {
    method: 'POST',
    path: '/attendance/schedule/save',
    expect: RIGHT_ATTENDANCE,
    body: () => ({ rule_id: 999999, month: '2026-11', hash: 'abc', cells: [] }),
    answer: every(CODES.NOT_FOUND),
  },
  // closed periods (#17, attendance right): a backward range is refused after the access check
  { method: 'GET', path: '/attendance/period/list', expect: RIGHT_ATTENDANCE },
  {
    method: 'POST',
    path: '/attendance/period/close',
    expect: RIGHT_ATTENDANCE,
    body: () => ({ from: '2026-02-02', to: '2026-02-01' }),
    answer: every(CODES.RULE),
  },
  { method: 'POST', path: '/attendance/period/reopen', expect: RIGHT_ATTENDANCE, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  // approvals (workflow right; spec §6)
  { method: 'GET', path: '/workflow/app/list', expect: RIGHT_WORKFLOW },
  { method: 'GET', path: '/workflow/app/info', expect: RIGHT_WORKFLOW, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  {
    method: 'POST',
    path: '/workflow/app/create',
    expect: RIGHT_WORKFLOW,
    body: () => ({ name: uniq('Access App '), icon: 'other', sort: 1, enabled: true, scope: 'everyone', department_ids: [], person_ids: [] }),
  },
  {
    method: 'POST',
    path: '/workflow/app/update',
    expect: RIGHT_WORKFLOW,
    body: () => ({ id: 999999, name: 'x', icon: 'other', sort: 1, enabled: true, scope: 'everyone', department_ids: [], person_ids: [] }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/workflow/app/enable', expect: RIGHT_WORKFLOW, body: () => ({ id: 999999, enabled: false }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/workflow/app/copy', expect: RIGHT_WORKFLOW, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/workflow/app/delete', expect: RIGHT_WORKFLOW, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/workflow/form/info', expect: RIGHT_WORKFLOW, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  {
    method: 'POST',
    path: '/workflow/form/save',
    expect: RIGHT_WORKFLOW,
    body: () => ({ app_id: 999999, schema: { fields: [] } }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'GET', path: '/workflow/process/info', expect: RIGHT_WORKFLOW, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  {
    method: 'POST',
    path: '/workflow/process/save',
    expect: RIGHT_WORKFLOW,
    body: () => ({ app_id: 999999, process: { nodes: [] } }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'GET', path: '/workflow/approval/list', expect: RIGHT_WORKFLOW, query: { status: 0, keyword: 'x' } },
  { method: 'GET', path: '/workflow/approval/info', expect: RIGHT_WORKFLOW, query: { id: 999999 }, answer: every(CODES.NOT_FOUND) },
  {
    method: 'POST',
    path: '/workflow/approval/create',
    expect: RIGHT_WORKFLOW,
    body: () => ({ app_id: 999999, person_id: 999999, values: {} }),
    answer: every(CODES.NOT_FOUND),
  },
  {
    method: 'POST',
    path: '/workflow/approval/decide',
    expect: RIGHT_WORKFLOW,
    body: () => ({ id: 999999, step_id: 1, decision: 'approve', comment: '' }),
    answer: every(CODES.NOT_FOUND),
  },
  { method: 'POST', path: '/workflow/approval/withdraw', expect: RIGHT_WORKFLOW, body: () => ({ id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/workflow/approval/export', expect: RIGHT_WORKFLOW, body: () => ({}) },
  { method: 'GET', path: '/workflow/approval/template', expect: RIGHT_WORKFLOW },
  { method: 'POST', path: '/workflow/approval/import', expect: RIGHT_WORKFLOW, body: () => ({}), answer: every(CODES.RULE) },
  { method: 'GET', path: '/workflow/duration', expect: RIGHT_WORKFLOW, query: { from: '2026-11-16T01:00:00Z', to: '2026-11-16T10:00:00Z' } },
  { method: 'POST', path: '/workflow/link', expect: RIGHT_WORKFLOW, body: () => ({ person_id: 999999 }), answer: every(CODES.NOT_FOUND) },
  { method: 'POST', path: '/workflow/upload', expect: RIGHT_WORKFLOW, body: () => ({}), answer: every(CODES.RULE) },
  { method: 'GET', path: '/workflow/file/:name', expect: RIGHT_WORKFLOW, answer: every(CODES.VALIDATION) },
  { method: 'GET', path: '/workflow/people', expect: RIGHT_WORKFLOW, query: { keyword: 'a' } },
  { method: 'GET', path: '/workflow/departments', expect: RIGHT_WORKFLOW },
  // the self-service page: sign-in is public; the rest needs a person session, which no administrator token is
  {
    method: 'POST',
    path: '/self/sendcode',
    expect: PUBLIC,
    body: async (c) => ({ phone: nextMobile(), icode: CAPTCHA, captcha_id: await captcha(t.app, c.ip) }),
  },
  { method: 'POST', path: '/self/login', expect: PUBLIC, body: () => ({ phone: nextMobile(), code: '000000' }), answer: every(CODES.RULE) },
  { method: 'POST', path: '/self/link', expect: PUBLIC, body: () => ({ token: 'a'.repeat(43) }), answer: every(CODES.RULE) },
  { method: 'POST', path: '/self/fromAdmin', expect: COMPANY, answer: every(CODES.NOT_FOUND) },
  { method: 'GET', path: '/self/info', expect: PERSON },
  { method: 'POST', path: '/self/logout', expect: PERSON },
  { method: 'GET', path: '/self/apps', expect: PERSON },
  { method: 'GET', path: '/self/leave/balance', expect: PERSON },
  { method: 'GET', path: '/self/duration', expect: PERSON, query: { from: '2026-11-16T01:00:00Z', to: '2026-11-16T10:00:00Z' } },
  { method: 'POST', path: '/self/apply', expect: PERSON, body: () => ({ app_id: 1, values: {} }) },
  { method: 'GET', path: '/self/applications', expect: PERSON },
  { method: 'GET', path: '/self/application', expect: PERSON, query: { id: 1 } },
  { method: 'POST', path: '/self/withdraw', expect: PERSON, body: () => ({ id: 1 }) },
  { method: 'GET', path: '/self/tasks', expect: PERSON },
  { method: 'POST', path: '/self/decide', expect: PERSON, body: () => ({ id: 1, step_id: 1, decision: 'approve', comment: '' }) },
  { method: 'GET', path: '/self/inbox', expect: PERSON },
  { method: 'POST', path: '/self/inbox/read', expect: PERSON, body: () => ({ all: true }) },
  { method: 'POST', path: '/self/upload', expect: PERSON, body: () => ({}) },
  { method: 'GET', path: '/self/file/:name', expect: PERSON },
  { method: 'GET', path: '/self/people', expect: PERSON },
  { method: 'GET', path: '/self/departments', expect: PERSON },
  { method: 'GET', path: '/self/visitor/list', expect: PERSON },
  { method: 'GET', path: '/self/visitor/doors', expect: PERSON },
  { method: 'POST', path: '/self/visitor/invite', expect: PERSON, body: () => ({}) },
  { method: 'POST', path: '/self/visitor/cancel', expect: PERSON, body: () => ({ id: 1 }) },
  { method: 'POST', path: '/org/create', expect: RIGHT_PERSON, body: () => ({ name: uniq('Access Dept ') }) },
  { method: 'POST', path: '/org/update', expect: RIGHT_PERSON, body: async () => ({ id: await newDept(), name: uniq('Access Renamed ') }) },
  { method: 'POST', path: '/org/delete', expect: RIGHT_PERSON, body: async () => ({ id: await newDept() }) },
  // initial administrator
  { method: 'GET', path: '/admin/transfer/search', expect: INIT, query: { keyword: 'acc' } },
  {
    method: 'POST',
    path: '/admin/transfer',
    expect: INIT,
    body: async () => ({ admin_id: (await newSub('Access Heir')).id }),
    after: async (c, r) => {
      // Hand the role straight back, so "init" stays the initial administrator.
      void r;
      const heir = await t.app.database.db
        .selectFrom('memberships as m')
        .innerJoin('admins as a', 'a.id', 'm.admin_id')
        .select('a.username')
        .where('m.company_id', '=', X.id)
        .where('m.is_init', '=', 1)
        .executeTakeFirstOrThrow();
      assert.notEqual(heir.username, c.username, 'the role moved');
      const back = await call(t.app, 'POST', '/admin/transfer', { token: await login(t.app, heir.username, 'secret1'), body: { admin_id: c.id } });
      assert.equal(back.code, CODES.OK);
    },
  },
];

before(async () => {
  t = await makeApp();
  X = await makeCompany(t, 'Access Co', 'acc_init');
  callers.init = { key: 'init', username: 'acc_init', password: 'secret1', token: X.main, id: X.mainId, ip: nextIp() };
  // integrations exist only with the option thirdParty on (issue #19)
  await call(t.app, 'POST', '/company/update', { token: X.main, body: { name: 'Access Co', phone: '010-1234567', options: { thirdParty: 1 } } });
  callers.anon = { key: 'anon', username: '', password: '', token: undefined, id: 0, ip: nextIp() };
  const c0Token = await register(t, 'acc_c0');
  const c0Info = await call(t.app, 'GET', '/user/info', { token: c0Token });
  callers.c0 = { key: 'c0', username: 'acc_c0', password: 'secret1', token: c0Token, id: c0Info.data.id, ip: nextIp() };
  for (const [key, rights, role] of [
    ['none', [], 'sub'],
    ['log', ['logView'], 'sub'],
    ['all', ['userView', 'userEdit', 'attendance', 'faceView', 'faceEdit', 'breaker', 'rightsSetting', 'logView', 'workflow'], 'sub'],
    ['main', [], 'main'],
  ] as const) {
    const s = await makeSub(t, X, [...rights], `acc_${key}`, role);
    callers[key] = { key, username: s.username, password: 'secret1', token: s.token, id: s.id, ip: nextIp() };
  }
  await register(t, 'acc_loginee');
  victimId = (await newSub('Access Victim')).id;
});
after(() => t.close());

test(`the table covers every /api/management route, and nothing else (${DIALECT})`, async () => {
  const live = apiRoutes(t.app);
  assert.ok(live.length >= 27, `found ${live.length} routes`);
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
  const documented = Object.entries(doc.paths)
    .filter(([p]) => p.startsWith(`${API}/`))
    .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.slice(API.length).replace(/\{(\w+)\}/g, ':$1')}`))
    .sort();
  assert.deepEqual(documented, live, 'the route tree and the OpenAPI document agree');
  const table = ROWS.map((r) => `${r.method} ${r.path}`).sort();
  assert.equal(new Set(table).size, table.length, 'no duplicate rows');
  assert.deepEqual(table, live, 'one row per route');
});

function check(row: Row, c: Caller, r: Answer, want: Outcome) {
  const label = `${row.method} ${row.path} as ${c.key}`;
  const refusals: number[] = [CODES.ILLEGAL_TOKEN, CODES.OTHER_CLIENT, CODES.TOKEN_EXPIRED, CODES.NO_AUTHORITY];
  if (want === 'ok') {
    assert.ok(!refusals.includes(r.code), `${label}: refused with ${r.code} ${r.message}`);
    assert.equal(r.code, row.answer?.[c.key] ?? CODES.OK, `${label}: ${r.message}`);
    return;
  }
  if (want === 'token') {
    assert.equal(r.code, CODES.ILLEGAL_TOKEN, `${label}: ${r.code} ${r.message}`);
    assert.equal(r.status, 401, label);
    assert.equal(r.message, tr('en-US', 'errors.illegalToken'), label);
    return;
  }
  assert.equal(r.code, CODES.NO_AUTHORITY, `${label}: ${r.code} ${r.message}`);
  assert.equal(r.status, 403, label);
  assert.equal(r.message, tr('en-US', `errors.${want}`), label);
  assert.equal(r.data, null, label);
}

for (const row of ROWS) {
  test(`${row.method} ${row.path}`, async () => {
    for (const key of CALLERS) {
      const c = callers[key];
      const want = row.expect[key];
      const body = row.body ? await row.body(c) : undefined;
      const r = await call(t.app, row.method, row.path, {
        token: c.token,
        lang: 'en-US',
        ip: c.ip,
        ...(body !== undefined ? { body } : {}),
        ...(row.query ? { query: row.query } : {}),
      });
      check(row, c, r, want);
      if (want === 'ok' && r.code === CODES.OK && row.after) await row.after(c, r);
    }
  });
}

test('refused writes changed nothing; the callers are still who they were', async () => {
  const info = await call(t.app, 'GET', '/company/info', { token: callers.init.token });
  assert.equal(info.data.name, 'Access Co');
  const list = await call(t.app, 'GET', '/manager/list', { token: callers.init.token, query: { pageSize: 100 } });
  // Only main, init and the all-rights sub could create one "Access New" each.
  assert.equal(list.data.items.filter((m: { name: string }) => m.name === 'Access New').length, 3);
  assert.equal(list.data.items.filter((m: { name: string }) => m.name === 'Access Doomed').length, CALLERS.length - 3, 'victims of refused deletes remain');
  for (const key of ['none', 'log', 'all', 'main', 'init'] as const) {
    const u = await call(t.app, 'GET', '/user/info', { token: callers[key].token });
    assert.equal(u.data.company, X.id, key);
    assert.equal(u.data.is_init, key === 'init' ? 1 : 0, key);
  }
  assert.equal((await call(t.app, 'GET', '/user/info', { token: callers.c0.token })).data.company, 0);
  const rows = await t.app.database.db
    .selectFrom('memberships')
    .select(['admin_id', 'is_init'])
    .where('company_id', '=', X.id)
    .where('is_init', '=', 1)
    .execute();
  assert.deepEqual(
    rows.map((r) => r.admin_id),
    [X.mainId],
  );
});
