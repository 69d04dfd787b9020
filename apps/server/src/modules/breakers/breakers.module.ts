import type { BreakerLink } from '../../gateways/breaker-events.ts';
import { defineModule, type Core } from '../../module.ts';
import { clock } from '../../lib/time.ts';
import { linesRepository } from './breakers.repository.ts';
import breakersRoutes from './breakers.routes.ts';
import { breakersService } from './breakers.service.ts';
import { breakersLive } from './live.service.ts';
import { breakersRepository } from './breakers.repository.ts';

const RAW_HOURS = 48;

/**
 * Smart circuit breakers over MQTT (issue #12): the console's API, the inbound port the MQTT gateway reports to
 * (`events`), and `attach` for the gateway's outbound link (app.ts wires both). Docs: docs/breaker-protocol.md,
 * docs/api-breakers.md.
 */
export function breakersModule(core: Core) {
  const { db } = core.database;
  const live = breakersLive({
    database: core.database,
    log: core.log,
    selfCheckSeconds: core.config.breakers.selfCheckSeconds,
    hashCheck: (uuid, password) => service.authenticate(uuid, password),
  });
  const service = breakersService({ database: core.database, live, scryptLog2N: core.config.scryptLog2N });

  /** Per-minute aggregates of the raw readings, then the retention (raw 48 h, minutes BREAKER_RETENTION_DAYS). */
  async function measurements() {
    await live.flush();
    const now = clock.now();
    const to = new Date(Math.floor(now / 60_000) * 60_000).toISOString();
    const from = new Date(Math.floor(now / 60_000) * 60_000 - 10 * 60_000).toISOString();
    await linesRepository.aggregate(db, from, to);
    await linesRepository.prune(
      db,
      new Date(now - RAW_HOURS * 3600_000).toISOString(),
      new Date(now - core.config.breakers.retentionDays * 86400_000).toISOString().slice(0, 16),
    );
  }

  return defineModule({
    name: 'breakers',
    routes: (app) => breakersRoutes(app, service),
    jobs: [{ name: 'breakers.measurements', every: 60_000, exclusive: true, run: measurements }],
    /** Nothing is connected before the gateway starts: every breaker shows offline until it calls in. */
    ready: () => breakersRepository.allOffline(db),
    close: () => live.close(),
    service,
    live,
    events: live.events,
    measurements,
    attach: (link: BreakerLink) => live.attach(link),
  });
}
