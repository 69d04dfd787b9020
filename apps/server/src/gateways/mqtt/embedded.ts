import net from 'node:net';
import { Aedes, type Client } from 'aedes';
import type { BreakerEvents, BreakerLink, BreakerOp } from '../breaker-events.ts';
import { isUuid, mayPublish, maySubscribe, requestTopic } from './codec.ts';
import { admit, DeviceBudget, dispatch, newStats, Rpc, type GatewayStats, type TransportLog } from './transport.ts';

export interface MqttGateway extends BreakerLink {
  /** The port the embedded broker listens on (null for an external broker). */
  readonly port: number | null;
  readonly stats: GatewayStats;
  /** Whether breakers can reach the server now: the embedded broker listens, or the external one is connected (/readyz). */
  connected(): boolean;
  close(): Promise<void>;
}

export interface EmbeddedOptions {
  port: number;
  host: string;
  events: BreakerEvents;
  log: TransportLog;
  /** messages a second per device */
  rate: number;
  commandTimeoutMs: number;
}

/**
 * The aedes instance the embedded broker runs on (exported for its burst test, embedded.test.ts).
 * concurrency 0: no cap on publishes in flight. At the default cap (100), what comes past it waits in a queue that
 * is then emptied by recursion, one stack frame set a message: 5,000 breakers dialling at once after a restart
 * overflowed the stack and ended the server (bench/breaker-reconnect.bench.ts, BENCH_BREAKERS=5000). The queue
 * bounded nothing: it held in memory what the cap kept back.
 */
export function newBroker(): Aedes {
  return new Aedes({ drainTimeout: 10_000, connectTimeout: 10_000, maxTopicLevels: 8, keepaliveLimit: 600, concurrency: 0 });
}

/**
 * The default broker: aedes inside the server (docs/breaker-protocol.md §8). Breakers authenticate with their
 * uuid and own password; each may publish under `fa/<uuid>/` and subscribe to `fa/<uuid>/rpc` only. The server
 * is not a network client: it reads publishes in-process and publishes requests directly.
 */
export async function startEmbeddedBroker(o: EmbeddedOptions): Promise<MqttGateway> {
  const stats = newStats();
  const rpc = new Rpc();
  const budget = new DeviceBudget(o.rate);
  const broker = newBroker();
  await broker.listen();
  /** The client that holds each breaker's session, and each client's breaker. */
  const sessions = new Map<string, Client>();
  const uuidOf = new WeakMap<Client, string>();

  broker.authenticate = (client, username, password, done) => {
    const pw = password ? password.toString('utf8') : '';
    if (!username || !isUuid(username) || !pw || pw.length > 128) {
      stats.refused.connect++;
      return done(Object.assign(new Error('not authorized'), { returnCode: 5 }), false);
    }
    // §1: the client id is the uuid. MQTT closes an older session with the same client id, so a breaker with
    // its own credentials and another's uuid as client id would knock that one off: refused (identifier rejected).
    if (client.id !== username) {
      stats.refused.connect++;
      o.log.warn({ uuid: username, clientId: client.id.slice(0, 64) }, 'breaker refused: its MQTT client id is not its uuid');
      return done(Object.assign(new Error('client id is not the uuid'), { returnCode: 2 }), false);
    }
    const alive = () => !client.closed;
    o.events.authenticate(username, pw, alive).then(
      (ok) => {
        if (!ok) {
          stats.refused.connect++;
          return done(Object.assign(new Error('not authorized'), { returnCode: 5 }), false);
        }
        uuidOf.set(client, username);
        done(null, true);
      },
      (err: unknown) => {
        o.log.error({ err }, 'breaker authentication failed');
        done(Object.assign(new Error('server unavailable'), { returnCode: 3 }), false);
      },
    );
  };
  broker.authorizePublish = (client, packet, done) => {
    if (!client) return done(null); // a will of a client already gone: it was checked when set
    const uuid = uuidOf.get(client);
    if (!uuid || !mayPublish(uuid, packet.topic)) {
      stats.refused.publish++;
      return done(new Error('topic outside the device prefix'));
    }
    done(null);
  };
  broker.authorizeSubscribe = (client, sub, done) => {
    const uuid = uuidOf.get(client);
    if (!uuid || !maySubscribe(uuid, sub.topic)) {
      stats.refused.subscribe++;
      return done(null, null);
    }
    done(null, sub);
  };
  // A retained will or status must stay under the prefix too (checked at CONNECT for the will).
  broker.preConnect = (client, packet, done) => {
    const will = packet.will;
    if (will && !(packet.username && mayPublish(packet.username, will.topic))) {
      stats.refused.connect++;
      return done(Object.assign(new Error('will outside the device prefix'), { returnCode: 5 }), false);
    }
    done(null, true);
  };

  const deps = { events: o.events, rpc, stats, log: o.log, onlineFromTopic: false };
  broker.on('publish', (packet, client) => {
    if (!client) return;
    const uuid = uuidOf.get(client);
    if (!uuid) return;
    const { verdict, decoded } = admit({ rpc, budget, stats }, uuid, packet.topic, packet.payload);
    if (verdict !== 'ok') {
      if (verdict === 'kick') client.close();
      return;
    }
    dispatch(deps, packet.topic, packet.payload, decoded);
  });
  // A breaker counts as connected once it listens for requests (its SUBSCRIBE to `fa/<uuid>/rpc`), so the
  // server's first request after a connect is never lost.
  broker.on('subscribe', (subs, client) => {
    const uuid = uuidOf.get(client);
    if (!uuid || !subs.some((s) => s.topic === requestTopic(uuid))) return;
    const old = sessions.get(uuid);
    sessions.set(uuid, client);
    if (old && old !== client) old.close();
    o.events.connected(uuid).catch((err: unknown) => o.log.error({ err, uuid }, 'breaker connect failed'));
  });
  broker.on('clientDisconnect', (client) => {
    const uuid = uuidOf.get(client);
    if (!uuid || sessions.get(uuid) !== client) return;
    sessions.delete(uuid);
    budget.forget(uuid);
    rpc.abandon(uuid);
    o.events.disconnected(uuid).catch((err: unknown) => o.log.error({ err, uuid }, 'breaker disconnect failed'));
  });
  broker.on('clientError', (client, err) => o.log.debug({ client: client.id, err: err.message }, 'mqtt client error'));
  broker.on('connectionError', (client, err) => o.log.debug({ client: client.id, err: err.message }, 'mqtt connection error'));

  // noDelay: small frames (a switch request, its reply) must not wait for Nagle's algorithm.
  const server = net.createServer({ noDelay: true }, broker.handle as (socket: net.Socket) => void);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : o.port;

  const publish = (topic: string, payload: string) => {
    broker.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false }, () => {});
  };
  return {
    port,
    stats,
    async send(uuid: string, op: BreakerOp, timeoutMs = o.commandTimeoutMs) {
      if (!sessions.has(uuid)) return { ok: false, reason: 'offline' };
      return rpc.send(uuid, op, timeoutMs, publish);
    },
    isConnected: (uuid) => sessions.has(uuid),
    connected: () => server.listening && !broker.closed,
    disconnect(uuid) {
      sessions.get(uuid)?.close();
    },
    async credentialsChanged() {},
    brokerHash: () => '',
    async close() {
      rpc.close();
      for (const c of sessions.values()) c.close();
      sessions.clear();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
