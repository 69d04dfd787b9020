// Runs the browser journeys: builds the console first (so the journey never tests a stale build), then node:test's run().
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import fileTimes from '../../scripts/file-times.ts';
import { CHROMIUM } from '../lib/browser.ts';
import { ROOT } from '../lib/server.ts';

// Each test file runs in a process of its own: they share the compiled, type-stripped modules (npm test sets the same).
process.env.NODE_COMPILE_CACHE ??= path.join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'node-compile-cache');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const E2E = path.join(ROOT, 'e2e');

/**
 * The journeys by their time in a recent run (durations.json; refresh it after an `npm test` with
 * `node scripts/durations.ts`), longest first; one not listed counts as the median.
 */
function longestFirst(files: string[]): string[] {
  const known = JSON.parse(readFileSync(path.join(E2E, 'durations.json'), 'utf8')) as Record<string, number>;
  const times = Object.values(known).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  const ms = (f: string) => known[path.relative(E2E, path.resolve(E2E, f))] ?? median;
  return [...files].sort((a, b) => ms(b) - ms(a) || a.localeCompare(b));
}

if (!existsSync(path.join(ROOT, 'apps', 'web', 'dist', 'index.html')) || process.env.E2E_BUILD !== '0') {
  const build = spawnSync(npm, ['run', 'build', '-w', '@faceadmin/web'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// A journey that never ends (a process that lingers after its last step) fails the run after 45 minutes instead of
// holding CI to its limit; the journeys take about 14 (see apps/server/scripts/test-all.ts).
const LIMIT_MS = 45 * 60_000;
// Three journeys at a time (E2E_CONCURRENCY to change it): each mostly waits on its browser and server, so three
// finish in about 60% of the time one after another takes, on two cores too.
// One Chromium for every journey (lib/browser.ts connects to it): a browser's start, about 3 s of CPU, paid once. Its
// connections are served by this process, so the journeys run beside it (spawn), never blocking it (spawnSync).
const browserServer = await chromium.launchServer(CHROMIUM);
// every journey, or the ones named (`npm test -w @faceadmin/e2e -- tests/people.test.ts`), the longest first: the last
// ones to start are short, so the run does not end on one long journey with the other cores idle
const files = longestFirst(process.argv.slice(2).length ? process.argv.slice(2) : globSync('tests/**/*.test.ts', { cwd: E2E }));
// node:test's run() keeps the files' order (`node --test` sorts its arguments by name); each file runs in a process of
// its own, with these settings
process.chdir(E2E);
Object.assign(process.env, { TEST_TIMES_LABEL: 'e2e', E2E_BROWSER_WS: browserServer.wsEndpoint() });
const stop = new AbortController();
const limit = setTimeout(() => {
  console.error(`\njourneys stopped after ${LIMIT_MS / 60_000} minutes: one of them did not end`);
  stop.abort();
}, LIMIT_MS);
const events = run({ files: files.map((f) => path.resolve(E2E, f)), concurrency: Number(process.env.E2E_CONCURRENCY ?? 3), signal: stop.signal });
// what `npm test` shows (spec) and, when it collects them, each file's time (scripts/file-times.ts)
const shown = new spec();
shown.pipe(process.stdout);
const timed = new PassThrough({ objectMode: true });
const times = (async () => {
  for await (const _ of fileTimes(timed));
})();
let failed = false;
events.on('data', (event: { type: string }) => {
  if (event.type === 'test:fail') failed = true;
  shown.write(event);
  timed.write(event);
});
await once(events, 'end');
shown.end();
timed.end();
await Promise.all([finished(shown), times]);
clearTimeout(limit);
await browserServer.close();
process.exit(failed || stop.signal.aborted ? 1 : 0);
