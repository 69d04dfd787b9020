import { defineModule, type Core } from '../../module.ts';
import leaveRoutes from './leave.routes.ts';
import { leaveService } from './leave.service.ts';

/**
 * Leave balances (#17 item 15): quotas per person, leave type and year (by hand, import or the type's rule), the
 * ledger approval writes (leave.service.ts hooks, called from the approval transaction) and the report.
 */
export function leaveModule(core: Core) {
  const leave = leaveService(core.database);
  return defineModule({ name: 'leave', leave, routes: (app) => leaveRoutes(app, { leave }) });
}
