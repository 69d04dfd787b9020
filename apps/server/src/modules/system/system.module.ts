import { CLIENT_ERROR_LIMITS } from '@faceadmin/shared';
import { defineModule, type Core } from '../../module.ts';
import type { SessionLookup } from '../../plugins/auth.ts';
import { requestQuota } from '../../plugins/request-quota.ts';
import clientErrorsRoutes from './client-errors.routes.ts';
import { clientErrorsService } from './client-errors.service.ts';
import { createMetrics, probesPlugin, type ProbeSources } from './probes.ts';

/**
 * What an operator runs the server with (issue #21 "Operating it"): health and readiness probes and Prometheus
 * metrics (probes.ts, registered at the root by app.ts: outside the management API), and the errors consoles
 * report (spec §8), kept CLIENT_ERROR_LIMITS.keepDays days.
 */
export function systemModule(core: Core, deps: { punches: { onIngested(fn: (protocol: string, records: number) => void): void }; sessions: SessionLookup }) {
  const metrics = createMetrics();
  deps.punches.onIngested((protocol, records) => metrics.punches.inc({ protocol }, records));
  const clientErrors = clientErrorsService(core.database.db);
  return defineModule({
    name: 'system',
    metrics,
    clientErrors,
    routes: (app) => clientErrorsRoutes(app, { svc: clientErrors, sessions: deps.sessions }),
    jobs: [
      {
        name: 'client-errors-cleanup',
        every: 6 * 3600_000,
        runAtStart: true,
        exclusive: true,
        run: async () => {
          const n = await clientErrors.prune();
          if (n) core.log.info({ removed: n, keepDays: CLIENT_ERROR_LIMITS.keepDays }, 'old client errors removed');
        },
      },
      // The route limits' windows that have ended (plugins/request-quota.ts).
      { name: 'request-quota-cleanup', every: 600_000, exclusive: true, run: async () => void (await requestQuota.prune(core.database.db, Date.now())) },
    ],
    /** The probes' plugin with what app.ts knows (scheduler, broker, live streams). */
    probes: (sources: ProbeSources) => [probesPlugin, { ...sources, config: core.config, database: core.database, metrics }] as const,
  });
}
