import { defineModule, type Core } from '../../module.ts';
import type { SmsSender } from '../auth/sms.service.ts';
import type { SyncService } from '../devices/sync.service.ts';
import { faceChecker } from '../persons/face-check.ts';
import type { PhotoStore } from '../persons/photos.ts';
import type { PunchesService, PunchPhotoStore } from '../punches/punches.service.ts';
import visitorsRoutes from './visitors.routes.ts';
import { visitorsService } from './visitors.service.ts';

/**
 * Visitors (#19, spec §2 /system/visitorlog): invitations by administrators and employees, the visitor's link page,
 * the sync to the doors through the devices' ledger, the end of the window (a job), the visit log.
 */
export function visitorsModule(
  core: Core,
  deps: { photos: PhotoStore; sync: SyncService; sms: SmsSender | null; punches: PunchesService; punchPhotos: PunchPhotoStore },
) {
  // The people's face check (the detector is one per process, whichever module asks first).
  const faceCheck = faceChecker(core.config.faceCheck, core.log);
  const visitors = visitorsService({ database: core.database, photos: deps.photos, sync: deps.sync, sms: deps.sms, log: core.log, faceCheck });
  // The first door that lets a visitor in tells the inviter, in the punch writer's transaction.
  deps.punches.stored.on((trx, e) => visitors.onPunches(trx, e.punches));
  return defineModule({
    name: 'visitors',
    visitors,
    routes: (app) => visitorsRoutes(app, { visitors, punchPhotos: deps.punchPhotos }),
    jobs: [
      // Windows that passed end, and the ledger removes those visitors from every door. Exclusive: one instance does it.
      { name: 'visitors.end', every: 60_000, exclusive: true, run: () => visitors.endDue() },
    ],
  });
}
