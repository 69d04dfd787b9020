import os from 'node:os';
import type { Executor } from '../../db/database.ts';
import { clock, nowIso } from '../../lib/time.ts';
import { defineModule, type Core } from '../../module.ts';

/** How often a running instance writes its heartbeat, and after how long without one it counts as stopped. */
export const HEARTBEAT_MS = 10_000;
export const STOPPED_AFTER_MS = 35_000;

export const instancesRepository = {
  async beat(db: Executor, row: { id: string; host: string; version: string; started_at: string }, at: string) {
    await db
      .insertInto('instances')
      .values({ ...row, seen_at: at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: at }))
      .execute();
  },
  /** Instances whose heartbeat is recent: the ones that may hold connections (breakers). */
  async running(db: Executor, now = clock.now()): Promise<string[]> {
    const since = new Date(now - STOPPED_AFTER_MS).toISOString();
    return (await db.selectFrom('instances').select('id').where('seen_at', '>=', since).execute()).map((r) => r.id);
  },
  list: (db: Executor) => db.selectFrom('instances').selectAll().orderBy('started_at').execute(),
  remove: (db: Executor, id: string) => db.deleteFrom('instances').where('id', '=', id).execute(),
  prune: (db: Executor, before: string) => db.deleteFrom('instances').where('seen_at', '<', before).execute(),
};

/**
 * The instances of one deployment (issue #21): each writes a heartbeat, so what one instance holds (a breaker's
 * connection) is released by the others once it stops answering, and never while it runs. The instance's id is its
 * bus's (db/bus.ts).
 */
export function clusterModule(core: Core) {
  const { db } = core.database;
  const self = { id: core.bus.instance, host: os.hostname().slice(0, 100), version: core.version, started_at: nowIso() };
  return defineModule({
    name: 'cluster',
    self,
    /** This instance is running from the moment it is built (the first scheduled beat comes a little later). */
    ready: () => instancesRepository.beat(db, self, nowIso()),
    jobs: [
      { name: 'cluster.heartbeat', every: HEARTBEAT_MS, run: () => instancesRepository.beat(db, self, nowIso()) },
      {
        name: 'cluster.prune',
        every: 3600_000,
        exclusive: true,
        run: () => instancesRepository.prune(db, new Date(clock.now() - 86400_000).toISOString()),
      },
    ],
    /** A clean stop says so at once: the others take over its breakers without waiting for the heartbeat to age. */
    close: () => instancesRepository.remove(db, self.id),
  });
}
