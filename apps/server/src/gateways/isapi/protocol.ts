import type { FastifyBaseLogger } from 'fastify';
import type { Protocol } from '../driver.ts';
import type { TerminalEvents } from '../terminal-events.ts';
import { isapiClient, type IsapiClientOptions } from './client.ts';
import { isapiDiscovery } from './discover.ts';
import { isapiDelivery, type DialledTerminal, type IsapiDeliveryOptions } from './delivery.ts';
import { isapiDriver } from './driver.ts';

export interface IsapiProtocolOptions extends Omit<IsapiDeliveryOptions, 'client'> {
  log: FastifyBaseLogger;
  /** per-request deadline, answer cap and per-terminal parallelism of the HTTP client */
  http?: IsapiClientOptions;
}

/** Hikvision ISAPI as app.ts lists it beside ZK PUSH: the driver, the dialled delivery and the network scan. */
export function isapiProtocol<T extends DialledTerminal>(opts: IsapiProtocolOptions): Protocol<TerminalEvents<T>> {
  return {
    driver: isapiDriver,
    delivery: (events) => isapiDelivery(events, { ...opts, client: isapiClient(opts.http) }),
    discover: isapiDiscovery,
  };
}
