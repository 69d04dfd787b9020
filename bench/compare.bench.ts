/**
 * The wrk punch benchmark on two versions of the code in one run: the current tree and a git ref (default:
 * the commit before the house refactor), alternating round by round so both see the same machine drift.
 * The ref is checked out into a temporary worktree with its own `npm ci` (kept between runs under
 * os.tmpdir()). Prints the medians side by side. Needs `wrk` and git.
 *
 *   BENCH_REF=318298c BENCH_PAIRS=3 npm run bench:compare
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fmt, hasWrk, percentile } from './lib.ts';

const REF = process.env.BENCH_REF ?? '318298c';
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const root = path.resolve(import.meta.dirname, '..');

if (!hasWrk()) {
  console.log('wrk is not installed (apt-get install wrk): skipping the comparison');
  process.exit(0);
}
const sha = execFileSync('git', ['rev-parse', REF], { cwd: root, encoding: 'utf8' }).trim();
const base = path.join(os.tmpdir(), `fa-bench-${sha.slice(0, 10)}`);
if (!fs.existsSync(path.join(base, 'node_modules'))) {
  fs.rmSync(base, { recursive: true, force: true });
  execFileSync('git', ['worktree', 'prune'], { cwd: root });
  execFileSync('git', ['worktree', 'add', '--detach', base, sha], { cwd: root, stdio: 'inherit' });
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: base, stdio: 'inherit' });
}

interface Figures {
  ratio: number;
  rps: number;
  p99: number;
  batch: number;
}
/** One wrk.bench.ts run (one round) in a tree; its printed lines parsed. */
function run(dir: string): Figures {
  const r = spawnSync(process.execPath, ['bench/wrk.bench.ts'], {
    cwd: dir,
    env: { ...process.env, BENCH_ROUNDS: '1', BENCH_MANY: '64' },
    encoding: 'utf8',
  });
  const out = r.stdout;
  const single = /single-punch POST \/iclock\/cdata\s+([\d,.]+) req\/s\s+p50 [\d,.]+ ms\s+p99 ([\d,.]+) ms\s+\((\d+)% of baseline/.exec(out);
  const batch = /backlog batches of 50 punches\s+([\d,.]+) punches\/s/.exec(out);
  if (!single || !batch) throw new Error(`unexpected output in ${dir}:\n${out}\n${r.stderr}`);
  const num = (s: string) => Number(s.replace(/,/g, ''));
  return { rps: num(single[1]!), p99: num(single[2]!), ratio: num(single[3]!), batch: num(batch[1]!) };
}

const before: Figures[] = [];
const after: Figures[] = [];
for (let i = 0; i < PAIRS; i++) {
  before.push(run(base));
  after.push(run(root));
}
const med = (xs: Figures[], k: keyof Figures) =>
  percentile(
    xs.map((x) => x[k]),
    50,
  );
console.log(`wrk punch benchmark, ${PAIRS} alternating pairs, medians (each run also measures its own bare-Fastify baseline)`);
console.log(`                         ${sha.slice(0, 10)} (before)   current (after)`);
for (const [label, k, unit] of [
  ['single-punch POST', 'rps', 'req/s'],
  ['  % of bare Fastify', 'ratio', '%'],
  ['  p99', 'p99', 'ms'],
  ['batches of 50', 'batch', 'punches/s'],
] as const)
  console.log(`${label.padEnd(25)}${`${fmt(med(before, k), k === 'p99' ? 2 : 0)} ${unit}`.padEnd(24)}${fmt(med(after, k), k === 'p99' ? 2 : 0)} ${unit}`);
console.log(`rounds, % of baseline: before ${before.map((x) => x.ratio).join('/')}, after ${after.map((x) => x.ratio).join('/')}`);
