import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword, verifyPassword } from './crypto.ts';
import { FailureCounter } from './throttle.ts';
import { clock } from './time.ts';

test('password hashes verify, carry their parameters, and default to the OWASP scrypt cost', async () => {
  const h = await hashPassword('correct horse', 10);
  assert.match(h, /^scrypt\$10\$8\$1\$/);
  assert.equal(await verifyPassword('correct horse', h), true);
  assert.equal(await verifyPassword('wrong horse', h), false);
  assert.equal(await verifyPassword('x', 'garbage'), false);
  assert.match(await hashPassword('p'), /^scrypt\$17\$8\$1\$/);
});

test('failure counter forgets after its window and drops the oldest keys past its cap', () => {
  const real = clock.now;
  let now = 1_000_000;
  clock.now = () => now;
  try {
    const c = new FailureCounter(60_000, 2);
    assert.equal(c.fail('a'), 1);
    assert.equal(c.fail('a'), 2);
    now += 61_000;
    assert.equal(c.count('a'), 0);
    c.fail('a');
    c.fail('b');
    c.fail('c');
    assert.equal(c.count('a'), 0, 'oldest key dropped at the cap');
    assert.equal(c.count('c'), 1);
  } finally {
    clock.now = real;
  }
});
