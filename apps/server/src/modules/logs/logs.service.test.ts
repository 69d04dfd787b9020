import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scrub } from './logs.service.ts';

test('log data loses secrets at any depth', () => {
  assert.deepEqual(scrub({ name: 'a', password: 'x', nested: { repassword: 'y', token: 't', keep: 1 }, list: [{ smscode: '1', ok: 2 }] }), {
    name: 'a',
    nested: { keep: 1 },
    list: [{ ok: 2 }],
  });
});
