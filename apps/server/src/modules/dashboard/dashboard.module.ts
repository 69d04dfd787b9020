import { defineModule, type Core } from '../../module.ts';
import dashboardRoutes from './dashboard.routes.ts';
import { dashboardService } from './dashboard.service.ts';

/** The dashboard's figures, the big screens' and the device console's (spec §2 /dashboard, issue #16). */
export function dashboardModule(core: Core) {
  const service = dashboardService(core.database);
  return defineModule({ name: 'dashboard', service, routes: (app) => dashboardRoutes(app, { database: core.database, service }) });
}
