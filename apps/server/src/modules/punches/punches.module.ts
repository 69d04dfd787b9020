import { defineModule, type Core } from '../../module.ts';
import healthRoutes from './health.routes.ts';
import { healthService } from './health.service.ts';
import { healthWaiting } from './health-waiting.ts';
import { dualAuthService } from './dual-auth.ts';
import punchesRoutes from './punches.routes.ts';
import { punchesService, punchPhotoStore } from './punches.service.ts';

/**
 * Punches from terminals (ingested through the inbound port) and the punch records page (spec §2 /attendance/list);
 * the health-code records terminals report with them and the alcohol records (spec §2 /attendance/alcohol).
 */
export function punchesModule(core: Core) {
  const photos = punchPhotoStore(core.files);
  const waiting = healthWaiting();
  const punches = punchesService({ database: core.database, photos, health: waiting });
  const health = healthService({ database: core.database, waiting, stored: punches.stored });
  const dualAuth = dualAuthService(core.database);
  return defineModule({
    name: 'punches',
    punches,
    health,
    dualAuth,
    /** capture photos (the strangers module serves those of refused faces) */
    photos,
    routes: async (app) => {
      await punchesRoutes(app, { database: core.database, photos });
      await healthRoutes(app, { database: core.database });
    },
    // spec §9 two-person authentication: pairs punches on two-person devices (one instance decides and alarms).
    jobs: [{ name: 'punches.dualAuth', every: 2000, exclusive: true, run: () => dualAuth.sweep() }],
  });
}
