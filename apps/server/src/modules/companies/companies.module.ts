import { outboundGuard } from '../../lib/outbound.ts';
import { defineModule, type Core } from '../../module.ts';
import type { PeopleChangedHook } from '../persons/people-changed.ts';
import companiesRoutes from './companies.routes.ts';
import { companiesService, companyCreatedHook } from './companies.service.ts';

/** Companies (tenants) and the administrator's current one (spec §2 /company). */
export function companiesModule(core: Core, deps: { peopleChanged?: PeopleChangedHook } = {}) {
  const created = companyCreatedHook();
  const service = companiesService(core.database, { created, peopleChanged: deps.peopleChanged, outbound: outboundGuard(core.config.outbound) });
  return defineModule({ name: 'companies', service, created, routes: (app) => companiesRoutes(app, service) });
}
