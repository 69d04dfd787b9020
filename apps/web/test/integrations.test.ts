import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_RIGHTS, NO_RIGHTS } from '@faceadmin/shared';
import { filterRoutes, flattenRoutes, ROUTE_TABLE } from '../src/app/routes/routeTable.ts';

const has = (ctx: Parameters<typeof filterRoutes>[3], rights = { ...ALL_RIGHTS, is_admin: 1 }) =>
  flattenRoutes(filterRoutes(ROUTE_TABLE, rights, 'normal', ctx)).some((n) => n.path === '/system/integrations');

test('System → Integrations: main administrators only, and only with the company option thirdParty on', () => {
  assert.equal(has({ main: true, options: { thirdParty: true } }), true);
  assert.equal(has({ main: true, options: { thirdParty: false } }), false, 'option off: hidden');
  assert.equal(has({ main: false, options: { thirdParty: true } }), false, 'a sub-administrator with every right: hidden');
  assert.equal(has({}), false);
  // a main administrator whose rights list nothing else still gets the System section with it
  assert.equal(has({ main: true, options: { thirdParty: true } }, { ...NO_RIGHTS, is_admin: 1 }), true);
});
