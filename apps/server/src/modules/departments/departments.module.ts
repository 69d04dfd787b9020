import { defineModule, type Core } from '../../module.ts';
import departmentsRoutes from './departments.routes.ts';
import { departmentsService } from './departments.service.ts';

/** Departments (spec §2 /user/organization). */
export function departmentsModule(core: Core) {
  const service = departmentsService(core.database);
  return defineModule({ name: 'departments', service, routes: (app) => departmentsRoutes(app, service) });
}
