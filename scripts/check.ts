import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';

/**
 * `npm run check`: typecheck every workspace, lint, and format check; fails if any of them fails. They run side by side,
 * as many at once as the machine has cores: lint (the longest, type-aware) starts first and the typechecks and the format
 * check share the other core. Each step's output is printed whole when it ends, so two never interleave.
 */
const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
// The Node side (server, shared, tools, bench, scripts) is one program (tsconfig.check.json): bench and tools import
// the server, and checked one by one they checked it three times (112 s of CPU instead of 51). The console and the
// journeys have the DOM's types, so each is a program of its own; the journeys' takes 12 s of CPU, since what they use of
// the server's tests (test/terminals.ts) names a test app by its shape instead of importing the server's types (38 s).
const programs = ['tsconfig.check.json', 'apps/web', 'e2e'];
const steps: [string, string, string[]][] = [
  ['lint', bin('eslint'), ['--max-warnings=0', '.']],
  ...programs.map((p): [string, string, string[]] => [`typecheck ${p}`, bin('tsc'), ['--noEmit', '-p', p]]),
  ['format', bin('prettier'), ['--check', '--log-level=warn', '.']],
];

function run([label, cmd, args]: [string, string, string[]]): Promise<boolean> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => output.push(d));
    child.stderr.on('data', (d: Buffer) => output.push(d));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(output));
      console.log(`check: ${label} ${code === 0 ? 'ok' : 'FAILED'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      resolve(code === 0);
    });
  });
}

const queue = [...steps];
let failed = 0;
const worker = async () => {
  for (let step = queue.shift(); step; step = queue.shift()) if (!(await run(step))) failed++;
};
await Promise.all(Array.from({ length: Math.max(1, Math.min(2, availableParallelism())) }, worker));
if (failed) {
  console.log(`check: ${failed} of ${steps.length} steps failed`);
  process.exit(1);
}
