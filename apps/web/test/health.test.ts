import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_RIGHTS, NO_RIGHTS } from '@faceadmin/shared';
import { filterRoutes, flattenRoutes, ROUTE_TABLE } from '../src/app/routes/routeTable.ts';
import { alcoholParams, COLOR_TAG, healthParams } from '../src/features/health/logic.ts';
import { receivedSize } from '../src/ui/format.ts';

test('health and alcohol filters: empty ones left out, the rest sent as they are', () => {
  assert.deepEqual(healthParams({}), {});
  assert.deepEqual(healthParams({ keyword: '  ', device_id: 0, color: undefined }), {});
  assert.deepEqual(healthParams({ keyword: ' 赵 ', device_id: 3, from: '2026-11-01', to: '2026-11-30', color: 'red' }), {
    keyword: '赵',
    device_id: 3,
    from: '2026-11-01',
    to: '2026-11-30',
    color: 'red',
  });
  assert.deepEqual(alcoholParams({ over: 0 }), { over: 0 }, 'under the limit is a filter too');
  assert.deepEqual(alcoholParams({ over: 1, keyword: 'x' }), { keyword: 'x', over: 1 });
  assert.deepEqual(alcoholParams({ over: undefined }), {});
});

test('spec §4 colours: green, yellow, red each have a tag colour; export progress reads as a size', () => {
  assert.deepEqual(Object.keys(COLOR_TAG), ['green', 'yellow', 'red']);
  assert.equal(COLOR_TAG.red, 'red');
  assert.equal(receivedSize(0), '0 KB');
  assert.equal(receivedSize(12 * 1024 + 100), '12 KB');
  assert.equal(receivedSize(1.45 * 1024 * 1024), '1.4 MB');
});

test('the health-code and alcohol pages sit under Attendance and need the attendance right', () => {
  const paths = (rights: typeof ALL_RIGHTS) => flattenRoutes(filterRoutes(ROUTE_TABLE, { ...rights, is_admin: 1 }, 'normal')).map((r) => r.path);
  assert.ok(paths(ALL_RIGHTS).includes('/attendance/health'));
  assert.ok(paths(ALL_RIGHTS).includes('/attendance/alcohol'));
  assert.ok(!paths({ ...ALL_RIGHTS, attendance: 0 }).includes('/attendance/health'));
  assert.ok(!paths(NO_RIGHTS).includes('/attendance/alcohol'));
});
