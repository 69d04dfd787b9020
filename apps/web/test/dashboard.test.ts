import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alarmLink, bigLayout, bigSpace, bigText, hm, resultLink } from '../src/features/dashboard/logic.ts';

test('a figure opens the day results of its date and status', () => {
  assert.equal(resultLink('2026-11-26', 'late'), '/attendance/result?date=2026-11-26&status=late');
  assert.equal(resultLink('2026-11-26', 'notYetDue'), '/attendance/result?date=2026-11-26&status=pending');
  assert.equal(resultLink('2026-11-26'), '/attendance/result?date=2026-11-26');
});

test('the big screen is laid out for its window: its share of the 1920×1080 design, and no text under 14 px', () => {
  assert.deepEqual(bigLayout(1920, 1080), { k: 1, narrow: false });
  assert.deepEqual(bigLayout(3840, 2160), { k: 2, narrow: false });
  const laptop = bigLayout(1366, 768);
  assert.equal(laptop.narrow, false);
  assert.ok(Math.abs(laptop.k - 768 / 1080) < 1e-9, 'the shorter side decides');
  // the design's 16 px axis labels would be 11.4 px there: 14
  assert.equal(bigText(16, laptop.k), 14);
  assert.equal(bigText(40, laptop.k), 28);
  assert.equal(bigText(16, 2), 32, 'at 3840×2160 every text is twice its design size');
  assert.equal(bigLayout(390, 844).narrow, true, 'a phone stacks the panels');
  assert.deepEqual(bigLayout(2160, 3840), { k: 2, narrow: true }, 'so does a portrait screen, its type as large as its width allows');
  assert.equal(bigLayout(390, 844).k, 0.75);
  assert.equal(bigSpace(16, laptop.k), 11);
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
