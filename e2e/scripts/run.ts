// Runs the browser journeys: builds the console first (so the journey never tests a stale build), then node --test.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/server.ts';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!existsSync(path.join(ROOT, 'apps', 'web', 'dist', 'index.html')) || process.env.E2E_BUILD !== '0') {
  const build = spawnSync(npm, ['run', 'build', '-w', '@faceadmin/web'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// --test-force-exit: a journey whose steps have all finished never holds the run (see apps/server/scripts/test-all.ts).
const run = spawnSync(process.execPath, ['--test', '--test-force-exit', '--test-concurrency=1', 'tests/**/*.test.ts'], {
  cwd: path.join(ROOT, 'e2e'),
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
