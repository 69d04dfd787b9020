import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import {
  createScheduler,
  jobLockKey,
  localJobLock,
  nextDailyRun,
  postgresJobLock,
  type JobLock,
  type JobLogger,
  type LockConnection,
  type SchedulerDeps,
} from './scheduler.ts';

// Compile-time only: the server passes app.log and `() => pool.connect()` as they are.
const _logFits: (l: FastifyBaseLogger) => JobLogger = (l) => l;
const _poolFits: (p: pg.Pool) => () => Promise<LockConnection> = (p) => () => p.connect();

/** Lets promise chains and setImmediate callbacks run: every await in a job body resolves. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A fake clock: timers fire only when advance() passes them, in time order. */
function fakeClock(start = Date.parse('2026-01-01T00:00:00Z')) {
  let t = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => t,
    setTimer(fn: () => void, ms: number) {
      timers.set(++seq, { at: t + Math.max(0, ms), fn });
      return seq;
    },
    clearTimer(handle: unknown) {
      timers.delete(handle as number);
    },
    pending: () => timers.size,
    async advance(ms: number) {
      const end = t + ms;
      for (;;) {
        let next: [number, { at: number; fn: () => void }] | undefined;
        for (const e of timers) if (e[1].at <= end && (!next || e[1].at < next[1].at)) next = e;
        if (!next) break;
        timers.delete(next[0]);
        t = next[1].at;
        next[1].fn();
        await settle();
      }
      t = end;
      await settle();
    },
  };
}

function recordingLog() {
  const entries: { level: string; obj: any; msg: string }[] = [];
  const log: JobLogger = {
    error: (obj, msg) => void entries.push({ level: 'error', obj, msg }),
    info: (obj, msg) => void entries.push({ level: 'info', obj, msg }),
    debug: (obj, msg) => void entries.push({ level: 'debug', obj, msg }),
  };
  return { log, entries, at: (level: string) => entries.filter((e) => e.level === level) };
}

function setup(extra: Partial<SchedulerDeps> = {}) {
  const clock = fakeClock();
  const logs = recordingLog();
  const scheduler = createScheduler({ log: logs.log, now: clock.now, setTimer: clock.setTimer, clearTimer: clock.clearTimer, ...extra });
  return { clock, logs, scheduler, status: (name: string) => scheduler.status().find((s) => s.name === name)! };
}

test('a job still running is not started again: the tick is skipped and counted', async () => {
  const { clock, scheduler, status, logs } = setup();
  let gate = deferred();
  let started = 0;
  scheduler.add({
    name: 'slow',
    every: 1000,
    run: async () => {
      started++;
      await gate.promise;
    },
  });
  scheduler.start();
  await clock.advance(1000);
  assert.equal(started, 1);
  await clock.advance(2000);
  assert.equal(started, 1, 'not started while running');
  assert.equal(await scheduler.runNow('slow'), 'skipped', 'runNow respects the guard too');
  assert.deepEqual({ runs: status('slow').runs, skipped: status('slow').skipped, running: status('slow').running }, { runs: 1, skipped: 3, running: true });
  assert.ok(logs.at('debug').some((e) => e.obj.job === 'slow' && /still running/.test(e.msg)));

  gate.resolve();
  gate = deferred();
  await settle();
  assert.equal(status('slow').running, false);
  await clock.advance(1000);
  assert.equal(started, 2, 'runs again at the next tick once done');
  gate.resolve();
  await scheduler.stop();
});

test('ticks keep a fixed rate and report the next run', async () => {
  const { clock, scheduler, status } = setup();
  const at: number[] = [];
  scheduler.add({ name: 'beat', every: 5000, run: async () => void at.push(clock.now()) });
  const t0 = clock.now();
  scheduler.start();
  assert.equal(status('beat').nextRunAt, new Date(t0 + 5000).toISOString());
  await clock.advance(15_000);
  assert.deepEqual(
    at.map((x) => x - t0),
    [5000, 10_000, 15_000],
  );
  assert.equal(status('beat').lastStartedAt, new Date(t0 + 15_000).toISOString());
  await scheduler.stop();
  assert.equal(status('beat').nextRunAt, null);
});

test('a failing job is logged with its name, and later runs still happen', async () => {
  const { clock, scheduler, status, logs } = setup();
  let calls = 0;
  const boom = new Error('database went away');
  scheduler.add({
    name: 'flaky',
    every: 1000,
    run: async () => {
      calls++;
      if (calls === 1) throw boom;
    },
  });
  // A body that throws before returning a promise is caught the same way.
  scheduler.add({
    name: 'sync-throw',
    every: 1000,
    run: () => {
      throw new Error('not even a promise');
    },
  });
  scheduler.start();
  await clock.advance(1000);
  const errors = logs.at('error');
  assert.equal(errors.length, 2);
  assert.deepEqual(
    errors.find((e) => e.obj.job === 'flaky'),
    { level: 'error', obj: { err: boom, job: 'flaky' }, msg: 'job failed' },
  );
  assert.deepEqual({ failures: status('flaky').failures, lastError: status('flaky').lastError }, { failures: 1, lastError: 'database went away' });

  await clock.advance(2000);
  assert.equal(calls, 3, 'kept running after the failure');
  assert.deepEqual(
    { runs: status('flaky').runs, failures: status('flaky').failures, lastError: status('flaky').lastError },
    { runs: 3, failures: 1, lastError: null },
  );
  assert.equal(status('sync-throw').failures, 3);
  assert.equal(await scheduler.runNow('flaky'), 'ran');
  assert.equal(await scheduler.runNow('sync-throw'), 'failed', 'runNow resolves, it does not throw the job error');
  await scheduler.stop();
});

test('stop() clears the timers, aborts running jobs and waits for them to finish', async () => {
  const { clock, scheduler, status } = setup();
  const events: string[] = [];
  let seen: AbortSignal | undefined;
  scheduler.add({
    name: 'long',
    every: 1000,
    run: async (signal) => {
      seen = signal;
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      await settle(); // cleanup after the abort takes a while
      events.push('job finished');
    },
  });
  scheduler.add({ name: 'idle', every: 1000, run: async () => undefined });
  scheduler.start();
  await clock.advance(1000);
  assert.equal(status('long').running, true);

  const stopped = scheduler.stop().then(() => events.push('stop resolved'));
  assert.equal(seen?.aborted, true);
  assert.equal(clock.pending(), 1, "only stop's own timeout timer is left");
  await stopped;
  assert.deepEqual(events, ['job finished', 'stop resolved']);
  assert.equal(clock.pending(), 0);
  assert.equal(status('long').running, false);

  const runs = status('idle').runs;
  await clock.advance(10_000);
  assert.equal(status('idle').runs, runs, 'no tick after stop');
  await assert.rejects(scheduler.runNow('idle'), /stopped/);
  assert.throws(() => scheduler.add({ name: 'late', every: 1000, run: async () => undefined }), /stopped/);
  assert.throws(() => scheduler.start(), /stopped/);
  await scheduler.stop(); // a second stop is harmless
});

test('stop() gives up on a job that ignores its signal after the timeout, and says so', async () => {
  const { clock, scheduler, logs } = setup({ stopTimeoutMs: 3000 });
  const never = deferred();
  scheduler.add({ name: 'stubborn', run: () => never.promise });
  const running = scheduler.runNow('stubborn');
  let done = false;
  const stopped = scheduler.stop().then(() => (done = true));
  await clock.advance(2999);
  assert.equal(done, false);
  await clock.advance(1);
  await stopped;
  assert.deepEqual(logs.at('error')[0], { level: 'error', obj: { jobs: ['stubborn'], timeoutMs: 3000 }, msg: 'jobs still running after stop timeout' });
  never.resolve();
  assert.equal(await running, 'ran');
});

test('runNow runs a job once, before or without start(), and resolves when it is done', async () => {
  const { scheduler, status } = setup();
  let finished = false;
  scheduler.add({
    name: 'manual',
    run: async (signal) => {
      assert.equal(signal.aborted, false);
      await settle();
      finished = true;
    },
  });
  assert.equal(await scheduler.runNow('manual'), 'ran');
  assert.equal(finished, true);
  assert.equal(status('manual').runs, 1);
  assert.equal(typeof status('manual').lastDurationMs, 'number');
  assert.equal(status('manual').nextRunAt, null, 'neither every nor at: only on demand');
  await assert.rejects(scheduler.runNow('nope'), /unknown job "nope"/);
});

test('runAtStart runs the job as the scheduler starts, then on its schedule', async () => {
  const { clock, scheduler, status } = setup();
  scheduler.add({ name: 'warm', every: 60_000, runAtStart: true, run: async () => undefined });
  scheduler.add({ name: 'cold', every: 60_000, run: async () => undefined });
  scheduler.start();
  await settle();
  assert.equal(status('warm').runs, 1);
  assert.equal(status('cold').runs, 0);
  await clock.advance(60_000);
  assert.deepEqual(
    scheduler.status().map((s) => s.runs),
    [2, 1],
  );
  // Added once started: scheduled at once.
  scheduler.add({ name: 'later', every: 1000, runAtStart: true, run: async () => undefined });
  await settle();
  assert.equal(status('later').runs, 1);
  await clock.advance(1000);
  assert.equal(status('later').runs, 2);
  await scheduler.stop();
});

test('job names are unique and schedules are checked when added', () => {
  const { scheduler } = setup();
  const run = async () => undefined;
  scheduler.add({ name: 'a', every: 1000, run });
  assert.throws(() => scheduler.add({ name: 'a', every: 5000, run }), /job "a" is already scheduled/);
  assert.throws(() => scheduler.add({ name: '', every: 1000, run }), /needs a name/);
  assert.throws(() => scheduler.add({ name: 'b', every: 0, run }), /positive/);
  assert.throws(() => scheduler.add({ name: 'b', every: Number.NaN, run }), /positive/);
  assert.throws(() => scheduler.add({ name: 'b', every: 30 * 86400_000, run }), /at most/);
  assert.throws(() => scheduler.add({ name: 'b', at: '24:00', run }), /HH:mm/);
  assert.throws(() => scheduler.add({ name: 'b', at: '7:30', run }), /HH:mm/);
  assert.throws(() => scheduler.add({ name: 'b', at: '07:30', timeZone: 'Mars/Olympus', run }), RangeError);
  assert.throws(() => scheduler.add({ name: 'b', every: 1000, at: '07:30', run }), /not both/);
  assert.deepEqual(
    scheduler.status().map((s) => s.name),
    ['a'],
  );
});

const iso = (ms: number) => new Date(ms).toISOString();
const next = (at: string, zone: string, after: string) => iso(nextDailyRun(at, zone, Date.parse(after)));

test('daily times: plain days, UTC by default, and the same instant is never returned twice', () => {
  assert.equal(next('07:30', 'UTC', '2026-05-04T06:00:00Z'), '2026-05-04T07:30:00.000Z');
  assert.equal(next('07:30', 'UTC', '2026-05-04T07:30:00Z'), '2026-05-05T07:30:00.000Z', 'strictly after');
  assert.equal(next('00:00', 'UTC', '2026-12-31T23:59:59.999Z'), '2027-01-01T00:00:00.000Z');
  assert.equal(next('09:00', 'Asia/Kolkata', '2026-05-04T00:00:00Z'), '2026-05-04T03:30:00.000Z');
  assert.equal(next('09:00', 'Asia/Kathmandu', '2026-05-04T04:00:00Z'), '2026-05-05T03:15:00.000Z');
  assert.equal(next('02:30', 'Europe/Berlin', '2026-07-01T00:00:00Z'), '2026-07-01T00:30:00.000Z', 'summer time');
  assert.equal(next('23:30', 'America/New_York', '2026-01-15T12:00:00Z'), '2026-01-16T04:30:00.000Z', 'local date behind UTC');
});

test('daily times across DST: a skipped time runs when the clocks jump, a repeated one runs once', () => {
  // Berlin springs forward on 2026-03-29 from 02:00 CET straight to 03:00 CEST (01:00Z): 02:30 never happens.
  assert.equal(next('02:30', 'Europe/Berlin', '2026-03-28T12:00:00Z'), '2026-03-29T01:00:00.000Z');
  assert.equal(next('02:30', 'Europe/Berlin', '2026-03-29T01:00:00Z'), '2026-03-30T00:30:00.000Z');
  assert.equal(next('03:00', 'Europe/Berlin', '2026-03-28T12:00:00Z'), '2026-03-29T01:00:00.000Z', '03:00 exists: the same instant');
  assert.equal(next('01:59', 'Europe/Berlin', '2026-03-28T12:00:00Z'), '2026-03-29T00:59:00.000Z');
  // Berlin falls back on 2026-10-25: 02:30 is read at 00:30Z (CEST) and again at 01:30Z (CET).
  assert.equal(next('02:30', 'Europe/Berlin', '2026-10-24T12:00:00Z'), '2026-10-25T00:30:00.000Z');
  assert.equal(next('02:30', 'Europe/Berlin', '2026-10-25T00:30:00Z'), '2026-10-26T01:30:00.000Z', 'not again at 01:30Z');
  // New York: 02:30 is skipped on 2026-03-08 (EST 07:00Z → EDT), 01:30 happens twice on 2026-11-01.
  assert.equal(next('02:30', 'America/New_York', '2026-03-07T12:00:00Z'), '2026-03-08T07:00:00.000Z');
  assert.equal(next('02:30', 'America/New_York', '2026-03-08T07:00:00Z'), '2026-03-09T06:30:00.000Z');
  assert.equal(next('01:30', 'America/New_York', '2026-10-31T12:00:00Z'), '2026-11-01T05:30:00.000Z');
  assert.equal(next('01:30', 'America/New_York', '2026-11-01T05:30:00Z'), '2026-11-02T06:30:00.000Z');
  // Lord Howe moves by half an hour (02:00 → 02:30 on 2026-10-04): 02:15 runs at the jump, 15:30Z.
  assert.equal(next('02:15', 'Australia/Lord_Howe', '2026-10-03T00:00:00Z'), '2026-10-03T15:30:00.000Z');
});

test('a daily job fires at its local time and is rearmed for the next day, across the DST change', async () => {
  const clock = fakeClock(Date.parse('2026-03-28T12:00:00Z'));
  const logs = recordingLog();
  const scheduler = createScheduler({ log: logs.log, now: clock.now, setTimer: clock.setTimer, clearTimer: clock.clearTimer });
  const fired: string[] = [];
  scheduler.add({ name: 'nightly', at: '02:30', timeZone: 'Europe/Berlin', run: async () => void fired.push(iso(clock.now())) });
  scheduler.start();
  assert.equal(scheduler.status()[0]!.nextRunAt, '2026-03-29T01:00:00.000Z');
  await clock.advance(3 * 86400_000);
  assert.deepEqual(fired, ['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z', '2026-03-31T00:30:00.000Z']);
  await scheduler.stop();
});

test('a timer firing before the wall clock reaches the due time waits for the rest', async () => {
  const clock = fakeClock(Date.parse('2026-05-04T00:00:00Z'));
  let skew = 0;
  const scheduler = createScheduler({
    log: recordingLog().log,
    now: () => clock.now() - skew,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
  });
  let runs = 0;
  scheduler.add({ name: 'six', at: '06:00', run: async () => void runs++ });
  scheduler.start();
  skew = 60_000; // the wall clock was set back a minute meanwhile
  await clock.advance(6 * 3600_000);
  assert.equal(runs, 0);
  await clock.advance(60_000);
  assert.equal(runs, 1);
  await scheduler.stop();
});

test('periodic jobs follow their timer, not the wall clock: setting the clock back does not hold them', async () => {
  const clock = fakeClock();
  let skew = 0;
  const scheduler = createScheduler({ log: recordingLog().log, now: () => clock.now() - skew, setTimer: clock.setTimer, clearTimer: clock.clearTimer });
  let runs = 0;
  scheduler.add({ name: 'sweep', every: 5000, run: async () => void runs++ });
  scheduler.start();
  skew = 3600_000;
  await clock.advance(15_000);
  assert.equal(runs, 3);
  await scheduler.stop();
});

test('exclusive jobs go through the lock: refused means not run and counted as skipped', async () => {
  const asked: string[] = [];
  const refusing: JobLock = {
    tryRun: async (name) => {
      asked.push(name);
      return false;
    },
  };
  const { clock, scheduler, status, logs } = setup({ lock: refusing });
  let ran = 0;
  scheduler.add({ name: 'presence', every: 5000, exclusive: true, run: async () => void ran++ });
  scheduler.add({ name: 'local', every: 5000, run: async () => void ran++ });
  scheduler.start();
  await clock.advance(10_000);
  assert.equal(status('presence').runs, 0);
  assert.equal(status('presence').skipped, 2);
  assert.equal(status('local').runs, 2, 'a job not exclusive never asks the lock');
  assert.equal(ran, 2);
  assert.deepEqual(asked, ['presence', 'presence']);
  assert.ok(logs.at('debug').some((e) => e.obj.job === 'presence' && /another instance/.test(e.msg)));
  assert.equal(await scheduler.runNow('presence'), 'skipped');
  assert.equal(logs.at('error').length, 0);
  await scheduler.stop();
});

test('exclusive jobs: a lock that cannot be taken is a logged failure; a granted lock wraps the run', async () => {
  let fail = true;
  const order: string[] = [];
  const lock: JobLock = {
    async tryRun(_name, fn) {
      if (fail) throw new Error('connection refused');
      order.push('locked');
      await fn();
      order.push('unlocked');
      return true;
    },
  };
  const { scheduler, status, logs } = setup({ lock });
  scheduler.add({ name: 'x', exclusive: true, run: async () => void order.push('run') });
  assert.equal(await scheduler.runNow('x'), 'failed');
  assert.deepEqual(logs.at('error')[0]?.msg, 'job lock failed');
  assert.deepEqual(
    { runs: status('x').runs, failures: status('x').failures, lastError: status('x').lastError },
    { runs: 0, failures: 1, lastError: 'connection refused' },
  );
  fail = false;
  assert.equal(await scheduler.runNow('x'), 'ran');
  assert.deepEqual(order, ['locked', 'run', 'unlocked']);
});

test('stop() while an exclusive job waits for its lock: the job body does not start', async () => {
  const granted = deferred();
  const lock: JobLock = {
    async tryRun(_name, fn) {
      await granted.promise;
      await fn();
      return true;
    },
  };
  const { scheduler, status } = setup({ lock });
  let ran = false;
  scheduler.add({ name: 'x', exclusive: true, run: async () => void (ran = true) });
  const outcome = scheduler.runNow('x');
  const stopped = scheduler.stop();
  granted.resolve();
  await stopped;
  assert.equal(await outcome, 'skipped');
  assert.equal(ran, false);
  assert.equal(status('x').runs, 0);
});

test('localJobLock just runs the job', async () => {
  let ran = false;
  assert.equal(await localJobLock().tryRun('x', async () => void (ran = true)), true);
  assert.equal(ran, true);
});

/** A connection that answers the two advisory-lock queries as told and records what it was asked. */
function fakeConnection(opts: { locked: boolean; unlockFails?: boolean }) {
  const queries: { text: string; values: unknown[] }[] = [];
  const released: (boolean | undefined)[] = [];
  const conn: LockConnection = {
    async query(text, values) {
      queries.push({ text, values });
      if (text.includes('pg_try_advisory_lock')) return { rows: [{ locked: opts.locked }] };
      if (opts.unlockFails) throw new Error('connection reset');
      return { rows: [{ pg_advisory_unlock: true }] };
    },
    release: (destroy) => void released.push(destroy),
  };
  return { conn, queries, released };
}

test('postgresJobLock: try-lock with the job key, run, unlock, and return the connection', async () => {
  const c = fakeConnection({ locked: true });
  let ran = false;
  assert.equal(await postgresJobLock(async () => c.conn).tryRun('devices.presence', async () => void (ran = true)), true);
  assert.equal(ran, true);
  const key = jobLockKey('devices.presence');
  assert.match(key, /^-?\d+$/);
  assert.notEqual(key, jobLockKey('sessions.purge'));
  assert.deepEqual(c.queries, [
    { text: 'SELECT pg_try_advisory_lock($1::bigint) AS locked', values: [key] },
    { text: 'SELECT pg_advisory_unlock($1::bigint)', values: [key] },
  ]);
  assert.deepEqual(c.released, [false]);
});

test('postgresJobLock: held elsewhere, the job does not run and the connection goes back', async () => {
  const c = fakeConnection({ locked: false });
  let ran = false;
  assert.equal(await postgresJobLock(async () => c.conn).tryRun('j', async () => void (ran = true)), false);
  assert.equal(ran, false);
  assert.equal(c.queries.length, 1);
  assert.deepEqual(c.released, [false]);
});

test('postgresJobLock: a failing job still unlocks; a failed unlock destroys the connection', async () => {
  const ok = fakeConnection({ locked: true });
  const jobErr = new Error('job broke');
  await assert.rejects(
    postgresJobLock(async () => ok.conn).tryRun('j', async () => {
      throw jobErr;
    }),
    jobErr,
  );
  assert.equal(ok.queries.length, 2, 'unlocked');
  assert.deepEqual(ok.released, [false]);

  const broken = fakeConnection({ locked: true, unlockFails: true });
  await assert.rejects(
    postgresJobLock(async () => broken.conn).tryRun('j', async () => undefined),
    /connection reset/,
  );
  assert.deepEqual(broken.released, [true], 'destroyed, so the server drops the session lock');

  const both = fakeConnection({ locked: true, unlockFails: true });
  await assert.rejects(
    postgresJobLock(async () => both.conn).tryRun('j', async () => {
      throw jobErr;
    }),
    jobErr,
    "the job's error wins",
  );
  assert.deepEqual(both.released, [true]);
});

test('default timers are unref’d, so the scheduler never keeps the process alive', async () => {
  const setTimeoutSpy = mock.method(globalThis, 'setTimeout');
  try {
    const scheduler = createScheduler({ log: recordingLog().log });
    scheduler.add({ name: 'hourly', every: 3600_000, run: async () => undefined });
    scheduler.start();
    const timer = setTimeoutSpy.mock.calls.at(-1)?.result;
    assert.ok(timer);
    assert.equal(timer.hasRef(), false);
    await scheduler.stop();
  } finally {
    setTimeoutSpy.mock.restore();
  }
});
