import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_RIGHTS, NO_RIGHTS, type Device, type OrgPersonsNode } from '@faceadmin/shared';
import { filterRoutes, findRoute, flattenRoutes, ROUTE_TABLE } from '../src/app/routes/routeTable.ts';
import {
  changedKeys,
  deviceToValues,
  emptyDeviceValues,
  formatTzOffset,
  isValidIp,
  needsRefresh,
  peopleOutside,
  pickedToBody,
  pickerTree,
  rosterApplyRows,
  rosterChoices,
  rosterValidity,
  siteFace,
  siteNames,
  syncText,
  topDepartments,
  TZ_OFFSETS,
  valuesToDeviceBody,
} from '../src/features/devices/logic.ts';
import { measure, punchParams } from '../src/features/punches/logic.ts';

const paths = (rights: Partial<typeof ALL_RIGHTS>) =>
  flattenRoutes(filterRoutes(ROUTE_TABLE, { ...NO_RIGHTS, ...rights, is_admin: 1 }, 'normal')).map((r) => r.path);

test('/device needs rights.face, /attendance needs rights.attendance', () => {
  assert.ok(paths({ face: 1 }).includes('/device/list'));
  assert.ok(paths({ face: 1 }).includes('/device/personManage/:id'));
  assert.ok(!paths({ face: 1 }).includes('/attendance/list'));
  assert.ok(paths({ attendance: 1 }).includes('/attendance/list'));
  assert.ok(!paths({ attendance: 1 }).includes('/device'));
  assert.ok(!flattenRoutes(filterRoutes(ROUTE_TABLE, { ...ALL_RIGHTS, is_admin: 0 }, 'normal')).some((r) => r.path.startsWith('/device')));
});

test('personManage/:id is hidden and matches a device id; /device redirects to the list', () => {
  const routes = filterRoutes(ROUTE_TABLE, { ...ALL_RIGHTS, is_admin: 1 }, 'normal');
  const pm = findRoute(routes, '/device/personManage/12');
  assert.equal(pm?.page, 'devicePersons');
  assert.equal(pm?.hidden, true);
  assert.equal(routes.find((r) => r.path === '/device')?.redirect, '/device/list');
  assert.equal(routes.find((r) => r.path === '/attendance')?.redirect, '/attendance/list');
});

test('roster/:id (taking over a terminal, issue #30) is hidden, needs rights.face and matches a device id', () => {
  const routes = filterRoutes(ROUTE_TABLE, { ...ALL_RIGHTS, is_admin: 1 }, 'normal');
  const roster = findRoute(routes, '/device/roster/12');
  assert.equal(roster?.page, 'deviceRoster');
  assert.equal(roster?.hidden, true);
  assert.ok(!paths({ attendance: 1 }).includes('/device/roster/:id'));
});

test('takeover (the whole site, issue #30) is hidden and needs rights.face; it is not a device id of roster/:id', () => {
  const routes = filterRoutes(ROUTE_TABLE, { ...ALL_RIGHTS, is_admin: 1 }, 'normal');
  const site = findRoute(routes, '/device/takeover');
  assert.equal(site?.page, 'deviceTakeover');
  assert.equal(site?.hidden, true);
  assert.ok(paths({ face: 1 }).includes('/device/takeover'));
  assert.ok(!paths({ attendance: 1 }).includes('/device/takeover'));
});

test("a roster user's validity: always, from, until or between, to the minute", () => {
  assert.deepEqual(rosterValidity('', ''), { kind: 'always', from: '', to: '' });
  assert.deepEqual(rosterValidity('2026-01-01 08:00:00', ''), { kind: 'from', from: '2026-01-01 08:00', to: '' });
  assert.deepEqual(rosterValidity('', '2026-12-31 23:59:59'), { kind: 'until', from: '', to: '2026-12-31 23:59' });
  assert.equal(rosterValidity('2026-01-01 08:00:00', '2026-12-31 23:59:59').kind, 'range');
});

test('applying a roster: new users are created, the same person linked, conflicts and same names left on the terminal unless chosen otherwise', () => {
  const rows = [
    { pin: '1', match: 'new', person_id: null, kind: 'normal' },
    { pin: '2', match: 'matched', person_id: 7, kind: 'normal' },
    { pin: '3', match: 'conflict', person_id: 8, kind: 'normal' },
    { pin: '4', match: 'byName', person_id: 9, kind: 'normal' },
    { pin: '5', match: 'new', person_id: null, kind: 'visitor' },
  ] as const;
  const r = rosterApplyRows(rows);
  assert.deepEqual(r.rows, [
    { pin: '1', action: 'create' },
    { pin: '2', action: 'link', person_id: 7 },
    { pin: '3', action: 'skip' },
    { pin: '4', action: 'skip' },
    { pin: '5', action: 'skip' },
  ]);
  assert.deepEqual([r.create, r.link, r.skip], [1, 1, 3]);
  // Each row's own choice, where it is allowed: a same-name user made a person of its own, a new one left, the same
  // person left; a conflict cannot be created (its number is taken), a visitor never becomes staff.
  const chosen = rosterApplyRows(rows, { '1': 'skip', '2': 'skip', '3': 'create', '4': 'create', '5': 'create' });
  assert.deepEqual(
    chosen.rows.map((x) => x.action),
    ['skip', 'skip', 'skip', 'create', 'skip'],
  );
  assert.deepEqual(rosterChoices(rows[3]), ['skip', 'create']);
  assert.deepEqual(rosterChoices(rows[2]), ['skip']);
});

test("the site's review: a number the terminals hold under different names, or whose name another number holds, stays unless chosen otherwise", () => {
  const rows = [
    { pin: '1', match: 'new', person_id: null, kind: 'normal', split: false, twins: [] },
    { pin: '2', match: 'new', person_id: null, kind: 'normal', split: true, twins: [] },
    { pin: '3', match: 'new', person_id: null, kind: 'normal', split: false, twins: ['4'] },
    { pin: '5', match: 'matched', person_id: 7, kind: 'normal', split: true, twins: [] },
    { pin: '6', match: 'conflict', person_id: 8, kind: 'normal', split: true, twins: [] },
  ] as const;
  assert.deepEqual(
    rosterApplyRows(rows).rows.map((x) => x.action),
    ['create', 'skip', 'skip', 'skip', 'skip'],
  );
  assert.deepEqual(rosterChoices(rows[1]), ['skip', 'create']);
  assert.deepEqual(rosterChoices(rows[3]), ['skip', 'link']);
  assert.deepEqual(rosterChoices(rows[4]), ['skip']);
  // chosen by hand: the split number made a person, the same person linked after all
  assert.deepEqual(rosterApplyRows(rows, { '2': 'create', '5': 'link' }).rows.slice(1, 4), [
    { pin: '2', action: 'create' },
    { pin: '3', action: 'skip' },
    { pin: '5', action: 'link', person_id: 7 },
  ]);
});

test("a site row's face is the terminal's a new person takes, else the first terminal holding one; its names per terminal", () => {
  const terminals = [
    { id: 1, name: 'Gate', user_name: 'Ann Lee', face_url: '' },
    { id: 2, name: 'Door', user_name: 'Ann Li', face_url: '/f/2' },
    { id: 3, name: 'Lift', user_name: '', face_url: '/f/3' },
  ];
  assert.equal(siteFace({ face_from: 3, terminals })?.id, 3);
  assert.equal(siteFace({ face_from: null, terminals })?.id, 2);
  assert.equal(siteFace({ face_from: 1, terminals })?.id, 2, 'the chosen terminal shows no face: the first that does');
  assert.equal(siteFace({ face_from: null, terminals: terminals.slice(0, 1) }), undefined);
  assert.equal(siteNames(terminals), 'Gate: Ann Lee · Door: Ann Li · Lift: —');
});

test('IP validation: dotted quads up to 255, IPv6 literals', () => {
  assert.ok(isValidIp('192.168.1.20'));
  assert.ok(isValidIp(' 10.0.0.1 '));
  assert.ok(isValidIp('fe80::1'));
  assert.ok(!isValidIp('192.168.1.256'));
  assert.ok(!isValidIp('192.168.1'));
  assert.ok(!isValidIp('6.48.807.05'), 'a part above 255');
  assert.ok(!isValidIp('10.0.0.05'), 'a leading zero');
  assert.ok(!isValidIp('device.local'));
  assert.ok(!isValidIp(''));
});

const device = {
  id: 3,
  name: 'Gate',
  serial: 'ABC123',
  ip: '10.0.0.5',
  account: 'admin',
  capacity: 3000,
  direction: 'out',
  attendance: 1,
  attendance_scope: 'all',
  restrict_inout: 0,
  upload_face_image: 1,
  upload_strangers: 1,
  function_type: 'dualAuth',
  tz_offset: 480,
} as Device;

test('a blank password on edit is left out (the stored one is kept); on create it is sent', () => {
  const v = deviceToValues(device);
  assert.equal(v.password, '');
  assert.equal(v.upload_strangers, true);
  const edit = valuesToDeviceBody({ ...v, name: ' Gate 2 ' }, true);
  assert.equal(edit.name, 'Gate 2');
  assert.ok(!('password' in edit));
  assert.equal(edit.function_type, 'dualAuth');
  assert.equal(edit.upload_strangers, 1);
  assert.equal(valuesToDeviceBody({ ...v, password: 'secret' }, true).password, 'secret');
  const create = valuesToDeviceBody({ ...emptyDeviceValues(60), name: 'A', serial: 'S1', ip: '1.2.3.4', password: 'x' }, false);
  assert.deepEqual(
    { password: create.password, tz: create.tz_offset, attendance: create.attendance, scope: create.attendance_scope },
    { password: 'x', tz: 60, attendance: 1, scope: 'selected' },
  );
});

test('an ISAPI terminal is sent with its protocol and port; a ZK one without a port', () => {
  const isapi = valuesToDeviceBody(
    { ...emptyDeviceValues(480), protocol: 'isapi', name: 'Gate', serial: 'HK1', ip: '10.0.0.5', port: 8080, account: 'admin', password: 'x' },
    false,
  );
  assert.deepEqual({ protocol: isapi.protocol, port: isapi.port, account: isapi.account }, { protocol: 'isapi', port: 8080, account: 'admin' });
  const zk = valuesToDeviceBody({ ...emptyDeviceValues(480), name: 'Gate', serial: 'ZK1', ip: '10.0.0.6', password: 'x' }, false);
  assert.equal(zk.protocol, 'zk-push');
  assert.ok(!('port' in zk));
  assert.equal(deviceToValues({ ...device, protocol: 'isapi', port: 81 }).port, 81);
});

test('sync summary and auto-refresh', () => {
  assert.deepEqual(syncText({ total: 5, synced: 3, pending: 1, failed: 1 }), { text: '3/5', failed: 1, pending: 1 });
  assert.equal(needsRefresh([{ state: 'synced', removing: false }]), false);
  assert.equal(needsRefresh([{ state: 'pending', removing: false }]), true);
  assert.equal(needsRefresh([{ state: 'synced', removing: true }]), true);
  assert.equal(needsRefresh([], { total: 1, synced: 0, pending: 1, failed: 0 }), true);
  assert.equal(needsRefresh([{ state: 'failed', removing: false }], { total: 1, synced: 0, pending: 0, failed: 1 }), false);
});

test('only changed settings are sent', () => {
  assert.deepEqual(changedKeys({ a: 1, b: 'x', c: 3 }, { a: 1, b: 'y', c: 4 }), { b: 'y', c: 4 });
  assert.deepEqual(changedKeys<{ a?: number; ip?: string }>({ a: 1 }, { a: undefined, ip: undefined }), {});
  assert.deepEqual(changedKeys<{ ip?: string }>({ ip: '1.1.1.1' }, { ip: '' }), { ip: '' }, 'clearing a value is a change');
  assert.deepEqual(changedKeys<{ ip?: string }>({}, { ip: '' }), {});
});

test('time zones', () => {
  assert.equal(formatTzOffset(480), 'UTC+08:00');
  assert.equal(formatTzOffset(-570), 'UTC-09:30');
  assert.equal(formatTzOffset(0), 'UTC+00:00');
  assert.ok(TZ_OFFSETS.includes(330) && TZ_OFFSETS.includes(-720) && TZ_OFFSETS.includes(840));
  assert.deepEqual(
    TZ_OFFSETS,
    [...TZ_OFFSETS].sort((a, b) => a - b),
  );
});

const org: OrgPersonsNode[] = [
  {
    id: 1,
    name: 'HQ',
    persons: [{ id: 10, number: '1', name: 'Ann' }],
    children: [
      { id: 2, name: 'R&D', persons: [{ id: 11, number: '2', name: 'Bob' }], children: [] },
      { id: 3, name: 'Sales', persons: [{ id: 12, number: '3', name: 'Cy' }], children: [] },
    ],
  },
];

test('the people picker: departments and people, only the topmost checked departments are sent', () => {
  const tree = pickerTree(org);
  assert.equal(tree[0]?.key, 'd1');
  assert.deepEqual(
    tree[0]?.children?.map((c) => c.key),
    ['d2', 'd3', 'p10:d1'],
  );
  // everything under HQ checked: HQ alone is enough
  const all = pickedToBody(['d1', 'd2', 'd3', 'p10:d1', 'p11:d2', 'p12:d3']);
  const depts = topDepartments(org, new Set(all.department_ids));
  assert.deepEqual(depts, [1]);
  assert.deepEqual(peopleOutside(org, new Set(depts), new Set(all.person_ids)), []);
  // R&D plus Cy on her own
  const some = pickedToBody(['d2', 'p11:d2', 'p12:d3']);
  const d2 = topDepartments(org, new Set(some.department_ids));
  assert.deepEqual(d2, [2]);
  assert.deepEqual(peopleOutside(org, new Set(d2), new Set(some.person_ids)), [12]);
});

test("punch filters: empty ones left out (dates are the company's days: no browser offset sent)", () => {
  assert.deepEqual(punchParams({}), {});
  assert.deepEqual(punchParams({ keyword: '  ann ', device_id: 3, from: '2026-01-01', to: '2026-01-31', stranger: 1 }), {
    keyword: 'ann',
    device_id: 3,
    from: '2026-01-01',
    to: '2026-01-31',
    stranger: 1,
  });
  assert.deepEqual(punchParams({ keyword: ' ', stranger: 0 }), {});
  assert.equal(measure(null, 1, ' °C'), '');
  assert.equal(measure(36.56, 1, ' °C'), '36.6 °C');
  assert.equal(measure(0, 2, ''), '0.00');
});
