import fs from 'node:fs';
import path from 'node:path';
import { AjvCompiler } from '@fastify/ajv-compiler';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiContract, CODES, type Endpoint } from '@faceadmin/shared';
import Fastify, { type FastifyReply } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { databaseQuotaStore } from './plugins/request-quota.ts';
import type { Protocol } from './gateways/driver.ts';
import type { TerminalEvents } from './gateways/terminal-events.ts';
import { zkPushDriver } from './gateways/zk-push/driver.ts';
import { isapiProtocol, type IsapiProtocolOptions } from './gateways/isapi/protocol.ts';
import { isapiGateway } from './gateways/isapi/isapi.gateway.ts';
import { zkPushGateway } from './gateways/zk-push/zk-push.gateway.ts';
import { startMqttGateway, type MqttGateway } from './gateways/mqtt/index.ts';
import { languageOf, t } from './i18n/i18n.ts';
import { prettyStream } from './lib/pretty-log.ts';
import { isInstant } from './lib/time.ts';
import { API_PREFIX } from './lib/api.ts';
import { openFileStore } from './db/file-store.ts';
import type { FileStore } from './lib/files/store.ts';
import { createScheduler, localJobLock, postgresJobLock, type Scheduler } from './jobs/scheduler.ts';
import type { App, AppModule, Core } from './module.ts';
import { attendanceModule } from './modules/attendance/attendance.module.ts';
import { authModule } from './modules/auth/auth.module.ts';
import { breakersModule } from './modules/breakers/breakers.module.ts';
import type { SmsSender } from './modules/auth/sms.service.ts';
import { companiesModule } from './modules/companies/companies.module.ts';
import { dashboardModule } from './modules/dashboard/dashboard.module.ts';
import { departmentsModule } from './modules/departments/departments.module.ts';
import { devicesModule, TERMINAL_ERROR_DELAY_S } from './modules/devices/devices.module.ts';
import type { DeviceRow } from './modules/devices/devices.repository.ts';
import { createBus, type Bus } from './db/bus.ts';
import { leadership, type Leadership } from './db/leader.ts';
import { clusterModule } from './modules/cluster/cluster.module.ts';
import { liveModule } from './modules/live/live.module.ts';
import { integrationsModule } from './modules/integrations/integrations.module.ts';
import { dormitoryModule } from './modules/dormitory/dormitory.module.ts';
import { leaveModule } from './modules/leave/leave.module.ts';
import { logsModule } from './modules/logs/logs.module.ts';
import { managersModule } from './modules/managers/managers.module.ts';
import { messagesModule } from './modules/messages/messages.module.ts';
import { parkingModule } from './modules/parking/parking.module.ts';
import { legacyModule } from './modules/legacy/legacy.module.ts';
import { personsModule } from './modules/persons/persons.module.ts';
import { punchesModule } from './modules/punches/punches.module.ts';
import { strangersModule } from './modules/strangers/strangers.module.ts';
import { sitesModule } from './modules/sites/sites.module.ts';
import { systemModule } from './modules/system/system.module.ts';
import { workflowModule } from './modules/workflow/workflow.module.ts';
import { visitorsModule } from './modules/visitors/visitors.module.ts';
import authPlugin from './plugins/auth.ts';
import { consoleAssets } from './plugins/console-assets.ts';
import envelope from './plugins/envelope.ts';
import { compiledOnce, compiledOnFirstCall, lazySerializers } from './plugins/lazy-compilers.ts';
import { RequestLog } from './plugins/request-log.ts';
import { SECURITY_HEADERS } from './plugins/security-headers.ts';

export { API_PREFIX } from './lib/api.ts';
export type { App } from './module.ts';
const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../package.json'), 'utf8')) as { version: string };

/** Built modules by name; tests reach services through it (routes never do: they get what they need from their module). */
function buildModules(core: Core, opts: BuildOptions, listenPort: () => number | undefined, dialling: Leadership) {
  const auth = authModule(core, { captchaText: opts.captchaText, sms: opts.sms });
  const persons = personsModule(core);
  const punches = punchesModule(core, { peopleChanged: persons.peopleChanged });
  const isapi = isapiProtocol({
    log: core.log,
    heartbeatMs: core.config.devicePollSeconds * 1000,
    listenPort,
    eventUrl: core.config.isapiEventUrl,
    // one instance dials the terminals (several instances on one PostgreSQL): the holder of the role
    serves: () => dialling.held,
    ...opts.isapi,
  });
  const devices = devicesModule(core, { protocols: [{ driver: zkPushDriver }, isapi, ...(opts.protocols ?? [])], persons, punches });
  const companies = companiesModule(core, { peopleChanged: persons.peopleChanged });
  return {
    // first: its stream is open before any writer publishes, and closes after them
    live: liveModule(core, opts.live),
    auth,
    companies,
    managers: managersModule(core, auth),
    logs: logsModule(core),
    messages: messagesModule(core),
    dashboard: dashboardModule(core),
    departments: departmentsModule(core),
    persons,
    devices,
    punches,
    attendance: attendanceModule(core, { punches: punches.punches, peopleChanged: persons.peopleChanged }),
    cluster: clusterModule(core),
    breakers: breakersModule(core),
    workflow: workflowModule(core, { sms: auth.sms, captcha: auth.captcha, companyCreated: companies.created }),
    strangers: strangersModule(core, { photos: punches.photos }),
    dormitory: dormitoryModule(core),
    sites: sitesModule(core),
    leave: leaveModule(core),
    visitors: visitorsModule(core, { photos: persons.photos, sync: devices.sync, sms: auth.sms, punches: punches.punches, punchPhotos: punches.photos }),
    integrations: integrationsModule(core, { peopleChanged: persons.peopleChanged }),
    parking: parkingModule(core, { auth: auth.auth, peopleChanged: persons.peopleChanged }),
    system: systemModule(core, { punches: punches.punches, sessions: auth.lookup }),
    legacy: legacyModule(core, { punches: punches.punches, peopleChanged: persons.peopleChanged }),
  };
}
export type Modules = ReturnType<typeof buildModules>;

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    bus: Bus;
    /** this instance dials the ISAPI terminals while it holds this role */
    dialling: Leadership;
    /** The external broker's subscription role (MQTT_URL set), else null. */
    subscription: Leadership | null;
    /** every stored file (docs/files.md) */
    files: FileStore;
    modules: Modules;
    jobs: Scheduler;
    appVersion: string;
    /** The breakers' MQTT gateway (embedded broker or external client). */
    mqtt: MqttGateway;
  }
}

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Tests pass a fixed captcha text; production draws random digits. */
  captchaText?: () => string;
  sms?: SmsSender | null;
  logger?: boolean | object;
  /** Protocols besides ZK PUSH (tests bring a dialled one; ISAPI will be listed beside ZK). */
  protocols?: Protocol<TerminalEvents<DeviceRow>>[];
  /** ISAPI delivery timings and limits (tests shorten them). */
  isapi?: Partial<IsapiProtocolOptions>;
  /** Live stream limits (tests shorten them). */
  live?: Parameters<typeof liveModule>[1];
  /** The file store (tests share one between instances); else the one config.ts chose. */
  files?: FileStore;
  /** The console as served before precompression and caching (uncompressed, max-age=0): bench/'s baseline. */
  plainAssets?: boolean;
}

/** Where terminals call (ZK PUSH /iclock/*). */
const TERMINAL_PATH = '/iclock/';

let shared: { bodyValidator: ReturnType<ReturnType<typeof AjvCompiler>>; textValidator: ReturnType<ReturnType<typeof AjvCompiler>> } | undefined;
/** The management API's two request validators (ajv), one per process: their options never change (see compiledOnce). */
function validators() {
  if (shared) return shared;
  const compilers = AjvCompiler();
  const ajv = { removeAdditional: false, useDefaults: true, allErrors: false } as const;
  // Dates and instants are real ones (ajv-formats already refuses 2026-02-31 and 24:00 as a date): its
  // date-time also takes a leap second (23:59:60), which Date.parse does not read.
  const onCreate = (a: { addFormat(name: string, f: (s: string) => boolean): unknown }) => a.addFormat('date-time', isInstant);
  shared = {
    bodyValidator: compilers({}, { customOptions: { ...ajv, coerceTypes: false }, onCreate }),
    textValidator: compilers({}, { customOptions: { ...ajv, coerceTypes: 'array' }, onCreate }),
  };
  return shared;
}

/** Readable log lines for a person watching a terminal window; JSON for files, pipes and collectors. */
const prettyLogs = (config: Config) => config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);

/** The methods the management API serves a path with (`/person/pic/7` → GET), from the shared contract. */
function apiMethods(): (path: string) => string[] {
  const routes = Object.values(apiContract)
    .flatMap((group) => Object.values(group) as Endpoint[])
    .map((e) => ({ method: e.method, re: new RegExp(`^${e.path.replace(/:\w+/g, '[^/]+')}/?$`) }));
  return (path) => [...new Set(routes.filter((r) => r.re.test(path)).map((r) => r.method))].flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
}

/** Builds the whole server (tests build it too); migrations run before routes are ready. */
export async function buildApp(opts: BuildOptions): Promise<App> {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger ?? {
      level: config.logLevel,
      // Secrets never reach the log (standards): tokens travel in X-Token, passwords only in bodies, which are not logged.
      redact: { paths: ['req.headers["x-token"]', 'req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
      ...(prettyLogs(config) ? { stream: prettyStream(process.stdout, { colors: process.stdout.hasColors?.() ?? false }) } : {}),
    },
    // Terminals call every few seconds each: their request lines are debug (the gateway logs what they report).
    logController: new RequestLog((url) => url.startsWith(TERMINAL_PATH)),
    trustProxy: config.trustProxy === false ? false : config.trustProxy.split(',').map((x) => x.trim()),
    bodyLimit: 1024 * 1024,
    // Errors the router raises before any hook runs (a malformed or over-long path) answer in the envelope too.
    frameworkErrors: (err, req, res) => {
      const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const reply = res as unknown as FastifyReply;
      void reply
        .status(tooLong ? 414 : 400)
        .send({ code: CODES.VALIDATION, message: t(languageOf(req.headers['x-lang']), tooLong ? 'errors.uriTooLong' : 'errors.badRequest'), data: null });
    },
    ajv: { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true, allErrors: false } },
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await migrate(database.db, database.dialect);

  // Listening before any module is built: nothing another instance sends from now on is missed.
  const bus = createBus(database, app.log);
  await bus.start();
  const core: Core = {
    config,
    database,
    log: app.log,
    bus,
    version: pkg.version,
    files: opts.files ?? openFileStore({ kind: config.fileStore, dataDir: config.dataDir, s3: config.s3 }, database),
  };
  // ISAPI terminals are told to post their events to this server's port, known once it listens.
  const listenPort = () => {
    const a = app.server.address();
    return a && typeof a === 'object' ? a.port : undefined;
  };
  // Terminals the server dials (ISAPI) are served by one instance at a time; the role passes on when it stops.
  const dialling = leadership(database, 'isapi.dialling', app.log);
  await dialling.start();
  // With an external broker (MQTT_URL) one instance subscribes and serves the breakers; the role passes on likewise.
  const subscription = config.mqtt.url ? leadership(database, 'mqtt.subscription', app.log) : null;
  await subscription?.start();
  const modules = buildModules(core, opts, listenPort, dialling);
  const list: AppModule[] = Object.values(modules);
  // Scheduled work of every module; with several instances on one PostgreSQL an exclusive job runs on one.
  const pool = database.pgPool;
  const jobs = createScheduler({ log: app.log, lock: pool ? postgresJobLock(() => pool.connect()) : localJobLock() });
  for (const m of list) for (const job of m.jobs ?? []) jobs.add(job);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('bus', bus);
  app.decorate('dialling', dialling);
  app.decorate('subscription', subscription);
  app.decorate('files', core.files);
  app.decorate('modules', modules);
  app.decorate('jobs', jobs);
  app.decorate('appVersion', pkg.version);
  app.addHook('onReady', async () => jobs.start());
  // Draining: Node's server.close() closes the connections idle at that moment, once. One whose request is still in
  // flight (a terminal's upload) stays open after its answer for the keep-alive time (72 s), and close() waits for
  // it: a rolling restart held up by one poll. From the first close hook to the last, idle connections are closed as
  // they appear (test/smoke.test.ts).
  let draining: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    draining = setInterval(() => app.server.closeIdleConnections(), 50);
    draining.unref();
  });
  app.addHook('onClose', async () => clearInterval(draining));
  app.addHook('preClose', async () => {
    await jobs.stop();
    for (const m of list) await m.close?.();
    await dialling.close();
    await bus.close();
  });
  app.addHook('onClose', async () => database.close());
  // Security headers on every answer (issue #28): first, so the probes, the API, the terminals' gateways and the
  // console's files all carry them (plugins/security-headers.ts; docs/deploy.md "Security headers").
  await app.register(helmet, SECURITY_HEADERS);
  // /healthz, /readyz, /metrics and the request metrics (outside the management API; docs/deploy.md).
  await app.register(
    ...modules.system.probes({
      jobs,
      broker: () => app.hasDecorator('mqtt') && app.mqtt.connected(),
      liveStreams: () => modules.live.hub.size,
      roles: () => ({ [dialling.name]: dialling.held, ...(subscription ? { [subscription.name]: subscription.held } : {}) }),
      bus,
    }),
  );

  // The management API's plugins (envelope, sessions, uploads, OpenAPI) live in its own context: the
  // terminals' gateway beside it pays for none of their hooks on every punch.
  await app.register(async function managementApi(root) {
    const api = root as unknown as App;
    await api.register(envelope);
    // Request validation (one policy for every route; contracts' request schemas are closed by routeSchema):
    // unknown keys are refused, not removed; JSON bodies are taken as typed (a string is never a number),
    // while query strings and path parameters, which are text on the wire, are coerced to their types.
    const { bodyValidator, textValidator } = validators();
    api.setValidatorCompiler((route) =>
      compiledOnFirstCall(() =>
        route.httpPart === 'body'
          ? compiledOnce('body', route.schema, () => bodyValidator(route))
          : compiledOnce('text', route.schema, () => textValidator(route)),
      ),
    );
    // Route limits count in the database: one limit across every instance behind the load balancer.
    await api.register(rateLimit, { global: false, store: databaseQuotaStore(database.db), skipOnError: true });
    // Uploads: one file per request; each route sets its own size cap (photos 5 MB, imports 2 MB).
    await api.register(multipart, { limits: { files: 1, fields: 10, fileSize: 10 * 1024 * 1024 } });
    await api.register(swagger, {
      openapi: {
        info: {
          title: 'FaceAdmin management API',
          version: pkg.version,
          description: 'Envelope {code, message, data}; code 20000 is success. Send X-Token and X-Lang.',
        },
        components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Token' } } },
        security: [{ token: [] }],
      },
    });
    // The OpenAPI page lives under the console's CSP: swagger-ui loads only its own files (no inline script).
    await api.register(swaggerUi, { routePrefix: '/api/docs' });
    await api.register(authPlugin, {
      sessions: modules.auth.lookup,
      apiPrefix: API_PREFIX,
      persons: modules.workflow.personLookup,
      runMode: config.runMode,
      keys: modules.integrations.keyLookup,
    });
    await api.register(
      async (scope) => {
        for (const m of list) if (m.routes) await m.routes(scope);
      },
      { prefix: API_PREFIX },
    );
  });

  // Terminals talk to /iclock/* (ZKTeco PUSH), outside the management API and its sessions.
  await app.register(zkPushGateway, { events: modules.devices.terminalEvents, delayS: config.devicePollSeconds, errorDelayS: TERMINAL_ERROR_DELAY_S });
  // ISAPI terminals post their events to /isapi/event/:id/:secret (the server dials them for everything else).
  await app.register(isapiGateway, { events: modules.devices.terminalEvents });

  const index = config.webDist && fs.existsSync(path.join(config.webDist, 'index.html')) ? config.webDist : undefined;
  if (index) await app.register(fastifyStatic, consoleAssets(index, { plain: opts.plainAssets ?? false }));
  const methodsOf = apiMethods();
  app.setNotFoundHandler((req, reply) => {
    const urlPath = req.url.split('?')[0] ?? '';
    // A known API path asked with another method: 405 with the methods it takes, in the envelope.
    const allowed = urlPath.startsWith(`${API_PREFIX}/`) ? methodsOf(urlPath.slice(API_PREFIX.length)) : [];
    if (allowed.length && !allowed.includes(req.method)) {
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send({
          code: CODES.NOT_FOUND,
          message: t(languageOf(req.headers['x-lang']), 'errors.methodNotAllowed', { method: req.method, url: urlPath, allowed: allowed.join(', ') }),
          data: null,
        });
    }
    if (req.url.startsWith('/api/') || !index || req.method !== 'GET') {
      return reply.status(404).send({
        code: CODES.NOT_FOUND,
        message: t(languageOf(req.headers['x-lang']), 'errors.routeNotFound', { method: req.method, url: req.url.split('?')[0] ?? '' }),
        data: null,
      });
    }
    // The console is a single-page app: unknown paths get index.html and the router decides (spec §2: /404).
    return reply.type('text/html').sendFile('index.html');
  });

  for (const m of list) await m.ready?.();
  // Breakers (MQTT): started once every module is ready; closed before the modules (the jobs are stopped first).
  const mqtt = await startMqttGateway(config.mqtt, modules.breakers.events, app.log, subscription ?? undefined);
  modules.breakers.attach(mqtt);
  app.decorate('mqtt', mqtt);
  app.addHook('preClose', async () => {
    await mqtt.close();
    await subscription?.close();
  });
  return app;
}
