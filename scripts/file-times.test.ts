import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

/**
 * The reporter npm test runs beside spec (scripts/file-times.ts), on a real node --test run: each file's time, and each
 * failure with its error, a failing `after` hook included (how a server test file failed in CI with nothing to read).
 */
test('a run records its failures with their errors, not the suites that failed only through them, and each file’s time', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'file-times-'));
  try {
    const file = path.join(dir, 'sample.test.ts');
    fs.writeFileSync(
      file,
      `import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
test('passes', () => {});
test('compares', () => assert.equal(1 + 1, 3, 'arithmetic went wrong'));
describe('a suite whose after hook throws', () => {
  after(() => { throw new Error('closing the app failed: the pool was gone'); });
  test('inside passes', () => {});
});
describe('a suite with a failing test', () => {
  test('inside fails', () => { throw new Error('inner trouble'); });
});
`,
    );
    const { NODE_TEST_CONTEXT: _inner, ...outer } = process.env; // a run of its own, not a file of this one
    const env = { ...outer, TEST_TIMES: path.join(dir, 'times.tsv'), TEST_FAILURES: path.join(dir, 'failures.txt'), TEST_TIMES_LABEL: 'sample' };
    const reporter = [`--test-reporter=${path.join(import.meta.dirname, 'file-times.ts')}`, '--test-reporter-destination=stdout'];
    const r = spawnSync(process.execPath, ['--test', ...reporter, file], { cwd: dir, env, encoding: 'utf8' });
    assert.notEqual(r.status, 0, `the run failed: ${r.stdout}${r.stderr}`);
    const failures = fs.readFileSync(env.TEST_FAILURES, 'utf8');
    const entries = failures.split(/\n(?=\[sample\] )/).map((e) => e.trim());
    const named = entries.map((e) => /^\[sample\] (.*?)  \(/.exec(e)?.[1]);
    assert.deepEqual(named.sort(), ['a suite whose after hook throws', 'compares', 'inside fails'], failures);
    assert.match(
      entries.find((e) => e.includes('] compares'))!,
      /arithmetic went wrong/,
    );
    assert.match(
      entries.find((e) => e.includes('after hook throws'))!,
      /hookFailed\n\s+Error: closing the app failed: the pool was gone/,
    );
    assert.match(
      entries.find((e) => e.includes('inside fails'))!,
      /sample\.test\.ts:10/,
    );
    assert.ok(!failures.includes('a suite with a failing test'), 'a suite failing through its test adds no entry');
    assert.match(fs.readFileSync(env.TEST_TIMES, 'utf8'), /^sample\t\d+\tsample\.test\.ts$/m);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
