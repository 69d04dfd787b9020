import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDateTime, setDisplayTimeZone } from '../src/ui/format.ts';

test("times show in the company's zone, whatever the browser's (issue #9 item 7)", () => {
  const instant = '2026-01-01T16:30:05.000Z';
  setDisplayTimeZone('Asia/Shanghai');
  assert.equal(formatDateTime(instant), '2026-01-02 00:30:05');
  setDisplayTimeZone('America/New_York');
  assert.equal(formatDateTime(instant), '2026-01-01 11:30:05');
  assert.equal(formatDateTime(instant, 'UTC'), '2026-01-01 16:30:05');
  assert.equal(formatDateTime(null), '');
  assert.equal(formatDateTime('not a date'), 'not a date');
});
