import { defineModule, type Core } from '../../module.ts';
import type { SessionsService } from '../auth/sessions.service.ts';
import managersRoutes from './managers.routes.ts';
import { managersService } from './managers.service.ts';

/** Main and sub administrators of a company, their rights, and the initial administrator's hand-over (spec §6). */
export function managersModule(core: Core, deps: { sessions: SessionsService }) {
  const service = managersService({ database: core.database, config: core.config, sessions: deps.sessions });
  return defineModule({ name: 'managers', service, routes: (app) => managersRoutes(app, service) });
}
