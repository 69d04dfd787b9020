import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LivePunch, Stranger } from '@faceadmin/shared';
import { fits, fromLive, strangerParams, withArrival, withPhoto } from '../src/features/strangers/logic.ts';

const live = (over: Partial<LivePunch> = {}): LivePunch => ({
  id: 7,
  person_id: null,
  number: '0',
  name: '',
  device_id: 3,
  device: 'Front door',
  direction: 'in',
  day: '2026-11-20',
  time: '09:00:00',
  utc: '2026-11-20T01:00:00.000Z',
  status: 1,
  verify: 15,
  temperature: null,
  mask: null,
  alcohol: null,
  alcohol_over: false,
  pic_url: '',
  stranger: true,
  result: null,
  face_url: '',
  department: '',
  department_ids: [],
  health: null,
  refused: false,
  received_at: '2026-11-20T01:00:01.000Z',
  late: false,
  visitor: null,
  ...over,
});
const page = (items: Stranger[], pageSize = 2) => ({ items, total: items.length, page: 1, pageSize });

test('strangers: only the filters that are set are sent', () => {
  assert.deepEqual(strangerParams({ device_id: 3, from: '2026-11-01', to: '2026-11-30' }), { device_id: 3, from: '2026-11-01', to: '2026-11-30' });
  assert.deepEqual(strangerParams({ from: '', to: '' }), {});
});

test('strangers: a live stranger event in the list shape: an unknown face without a number, a refused person by name', () => {
  const s = fromLive(live());
  assert.equal(s.kind, 'unknown');
  assert.equal(s.number, '');
  assert.equal(s.person_id, null);
  const r = fromLive(live({ number: '5001', name: 'Wang Fang', person_id: 9, refused: true }));
  assert.deepEqual([r.kind, r.name, r.number, r.person_id], ['refused', 'Wang Fang', '5001', 9]);
});

test('strangers: a live arrival joins the first page of matching filters only, once, keeping the page size', () => {
  const s = fromLive(live());
  assert.ok(fits({ page: 1, pageSize: 24 }, s));
  assert.ok(fits({ page: 1, pageSize: 24, device_id: 3, from: '2026-11-20', to: '2026-11-20' }, s));
  assert.ok(!fits({ page: 2, pageSize: 24 }, s), 'not on a later page');
  assert.ok(!fits({ page: 1, pageSize: 24, device_id: 4 }, s), 'another device');
  assert.ok(!fits({ page: 1, pageSize: 24, to: '2026-11-19' }, s), 'outside the days');
  const older = [fromLive(live({ id: 5 })), fromLive(live({ id: 4 }))];
  const next = withArrival(page(older), s)!;
  assert.deepEqual(
    next.items.map((x) => x.id),
    [7, 5],
  );
  assert.equal(next.total, 3);
  assert.equal(withArrival(next, s), next, 'a repeated event changes nothing');
  assert.equal(withArrival(undefined, s), undefined);
});

test('strangers: a photo that follows its record fills the card, once', () => {
  const p = page([fromLive(live())]);
  const next = withPhoto(p, 7, '/api/management/stranger/photo/7')!;
  assert.equal(next.items[0]!.pic_url, '/api/management/stranger/photo/7');
  assert.equal(withPhoto(next, 7, '/other'), next);
  assert.equal(withPhoto(p, 99, '/x'), p, 'not on this page');
});
