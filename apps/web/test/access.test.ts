import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_RIGHTS, NO_RIGHTS, type Rights } from '@faceadmin/shared';
import { decideAccess } from '../src/app/routes/access.ts';
import { filterRoutes, findRoute, flattenRoutes, routeTrail, ROUTE_TABLE } from '../src/app/routes/routeTable.ts';

const admin: Rights = { ...ALL_RIGHTS, is_admin: 1 };
const logOnly: Rights = { ...NO_RIGHTS, log: 1, is_admin: 1 };
const paths = (r: Rights, mode: 'normal' | 'lan' = 'normal') => flattenRoutes(filterRoutes(ROUTE_TABLE, r, mode)).map((n) => n.path);

test('a main admin reaches the log and the administrators', () => {
  const p = paths(admin);
  for (const x of ['/dashboard', '/system/log', '/system/manager', '/company/create', '/company/list', '/message/message']) {
    assert.ok(p.includes(x), x);
  }
});

test('a log-only sub-admin gets the log but not the administrators', () => {
  const p = paths(logOnly);
  assert.ok(p.includes('/system/log'));
  assert.ok(!p.includes('/system/manager'));
});

test('is_admin 0 drops every rights-keyed route (spec §6) but keeps company and message routes', () => {
  const p = paths({ ...ALL_RIGHTS, is_admin: 0 });
  assert.ok(!p.includes('/system/log'));
  assert.ok(!p.includes('/system'), 'an empty section disappears');
  assert.ok(p.includes('/company/update') && p.includes('/message/message'));
});

test('a section redirect points at a reachable child', () => {
  const onlyManager = filterRoutes(ROUTE_TABLE, { ...NO_RIGHTS, manager: 1, is_admin: 1 }, 'normal');
  assert.equal(onlyManager.find((r) => r.path === '/system')?.redirect, '/system/manager');
});

test('the breadcrumb trail', () => {
  assert.deepEqual(
    routeTrail(ROUTE_TABLE, '/system/log').map((r) => r.path),
    ['/system', '/system/log'],
  );
});

const routes = filterRoutes(ROUTE_TABLE, logOnly, 'normal');
const base = { search: '', token: 't', company: 5, routes };

test("the spec's /system/list leads to the operation log, for those who may read it", () => {
  assert.deepEqual(decideAccess({ ...base, path: '/system/list' }), { kind: 'redirect', to: '/system/log' });
  const managerOnly = filterRoutes(ROUTE_TABLE, { ...NO_RIGHTS, manager: 1, is_admin: 1 }, 'normal');
  assert.deepEqual(decideAccess({ ...base, routes: managerOnly, path: '/system/list' }), { kind: 'redirect', to: '/404' });
});

test('no token → /login with the path as redirect', () => {
  assert.deepEqual(decideAccess({ ...base, token: '', path: '/system/log', search: '?a=1' }), {
    kind: 'redirect',
    to: '/login?redirect=%2Fsystem%2Flog%3Fa%3D1',
  });
});

test('public routes are open; a signed-in user on /login goes to /', () => {
  assert.equal(decideAccess({ ...base, token: '', path: '/404' }).kind, 'allow');
  assert.equal(decideAccess({ ...base, token: '', path: '/redirect/system/log' }).kind, 'allow');
  assert.deepEqual(decideAccess({ ...base, path: '/login' }), { kind: 'redirect', to: '/' });
});

test('company 0 allows only /company/create', () => {
  const c0 = { ...base, company: 0 };
  assert.equal(decideAccess({ ...c0, path: '/company/create' }).kind, 'allow');
  assert.deepEqual(decideAccess({ ...c0, path: '/' }), { kind: 'redirect', to: '/company/create' });
  assert.deepEqual(decideAccess({ ...c0, path: '/system/log' }), { kind: 'redirect', to: '/company/create' });
});

test('/ → /dashboard, sections → their first page, unknown or forbidden → /404', () => {
  assert.deepEqual(decideAccess({ ...base, path: '/' }), { kind: 'redirect', to: '/dashboard' });
  assert.deepEqual(decideAccess({ ...base, path: '/system' }), { kind: 'redirect', to: '/system/log' });
  assert.equal(decideAccess({ ...base, path: '/system/log' }).kind, 'allow');
  assert.deepEqual(decideAccess({ ...base, path: '/system/manager' }), { kind: 'redirect', to: '/404' });
  assert.deepEqual(decideAccess({ ...base, path: '/nowhere' }), { kind: 'redirect', to: '/404' });
});

test('waits while the profile loads', () => {
  assert.equal(decideAccess({ ...base, company: undefined, routes: undefined, path: '/dashboard' }).kind, 'wait');
});

test('a signed-in user on /login?redirect= goes back there, never off-site', () => {
  assert.deepEqual(decideAccess({ ...base, path: '/login', search: '?redirect=%2Fsystem%2Flog' }), { kind: 'redirect', to: '/system/log' });
  assert.deepEqual(decideAccess({ ...base, path: '/login', search: '?redirect=%2F%2Fevil.example' }), { kind: 'redirect', to: '/' });
});

test('after sign-in, a redirect this administrator cannot open (another’s, on a shared computer) leads home instead of to 404', () => {
  const login = (redirect: string, more: Partial<typeof base> = {}) =>
    decideAccess({ ...base, ...more, path: '/login', search: `?redirect=${encodeURIComponent(redirect)}` });
  assert.deepEqual(login('/system/manager'), { kind: 'redirect', to: '/' }, 'the log-only sub-admin has no administrators page');
  assert.deepEqual(login('/system/log?page=2'), { kind: 'redirect', to: '/system/log?page=2' });
  assert.deepEqual(login('/system'), { kind: 'redirect', to: '/system' }, 'a section it can open');
  assert.deepEqual(login('/nowhere'), { kind: 'redirect', to: '/' });
  assert.deepEqual(login('/system/log', { company: 0 }), { kind: 'redirect', to: '/' }, 'no company yet: home, which is the company form');
  assert.equal(login('/system/log', { company: undefined, routes: undefined }).kind, 'wait', 'decided once the profile is known');
});

test('the watch screens are a menu section, by rights, whose own path opens the screen this browser used last', () => {
  const all = filterRoutes(ROUTE_TABLE, admin, 'normal', { main: true });
  const watch = { ...base, routes: all, path: '/watch' };
  assert.ok(
    findRoute(all, '/watch')?.children?.every((c) => !c.hidden),
    'every screen is in the menu',
  );
  assert.deepEqual(decideAccess(watch), { kind: 'redirect', to: '/consoles' }, 'nothing remembered: the first');
  const remembered = (path: string | undefined) => (s: string) => (s === '/watch' ? path : undefined);
  assert.deepEqual(decideAccess({ ...watch, lastPage: remembered('/ioconsoles') }), { kind: 'redirect', to: '/ioconsoles' });
  // a remembered path that is not one of the section's pages (old, or edited by hand) is not followed
  assert.deepEqual(decideAccess({ ...watch, lastPage: remembered('/system/manager') }), { kind: 'redirect', to: '/consoles' });
  // nor one this administrator may not open: the log-only one has the big screens, not the guard desk nor the consoles
  assert.deepEqual(
    findRoute(routes, '/watch')?.children?.map((c) => c.path),
    ['/maininfo', '/fullscreen', '/spotconsoles'],
  );
  assert.deepEqual(decideAccess({ ...base, path: '/watch', lastPage: remembered('/ioconsoles') }), { kind: 'redirect', to: '/maininfo' });
  // other sections do not remember
  assert.deepEqual(decideAccess({ ...base, routes: all, path: '/system', lastPage: () => '/system/manager' }), { kind: 'redirect', to: '/system/log' });
});
