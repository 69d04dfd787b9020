import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../db/bus.ts';
import type { Database, Executor } from '../../db/database.ts';
import { afterCommit } from '../../db/transaction.ts';
import type { CommandResult, Delivery } from '../../gateways/driver.ts';
import { inChunks } from '../../lib/chunks.ts';

/** Bus topics (db/bus.ts): a one-off command's result; devices that got work. */
const DONE_TOPIC = 'device.commandDone';
const WAKE_TOPIC = 'device.wake';

/**
 * The sync ledger's signals between instances (db/bus.ts), apart from what the ledger holds: devices that got work
 * are woken once the write that gave it commits (here, and on PostgreSQL on every instance), and a one-off command's
 * result reaches whoever waits for it (a door open) on whichever instance it arrives.
 */
export function syncSignals(deps: {
  database: Database;
  /** deliveries of dialled and published protocols by protocol (polled ones have none); filled once built */
  deliveries: ReadonlyMap<string, Delivery>;
  bus: Bus;
  log?: FastifyBaseLogger | undefined;
}) {
  const { db } = deps.database;
  const { bus, deliveries } = deps;

  // Devices that got work, heard from any instance (this one included): the instance serving a device's
  // delivery sends it now; the others' deliveries ignore devices they do not serve.
  bus.on(WAKE_TOPIC, (data, fromSelf) => {
    if (fromSelf) return; // woken after the commit already
    const ids = Array.isArray(data) ? data.filter((x): x is number => Number.isInteger(x)) : [];
    if (ids.length && deliveries.size) void wake(ids);
  });

  // Requests waiting for a one-off command's result (a door open), by command id. The result may come in on any
  // instance: the bus tells them all. Should the bus have missed it (its connection was lost), the rows say it.
  const waiting = new Map<number, Set<(r: CommandResult) => void>>();
  const answer = (r: CommandResult) => {
    const set = waiting.get(r.id);
    if (!set) return;
    waiting.delete(r.id);
    for (const w of set) w(r);
  };
  bus.on(DONE_TOPIC, (data) => {
    const d = data as { id?: unknown; code?: unknown } | null;
    if (d && Number.isInteger(d.id) && Number.isInteger(d.code)) answer({ id: d.id as number, code: d.code as number });
  });
  async function checkWaiting(only?: number[]) {
    const ids = only ?? [...waiting.keys()];
    if (!ids.length) return;
    try {
      const rows = await inChunks(ids, (part) =>
        db.selectFrom('device_commands').select(['id', 'state', 'return_code']).where('id', 'in', part).where('state', 'in', ['done', 'failed']).execute(),
      );
      for (const r of rows) if (r.return_code !== null) answer({ id: r.id, code: r.return_code });
    } catch (err) {
      deps.log?.warn({ err }, 'reading command results failed');
    }
  }
  bus.onResync(() => void checkWaiting());

  /**
   * Once the caller's write has committed, devices that got new work and whose protocol is dialled or
   * published are woken (polled terminals take it at their next poll, so with only those nothing is done).
   */
  function wakeAfterCommit(trx: Executor, deviceIds: Iterable<number>) {
    if (!deliveries.size) return;
    const ids = [...new Set(deviceIds)];
    if (!ids.length) return;
    afterCommit(trx, () => void wakeAndTell(ids));
  }
  /**
   * Wakes here at once (this instance may serve them); on PostgreSQL the others hear it too, but only of devices
   * with a delivery: a polled terminal (ZKTeco) asks whichever instance it reaches, so no instance needs a word.
   */
  async function wakeAndTell(ids: number[]) {
    const woken = await wake(ids);
    // unread (the query failed): the others read the protocols themselves
    const served = woken ?? ids;
    if (deps.database.dialect === 'postgres' && served.length) await tellOthers(served);
  }
  /** Tells every instance which devices got work (in chunks: a NOTIFY carries under 8 kB). */
  async function tellOthers(ids: number[]) {
    try {
      for (let i = 0; i < ids.length; i += 500) await bus.send(db, WAKE_TOPIC, ids.slice(i, i + 500));
    } catch (err) {
      // The serving instance's heartbeat catches up with the work: it is in the database.
      deps.log?.warn({ err }, 'telling other instances of device work failed');
    }
  }
  /** Wakes the deliveries of these devices; answers the ids that have one (undefined when they could not be read). */
  async function wake(ids: number[]): Promise<number[] | undefined> {
    try {
      const rows = await inChunks(ids, (part) => db.selectFrom('devices').select(['id', 'protocol']).where('id', 'in', part).execute());
      const served: number[] = [];
      for (const r of rows) {
        const delivery = deliveries.get(r.protocol);
        if (!delivery) continue;
        delivery.wake(r.id);
        served.push(r.id);
      }
      return served;
    } catch (err) {
      // The delivery's own catch-up sends the work later; the write that queued it has committed.
      deps.log?.error({ err }, 'waking devices failed');
      return undefined;
    }
  }

  return {
    wakeAfterCommit,

    /** A one-off command's result, told to every instance at the commit (whoever waits for it hears it). */
    async commandDone(trx: Executor, r: CommandResult) {
      await bus.send(trx, DONE_TOPIC, { id: r.id, code: r.code });
    },

    /**
     * Resolves when a queued command has a result, on whichever instance it arrives, or with null after `ms`.
     * While the bus is not listening, the row is read every second instead.
     */
    waitFor(commandId: number, ms: number): Promise<CommandResult | null> {
      return new Promise((resolve) => {
        const set = waiting.get(commandId) ?? waiting.set(commandId, new Set()).get(commandId)!;
        const done = (r: CommandResult | null) => {
          clearTimeout(timer);
          clearInterval(poll);
          set.delete(onDone);
          if (!set.size && waiting.get(commandId) === set) waiting.delete(commandId);
          resolve(r);
        };
        const onDone = (r: CommandResult) => done(r);
        set.add(onDone);
        const timer = setTimeout(() => done(null), ms);
        // Answered before this wait began (the caller read the row a moment ago): the row says so now.
        void checkWaiting([commandId]);
        const poll = setInterval(() => {
          if (!bus.listening) void checkWaiting();
        }, 1000);
        poll.unref();
      });
    },
  };
}
