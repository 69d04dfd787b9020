import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import client from 'prom-client';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { MIGRATION_NAMES } from '../../db/migrate.ts';
import { metricsRepository as repo } from './metrics.repository.ts';

/** What the probes read of the rest of the server (app.ts hands them in; nothing here reaches into a gateway). */
export interface ProbeSources {
  /** The scheduler: running, and its jobs' counts. */
  jobs: { isRunning(): boolean; status(): { name: string; runs: number; failures: number; skipped: number }[] };
  /** The breakers' broker: listening (embedded) or connected (MQTT_URL); false before it is started. */
  broker: () => boolean;
  /** Open live streams (modules/live). */
  liveStreams: () => number;
  /** The roles one instance at a time holds (db/leader.ts), by name: whether this instance holds each now. */
  roles: () => Record<string, boolean>;
  /** The bus between instances (db/bus.ts): listening now, and how often its connection came back. */
  bus: { readonly listening: boolean; readonly reconnects: number };
}

export type CheckName = 'database' | 'migrations' | 'broker' | 'jobs';
export type CheckResult = 'ok' | 'failed' | 'timeout' | 'pending';

/** A readiness database check slower than this fails: a load balancer must not wait on a stuck pool. */
const DB_CHECK_MS = 2000;

/** Seconds: from a cached dashboard read to a slow export; above 10 s is "slow" whatever it was. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
};

/** Loopback, as the socket sees it (IPv4, IPv6 and IPv4-mapped). */
const isLoopback = (ip: string | undefined) => !!ip && (ip === '::1' || /^(::ffff:)?127\./.test(ip));

/**
 * The per-instance registry: counters the module feeds as things happen, gauges read on each scrape (collect()).
 * One registry per built app, so two apps in one test process do not share figures.
 */
export function createMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'faceadmin_' });
  const http = new client.Histogram({
    name: 'faceadmin_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status class (its _count is the request rate)',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const punches = new client.Counter({
    name: 'faceadmin_punches_ingested_total',
    help: 'Punch records received from terminals and committed, by protocol (a retried upload counts again)',
    labelNames: ['protocol'] as const,
    registers: [registry],
  });
  return { registry, http, punches };
}
export type Metrics = ReturnType<typeof createMetrics>;

/**
 * GET /healthz, /readyz and /metrics, outside the management API (no session, no rate limit, no envelope), and the
 * request metrics hook on every route. Their own request lines are logged at warn only (probes come every few
 * seconds). docs/deploy.md says how nginx and Prometheus use them.
 */
export const probesPlugin = fp<ProbeSources & { config: Config; database: Database; metrics: Metrics }>(
  async (app: FastifyInstance, o) => {
    const { config, database, metrics } = o;
    const db = database.db;

    app.addHook('onResponse', async (req, reply) => {
      // The route's pattern (/api/management/person/pic/:id), never the raw URL: bounded label values.
      const route = req.routeOptions.url ?? 'unmatched';
      const status = `${Math.floor(reply.statusCode / 100)}xx`;
      metrics.http.observe({ method: req.method, route, status }, reply.elapsedTime / 1000);
    });

    async function checks(): Promise<Record<CheckName, CheckResult>> {
      const applied = await withTimeout(
        repo.migrations(db).then(
          (names) => names,
          () => null,
        ),
        DB_CHECK_MS,
      );
      const database: CheckResult = applied === 'timeout' ? 'timeout' : applied === null ? 'failed' : 'ok';
      let migrations: CheckResult = 'pending';
      if (Array.isArray(applied)) {
        const have = new Set(applied);
        // Another instance may already run a newer build (more migrations): only missing ones count.
        migrations = MIGRATION_NAMES.every((n) => have.has(n)) ? 'ok' : 'pending';
      }
      return { database, migrations, broker: o.broker() ? 'ok' : 'failed', jobs: o.jobs.isRunning() ? 'ok' : 'failed' };
    }

    const quiet = { logLevel: 'warn' as const };
    app.get('/healthz', quiet, async (_req, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));
    app.get('/readyz', quiet, async (_req, reply) => {
      const c = await checks();
      const failed = (Object.keys(c) as CheckName[]).filter((k) => c[k] !== 'ok');
      // Roles and the bus are reported, not checked: an instance holding no role serves as well, and a bus that is
      // reconnecting leaves its waiters polling the database.
      return reply
        .status(failed.length ? 503 : 200)
        .header('cache-control', 'no-store')
        .send({
          status: failed.length ? 'unavailable' : 'ok',
          checks: c,
          failed,
          roles: o.roles(),
          bus: { listening: o.bus.listening, reconnects: o.bus.reconnects },
        });
    });

    // Gauges read on scrape.
    const { registry } = metrics;
    new client.Gauge({
      name: 'faceadmin_ready',
      help: '1 when every readiness check passes (database, migrations, broker, jobs)',
      registers: [registry],
      async collect() {
        const c = await checks();
        this.set(Object.values(c).every((v) => v === 'ok') ? 1 : 0);
      },
    });
    new client.Gauge({
      name: 'faceadmin_sync_queue_depth',
      help: 'Ledger rows (a person on a terminal) waiting to be applied, by state',
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const r of await repo.syncQueue(db)) this.set({ state: r.state }, r.n);
      },
    });
    const recalcLag = new client.Gauge({
      name: 'faceadmin_recalc_queue_lag_seconds',
      help: 'Age of the oldest pending attendance recalculation (0 when none waits)',
      registers: [registry],
    });
    new client.Gauge({
      name: 'faceadmin_recalc_queue_depth',
      help: 'People whose attendance days wait to be recomputed',
      registers: [registry],
      async collect() {
        const q = await repo.recalcQueue(db);
        this.set(q.n);
        recalcLag.set(q.oldest ? Math.max(0, (Date.now() - Date.parse(q.oldest)) / 1000) : 0);
      },
    });
    new client.Gauge({
      name: 'faceadmin_terminals',
      help: 'Registered terminals by protocol and presence (online 1 or 0)',
      labelNames: ['protocol', 'online'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const r of await repo.terminals(db)) this.inc({ protocol: r.protocol, online: String(r.online ? 1 : 0) }, r.n);
      },
    });
    new client.Gauge({
      name: 'faceadmin_breakers',
      help: 'Registered circuit breakers by presence (online 1 or 0)',
      labelNames: ['online'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const r of await repo.breakers(db)) this.inc({ online: String(r.online ? 1 : 0) }, r.n);
      },
    });
    new client.Gauge({
      name: 'faceadmin_live_streams',
      help: "Consoles' live streams open on this instance",
      registers: [registry],
      collect() {
        this.set(o.liveStreams());
      },
    });
    new client.Gauge({
      name: 'faceadmin_role_held',
      help: 'Roles one instance at a time holds (isapi.dialling, mqtt.subscription): 1 on the instance holding it',
      labelNames: ['role'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [role, held] of Object.entries(o.roles())) this.set({ role }, held ? 1 : 0);
      },
    });
    new client.Gauge({
      name: 'faceadmin_bus_listening',
      help: 'Whether the bus between instances (PostgreSQL LISTEN) is connected: 1 yes, 0 reconnecting',
      registers: [registry],
      collect() {
        this.set(o.bus.listening ? 1 : 0);
      },
    });
    new client.Counter({
      name: 'faceadmin_bus_reconnects_total',
      help: 'Times the bus between instances came back after losing its connection (messages sent meanwhile were re-read)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(o.bus.reconnects);
      },
    });
    // Counters owned by the scheduler: the scrape copies its totals (they only grow while the process lives).
    const jobGauge = (name: string, help: string, pick: (j: { runs: number; failures: number; skipped: number }) => number) =>
      new client.Counter({
        name,
        help,
        // Not `job`: Prometheus sets that label on every target (the scrape job) and would rename ours.
        labelNames: ['name'] as const,
        registers: [registry],
        collect() {
          this.reset();
          for (const j of o.jobs.status()) this.inc({ name: j.name }, pick(j));
        },
      });
    jobGauge('faceadmin_job_runs_total', 'Scheduled job runs started on this instance, by job', (j) => j.runs);
    jobGauge('faceadmin_job_failures_total', 'Scheduled job runs that failed on this instance, by job', (j) => j.failures);
    jobGauge('faceadmin_job_skips_total', 'Scheduled job ticks skipped (still running, or another instance held the job)', (j) => j.skipped);

    /** METRICS_TOKEN set: its bearer from anywhere. Unset: loopback only, and never a request a proxy forwarded. */
    function allowed(req: FastifyRequest): boolean {
      const token = config.metricsToken;
      if (token) {
        const m = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
        const given = Buffer.from(m?.[1] ?? '');
        const want = Buffer.from(token);
        return given.length === want.length && timingSafeEqual(given, want);
      }
      const proxied = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined || req.headers['x-real-ip'] !== undefined;
      return !proxied && isLoopback(req.socket.remoteAddress);
    }

    app.get('/metrics', quiet, async (req: FastifyRequest, reply: FastifyReply) => {
      if (!allowed(req)) {
        return reply
          .status(config.metricsToken ? 401 : 403)
          .header('cache-control', 'no-store')
          .type('text/plain')
          .send(config.metricsToken ? 'metrics need the bearer token (METRICS_TOKEN)\n' : 'metrics are served to loopback only (or set METRICS_TOKEN)\n');
      }
      const text = await registry.metrics();
      return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
    });
  },
  { name: 'faceadmin-probes' },
);
