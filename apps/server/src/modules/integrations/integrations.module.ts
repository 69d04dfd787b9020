import { recordChanges, registerChangeFilter } from '../../db/changes.ts';
import { deviceSecrets, loadDeviceKey } from '../../lib/device-secret.ts';
import { outboundGuard } from '../../lib/outbound.ts';
import { defineModule, type Core } from '../../module.ts';
import { registerLiveTap } from '../live/publish.ts';
import type { PeopleChangedHook } from '../persons/people-changed.ts';
import { changesService } from './changes.service.ts';
import integrationsRoutes from './integrations.routes.ts';
import { keysRepository } from './integrations.repository.ts';
import { keysService } from './keys.service.ts';
import { webhooksService } from './webhooks.service.ts';

/**
 * Integrations (issue #19, company option thirdParty; docs/api-integrations.md): API keys the auth plugin accepts
 * on routes that declare an `apiScope`, and signed webhooks. Every publish() of the events webhooks carry also
 * reaches the outbox (a live tap, in the writer's transaction); the `webhooks.deliver` job makes the deliveries.
 */
export function integrationsModule(core: Core, deps: { peopleChanged: PeopleChangedHook }) {
  const { db } = core.database;
  const keys = keysService(core.database, deviceSecrets(core.config.deviceSecretKey ?? loadDeviceKey(core.config.dataDir)));
  const webhooks = webhooksService(
    core.database,
    core.log,
    outboundGuard(core.config.outbound),
    {
      pauseAfterMs: core.config.webhooks.pauseAfterSeconds * 1000,
      firstRetryMs: core.config.webhooks.firstRetrySeconds * 1000,
    },
    core.bus,
  );
  const untap = registerLiveTap(
    db,
    (ex, e) => webhooks.tap(ex, e),
    (ex, companyId, type) => webhooks.wants(ex, companyId, type),
  );
  // The changes feed records while the company's integrations are on.
  const unfilter = registerChangeFilter(db, (ex, companyId) => webhooks.recording(ex, companyId));
  deps.peopleChanged.on(async (trx, e) => {
    await webhooks.peopleChanged(trx, e);
    await recordChanges(
      trx,
      e.companyId,
      'person',
      e.personIds.map((ref) => ({ ref })),
    );
  });
  const changes = changesService(core.database);
  return defineModule({
    name: 'integrations',
    routes: (app) => integrationsRoutes(app, { keys, webhooks, changes }),
    jobs: [
      { name: 'webhooks.deliver', every: 1000, exclusive: true, run: (signal) => webhooks.work(signal) },
      {
        name: 'integrations.cleanup',
        every: 3600_000,
        exclusive: true,
        runAtStart: true,
        run: async () => {
          await webhooks.cleanup();
          await changes.prune();
          await keysRepository.pruneUses(db, new Date(Date.now() - 3600_000).toISOString());
        },
      },
    ],
    close: async () => {
      untap();
      unfilter();
      await webhooks.close();
    },
    keyLookup: keys.lookup,
    keys,
    webhooks,
  });
}
