import { defineModule, type Core } from '../../module.ts';
import { createMetrics, probesPlugin, type ProbeSources } from './probes.ts';

/**
 * What an operator runs the server with (issue #21 "Operating it"): health and readiness probes and Prometheus
 * metrics (probes.ts, registered at the root by app.ts: outside the management API).
 */
export function systemModule(core: Core, deps: { punches: { onIngested(fn: (protocol: string, records: number) => void): void } }) {
  const metrics = createMetrics();
  deps.punches.onIngested((protocol, records) => metrics.punches.inc({ protocol }, records));
  return defineModule({
    name: 'system',
    metrics,
    /** The probes' plugin with what app.ts knows (scheduler, broker, live streams). */
    probes: (sources: ProbeSources) => [probesPlugin, { ...sources, config: core.config, database: core.database, metrics }] as const,
  });
}
