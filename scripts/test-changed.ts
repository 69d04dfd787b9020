import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm run test:changed [-- <base>] [--list]`: the inner loop. Runs only the test files a change touches: the test
 * files it changed, and those beside (in the same folder as) any source file it changed, on SQLite for the server;
 * the console's tests (all in apps/web/test) whenever its sources changed. `--list` names them without running. `base` is
 * what the change is compared with (default: main; uncommitted and untracked files count too). The full suite stays
 * `npm test`, what CI runs.
 */
const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const list = args.includes('--list');
const base = args.find((a) => !a.startsWith('--')) ?? 'main';
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const changed = new Set([...git('diff', '--name-only', base), ...git('ls-files', '--others', '--exclude-standard')]);

/** The workspaces whose tests run with node --test from their own folder. */
const suites = [
  { name: 'server', dir: 'apps/server', env: { TEST_DATABASE_URL: '' } },
  { name: 'web', dir: 'apps/web', env: {} },
  { name: 'shared', dir: 'packages/shared', env: {} },
  { name: 'tools', dir: 'tools', env: {} },
];
const isTest = (f: string) => /\.test\.tsx?$/.test(f);
const chosen = new Map<string, Set<string>>();
for (const file of changed) {
  if (!/\.(ts|tsx|json)$/.test(file) || !fs.existsSync(path.join(root, file))) continue;
  const suite = suites.find((s) => file.startsWith(`${s.dir}/`));
  if (!suite) continue;
  const files = chosen.get(suite.name) ?? chosen.set(suite.name, new Set()).get(suite.name)!;
  if (isTest(file)) files.add(file);
  else if (suite.name === 'web') {
    for (const f of fs.readdirSync(path.join(root, 'apps/web/test'))) if (isTest(f)) files.add(`apps/web/test/${f}`);
  } else {
    const dir = path.join(root, path.dirname(file));
    for (const f of fs.readdirSync(dir)) if (isTest(f)) files.add(path.join(path.dirname(file), f));
  }
}
if (!chosen.size) {
  console.log(`test:changed: no test touches what changed since ${base}`);
  process.exit(0);
}
let failed = 0;
for (const suite of suites) {
  const files = [...(chosen.get(suite.name) ?? [])].map((f) => path.relative(suite.dir, f)).sort();
  if (!files.length) continue;
  console.log(`\n##### ${suite.name}: ${files.join(' ')} #####`);
  if (list) continue;
  const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-reporter=spec', ...files], {
    cwd: path.join(root, suite.dir),
    stdio: 'inherit',
    env: { ...process.env, ...suite.env },
  });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
