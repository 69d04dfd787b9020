import type { BreakerEvents } from '../breaker-events.ts';
import { startEmbeddedBroker, type MqttGateway } from './embedded.ts';
import { connectExternalBroker, type SubscriptionRole } from './external.ts';
import type { TransportLog } from './transport.ts';

export type { MqttGateway } from './embedded.ts';
export { mosquittoAcl, type SubscriptionRole } from './external.ts';

export interface MqttSettings {
  /** embedded broker's port (0: ephemeral) and address */
  port: number;
  host: string;
  /** set: connect to this external broker instead of embedding one */
  url: string | undefined;
  username: string | undefined;
  password: string | undefined;
  passwordFile: string | undefined;
  aclFile: string | undefined;
  reloadPidFile: string | undefined;
  rate: number;
  commandTimeoutMs: number;
}

/** The breakers' broker: embedded (default) or external (MQTT_URL), docs/breaker-protocol.md §8. */
export function startMqttGateway(s: MqttSettings, events: BreakerEvents, log: TransportLog, role?: SubscriptionRole): Promise<MqttGateway> {
  if (s.url) return connectExternalBroker({ ...s, url: s.url, events, log, role });
  return startEmbeddedBroker({ port: s.port, host: s.host, events, log, rate: s.rate, commandTimeoutMs: s.commandTimeoutMs });
}
