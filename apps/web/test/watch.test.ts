import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  acrossBuildings,
  alarmTempOf,
  atDoors,
  buildingDepartments,
  directionOf,
  isHourMinute,
  mergeRecognitions,
  parseDoors,
  ringsFor,
  verdictOf,
  withPhoto,
  type Recognition,
} from '../src/features/watch/logic.ts';

const rec = (over: Partial<Recognition> = {}): Recognition => ({
  id: 1,
  person_id: 7,
  number: 'A1',
  name: 'Ann',
  device_id: 3,
  device: 'Gate',
  direction: 'in',
  day: '2026-11-20',
  time: '08:00:00',
  utc: '2026-11-20T00:00:00.000Z',
  status: 0,
  verify: 15,
  temperature: null,
  mask: null,
  alcohol: null,
  alcohol_over: false,
  pic_url: '',
  stranger: false,
  result: null,
  ...over,
});

test('the verdict: green pass; red for a stranger, a fever at the alarm temperature, alcohol over, a red code; amber for yellow', () => {
  assert.deepEqual(verdictOf(rec(), 37.3), { verdict: 'pass', reasons: [] });
  assert.deepEqual(verdictOf(rec({ stranger: true, person_id: null }), 37.3), { verdict: 'alarm', reasons: ['stranger'] });
  assert.equal(verdictOf(rec({ temperature: 37.2 }), 37.3).verdict, 'pass');
  assert.deepEqual(verdictOf(rec({ temperature: 37.3 }), 37.3), { verdict: 'alarm', reasons: ['fever'] }, 'at the alarm temperature');
  assert.equal(verdictOf(rec({ temperature: 37.5 }), 38).verdict, 'pass', "the device's own alarm temperature");
  assert.deepEqual(verdictOf(rec({ alcohol: 40, alcohol_over: true }), 37.3).reasons, ['alcohol']);
  assert.deepEqual(verdictOf(rec({ health: 'red' }), 37.3), { verdict: 'alarm', reasons: ['redCode'] });
  assert.deepEqual(verdictOf(rec({ health: 'yellow' }), 37.3), { verdict: 'warn', reasons: ['yellowCode'] });
  assert.equal(verdictOf(rec({ health: 'green' }), 37.3).verdict, 'pass');
  assert.equal(verdictOf(rec({ health: 'yellow', temperature: 38 }), 37.3).verdict, 'alarm', 'the worse wins');
  assert.equal(ringsFor(rec({ stranger: true }), 37.3), true);
  assert.equal(ringsFor(rec({ health: 'yellow' }), 37.3), false, 'amber does not ring');
  assert.equal(alarmTempOf({ alarmTemp: 37.8 }), 37.8);
  assert.equal(alarmTempOf({}), 37.3, 'the terminal default');
});

test('the history: newest first, at most 50, a known id updated in place, a photo kept', () => {
  const list = Array.from({ length: 30 }, (_, i) => rec({ id: i + 1, utc: `2026-11-20T00:${String(i).padStart(2, '0')}:00.000Z`, pic_url: `/p/${i + 1}` }));
  const live = Array.from({ length: 30 }, (_, i) => rec({ id: 100 + i, utc: `2026-11-20T01:${String(i).padStart(2, '0')}:00.000Z` }));
  const merged = mergeRecognitions(list, live);
  assert.equal(merged.length, 50);
  assert.equal(merged[0]!.id, 129);
  assert.equal(merged.at(-1)!.id, 11, 'the oldest fall off');
  // The live event of a listed punch brings the face and department and keeps the photo already there.
  const again = mergeRecognitions(list, [rec({ id: 30, utc: list[29]!.utc, face_url: '/face/7', department: 'Ops', pic_url: '' })]);
  assert.equal(again[0]!.id, 30);
  assert.equal(again[0]!.pic_url, '/p/30');
  assert.equal(again[0]!.face_url, '/face/7');
  assert.equal(again[0]!.department, 'Ops');
  assert.equal(again.length, 30);
  // The capture photo that follows the punch.
  const shown = withPhoto([rec({ id: 5 })], 5, '/attendance/photo/5');
  assert.equal(shown[0]!.pic_url, '/attendance/photo/5');
  assert.deepEqual(withPhoto([rec({ id: 5 })], 6, '/x'), [rec({ id: 5 })]);
});

test('doors: a desk watches the chosen ones or all; directions from the punch, else the device', () => {
  const h = [rec({ id: 1, device_id: 1 }), rec({ id: 2, device_id: 2 })];
  assert.deepEqual(
    atDoors(h, []).map((r) => r.id),
    [1, 2],
  );
  assert.deepEqual(
    atDoors(h, [2]).map((r) => r.id),
    [2],
  );
  const devices = new Map([[9, 'out']]);
  assert.equal(directionOf({ direction: 'out', device_id: 1 }, devices), 'out');
  assert.equal(directionOf({ direction: '', device_id: 9 }, devices), 'out');
  assert.equal(directionOf({ direction: '', device_id: 1 }, devices), 'in');
  assert.deepEqual(parseDoors([3, 3, 'x', -1, 2.5, 4]), [3, 4]);
  assert.deepEqual(parseDoors('nope'), []);
});

test('dormitory helpers: real hours only; a building and its sub-departments; names across buildings once', () => {
  for (const ok of ['00:00', '23:59', '07:30']) assert.ok(isHourMinute(ok), ok);
  for (const bad of ['24:00', '23:60', '7:30', '']) assert.ok(!isHourMinute(bad), bad);
  const depts = [
    { id: 1, parent_id: 0 },
    { id: 2, parent_id: 1 },
    { id: 3, parent_id: 2 },
    { id: 4, parent_id: 0 },
  ];
  assert.deepEqual([...buildingDepartments(depts, [1])].sort(), [1, 2, 3]);
  assert.deepEqual([...buildingDepartments(depts, [4])], [4]);
  const bob = { person_id: 2, name: 'Bob', time: '2026-11-20T12:00:00.000Z' };
  const ann = { person_id: 1, name: 'Ann', time: '2026-11-20T11:00:00.000Z' };
  const out = acrossBuildings([
    { name: 'North', people: [bob] },
    { name: 'South', people: [ann, bob] },
  ]);
  assert.deepEqual(
    out.map((p) => [p.name, p.building]),
    [
      ['Ann', 'South'],
      ['Bob', 'North'],
    ],
  );
});
