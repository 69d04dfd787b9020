import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * `npm run check`: typecheck every program, lint, and format check; fails if any of them fails. The Node side (server,
 * shared, tools, bench, scripts) is one program: bench and tools import the server, and checked one by one they checked
 * it three times. The console and the journeys have the DOM's types, so each is a program of its own. Each program is
 * built once, type-checked and linted with its types (scripts/check-programs.ts): the Node side in one process, the
 * console and the journeys (and the JavaScript files) in another, and the format check beside them. Each step's output is printed whole when it ends, so two never interleave.
 */
const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
const programs = (label: string, args: string[]): [string, string, string[]] => [
  label,
  process.execPath,
  [path.join(root, 'scripts/check-programs.ts'), ...args],
];
const steps: [string, string, string[]][] = [
  programs('types and lint: Node side', ['tsconfig.check.json']),
  programs('types and lint: console and journeys', ['apps/web/tsconfig.json', 'e2e/tsconfig.json', '--rest']),
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

// All three at once: on two cores they end when their CPU is spent (the format check waiting for a free core ended
// about 15 s later, the console's lint being the longest step).
const failed = (await Promise.all(steps.map(run))).filter((ok) => !ok).length;
if (failed) {
  console.log(`check: ${failed} of ${steps.length} steps failed`);
  process.exit(1);
}
