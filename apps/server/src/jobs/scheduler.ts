import { createHash } from 'node:crypto';

/** Pino-compatible: the server passes app.log. */
export interface JobLogger {
  error(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
  debug?(obj: object, msg: string): void;
}

/**
 * Decides whether this instance may run an exclusive job now. tryRun resolves false (without calling fn)
 * when another instance holds the job; otherwise it runs fn, releases, and resolves true or rethrows fn's error.
 */
export interface JobLock {
  tryRun(name: string, fn: () => Promise<void>): Promise<boolean>;
}

export interface JobDefinition {
  name: string;
  /** Every this many milliseconds (at most 2^31 - 1), counted from start(). */
  every?: number;
  /** Daily at this local time ('HH:mm', 24-hour) in timeZone. */
  at?: string;
  /** IANA zone for `at`; UTC unless given. */
  timeZone?: string;
  /** The signal aborts when the scheduler stops; long jobs should watch it. */
  run: (signal: AbortSignal) => Promise<unknown>;
  /** Runs on one server instance at a time through deps.lock (PostgreSQL shared by several instances). */
  exclusive?: boolean;
  /** Also runs once as soon as the scheduler starts. */
  runAtStart?: boolean;
}

export interface JobStatus {
  name: string;
  /** Times the job body started. */
  runs: number;
  /** Runs that threw, plus lock errors (a database down while taking the lock). */
  failures: number;
  /** Ticks not run: the job was still running here, or another instance held its lock. */
  skipped: number;
  lastStartedAt: string | null;
  lastDurationMs: number | null;
  /** The message of the last run's error; null once a later run succeeds. */
  lastError: string | null;
  running: boolean;
  nextRunAt: string | null;
}

export type RunOutcome = 'ran' | 'failed' | 'skipped';

export interface SchedulerDeps {
  log: JobLogger;
  /** Omitted on SQLite: a single process owns the file, so exclusive jobs need no lock. */
  lock?: JobLock;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** How long stop() waits for aborted jobs to finish; 10 s unless given. */
  stopTimeoutMs?: number;
}

export interface Scheduler {
  add(job: JobDefinition): void;
  start(): void;
  stop(): Promise<void>;
  runNow(name: string): Promise<RunOutcome>;
  status(): JobStatus[];
  /** Started and not stopping (/readyz). */
  isRunning(): boolean;
}

// setTimeout fires at once (with a warning) past this.
const MAX_TIMER_MS = 2 ** 31 - 1;
const AT_RECHECK_MS = 5 * 60_000;
const DAY_MS = 86400_000;
const AT_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

interface JobState {
  def: JobDefinition;
  runs: number;
  failures: number;
  skipped: number;
  lastStartedAt: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  running: Promise<RunOutcome> | null;
  controller: AbortController | null;
  timer: unknown;
  dueAt: number | null;
}

const defaultSetTimer = (fn: () => void, ms: number): unknown => setTimeout(fn, ms).unref();
const defaultClearTimer = (handle: unknown) => clearTimeout(handle as NodeJS.Timeout);
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A scheduler of named jobs: no overlap, errors logged and survived, stop() aborts and waits. */
export function createScheduler(deps: SchedulerDeps): Scheduler {
  const { log, lock } = deps;
  const now = deps.now ?? Date.now;
  const setTimer = deps.setTimer ?? defaultSetTimer;
  const clearTimer = deps.clearTimer ?? defaultClearTimer;
  const stopTimeoutMs = deps.stopTimeoutMs ?? 10_000;
  const jobs = new Map<string, JobState>();
  let started = false;
  let stopping: Promise<void> | null = null;

  /** Sets the job's next due time from instant t and arms its timer. */
  function schedule(job: JobState, t: number) {
    const { every, at, timeZone } = job.def;
    if (every !== undefined) {
      job.dueAt = t + every;
      arm(job, every);
    } else if (at !== undefined) {
      job.dueAt = nextDailyRun(at, timeZone ?? 'UTC', t);
      arm(job, job.dueAt - t);
    }
  }

  function arm(job: JobState, delay: number) {
    if (!started || stopping) return;
    // Timers follow the monotonic clock, daily times the wall clock: a daily job looks again every few
    // minutes, so a corrected clock or a resumed VM delays it by minutes, not by the whole gap.
    const cap = job.def.at !== undefined ? AT_RECHECK_MS : MAX_TIMER_MS;
    job.timer = setTimer(() => onTimer(job), Math.min(Math.max(delay, 0), cap));
  }

  function onTimer(job: JobState) {
    job.timer = undefined;
    if (stopping || job.dueAt === null) return;
    const t = now();
    if (job.def.at !== undefined && t < job.dueAt) return arm(job, job.dueAt - t);
    // Rearmed from this tick, before the run: a run slower than the period makes the next tick a skip,
    // and a stall (blocked loop, suspended host) drops the missed ticks rather than running them in a burst.
    schedule(job, t);
    void execute(job);
  }

  function execute(job: JobState): Promise<RunOutcome> {
    const name = job.def.name;
    if (job.running !== null) {
      job.skipped++;
      log.debug?.({ job: name }, 'job skipped: still running');
      return Promise.resolve('skipped');
    }
    const controller = new AbortController();
    job.controller = controller;
    const run = (async (): Promise<RunOutcome> => {
      // Set inside body(), which TypeScript's narrowing cannot see: hence the cast.
      let bodyStarted = null as number | null;
      const body = async () => {
        // stop() may have come while the lock was being taken.
        if (controller.signal.aborted) return;
        bodyStarted = now();
        job.runs++;
        job.lastStartedAt = bodyStarted;
        await job.def.run(controller.signal);
      };
      try {
        let acquired = true;
        if (job.def.exclusive && lock) acquired = await lock.tryRun(name, body);
        else await body();
        if (!acquired || bodyStarted === null) {
          job.skipped++;
          log.debug?.({ job: name }, acquired ? 'job skipped: scheduler stopping' : 'job skipped: held by another instance');
          return 'skipped';
        }
        job.lastError = null;
        log.debug?.({ job: name, durationMs: now() - bodyStarted }, 'job done');
        return 'ran';
      } catch (err) {
        job.failures++;
        job.lastError = message(err);
        log.error({ err, job: name }, bodyStarted === null ? 'job lock failed' : 'job failed');
        return 'failed';
      } finally {
        if (bodyStarted !== null) job.lastDurationMs = now() - bodyStarted;
        job.running = null;
        job.controller = null;
      }
    })();
    job.running = run;
    return run;
  }

  function get(name: string): JobState {
    const job = jobs.get(name);
    if (!job) throw new Error(`unknown job "${name}"`);
    return job;
  }

  return {
    add(def) {
      if (stopping) throw new Error('scheduler stopped');
      if (typeof def.name !== 'string' || !def.name) throw new Error('a job needs a name');
      if (jobs.has(def.name)) throw new Error(`job "${def.name}" is already scheduled`);
      if (def.every !== undefined && def.at !== undefined) throw new Error(`job "${def.name}": give either every or at, not both`);
      if (def.every !== undefined && !(def.every > 0 && def.every <= MAX_TIMER_MS))
        throw new Error(`job "${def.name}": every must be a positive number of ms, at most ${MAX_TIMER_MS}`);
      if (def.at !== undefined) {
        if (!AT_PATTERN.test(def.at)) throw new Error(`job "${def.name}": at must be HH:mm, got "${def.at}"`);
        // Fails fast on a misspelt zone (RangeError) rather than at the first tick.
        formatter(def.timeZone ?? 'UTC');
      }
      const job: JobState = {
        def,
        runs: 0,
        failures: 0,
        skipped: 0,
        lastStartedAt: null,
        lastDurationMs: null,
        lastError: null,
        running: null,
        controller: null,
        timer: undefined,
        dueAt: null,
      };
      jobs.set(def.name, job);
      if (started) {
        schedule(job, now());
        if (def.runAtStart) void execute(job);
      }
    },

    start() {
      if (stopping) throw new Error('scheduler stopped');
      if (started) return;
      started = true;
      const t = now();
      for (const job of jobs.values()) schedule(job, t);
      for (const job of jobs.values()) if (job.def.runAtStart) void execute(job);
      log.info?.({ jobs: [...jobs.keys()] }, 'scheduler started');
    },

    stop() {
      stopping ??= (async () => {
        for (const job of jobs.values()) {
          if (job.timer !== undefined) clearTimer(job.timer);
          job.timer = undefined;
          job.dueAt = null;
          job.controller?.abort();
        }
        const pending = [...jobs.values()].flatMap((j) => (j.running !== null ? [j.running] : []));
        if (pending.length === 0) return;
        let timer: unknown;
        const timedOut = new Promise<boolean>((resolve) => {
          timer = setTimer(() => resolve(true), stopTimeoutMs);
        });
        const late = await Promise.race([Promise.all(pending).then(() => false), timedOut]);
        clearTimer(timer);
        if (late) {
          const names = [...jobs.values()].filter((j) => j.running !== null).map((j) => j.def.name);
          log.error({ jobs: names, timeoutMs: stopTimeoutMs }, 'jobs still running after stop timeout');
        }
      })();
      return stopping;
    },

    async runNow(name) {
      const job = get(name);
      if (stopping) throw new Error('scheduler stopped');
      return execute(job);
    },

    isRunning: () => started && stopping === null,

    status() {
      return [...jobs.values()].map((j) => ({
        name: j.def.name,
        runs: j.runs,
        failures: j.failures,
        skipped: j.skipped,
        lastStartedAt: j.lastStartedAt === null ? null : new Date(j.lastStartedAt).toISOString(),
        lastDurationMs: j.lastDurationMs,
        lastError: j.lastError,
        running: j.running !== null,
        nextRunAt: j.dueAt === null ? null : new Date(j.dueAt).toISOString(),
      }));
    },
  };
}

// --- Exclusive jobs across instances ---------------------------------------------------------------

/** What postgresJobLock needs of a connection; a pg PoolClient fits (`() => pool.connect()`). */
export interface LockConnection {
  query(text: string, values: unknown[]): Promise<{ rows: any[] }>;
  /** true destroys the connection instead of returning it to the pool. */
  release(destroy?: boolean): void;
}

/** The advisory-lock key of a job: 64 bits of SHA-256, signed as PostgreSQL's bigint. */
export function jobLockKey(name: string): string {
  // 64 bits rather than hashtext's 32 keep collisions with other advisory-lock users in the database negligible.
  return createHash('sha256').update(`faceadmin.job:${name}`).digest().readBigInt64BE(0).toString();
}

/** Exclusive jobs on PostgreSQL: a session advisory try-lock held on its own connection while the job runs. */
export function postgresJobLock(connect: () => Promise<LockConnection>): JobLock {
  return {
    async tryRun(name, fn) {
      const key = jobLockKey(name);
      const conn = await connect();
      // A session lock lives as long as its connection: unless it is known released, the connection is
      // destroyed rather than pooled, so the server drops the lock with the session.
      let clean = false;
      try {
        const { rows } = await conn.query('SELECT pg_try_advisory_lock($1::bigint) AS locked', [key]);
        if (rows[0]?.locked !== true) {
          clean = true;
          return false;
        }
        let failure: { err: unknown } | undefined;
        try {
          await fn();
        } catch (err) {
          failure = { err };
        }
        try {
          await conn.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
          clean = true;
        } catch (unlockErr) {
          // The job's own error says more; the destroyed connection frees the lock either way.
          if (!failure) throw unlockErr;
        }
        if (failure) throw failure.err;
        return true;
      } finally {
        conn.release(!clean);
      }
    },
  };
}

/** Exclusive jobs on SQLite: one process owns the database file, so there is no one to exclude. */
export function localJobLock(): JobLock {
  return {
    async tryRun(_name, fn) {
      await fn();
      return true;
    },
  };
}

// --- Daily times in a time zone ----------------------------------------------------------------------

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's wall-clock reading at instant t, to the second, written as if it were a UTC instant. */
function wallClock(t: number, timeZone: string): number {
  const parts = formatter(timeZone).formatToParts(t);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? NaN);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour') % 24, part('minute'), part('second'));
}

const offsetAt = (t: number, timeZone: string) => wallClock(t, timeZone) - Math.floor(t / 1000) * 1000;

/**
 * The first instant whose wall clock in the zone reads `wall`; when that reading is skipped (spring
 * forward), the first instant after it, i.e. the moment the clocks jump.
 */
function firstInstantAt(wall: number, timeZone: string): number {
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const matches = [wall - before, wall - after].filter((t) => wallClock(t, timeZone) === wall);
  // A reading that occurs twice (fall back) counts once, at its first occurrence.
  if (matches.length > 0) return Math.min(...matches);
  if (after <= before) return wall - before;
  // In the gap: wall(lo) < wall <= wall(hi); bisect to the second at which the clocks jump.
  let lo = Math.floor((wall - after) / 1000);
  let hi = Math.ceil((wall - before) / 1000);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallClock(mid * 1000, timeZone) >= wall) hi = mid;
    else lo = mid;
  }
  return hi * 1000;
}

/** The next instant strictly after `after` at which a daily 'HH:mm' job in timeZone is due. */
export function nextDailyRun(at: string, timeZone: string, after: number): number {
  const m = AT_PATTERN.exec(at);
  if (!m) throw new Error(`at must be HH:mm, got "${at}"`);
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  const today = new Date(wallClock(after, timeZone));
  let best = Infinity;
  // Yesterday's time can still be ahead right after a fall-back; tomorrow's is always ahead.
  for (let k = -1; k <= 2; k++) {
    const wall = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + k, hour, minute);
    const t = firstInstantAt(wall, timeZone);
    if (t > after && t < best) best = t;
  }
  return best;
}
