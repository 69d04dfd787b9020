import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureTestSetup } from './test-setup.ts';

/**
 * `npm test`, what CI runs: first the Debian packages the suite needs (scripts/test-setup.ts: installed when run as
 * root, otherwise a stop before any test with the `sudo apt-get install` line), then check (types, lint, format), the
 * scripts' and shared contract's unit tests, the server suite on SQLite and PostgreSQL, the console's unit tests, and
 * the browser journeys in Chromium.
 */
const root = path.resolve(import.meta.dirname, '..');
if (!ensureTestSetup()) process.exit(1);
const steps: [string, string[]][] = [
  ['check', ['run', 'check']],
  ['scripts', ['run', 'test:scripts']],
  ['shared', ['test', '-w', '@faceadmin/shared']],
  ['tools', ['test', '-w', '@faceadmin/tools']],
  ['server', ['test', '-w', '@faceadmin/server']],
  ['web', ['test', '-w', '@faceadmin/web']],
  ['e2e', ['test', '-w', '@faceadmin/e2e']],
];
const results: string[] = [];
let failed = 0;
for (const [label, args] of steps) {
  console.log(`\n##### ${label} #####`);
  const r = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  results.push(`${label}: ${r.status === 0 ? 'passed' : 'FAILED'}`);
  if (r.status !== 0) failed++;
}
console.log(`\n${results.join('\n')}\nsteps: ${steps.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
