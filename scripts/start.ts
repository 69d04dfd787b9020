import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm start`: builds the console when its sources are newer than the build, then serves console + API
 * on one port. `npm run demo`: the same on a fresh demo data directory with a seeded demo company;
 * `npm run demo -- --lan` runs it in LAN mode (RUN_MODE=lan) with emulated Hikvision terminals to scan for.
 */
const root = path.resolve(import.meta.dirname, '..');
const demo = process.argv.includes('--demo');
const webDir = path.join(root, 'apps/web');
const dist = path.join(webDir, 'dist/index.html');

function newest(dir: string): number {
  let max = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    max = Math.max(max, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return max;
}

// The build's own setup counts too: a new vite.config.ts or build script (e.g. precompression) rebuilds.
const sources = [path.join(webDir, 'src'), path.join(webDir, 'scripts'), path.join(root, 'packages/shared/src')].filter((d) => fs.existsSync(d));
const files = [path.join(webDir, 'index.html'), path.join(webDir, 'vite.config.ts'), path.join(webDir, 'package.json')].filter((f) => fs.existsSync(f));
const stale = !fs.existsSync(dist) || Math.max(...sources.map(newest), ...files.map((f) => fs.statSync(f).mtimeMs)) > fs.statSync(dist).mtimeMs;
if (stale && fs.existsSync(path.join(webDir, 'package.json'))) {
  console.log('Building the console …');
  const r = spawnSync('npm', ['run', 'build', '-w', '@faceadmin/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const env: NodeJS.ProcessEnv = { ...process.env };
if (demo) {
  const dataDir = path.resolve(root, process.env.DATA_DIR || 'data/demo');
  fs.rmSync(dataDir, { recursive: true, force: true });
  Object.assign(env, { DATA_DIR: dataDir, DEMO: '1' });
  if (process.argv.includes('--lan')) env.RUN_MODE = 'lan';
}
// A larger young generation: recalculating a month of attendance allocates millions of short-lived objects,
// and with V8's default 16 MB semi-space the scavenger took a quarter of the time (bench/attendance.bench.ts).
const child = spawn(process.execPath, ['--max-semi-space-size=64', path.join(root, 'apps/server/src/main.ts')], { cwd: root, env, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
