import fs from 'node:fs';
import path from 'node:path';
import mqtt from 'mqtt';
import type { BreakerEvents, BreakerOp } from '../breaker-events.ts';
import { parseTopic, SERVER_SUBSCRIPTIONS, TOPIC_ROOT } from './codec.ts';
import type { MqttGateway } from './embedded.ts';
import { admit, DeviceBudget, dispatch, mosquittoHash, newStats, Rpc, type TransportLog } from './transport.ts';

export interface ExternalOptions {
  url: string;
  username: string | undefined;
  password: string | undefined;
  events: BreakerEvents;
  log: TransportLog;
  rate: number;
  commandTimeoutMs: number;
  /** Mosquitto: the files the server maintains, and the broker's pid file for SIGHUP. */
  passwordFile: string | undefined;
  aclFile: string | undefined;
  reloadPidFile: string | undefined;
  /**
   * With several instances on one broker, the one holding this role subscribes and serves every breaker; the
   * others only connect (their commands are relayed to the holder by the breakers module). Absent: always held.
   */
  role?: SubscriptionRole | undefined;
}

/** The `mqtt.subscription` role of db/leader.ts, as the gateway sees it. */
export interface SubscriptionRole {
  readonly held: boolean;
  onChange(cb: (held: boolean) => void): () => void;
}

/** The ACL of docs/breaker-protocol.md §1 in Mosquitto's syntax. */
export function mosquittoAcl(serverUser: string): string {
  return [
    `# Written by FaceAdmin (docs/breaker-protocol.md §1); rewritten when breakers change.`,
    `user ${serverUser}`,
    `topic readwrite ${TOPIC_ROOT}/#`,
    '',
    `pattern write ${TOPIC_ROOT}/%u/#`,
    `pattern read ${TOPIC_ROOT}/%u/rpc`,
    '',
  ].join('\n');
}

/** Writes a file whole or not at all (the broker may reread it at any moment). */
function writeAtomic(file: string, text: string) {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * An external broker (Mosquitto, EMQX): the server is one privileged client among the breakers. Per-device
 * authentication and the prefix ACL are the broker's; the server keeps the same per-device budget on what it
 * ingests, and (for Mosquitto) maintains the password and ACL files.
 */
export async function connectExternalBroker(o: ExternalOptions): Promise<MqttGateway> {
  const stats = newStats();
  const rpc = new Rpc();
  const budget = new DeviceBudget(o.rate);
  const online = new Set<string>();
  const serverUser = o.username ?? 'faceadmin';
  let serverHash: string | undefined;

  async function writeFiles() {
    if (!o.passwordFile && !o.aclFile) return;
    if (o.aclFile) writeAtomic(o.aclFile, mosquittoAcl(serverUser));
    if (o.passwordFile) {
      serverHash ??= o.password ? mosquittoHash(o.password) : undefined;
      const lines = serverHash ? [`${serverUser}:${serverHash}`] : [];
      for (const c of await o.events.credentials()) if (c.brokerHash && c.uuid !== serverUser) lines.push(`${c.uuid}:${c.brokerHash}`);
      writeAtomic(o.passwordFile, `${lines.join('\n')}\n`);
    }
    if (o.reloadPidFile) {
      try {
        const pid = Number(fs.readFileSync(o.reloadPidFile, 'utf8').trim());
        if (Number.isInteger(pid) && pid > 1) process.kill(pid, 'SIGHUP');
      } catch (err) {
        o.log.warn({ err }, 'could not signal the MQTT broker to reload its files');
      }
    }
  }
  await writeFiles();

  const role: SubscriptionRole = o.role ?? { held: true, onChange: () => () => {} };
  const deps = { events: o.events, rpc, stats, log: o.log, onlineFromTopic: true };

  /**
   * Connected and subscribed while the role is held, and only then: Mosquitto takes the server's user name as its
   * client id (docs/breaker-protocol.md §1), so two instances connected at once would push each other off. Taking
   * the role, the retained `online` and status messages of every breaker arrive at once: they are served here from
   * then on. Losing it, this instance forgets them without marking them offline: the next holder says where they are.
   * The client reconnects by itself (every 2 s) and subscribes again at each connection, so a broker that is down
   * when the role is taken is served as soon as it is back.
   */
  let client: mqtt.MqttClient | null = null;
  let subscribed = false;
  /** the start waits for its first subscription */
  let onSubscribed: ((err?: Error) => void) | null = null;
  function open(): mqtt.MqttClient {
    const c = mqtt.connect(o.url, {
      clientId: `faceadmin-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
      ...(o.username ? { username: o.username } : {}),
      ...(o.password ? { password: o.password } : {}),
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
      clean: true,
      // subscribed below at every connection, once
      resubscribe: false,
    });
    client = c;
    c.on('error', (err) => o.log.warn({ err: err.message }, 'mqtt broker connection error'));
    c.on('close', () => {
      if (client === c) subscribed = false;
    });
    c.on('connect', () => {
      // Requests and their acknowledgements are small frames: Nagle's algorithm must not hold them (as on the embedded broker).
      (c.stream as { setNoDelay?: (v: boolean) => void } | undefined)?.setNoDelay?.(true);
      c.subscribe(SERVER_SUBSCRIPTIONS, { qos: 1 }, (err) => {
        if (client !== c) return;
        if (err) {
          onSubscribed?.(err);
          return o.log.warn({ err: err.message }, 'mqtt subscription refused');
        }
        subscribed = true;
        onSubscribed?.();
        o.log.info({ url: o.url }, 'serving the breakers of the MQTT broker');
      });
    });
    c.on('message', (topic, payload) => {
      // Messages still in flight when the role passed on belong to the next holder.
      if (client !== c) return;
      const t = parseTopic(topic);
      if (!t) return;
      const { verdict, decoded } = admit({ rpc, budget, stats }, t.uuid, topic, payload);
      if (verdict !== 'ok') return;
      if (t.kind === 'online') {
        const text = payload.toString().trim();
        if (text === 'true') online.add(t.uuid);
        else if (text === 'false') online.delete(t.uuid);
      }
      dispatch(deps, topic, payload, decoded);
    });
    return c;
  }
  async function shut(): Promise<void> {
    const c = client;
    client = null;
    subscribed = false;
    online.clear();
    rpc.close();
    // The role went while the start waited for the broker: the start goes on, standing by.
    const starting = onSubscribed;
    onSubscribed = null;
    starting?.();
    // at once: a broker that does not answer must not hold a stop or a hand-over
    if (c) await c.endAsync(true);
  }
  const follow = (held: boolean) => {
    if (held && !client) open();
    else if (!held && client) shut().catch((err: unknown) => o.log.warn({ err }, 'leaving the MQTT broker failed'));
  };
  const offRole = role.onChange(follow);
  if (role.held) {
    // The first connection is awaited, and its failure stops the start: a wrong MQTT_URL or password is said at once.
    const c = open();
    try {
      await new Promise<void>((resolve, reject) => {
        onSubscribed = (err) => (err ? reject(err) : resolve());
        c.once('error', reject);
      });
      onSubscribed = null;
    } catch (err) {
      onSubscribed = null;
      offRole();
      await shut();
      throw err;
    }
  }

  return {
    port: null,
    stats,
    async send(uuid: string, op: BreakerOp, timeoutMs = o.commandTimeoutMs) {
      const c = client;
      if (!c || !online.has(uuid) || !c.connected) return { ok: false, reason: 'offline' };
      return rpc.send(uuid, op, timeoutMs, (topic, payload) => {
        c.publish(topic, payload, { qos: 1 });
      });
    },
    isConnected: (uuid) => online.has(uuid),
    // An instance standing by (another holds the subscription) needs no connection: its commands are relayed.
    connected: () => (client ? client.connected && subscribed : !role.held),
    disconnect(uuid) {
      // Mosquitto drops the session itself once the password file no longer lets it in; mark it gone here.
      online.delete(uuid);
      rpc.abandon(uuid);
    },
    credentialsChanged: writeFiles,
    brokerHash: (password) => mosquittoHash(password),
    async close() {
      offRole();
      await shut();
    },
  };
}
