import type { BrokerAddress } from '@faceadmin/shared';
import type { BreakerLink } from '../../gateways/breaker-events.ts';
import { defineModule, type Core } from '../../module.ts';
import { clock } from '../../lib/time.ts';
import { deviceSecrets, loadDeviceKey } from '../../lib/device-secret.ts';
import { linesRepository } from './breakers.repository.ts';
import breakersRoutes from './breakers.routes.ts';
import { breakersService } from './breakers.service.ts';
import { breakersLive } from './live.service.ts';
import { breakersRepository } from './breakers.repository.ts';
import { instancesRepository } from '../cluster/cluster.module.ts';

const RAW_HOURS = 48;

/**
 * Where breakers connect, as the console shows it: MQTT_PUBLIC_URL when set; else the external broker's address;
 * else the embedded broker's port on the server's own host (null: the console's host).
 */
export function brokerAddress(mqtt: { url: string | undefined; publicUrl: string | undefined; port: number }, listening: number | null): BrokerAddress {
  const url = mqtt.publicUrl ?? mqtt.url;
  if (url) {
    const u = new URL(url);
    const tls = u.protocol === 'mqtts:';
    return { host: u.hostname, port: u.port ? Number(u.port) : tls ? 8883 : 1883, tls };
  }
  return { host: null, port: listening ?? mqtt.port, tls: false };
}

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
    hashCheck: (uuid, password, alive) => service.authenticate(uuid, password, alive),
    bus: core.bus,
    commandTimeoutMs: core.config.mqtt.commandTimeoutMs,
    sharedBroker: Boolean(core.config.mqtt.url),
  });
  /**
   * Several instances with embedded brokers: a breaker's connection dies with the instance holding it, so the others
   * release what a stopped instance held. One process (SQLite) holds everything; an external broker keeps presence
   * itself (its retained `online` topics reach whichever instance subscribes next).
   */
  const releasesOrphans = core.database.dialect === 'postgres' && !core.config.mqtt.url;
  const running = async () => [...new Set([...(await instancesRepository.running(db)), core.bus.instance])];
  let listening: number | null = null;
  const service = breakersService({
    database: core.database,
    live,
    secrets: deviceSecrets(core.config.deviceSecretKey ?? loadDeviceKey(core.config.dataDir)),
    broker: () => brokerAddress(core.config.mqtt, listening),
  });

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
    // live figures and states reach the console through its one stream (modules/live; live.service.ts publishes)
    routes: (app) => breakersRoutes(app, service),
    jobs: [
      { name: 'breakers.measurements', every: 60_000, exclusive: true, run: measurements },
      // Breakers held by an instance that stopped (killed, no clean close) turn offline once its heartbeat ages.
      ...(releasesOrphans ? [{ name: 'breakers.orphans', every: 15_000, exclusive: true, run: async () => live.releaseOrphans(await running()) }] : []),
    ],
    /**
     * Nothing is connected to this instance before its gateway starts. One process (SQLite): every breaker shows
     * offline until it calls in. Several instances (PostgreSQL): only those of instances that stopped — never the
     * breakers another running instance serves; with an external broker, none (the subscriber re-reads presence).
     */
    ready: async () => {
      if (core.database.dialect !== 'postgres') return breakersRepository.allOffline(db);
      if (releasesOrphans) await live.releaseOrphans(await running());
    },
    close: () => live.close(),
    service,
    live,
    events: live.events,
    measurements,
    /** The gateway's link (and the embedded broker's port, for the address technicians are shown). */
    attach: (link: BreakerLink & { readonly port?: number | null }) => {
      listening = link.port ?? null;
      live.attach(link);
    },
  });
}
