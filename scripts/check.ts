import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** `npm run check`: typecheck every workspace, lint, and format check. Fails on the first failing step. */
const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
const projects = ['packages/shared', 'apps/server', 'apps/web', 'e2e', 'tools', 'bench', 'scripts'].filter((p) =>
  fs.existsSync(path.join(root, p, 'tsconfig.json')),
);
const steps: [string, string, string[]][] = [
  ...projects.map((p): [string, string, string[]] => [`typecheck ${p}`, bin('tsc'), ['--noEmit', '-p', p]]),
  ['lint', bin('eslint'), ['--max-warnings=0', '.']],
  ['format', bin('prettier'), ['--check', '--log-level=warn', '.']],
];
for (const [label, cmd, args] of steps) {
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  console.log(`check: ${label} ${r.status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  if (r.status !== 0) process.exit(1);
}
