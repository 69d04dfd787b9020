import type { Delivery, Protocol } from '../../gateways/driver.ts';
import type { TerminalEvents } from '../../gateways/terminal-events.ts';
import { deviceCache, DEVICE_FORGET_TOPIC, type DeviceRow } from './devices.repository.ts';
import { defineModule, type Core } from '../../module.ts';
import type { PeopleChangedHook } from '../persons/people-changed.ts';
import type { PhotoStore } from '../persons/photos.ts';
import type { HealthService } from '../punches/health.service.ts';
import type { PunchesService } from '../punches/punches.service.ts';
import devicesRoutes from './devices.routes.ts';
import firmwareRoutes from './firmware.routes.ts';
import scanRoutes from './scan.routes.ts';
import { scanService } from './scan.service.ts';
import { firmwareService } from './firmware.service.ts';
import { devicesService } from './devices.service.ts';
import { offlineAfterMs, presenceService } from './presence.service.ts';
import { syncService } from './sync.service.ts';
import { terminalEvents } from './terminal-events.ts';
import { rosterService } from './roster.service.ts';
import type { FaceCheck } from '../persons/face-check.ts';
import rosterRoutes from './roster.routes.ts';

/** Seconds a terminal waits after a network failure before it calls again (ZK PUSH ErrorDelay). */
export const TERMINAL_ERROR_DELAY_S = 30;

/**
 * Face terminals (spec §2 /device): the console's device pages, the per-person-per-device sync ledger,
 * presence, and the one implementation of the gateways' inbound port (`terminalEvents`). Protocols come
 * in as drivers (and, for dialled or published ones, deliveries); this module never sees a wire format.
 */
export function devicesModule(
  core: Core,
  deps: {
    /** the first is the default for devices of an unknown protocol */
    protocols: readonly Protocol<TerminalEvents<DeviceRow>>[];
    persons: { photos: PhotoStore; peopleChanged: PeopleChangedHook; faceCheck: FaceCheck };
    punches: { punches: PunchesService; health: HealthService };
  },
) {
  const { database, config } = core;
  const byProtocol = new Map(deps.protocols.map((p) => [p.driver.protocol, p.driver]));
  const fallback = deps.protocols[0]!.driver;
  const driver = (protocol: string) => byProtocol.get(protocol) ?? fallback;
  // Filled below: a delivery plans and reports through the port, which needs the ledger first.
  const deliveries = new Map<string, Delivery>();
  const sync = syncService({ database, photos: deps.persons.photos, driver, deliveries, bus: core.bus, log: core.log });
  const presence = presenceService({ database, offlineAfterMs: offlineAfterMs(config.devicePollSeconds, TERMINAL_ERROR_DELAY_S) });
  const devices = devicesService({ database, sync, driver });
  const firmware = firmwareService({ database, sync, driver, files: core.files });
  const roster = rosterService({
    database,
    files: core.files,
    persons: { photos: deps.persons.photos, faceCheck: deps.persons.faceCheck, peopleChanged: deps.persons.peopleChanged },
    queue: sync.queue,
    log: core.log,
  });
  const events = terminalEvents({ database, sync, firmware, punches: deps.punches.punches, health: deps.punches.health, presence, roster, log: core.log });
  for (const p of deps.protocols) if (p.delivery) deliveries.set(p.driver.protocol, p.delivery(events));

  // A device written on any instance (this one included, after the commit): its cached row is read again. Messages the
  // bus may have missed: every cached row is.
  core.bus.on(DEVICE_FORGET_TOPIC, (serial) => deviceCache.forgetHere(database.db, typeof serial === 'string' ? serial : null));
  core.bus.onResync(() => deviceCache.forgetHere(database.db));

  // The ledger follows every write of people, in the writer's transaction (spec §4: people who have left are removed).
  deps.persons.peopleChanged.on((trx, change) =>
    change.kind === 'deleted' ? sync.personsDeleted(trx, change.companyId, change.personIds) : sync.touch(trx, change.companyId, change.personIds),
  );

  return defineModule({
    name: 'devices',
    sync,
    presence,
    devices,
    firmware,
    roster,
    terminalEvents: events,
    routes: async (app) => {
      await devicesRoutes(app, devices);
      await rosterRoutes(app, { database, roster });
      await firmwareRoutes(app, firmware);
      await scanRoutes(app, scanService({ database, discover: deps.protocols.find((p) => p.discover)?.discover, runMode: config.runMode }));
    },
    jobs: [
      // Silent terminals turn offline, with a message. Exclusive: one instance tells the administrators once.
      { name: 'devices.presence', every: 5000, exclusive: true, run: () => presence.sweep() },
      // take-over applies over for a week are forgotten
      { name: 'devices.rosterApplies', every: 3600_000, exclusive: true, run: () => roster.sweepApplies() },
    ],
    close: () => Promise.all([...[...deliveries.values()].map((d) => d.close()), roster.close()]),
  });
}
