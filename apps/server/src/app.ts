import fs from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CODES } from '@faceadmin/shared';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { languageOf, t } from './i18n/i18n.ts';
import authRoutes from './modules/auth/auth.routes.ts';
import { authService, type AuthService } from './modules/auth/auth.service.ts';
import { captchaService, type CaptchaService } from './modules/auth/captcha.service.ts';
import { sessionsService, type SessionsService } from './modules/auth/sessions.service.ts';
import { createSmsSender, type SmsSender } from './modules/auth/sms.service.ts';
import companiesRoutes from './modules/companies/companies.routes.ts';
import dashboardRoutes from './modules/dashboard/dashboard.routes.ts';
import departmentsRoutes from './modules/departments/departments.routes.ts';
import personsRoutes from './modules/persons/persons.routes.ts';
import type { DeviceDriver } from './devices/driver.ts';
import { zkPushDriver } from './devices/zk-push/driver.ts';
import zkPushRoutes from './devices/zk-push/zk-push.routes.ts';
import devicesRoutes from './modules/devices/devices.routes.ts';
import { devicesService, type DevicesService } from './modules/devices/devices.service.ts';
import { offlineAfterMs, presenceService, type PresenceService } from './modules/devices/presence.service.ts';
import { syncService, type SyncService } from './modules/devices/sync.service.ts';
import { photoStore } from './modules/persons/photos.ts';
import punchesRoutes from './modules/punches/punches.routes.ts';
import { punchesService, punchPhotoStore, type PunchesService } from './modules/punches/punches.service.ts';
import logsRoutes from './modules/logs/logs.routes.ts';
import managersRoutes from './modules/managers/managers.routes.ts';
import messagesRoutes from './modules/messages/messages.routes.ts';
import authPlugin from './plugins/auth.ts';
import envelope from './plugins/envelope.ts';
import { housekeeping, type Housekeeping } from './housekeeping.ts';

export { API_PREFIX } from './lib/api.ts';
import { API_PREFIX } from './lib/api.ts';
const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../package.json'), 'utf8')) as { version: string };

export interface Services {
  sessions: SessionsService;
  captcha: CaptchaService;
  sms: SmsSender | null;
  auth: AuthService;
  sync: SyncService;
  presence: PresenceService;
  punches: PunchesService;
  devices: DevicesService;
  housekeeping: Housekeeping;
}

/** Protocol drivers by name; features only ever see the DeviceDriver interface. */
const DRIVERS: Record<string, DeviceDriver> = { [zkPushDriver.protocol]: zkPushDriver };
const driverFor = (protocol: string): DeviceDriver => DRIVERS[protocol] ?? zkPushDriver;
/** ZK PUSH ErrorDelay: seconds a terminal waits after a network failure. */
const ERROR_DELAY_S = 30;

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    services: Services;
    appVersion: string;
  }
}

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Tests pass a fixed captcha text; production draws random digits. */
  captchaText?: () => string;
  sms?: SmsSender | null;
  logger?: boolean | object;
}

/** Builds the whole server (tests build it too); migrations run before routes are ready. */
export async function buildApp(opts: BuildOptions): Promise<App> {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger ?? {
      level: config.logLevel,
      // Secrets never reach the log (standards): tokens travel in X-Token, passwords only in bodies, which are not logged.
      redact: { paths: ['req.headers["x-token"]', 'req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    },
    trustProxy: config.trustProxy === false ? false : config.trustProxy.split(',').map((x) => x.trim()),
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await migrate(database.db, database.dialect);

  const sessions = sessionsService(config.sessionTtl);
  const captcha = captchaService(opts.captchaText);
  const sms = opts.sms === undefined ? createSmsSender(config, app.log) : opts.sms;
  const photos = photoStore(config.dataDir);
  const sync = syncService({ database, photos, driver: driverFor });
  const presence = presenceService({ database, offlineAfterMs: offlineAfterMs(config.devicePollSeconds, ERROR_DELAY_S) });
  const punches = punchesService({ database, photos: punchPhotoStore(config.dataDir) });
  const services: Services = {
    sessions,
    captcha,
    sms,
    auth: authService({ database, config, sessions, captcha, sms }),
    sync,
    presence,
    punches,
    devices: devicesService({ database, sync, driver: driverFor }),
    housekeeping: housekeeping({ database, photos }),
  };
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('services', services);
  app.decorate('appVersion', pkg.version);
  app.addHook('onClose', async () => database.close());

  // The management API's plugins (envelope, sessions, uploads, OpenAPI) live in its own context: the
  // terminals' gateway beside it pays for none of their hooks on every punch.
  await app.register(async function managementApi(root) {
    const api = root as unknown as App;
    await api.register(envelope);
    await api.register(rateLimit, { global: false });
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
    await api.register(swaggerUi, { routePrefix: '/api/docs' });
    await api.register(authPlugin, { database, sessions, apiPrefix: API_PREFIX });
    await api.register(
      async (scope) => {
        const a = scope as unknown as App;
        await a.register(authRoutes);
        await a.register(companiesRoutes);
        await a.register(managersRoutes);
        await a.register(logsRoutes);
        await a.register(messagesRoutes);
        await a.register(dashboardRoutes);
        await a.register(departmentsRoutes);
        await a.register(personsRoutes);
        await a.register(devicesRoutes);
        await a.register(punchesRoutes);
      },
      { prefix: API_PREFIX },
    );
  });

  // Terminals talk to /iclock/* (ZKTeco PUSH), outside the management API and its sessions.
  await app.register(zkPushRoutes, { database, sync, punches, presence, delayS: config.devicePollSeconds, errorDelayS: ERROR_DELAY_S });
  // Silent terminals turn offline (with a message); unref'd so it never keeps the process alive.
  const sweep = setInterval(() => void presence.sweep().catch((err: unknown) => app.log.error({ err }, 'presence sweep failed')), 5000);
  sweep.unref();
  // Hourly: sessions expired over a week ago, face uploads never attached to a person.
  const purge = setInterval(
    () =>
      void services.housekeeping
        .run()
        .then(({ faces }) => faces && app.log.info({ faces }, 'unattached face uploads deleted'))
        .catch((err: unknown) => app.log.error({ err }, 'housekeeping failed')),
    3600_000,
  );
  purge.unref();
  app.addHook('preClose', async () => {
    clearInterval(sweep);
    clearInterval(purge);
  });

  const index = config.webDist && fs.existsSync(path.join(config.webDist, 'index.html')) ? config.webDist : undefined;
  if (index) await app.register(fastifyStatic, { root: index, wildcard: false, index: ['index.html'] });
  app.setNotFoundHandler((req, reply) => {
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

  await services.auth.bootstrapAdmin();
  return app;
}
