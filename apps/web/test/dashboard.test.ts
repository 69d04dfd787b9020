import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alarmLink, fitScale, hm, resultLink } from '../src/features/dashboard/logic.ts';

test('a figure opens the day results of its date and status', () => {
  assert.equal(resultLink('2026-11-26', 'late'), '/attendance/result?date=2026-11-26&status=late');
  assert.equal(resultLink('2026-11-26', 'notYetDue'), '/attendance/result?date=2026-11-26&status=pending');
  assert.equal(resultLink('2026-11-26'), '/attendance/result?date=2026-11-26');
});

test('the big screen fits any window, letterboxed', () => {
  assert.deepEqual(fitScale(1920, 1080), { scale: 1, left: 0, top: 0 });
  const wide = fitScale(3840, 1080); // half the height's scale: bars left and right
  assert.equal(wide.scale, 1);
  assert.equal(wide.left, 960);
  const tall = fitScale(960, 1080);
  assert.equal(tall.scale, 0.5);
  assert.equal(tall.top, 270);
});

test('alarms open what they are about', () => {
  const base = { kind: 'x', subject: 's', device_id: null, breaker_id: null, punch_id: null, value: null, at: '' };
  assert.equal(alarmLink({ ...base, source: 'breaker', breaker_id: 3 }), '/circuitBreaker/3');
  assert.equal(alarmLink({ ...base, source: 'stranger' }), '/stranger');
  assert.equal(alarmLink({ ...base, source: 'temperature' }), '/attendance/list');
});

test('times show in the company zone', () => {
  assert.equal(hm('2026-11-26T01:07:00Z', 'Asia/Shanghai'), '09:07');
});
