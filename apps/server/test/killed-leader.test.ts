import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../src/db/database.ts';
import { leadership } from '../src/db/leader.ts';
import { createScheduler, postgresJobLock } from '../src/jobs/scheduler.ts';
import { until } from './terminals.ts';

/**
 * Issue #21: a scheduled job runs once across instances, and a role (dialling the ISAPI terminals, the external
 * broker's subscription) is held by one — also when the instance holding them is killed outright (SIGKILL, a crashed
 * or unplugged machine): its locks go with its database sessions, and another instance carries on.
 */
const url = process.env.TEST_DATABASE_URL;

test('a killed instance’s job lock and role pass to another instance', { skip: !url && 'PostgreSQL only' }, async () => {
  const suffix = randomBytes(4).toString('hex');
  const role = `test.role.${suffix}`;
  const job = `test.job.${suffix}`;
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'killed-leader.ts'), url!, role, job], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const database = openDatabase({ dataDir: '', databaseUrl: url });
  const log = { warn: () => undefined, info: () => undefined, error: () => undefined, debug: () => undefined };
  const mine = leadership(database, role, log, { retryMs: 100 });
  const jobs = createScheduler({ log, lock: postgresJobLock(() => database.pgPool!.connect()) });
  let ran = 0;
  jobs.add({ name: job, exclusive: true, run: async () => void ran++ });
  try {
    await until('the other process holds the role and runs the job', () => out.includes('holding') || child.exitCode !== null, 20_000, 50);
    assert.ok(out.includes('holding'), out);
    await mine.start();
    assert.equal(mine.held, false, 'the role is taken while the holder lives');
    assert.equal(await jobs.runNow(job), 'skipped', 'the job is running there: not here as well');
    assert.equal(ran, 0);

    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    // PostgreSQL ends the dead process's sessions as soon as their sockets close, and with them its locks.
    await until('the role is taken here', () => mine.held, 10_000, 50);
    await until('the job runs here', async () => (await jobs.runNow(job)) === 'ran', 10_000, 100);
    assert.equal(ran, 1);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await jobs.stop();
    await mine.close();
    await database.close();
  }
});
