import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CODES } from '@faceadmin/shared';
import { clock, zonedToUtcMs } from '../../lib/time.ts';
import { call, DIALECT, makeApp, register, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
before(async () => (t = await makeApp()));
after(() => t.close());

test('a wall-clock time in a zone names the right instant, across DST both ways', () => {
  assert.equal(new Date(zonedToUtcMs('2026-01-02', 'Asia/Shanghai')).toISOString(), '2026-01-01T16:00:00.000Z');
  assert.equal(new Date(zonedToUtcMs('2026-07-01 09:30', 'America/New_York')).toISOString(), '2026-07-01T13:30:00.000Z');
  assert.equal(new Date(zonedToUtcMs('2026-01-01 09:30', 'America/New_York')).toISOString(), '2026-01-01T14:30:00.000Z');
  // Berlin springs forward on 2026-03-29 (02:00 → 03:00) and falls back on 2026-10-25.
  assert.equal(new Date(zonedToUtcMs('2026-03-29', 'Europe/Berlin')).toISOString(), '2026-03-28T23:00:00.000Z');
  assert.equal(new Date(zonedToUtcMs('2026-03-30', 'Europe/Berlin')).toISOString(), '2026-03-29T22:00:00.000Z');
  assert.equal(new Date(zonedToUtcMs('2026-10-26', 'Europe/Berlin')).toISOString(), '2026-10-25T23:00:00.000Z');
  assert.equal(new Date(zonedToUtcMs('2026-05-05 12:00:00', 'UTC')).toISOString(), '2026-05-05T12:00:00.000Z');
});

test(`a company has a time zone: given at creation (the browser's), editable, refused when unknown, in the session (${DIALECT})`, async () => {
  const token = await register(t, 'tzowner');
  const bad = await call(t.app, 'POST', '/company/create', { token, lang: 'en-US', body: { name: 'Mars Co', phone: '123456', time_zone: 'Mars/Olympus' } });
  assert.equal(bad.code, CODES.RULE);
  assert.deepEqual(bad.data, { field: 'time_zone' });
  assert.equal((await call(t.app, 'GET', '/company/list', { token })).data.total, 0, 'nothing created');
  const made = await call(t.app, 'POST', '/company/create', { token, body: { name: 'Tokyo Co', phone: '123456', time_zone: 'Asia/Tokyo' } });
  assert.equal(made.code, CODES.OK);
  assert.equal(made.data.time_zone, 'Asia/Tokyo');
  assert.equal((await call(t.app, 'GET', '/user/info', { token })).data.time_zone, 'Asia/Tokyo');
  const edited = await call(t.app, 'POST', '/company/update', { token, body: { name: 'Tokyo Co', phone: '123456', time_zone: 'Europe/Berlin' } });
  assert.equal(edited.data.time_zone, 'Europe/Berlin');
  // Omitted on edit: kept.
  const kept = await call(t.app, 'POST', '/company/update', { token, body: { name: 'Tokyo Co 2', phone: '123456' } });
  assert.equal(kept.data.time_zone, 'Europe/Berlin');
  const other = await register(t, 'tzdefault');
  const def = await call(t.app, 'POST', '/company/create', { token: other, body: { name: 'Default Co', phone: '123456' } });
  assert.equal(def.data.time_zone, 'Asia/Shanghai');
});

test(`the log's date filter means days in the company's zone (${DIALECT})`, async () => {
  // 2026-03-10 20:00 UTC is already 2026-03-11 07:00 in Sydney.
  const realNow = clock.now;
  clock.now = () => Date.parse('2026-03-10T20:00:00Z');
  try {
    const token = await register(t, 'tzlogs');
    await call(t.app, 'POST', '/company/create', { token, body: { name: 'Sydney Co', phone: '123456', time_zone: 'Australia/Sydney' } });
    const created = async (day: string) =>
      (await call(t.app, 'GET', '/log/list', { token, query: { from: day, to: day } })).data.items.filter(
        (i: { action: string }) => i.action === 'company.create',
      ).length;
    assert.equal(await created('2026-03-11'), 1, 'on the 11th, Sydney time');
    assert.equal(await created('2026-03-10'), 0, 'not on the 10th, which it is only in UTC');
  } finally {
    clock.now = realNow;
  }
});
