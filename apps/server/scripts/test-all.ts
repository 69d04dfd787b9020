import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { reporterArgs } from '../../../scripts/file-times.ts';
import { writeShards } from '../test/shards.ts';
import { makeTemplate } from '../test/template.ts';
import { findPgBin, startCluster, type Cluster } from './pg-cluster.ts';

/**
 * Runs the server suite on SQLite, then again on PostgreSQL: TEST_DATABASE_URL when set, else a
 * throwaway local cluster. Without PostgreSQL it says so loudly, and fails under CI (where it must not skip).
 */
const SUITE_LIMIT_MS = Number(process.env.TEST_SUITE_LIMIT_MS ?? 25 * 60_000);

async function runSuite(label: string, env: NodeJS.ProcessEnv): Promise<number> {
  console.log(`\n=== server tests on ${label} ===`);
  // A suite that does not end fails after 25 minutes (each takes under 10) instead of holding CI to its limit: once, an
  // ISAPI test file's process lingered 16 minutes after its last test passed. (--test-force-exit is no cure: with
  // process isolation it ends a file before its last results reach the runner, and they go missing unreported.)
  // Four processes at a time, each running a shard of the files one after another (test/shards.ts): eight shards, dealt
  // out by the files' recent times so that they end together and no core idles at the end. Four on two cores, since the
  // files mostly wait (on PostgreSQL, on terminals' timers): two kept the machine 1.3 cores busy. Measured on this
  // 2-core machine: PostgreSQL 242 s (4:47 two at a time in the last full run), SQLite 126 s instead of 143.
  // TEST_SHARDS and TEST_CONCURRENCY change them.
  const sharded = writeShards(process.cwd(), testFiles(), Number(process.env.TEST_SHARDS ?? 8));
  const args = ['--test', `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 4}`, ...reporterArgs(), ...sharded.files];
  const status = await runGroup(args, env);
  sharded.drop();
  if (status === 'timeout')
    console.error(`\nserver tests on ${label} stopped after ${Number((SUITE_LIMIT_MS / 60_000).toFixed(1))} minutes: a test file did not end`);
  return typeof status === 'number' ? status : 1;
}

/**
 * Runs node with `args` in a process group of its own and answers its exit code, or 'timeout' after SUITE_LIMIT_MS,
 * when the whole group is killed: the runner and the shard processes under it (killing the runner alone left its shards
 * running, one an hour later). A signal that stops this script stops the group too.
 */
function runGroup(args: string[], env: NodeJS.ProcessEnv): Promise<number | 'timeout'> {
  const child = spawn(process.execPath, args, { stdio: 'inherit', env, detached: true });
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // the group is gone already
    }
  };
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup('SIGKILL');
  }, SUITE_LIMIT_MS);
  const forward = (signal: NodeJS.Signals) => () => {
    killGroup(signal);
    process.exit(1);
  };
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt).on('SIGTERM', onTerm);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearTimeout(timer);
      process.off('SIGINT', onInt).off('SIGTERM', onTerm);
      // whatever the runner left behind goes with it
      killGroup('SIGKILL');
      resolve(timedOut ? 'timeout' : (code ?? 1));
    });
  });
}

/** The server's test files, relative to apps/server. */
function testFiles(): string[] {
  return [...fs.globSync('src/**/*.test.ts'), ...fs.globSync('test/**/*.test.ts')].sort();
}

/** Runs the suite with a migrated template database made for it (test/template.ts), dropped afterwards. */
async function runOn(label: string, env: NodeJS.ProcessEnv, databaseUrl: string | undefined): Promise<number> {
  const template = await makeTemplate(databaseUrl);
  try {
    return await runSuite(label, { ...env, ...template.env });
  } finally {
    await template.drop();
  }
}

// Each test file runs in a process of its own: they share the compiled, type-stripped modules (npm test sets the same).
process.env.NODE_COMPILE_CACHE ??= path.join(import.meta.dirname, '..', '..', '..', 'node_modules', '.cache', 'node-compile-cache');
const only = process.argv[2];
let failed = 0;
if (only !== 'postgres') failed += await runOn('SQLite', { ...process.env, TEST_DATABASE_URL: '', TEST_TIMES_LABEL: 'server SQLite' }, undefined);
if (only !== 'sqlite') {
  let cluster: Cluster | undefined;
  let url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const bin = findPgBin();
    if (bin) {
      cluster = await startCluster(bin);
      url = cluster.url;
    }
  }
  if (url) {
    try {
      failed += await runOn('PostgreSQL', { ...process.env, TEST_DATABASE_URL: url, TEST_TIMES_LABEL: 'server PostgreSQL' }, url);
    } finally {
      cluster?.stop();
    }
  } else {
    console.error('\n!!! PostgreSQL SKIPPED: no initdb found and TEST_DATABASE_URL unset. Install postgresql to run the suite on it. !!!\n');
    if (process.env.CI) failed += 1;
  }
}
process.exit(failed ? 1 : 0);
