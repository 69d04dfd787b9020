import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_RIGHTS, NO_RIGHTS } from '@faceadmin/shared';
import { filterRoutes, ROUTE_TABLE } from '../src/app/routes/routeTable.ts';
import { reachableTags } from '../src/app/layout/reachableTags.ts';
import { restoreTags } from '../src/lib/tags.ts';

// issue #9: open tabs were lost on reload; they are kept in localStorage like the sidebar state.
test('saved tabs come back as they were, and a damaged value gives no tabs', () => {
  const saved = [
    { path: '/system/log', titleKey: 'route.log' },
    { path: '/user/list', titleKey: 'route.personList' },
  ];
  assert.deepEqual(restoreTags(JSON.parse(JSON.stringify(saved))), saved);
  assert.deepEqual(restoreTags(null), []);
  assert.deepEqual(restoreTags({ path: '/x' }), []);
  assert.deepEqual(restoreTags([{ path: 'http://evil', titleKey: 'x' }, { path: '/a' }, 7, { path: '/b', titleKey: 'k' }, { path: '/b', titleKey: 'k' }]), [
    { path: '/b', titleKey: 'k' },
  ]);
});

test('tabs show only pages this session can open, titled by the route table', () => {
  const visited = [
    { path: '/system/manager', titleKey: 'route.manager' },
    { path: '/system/log', titleKey: 'stale.key' },
    { path: '/device/personManage/7', titleKey: 'route.devicePersons' },
    { path: '/gone', titleKey: 'route.gone' },
  ];
  const logOnly = filterRoutes(ROUTE_TABLE, { ...NO_RIGHTS, log: 1, is_admin: 1 }, 'normal');
  assert.deepEqual(reachableTags(logOnly, visited), [{ path: '/system/log', titleKey: 'route.log' }]);
  const admin = filterRoutes(ROUTE_TABLE, { ...ALL_RIGHTS, is_admin: 1 }, 'normal');
  assert.deepEqual(
    reachableTags(admin, visited).map((t) => t.path),
    ['/system/manager', '/system/log', '/device/personManage/7'],
  );
});
