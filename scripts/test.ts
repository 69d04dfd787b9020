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
const began = Date.now();
const minutes = (ms: number) => `${Math.floor(ms / 60_000)}:${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}`;
for (const [label, args] of steps) {
  console.log(`\n##### ${label} #####`);
  const t0 = Date.now();
  const r = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  // each step's time, so the next person sees where the time goes
  results.push(`${label.padEnd(8)} ${(r.status === 0 ? 'passed' : 'FAILED').padEnd(7)} ${minutes(Date.now() - t0).padStart(6)}`);
  if (r.status !== 0) failed++;
}
console.log(
  `\n${results.join('\n')}\n${'total'.padEnd(16)} ${minutes(Date.now() - began).padStart(6)}\nsteps: ${steps.length - failed} passed, ${failed} failed`,
);
process.exit(failed ? 1 : 0);
