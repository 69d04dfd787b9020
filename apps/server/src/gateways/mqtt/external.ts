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

  const client = await mqtt.connectAsync(o.url, {
    clientId: `faceadmin-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    ...(o.username ? { username: o.username } : {}),
    ...(o.password ? { password: o.password } : {}),
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
    clean: true,
  });
  client.on('error', (err) => o.log.warn({ err: err.message }, 'mqtt broker connection error'));
  // Requests and their acknowledgements are small frames: Nagle's algorithm must not hold them (as on the embedded broker).
  const noDelay = () => (client.stream as { setNoDelay?: (v: boolean) => void } | undefined)?.setNoDelay?.(true);
  noDelay();
  client.on('connect', noDelay);
  const deps = { events: o.events, rpc, stats, log: o.log, onlineFromTopic: true };
  client.on('message', (topic, payload) => {
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
  await client.subscribeAsync(SERVER_SUBSCRIPTIONS, { qos: 1 });

  return {
    port: null,
    stats,
    async send(uuid: string, op: BreakerOp, timeoutMs = o.commandTimeoutMs) {
      if (!online.has(uuid) || !client.connected) return { ok: false, reason: 'offline' };
      return rpc.send(uuid, op, timeoutMs, (topic, payload) => {
        client.publish(topic, payload, { qos: 1 });
      });
    },
    isConnected: (uuid) => online.has(uuid),
    connected: () => client.connected,
    disconnect(uuid) {
      // Mosquitto drops the session itself once the password file no longer lets it in; mark it gone here.
      online.delete(uuid);
      rpc.abandon(uuid);
    },
    credentialsChanged: writeFiles,
    brokerHash: (password) => mosquittoHash(password),
    async close() {
      rpc.close();
      await client.endAsync();
    },
  };
}
