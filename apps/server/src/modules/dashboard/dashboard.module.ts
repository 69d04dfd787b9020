import { defineModule, type Core } from '../../module.ts';
import dashboardRoutes from './dashboard.routes.ts';

/** The dashboard's figures (spec §2 /dashboard). */
export function dashboardModule(core: Core) {
  return defineModule({ name: 'dashboard', routes: (app) => dashboardRoutes(app, core) });
}
