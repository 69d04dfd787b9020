import type { Executor } from '../../db/database.ts';
import { defineModule, type Core } from '../../module.ts';
import type { PeopleChangedHook } from '../persons/people-changed.ts';
import healthRoutes from './health.routes.ts';
import { healthService } from './health.service.ts';
import { healthWaiting } from './health-waiting.ts';
import { dualAuthService } from './dual-auth.ts';
import punchesRoutes from './punches.routes.ts';
import { punchesService, punchPhotoStore, type EarlyHint } from './punches.service.ts';

/** The bus topic of what awaits a punch (a photo, a health colour), for the instance the punch will reach. */
const EARLY_TOPIC = 'punches.early';
/** With several instances, a photo or colour still unclaimed this long after it came is set then (a hint may have been lost). */
const RECHECK_MS = 2000;

/**
 * Punches from terminals (ingested through the inbound port) and the punch records page (spec §2 /attendance/list);
 * the health-code records terminals report with them and the alcohol records (spec §2 /attendance/alcohol).
 */
export function punchesModule(core: Core, deps: { peopleChanged: PeopleChangedHook }) {
  const photos = punchPhotoStore(core.files);
  const waiting = healthWaiting();
  // A terminal's capture photo or health record may come before its punch, and (behind a load balancer) to another
  // instance than the punch: each instance keeps what awaits a punch in memory, so the others are told at the commit.
  const several = core.database.dialect === 'postgres';
  const early = async (ex: Executor, hint: EarlyHint) => {
    if (several) await core.bus.send(ex, EARLY_TOPIC, hint);
  };
  core.bus.on(EARLY_TOPIC, (data, fromSelf) => {
    if (fromSelf) return;
    const h = data as EarlyHint;
    if (h.kind === 'photo') photos.awaitPunch(h.device, h.name);
    else for (const r of h.records) waiting.add(h.device, r.pin, r.time, r.color);
  });
  const punches = punchesService({ database: core.database, photos, health: waiting, early, recheckMs: several ? RECHECK_MS : 0 });
  const health = healthService({ database: core.database, waiting, stored: punches.stored, early, recheckMs: several ? RECHECK_MS : 0 });
  const dualAuth = dualAuthService(core.database);
  // A person saved with a number takes the punches a terminal stored under it before (issue #30: a site taken over).
  deps.peopleChanged.on(async (trx, e) => {
    if (e.kind === 'saved' && !e.terminalsOnly) await punches.claimStrangers(trx, e.companyId, e.personIds);
  });
  return defineModule({
    name: 'punches',
    punches,
    health,
    dualAuth,
    /** capture photos (the strangers module serves those of refused faces) */
    photos,
    /** health colours that came before their punch */
    waiting,
    routes: async (app) => {
      await punchesRoutes(app, { database: core.database, photos });
      await healthRoutes(app, { database: core.database });
    },
    // spec §9 two-person authentication: pairs punches on two-person devices (one instance decides and alarms).
    jobs: [{ name: 'punches.dualAuth', every: 2000, exclusive: true, run: () => dualAuth.sweep() }],
  });
}
