import { defineModule, type Core } from '../../module.ts';
import punchesRoutes from './punches.routes.ts';
import { punchesService, punchPhotoStore } from './punches.service.ts';

/** Punches from terminals (ingested through the inbound port) and the punch records page (spec §2 /attendance/list). */
export function punchesModule(core: Core) {
  const photos = punchPhotoStore(core.config.dataDir);
  const punches = punchesService({ database: core.database, photos });
  return defineModule({ name: 'punches', punches, routes: (app) => punchesRoutes(app, { database: core.database, photos }) });
}
