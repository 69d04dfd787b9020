import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_RIGHTS, NO_RIGHTS, type DepartmentNode, type Person } from '@faceadmin/shared';
import { filterRoutes, flattenRoutes, ROUTE_TABLE } from '../src/app/routes/routeTable.ts';
import { dropPlaceOf, pathTo, planMove } from '../src/features/departments/tree.ts';
import { COLUMNS_STORAGE_KEY, loadHiddenColumns, saveHiddenColumns, toggleColumn } from '../src/features/persons/columns.ts';
import {
  adminPasswordRequired,
  canAddPeriod,
  formFieldOf,
  periodProblems,
  personToValues,
  portraitCrop,
  SYNC_FOLLOW,
  syncFollowInterval,
  valuesToBody,
} from '../src/features/persons/logic.ts';
import { importFileProblem } from '../src/ui/importFile.ts';

const paths = (person: number) => flattenRoutes(filterRoutes(ROUTE_TABLE, { ...NO_RIGHTS, person, is_admin: 1 }, 'normal')).map((r) => r.path);

test('the /user section needs rights.person ≥ 1 (spec §2, §6)', () => {
  assert.ok(paths(1).includes('/user/organization') && paths(1).includes('/user/list'));
  assert.ok(!paths(0).includes('/user') && !paths(0).includes('/user/list'));
  const noAdmin = flattenRoutes(filterRoutes(ROUTE_TABLE, { ...ALL_RIGHTS, is_admin: 0 }, 'normal')).map((r) => r.path);
  assert.ok(!noAdmin.includes('/user/list'));
});

// ---- access periods ----

test('periods: start before end, HH:mm, no overlap', () => {
  assert.deepEqual(periodProblems([{ start: '08:00', end: '12:00' }]), [null]);
  assert.deepEqual(periodProblems([{ start: '18:00', end: '09:00' }]), ['order']);
  assert.deepEqual(periodProblems([{ start: '09:00', end: '09:00' }]), ['order']);
  assert.deepEqual(periodProblems([{ start: '09:00' }]), ['required']);
  assert.deepEqual(periodProblems([{ start: '9:00', end: '10:00' }]), ['pattern']);
  assert.deepEqual(periodProblems([{ start: '24:00', end: '10:00' }]), ['pattern']);
  assert.deepEqual(
    periodProblems([
      { start: '08:00', end: '12:00' },
      { start: '11:00', end: '13:00' },
      { start: '14:00', end: '18:00' },
    ]),
    ['overlap', 'overlap', null],
  );
  // touching periods do not overlap
  assert.deepEqual(
    periodProblems([
      { start: '08:00', end: '12:00' },
      { start: '12:00', end: '13:00' },
    ]),
    [null, null],
  );
});

test('at most three periods', () => {
  assert.equal(canAddPeriod(2), true);
  assert.equal(canAddPeriod(3), false);
});

// ---- department tree drag and drop ----

const node = (id: number, name: string, parent_id: number, children: DepartmentNode[] = [], sort = 0): DepartmentNode => ({
  id,
  name,
  parent_id,
  sort,
  persons: 0,
  total: 0,
  incharges: [],
  children,
});
// HQ(1) → R&D(2) → Lab(4); HQ → Sales(3); Other(5) at the top
const tree = [node(1, 'HQ', 0, [node(2, 'R&D', 1, [node(4, 'Lab', 2)]), node(3, 'Sales', 1)]), node(5, 'Other', 0)];

test('drop position from antd onDrop info', () => {
  assert.equal(dropPlaceOf({ dropToGap: false, dropPosition: 1, pos: '0-0-1' }), 'inside');
  assert.equal(dropPlaceOf({ dropToGap: true, dropPosition: 0, pos: '0-0-1' }), 'before');
  assert.equal(dropPlaceOf({ dropToGap: true, dropPosition: 2, pos: '0-0-1' }), 'after');
  assert.equal(dropPlaceOf({ dropToGap: true, dropPosition: -1, pos: '0-0' }), 'before');
});

test('dropping into a department makes it the new parent, last among its children', () => {
  assert.deepEqual(planMove(tree, 3, 2, 'inside'), { id: 3, parent_id: 2, sort: 1, siblings: [] });
  assert.deepEqual(planMove(tree, 4, 5, 'inside'), { id: 4, parent_id: 5, sort: 0, siblings: [] });
});

test('dropping between siblings reorders them', () => {
  // Sales before R&D under HQ
  assert.deepEqual(planMove(tree, 3, 2, 'before'), { id: 3, parent_id: 1, sort: 0, siblings: [{ id: 2, sort: 1 }] });
  // Lab after HQ at the top level: HQ, Lab, Other
  assert.deepEqual(planMove(tree, 4, 1, 'after'), { id: 4, parent_id: 0, sort: 1, siblings: [{ id: 5, sort: 2 }] });
});

test('a drop that changes nothing is no move', () => {
  assert.equal(planMove(tree, 3, 2, 'after'), null);
  assert.equal(planMove(tree, 2, 2, 'inside'), null);
  assert.equal(planMove(tree, 4, 2, 'inside'), null);
  assert.equal(planMove(tree, 99, 2, 'inside'), null);
});

test('moves under a descendant are planned anyway: the server refuses them with a message', () => {
  assert.equal(planMove(tree, 1, 4, 'inside')?.parent_id, 4);
  assert.deepEqual(pathTo(tree, 4), [1, 2, 4]);
});

// ---- column settings ----

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

test('hidden columns persist and come back', () => {
  const s = memoryStorage();
  assert.deepEqual(loadHiddenColumns(s), []);
  saveHiddenColumns(s, ['rfid', 'phone']);
  assert.deepEqual(loadHiddenColumns(s), ['phone', 'rfid']);
});

test('number and name cannot be hidden; junk in storage is ignored', () => {
  assert.deepEqual(toggleColumn([], 'number', false), []);
  assert.deepEqual(toggleColumn(['rfid'], 'rfid', true), []);
  assert.deepEqual(toggleColumn([], 'tags', false), ['tags']);
  assert.deepEqual(loadHiddenColumns(memoryStorage({ [COLUMNS_STORAGE_KEY]: '["name","nope","photo"]' })), ['photo']);
  assert.deepEqual(loadHiddenColumns(memoryStorage({ [COLUMNS_STORAGE_KEY]: '{not json' })), []);
  assert.deepEqual(loadHiddenColumns(undefined), []);
});

// ---- person form ↔ API body ----

const person: Person = {
  id: 7,
  number: '1001',
  name: 'Alice',
  phone: '13800000000',
  description: '',
  organizations: [{ id: 2, name: 'R&D' }],
  pic: 'abc.jpg',
  pic_url: '/api/management/person/pic/7?v=1',
  rfid: '',
  idcard: '',
  address: '',
  workStatus: 1,
  notify: 0,
  joined_on: null,
  gender: 'female',
  access: { from: '2026-01-01', to: null, periods: [{ start: '08:00', end: '18:00' }] },
  has_door_password: true,
  remote_open: 0,
  is_admin: 1,
  has_admin_password: true,
  incharges: [{ id: 2, name: 'R&D' }],
  feature_rights: [],
  user_pri: 1,
  sync_status: 0,
  tags: ['admin', 'manager', 'working'],
  created_at: '',
  updated_at: '',
};

test('blank passwords are kept (omitted), "clear" sends an empty door password', () => {
  const v = personToValues(person);
  const body = valuesToBody(v, person);
  assert.equal('door_password' in body, false);
  assert.equal('admin_password' in body, false);
  assert.deepEqual(body.access, { from: '2026-01-01', to: null, periods: [{ start: '08:00', end: '18:00' }] });
  assert.equal(body.is_admin, 1);
  assert.deepEqual(body.incharges, [2]);
  assert.equal(valuesToBody({ ...v, clear_door_password: true }, person).door_password, '');
  assert.equal(valuesToBody({ ...v, door_password: ' 1234 ' }, person).door_password, '1234');
  assert.equal(valuesToBody({ ...v, admin_password: '5678' }, person).admin_password, '5678');
  assert.equal('admin_password' in valuesToBody({ ...v, is_admin: false, admin_password: '5678' }, person), false);
});

test('the gender goes back as stored; "not said" is sent as null, which clears it', () => {
  const v = personToValues(person);
  assert.equal(v.gender, 'female');
  assert.equal(valuesToBody(v, person).gender, 'female');
  assert.equal(valuesToBody({ ...v, gender: '' }, person).gender, null);
  assert.equal(personToValues({ ...person, gender: null }).gender, '');
});

test('the management password is required when switching on without a stored one', () => {
  assert.equal(adminPasswordRequired(true, undefined), true);
  assert.equal(adminPasswordRequired(true, { has_admin_password: true }), false);
  assert.equal(adminPasswordRequired(false, undefined), false);
});

test('server field names map onto form fields', () => {
  assert.equal(formFieldOf('admin_password'), 'admin_password');
  assert.equal(formFieldOf('/organizations/0'), 'organizations');
  assert.equal(formFieldOf('access'), 'accessRange');
  assert.equal(formFieldOf('access.periods[0].start'), 'accessRange');
});

test('portrait crop keeps 3:4 and the upper part of tall pictures', () => {
  assert.deepEqual(portraitCrop(800, 600), { sx: 175, sy: 0, sw: 450, sh: 600, dw: 450, dh: 600 });
  const tall = portraitCrop(600, 1200);
  assert.deepEqual([tall.sw, tall.sh, tall.sx, tall.sy], [600, 800, 0, 133]);
  const big = portraitCrop(3000, 4000);
  assert.deepEqual([big.dw, big.dh], [960, 1280]);
});

test('import file: .xlsx only, at most 2 MB', () => {
  assert.equal(importFileProblem({ name: 'people.xlsx', size: 1000 }), null);
  assert.equal(importFileProblem({ name: 'PEOPLE.XLSX', size: 2 * 1024 * 1024 }), null);
  assert.equal(importFileProblem({ name: 'people.xls', size: 1000 }), 'type');
  assert.equal(importFileProblem({ name: 'people.csv', size: 1000 }), 'type');
  assert.equal(importFileProblem({ name: 'people.xlsx', size: 2 * 1024 * 1024 + 1 }), 'size');
});

test('after a change the people list follows sync states while working people are not synced, for a while', () => {
  const rows = (...s: [number, number][]) => s.map(([sync_status, workStatus]) => ({ sync_status, workStatus }));
  const now = 1_000_000;
  const justNow = now - 1000;
  assert.equal(syncFollowInterval(rows([0, 1], [1, 1]), justNow, now), SYNC_FOLLOW.everyMs);
  // nothing left to wait for: all synced or failed, or the only unsynced person has left
  assert.equal(syncFollowInterval(rows([1, 1], [2, 1]), justNow, now), false);
  assert.equal(syncFollowInterval(rows([0, 0], [1, 1]), justNow, now), false);
  // nothing changed in this tab, or long ago
  assert.equal(syncFollowInterval(rows([0, 1]), 0, now), false);
  assert.equal(syncFollowInterval(rows([0, 1]), now - SYNC_FOLLOW.forMs - 1, now), false);
});

test('the organization page keeps its own column choice, phone, card and update time hidden at first', () => {
  const s = memoryStorage({});
  assert.deepEqual(loadHiddenColumns(s, 'organization'), ['phone', 'rfid', 'updated_at']);
  saveHiddenColumns(s, ['tags'], 'organization');
  assert.deepEqual(loadHiddenColumns(s, 'organization'), ['tags']);
  assert.deepEqual(loadHiddenColumns(s, 'list'), []);
  saveHiddenColumns(s, [], 'organization');
  assert.deepEqual(loadHiddenColumns(s, 'organization'), []);
});
