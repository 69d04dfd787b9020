// Runs the browser journeys: builds the console first (so the journey never tests a stale build), then node --test.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { reporterArgs } from '../../scripts/file-times.ts';
import { ROOT } from '../lib/server.ts';

// Each test file runs in a process of its own: they share the compiled, type-stripped modules (npm test sets the same).
process.env.NODE_COMPILE_CACHE ??= path.join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'node-compile-cache');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!existsSync(path.join(ROOT, 'apps', 'web', 'dist', 'index.html')) || process.env.E2E_BUILD !== '0') {
  const build = spawnSync(npm, ['run', 'build', '-w', '@faceadmin/web'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// A journey that never ends (a process that lingers after its last step) fails the run after 45 minutes instead of
// holding CI to its limit; the journeys take about 14 (see apps/server/scripts/test-all.ts).
const LIMIT_MS = 45 * 60_000;
// Three journeys at a time (E2E_CONCURRENCY to change it): each mostly waits on its browser and server, so three
// finish in about 60% of the time one after another takes, on two cores too.
const run = spawnSync(process.execPath, ['--test', `--test-concurrency=${process.env.E2E_CONCURRENCY ?? 3}`, ...reporterArgs(), 'tests/**/*.test.ts'], {
  cwd: path.join(ROOT, 'e2e'),
  stdio: 'inherit',
  timeout: LIMIT_MS,
  killSignal: 'SIGKILL',
  env: { ...process.env, TEST_TIMES_LABEL: 'e2e' },
});
if (run.error) console.error(`\njourneys stopped after ${LIMIT_MS / 60_000} minutes: one of them did not end (${run.error.message})`);
process.exit(run.status ?? 1);
