import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES, type Rights } from '@faceadmin/shared';
import { filterRoutes, flattenRoutes, ROUTE_TABLE } from '../../web/src/app/routes/routeTable.ts';
import { t as tr } from '../src/i18n/i18n.ts';
import { API, apiRoutes, call, DIALECT, login, type TestApp, makeApp } from './helpers.ts';

/**
 * LAN mode (spec §1, §2; docs/lan-mode.md): the console's route table and the server's routes agree. A console
 * page gone in LAN mode has every API route it calls refused by the server ("not available in LAN mode"), and every
 * route the server refuses in LAN mode belongs to such a page or to the short list of console-less areas below.
 */

/** Console pages omitted in LAN mode → the prefixes of the API routes they (alone) call. */
const PAGE_APIS: Record<string, string[]> = {
  '/attendance/holiday': ['/attendance/holiday/'],
  '/attendance/freeSchedule': ['/attendance/schedule'],
  '/attendance/alcohol': ['/attendance/alcohol/'],
  '/system/visitors': ['/visitor/invite', '/visitor/list', '/visitor/cancel', '/visitor/doors'],
  '/system/visitorlog': ['/visitor/log'],
  '/workflow': ['/workflow/'],
  '/workflow/index': ['/workflow/app/', '/workflow/approval/'],
  '/workflow/flow/:id': ['/workflow/process/'],
  '/workflow/form/:id': ['/workflow/form/'],
  '/workflow/approval/:id': ['/workflow/approval/'],
};
/** Refused in LAN mode without a console page: SMS codes, registration, reset by SMS; self-service and visitor links (phones over the internet). */
const SERVER_ONLY = ['/user/sendsmscode', '/user/forget', '/admin/register', '/self/', '/visit/'];

const ALL: Rights = { is_admin: 1, person: 2, attendance: 1, face: 2, breaker: 1, manager: 1, log: 1, workflow: 1 };

let t: TestApp;
let token: string;
before(async () => {
  t = await makeApp({ RUN_MODE: 'lan', ADMIN_USERNAME: 'lanadmin', ADMIN_PASSWORD: 'secret1' }, { sms: false });
  token = await login(t.app, 'lanadmin', 'secret1');
  const c = await call(t.app, 'POST', '/company/create', { token, body: { name: 'LAN Co', phone: '010-1234567' } });
  assert.equal(c.code, CODES.OK, c.message);
});
after(() => t.close());

/** Asks one route as the main administrator: POSTs carry a body that cannot parse, so nothing is ever written. */
async function refusedInLan(route: string): Promise<boolean> {
  const [method, path] = route.split(' ') as ['GET' | 'POST', string];
  const url = `${API}${path.replace(/:\w+/g, '1')}`;
  const res = await t.app.inject({
    method,
    url,
    headers: { 'x-token': token, 'x-lang': 'en-US', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    ...(method === 'POST' ? { payload: '{' } : {}),
  });
  if (!String(res.headers['content-type'] ?? '').includes('json')) return false;
  const body = res.json<{ code: number; message: string }>();
  return body.code === CODES.NO_AUTHORITY && body.message === tr('en-US', 'errors.lanMode');
}

test(`LAN mode: a page gone from the console is refused by the server, and the other way round (${DIALECT})`, async () => {
  const normal = flattenRoutes(filterRoutes(ROUTE_TABLE, ALL, 'normal', { main: true, options: { thirdParty: true } })).map((r) => r.path);
  const lan = new Set(flattenRoutes(filterRoutes(ROUTE_TABLE, ALL, 'lan', { main: true, options: { thirdParty: true } })).map((r) => r.path));
  const gone = normal.filter((p) => !lan.has(p)).sort();
  assert.deepEqual(gone, Object.keys(PAGE_APIS).sort(), 'the console omits exactly the pages this test knows the API of');
  // spec §2: the message route stays (only the bell goes), the operation log and the rest of attendance stay.
  for (const kept of ['/message/message', '/system/log', '/attendance/list', '/attendance/rule', '/device/list']) assert.ok(lan.has(kept), kept);

  const prefixes = [...Object.values(PAGE_APIS).flat(), ...SERVER_ONLY];
  // the live stream never ends; it is not an omitted area either
  const live = apiRoutes(t.app).filter((r) => r !== 'GET /events');
  const wrong: string[] = [];
  for (const route of live) {
    const path = route.split(' ')[1]!;
    const expected = prefixes.some((p) => path.startsWith(p));
    if ((await refusedInLan(route)) !== expected) wrong.push(`${route}: ${expected ? 'should be refused' : 'refused but its page is in the LAN console'}`);
  }
  assert.deepEqual(wrong, []);
  // every prefix names at least one real route (a renamed API would otherwise pass silently)
  for (const p of prefixes)
    assert.ok(
      live.some((r) => r.split(' ')[1]!.startsWith(p)),
      `no route under ${p}`,
    );
});

test(`LAN mode: no SMS, no registration; the console is told so (${DIALECT})`, async () => {
  const cfg = await call(t.app, 'GET', '/system/config');
  assert.equal(cfg.data.runMode, 'lan');
  assert.equal(cfg.data.sms, false);
  assert.equal(cfg.data.registration, false);
  const r = await call(t.app, 'POST', '/user/sendsmscode', { lang: 'en-US', body: { phone: '13900000001', purpose: 'register' } });
  assert.equal(r.code, CODES.NO_AUTHORITY);
  assert.equal(r.message, tr('en-US', 'errors.lanMode'));
  // password sign-in, devices and punches work as ever
  assert.equal((await call(t.app, 'GET', '/device/list', { token })).code, CODES.OK);
  assert.equal((await call(t.app, 'GET', '/attendance/rule/list', { token })).code, CODES.OK);
});
