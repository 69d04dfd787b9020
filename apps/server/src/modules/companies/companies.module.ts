import { defineModule, type Core } from '../../module.ts';
import companiesRoutes from './companies.routes.ts';
import { companiesService } from './companies.service.ts';

/** Companies (tenants) and the administrator's current one (spec §2 /company). */
export function companiesModule(core: Core) {
  const service = companiesService(core.database);
  return defineModule({ name: 'companies', service, routes: (app) => companiesRoutes(app, service) });
}
