import { defineModule, type Core } from '../../module.ts';
import { planStore } from './images.ts';
import sitesRoutes from './sites.routes.ts';
import { sitesService } from './sites.service.ts';

/**
 * Sites and the device map (spec §2 /map, issue #16): the company's floor plans (or a tile map) with its devices
 * and breakers placed on them. The big screen reads a site's devices with `sitesRepository.refIds`.
 */
export function sitesModule(core: Core) {
  const service = sitesService({ database: core.database, plans: planStore(core.files) });
  return defineModule({ name: 'sites', routes: (app) => sitesRoutes(app, service), sites: service });
}
