import { outboundGuard } from '../../lib/outbound.ts';
import { defineModule, type Core } from '../../module.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { PeopleChangedHook } from '../persons/people-changed.ts';
import parkingRoutes from './parking.routes.ts';
import { parkingService } from './parking.service.ts';

/** Parking-lot binding (spec §2 /dzg, §7 /dzg/*): signed codes, bindings, and the people push (docs/api-parking.md). */
export function parkingModule(core: Core, deps: { auth: AuthService; peopleChanged: PeopleChangedHook }) {
  const service = parkingService({ database: core.database, auth: deps.auth, log: core.log, post: outboundGuard(core.config.outbound).post });
  deps.peopleChanged.on((trx, change) => service.peopleChanged(trx, change));
  return defineModule({
    name: 'parking',
    service,
    routes: (app) => parkingRoutes(app, service),
    jobs: [
      // Exclusive: one instance delivers a company's changes, in order.
      { name: 'parking.push', every: 2000, exclusive: true, run: () => service.pushDue() },
      { name: 'parking.nonces', every: 3600_000, exclusive: true, run: () => service.purgeNonces() },
    ],
  });
}
