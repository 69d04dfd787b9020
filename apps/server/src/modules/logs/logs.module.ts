import { defineModule, type Core } from '../../module.ts';
import logsRoutes from './logs.routes.ts';

/** The operation log (spec §2 /system/log); other modules write it with `audit` inside their transactions. */
export function logsModule(core: Core) {
  return defineModule({ name: 'logs', routes: (app) => logsRoutes(app, core) });
}
