import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_RIGHTS, NO_RIGHTS } from '@faceadmin/shared';
import { filterRoutes, flattenRoutes, ROUTE_TABLE } from '../src/app/routes/routeTable.ts';

const has = (ctx: Parameters<typeof filterRoutes>[3], mode: 'normal' | 'lan' = 'normal', rights = { ...ALL_RIGHTS, is_admin: 1 }) =>
  flattenRoutes(filterRoutes(ROUTE_TABLE, rights, mode, ctx)).some((n) => n.path === '/system/clientErrors');

test('System → Client errors: main administrators only, in LAN mode too', () => {
  assert.equal(has({ main: true }), true);
  assert.equal(has({ main: true }, 'lan'), true);
  assert.equal(has({ main: false }), false, 'a sub-administrator with every right: hidden');
  assert.equal(has({}), false);
  assert.equal(has({ main: true }, 'normal', { ...NO_RIGHTS, is_admin: 1 }), true, 'whatever else the rights list');
});
