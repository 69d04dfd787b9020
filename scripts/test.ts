import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
  ['server SQLite', ['test', '-w', '@faceadmin/server', '--', 'sqlite']],
  ['server PostgreSQL', ['test', '-w', '@faceadmin/server', '--', 'postgres']],
  ['web', ['test', '-w', '@faceadmin/web']],
  ['e2e', ['test', '-w', '@faceadmin/e2e']],
];
// Every test process (each file runs in its own) reuses the compiled, type-stripped modules of the ones before it.
process.env.NODE_COMPILE_CACHE ??= path.join(root, 'node_modules', '.cache', 'node-compile-cache');
// The journeys keep no screenshots here (about 95 s of the browser's CPU; a failed step's is taken anyway): run a
// journey by hand, or set E2E_SCREENSHOTS=1, to see them (e2e/lib/browser.ts).
process.env.E2E_SCREENSHOTS ??= '0';
// the server's and the journeys' runners add each test file's time here (scripts/file-times.ts)
const timesDir = mkdtempSync(path.join(tmpdir(), 'faceadmin-test-times-'));
const LAST_TIMES = path.join(root, 'node_modules', '.cache', 'test-times.tsv');
mkdirSync(path.dirname(LAST_TIMES), { recursive: true });
process.env.TEST_TIMES = path.join(timesDir, 'times.tsv');
// and each failure with its error, repeated at the end (CI shows the end of the output only)
process.env.TEST_FAILURES = path.join(timesDir, 'failures.txt');
const results: string[] = [];
let failed = 0;
const began = Date.now();
const minutes = (ms: number) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};
for (const [label, args] of steps) {
  console.log(`\n##### ${label} #####`);
  const t0 = Date.now();
  const r = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  // each step's time, so the next person sees where the time goes
  results.push(`${label.padEnd(18)} ${(r.status === 0 ? 'passed' : 'FAILED').padEnd(7)} ${minutes(Date.now() - t0).padStart(6)}`);
  if (r.status !== 0) failed++;
}
let slowest = '';
try {
  const files = readFileSync(process.env.TEST_TIMES, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'))
    .sort((a, b) => Number(b[1]) - Number(a[1]))
    .slice(0, 10);
  slowest = `\nthe 10 slowest test files:\n${files.map(([label, ms, file]) => `${minutes(Number(ms)).padStart(6)}  ${label!.padEnd(18)} ${file}`).join('\n')}\n`;
} catch {
  // no step got as far as its test files
}
// the last run's file times stay, to refresh the files the runners order by (apps/server/scripts/durations.ts,
// e2e/scripts/durations.ts)
try {
  copyFileSync(process.env.TEST_TIMES, LAST_TIMES);
} catch {
  // no step got as far as its test files
}
let failures = '';
try {
  const text = readFileSync(process.env.TEST_FAILURES, 'utf8').trim();
  const cut = text.length > 20_000 ? `${text.slice(0, 20_000)}\n… (${text.length - 20_000} more characters left out: the steps' output has them)` : text;
  failures = `\nwhat failed (each step's output has it in full):\n\n${cut}\n`;
} catch {
  // nothing failed inside a test runner
}
rmSync(timesDir, { recursive: true, force: true });
console.log(
  `${failures}${slowest}\n${results.join('\n')}\n${'total'.padEnd(26)} ${minutes(Date.now() - began).padStart(6)}\nsteps: ${steps.length - failed} passed, ${failed} failed`,
);
process.exit(failed ? 1 : 0);
