import { spawnSync } from 'node:child_process';
import { findPgBin, startCluster, type Cluster } from './pg-cluster.ts';

/**
 * Runs the server suite on SQLite, then again on PostgreSQL: TEST_DATABASE_URL when set, else a
 * throwaway local cluster. Without PostgreSQL it says so loudly, and fails under CI (where it must not skip).
 */
function runSuite(label: string, env: NodeJS.ProcessEnv): number {
  console.log(`\n=== server tests on ${label} ===`);
  // --test-force-exit: a file whose tests have all finished ends even if something it started still holds the event
  // loop (once, an ISAPI test file's process lingered 16 minutes after its last test passed: a CI run must not hang).
  const args = ['--test', '--test-force-exit', '--test-concurrency=2', '--test-reporter=spec', 'src/**/*.test.ts', 'test/**/*.test.ts'];
  const r = spawnSync(process.execPath, args, {
    stdio: 'inherit',
    env,
  });
  return r.status ?? 1;
}

const only = process.argv[2];
let failed = 0;
if (only !== 'postgres') failed += runSuite('SQLite', { ...process.env, TEST_DATABASE_URL: '' });
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
      failed += runSuite('PostgreSQL', { ...process.env, TEST_DATABASE_URL: url });
    } finally {
      cluster?.stop();
    }
  } else {
    console.error('\n!!! PostgreSQL SKIPPED: no initdb found and TEST_DATABASE_URL unset. Install postgresql to run the suite on it. !!!\n');
    if (process.env.CI) failed += 1;
  }
}
process.exit(failed ? 1 : 0);
