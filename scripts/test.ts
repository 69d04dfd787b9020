import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * `npm test`, what CI runs: check (types, lint, format), the server suite on SQLite and PostgreSQL,
 * the console's unit tests, then the browser journeys in Chromium.
 */
const root = path.resolve(import.meta.dirname, '..');
const steps: [string, string[]][] = [
  ['check', ['run', 'check']],
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
