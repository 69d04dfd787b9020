import { setImmediate } from 'node:timers/promises';
import type { RosterApplied, RosterApplyJob } from '@faceadmin/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { clock, nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';

/** A running apply not heard from for this long: its instance stopped (a running one says it lives every HEARTBEAT_MS). */
const STALE_MS = 2 * 60_000;
const HEARTBEAT_MS = 20_000;
/** Applies over for this long are forgotten (their results hold the refusals of thousands of rows). */
const KEEP_MS = 7 * 86_400_000;

/** What an apply's work is told: `progress(n)` after n terminal records are done, `setTotal` once it knows how many. */
export type ApplyWork = (progress: (rows: number) => Promise<void>, setTotal: (total: number) => Promise<void>) => Promise<RosterApplied>;

class Interrupted extends Error {}

/**
 * Take-over reviews applied in the background (issue #30): a site of thousands of numbers takes minutes, longer than
 * a request may wait behind nginx. The request starts the apply and answers at once; the row in roster_applies
 * carries its progress and then its result, so any instance answers the console's poll. One apply at a time in a
 * company (two at once would make the same people); an apply cut short (the server stopping) is applied again from
 * the start, which writes nothing twice (applying is idempotent).
 */
export function rosterApplies(deps: { database: Database; log?: FastifyBaseLogger }) {
  const { db } = deps.database;
  const running = new Set<Promise<void>>();
  let stopping = false;
  const fresh = () => new Date(clock.now() - STALE_MS).toISOString();
  const busy = (companyId: number) =>
    db
      .selectFrom('roster_applies')
      .select('id')
      .where('company_id', '=', companyId)
      .where('state', '=', 'running')
      .where('updated_at', '>', fresh())
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  const load = (companyId: number, id: number) =>
    db.selectFrom('roster_applies').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  const present = (r: NonNullable<Awaited<ReturnType<typeof load>>>): RosterApplyJob => {
    // a run whose instance stopped: over, said so
    const stale = r.state === 'running' && r.updated_at <= fresh();
    return {
      id: r.id,
      scope: r.scope === 'site' ? 'site' : 'device',
      device_id: r.device_id,
      state: stale ? 'failed' : (r.state as RosterApplyJob['state']),
      done: r.done,
      total: r.total,
      result: r.result ? parseJson<RosterApplied | null>(r.result, null) : null,
      reason: stale ? 'interrupted' : r.reason,
    };
  };

  async function run(id: number, work: ApplyWork): Promise<void> {
    const touch = (set: { done?: number; total?: number }) =>
      db
        .updateTable('roster_applies')
        .set({ ...set, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
    let done = 0;
    // alive however long a batch takes (its faces are stored and checked before its transaction)
    const heartbeat = setInterval(() => void touch({}).catch(() => undefined), HEARTBEAT_MS);
    heartbeat.unref();
    try {
      const result = await work(
        async (rows) => {
          // the server closing: the apply stops between batches (each whole or not at all); a batch about to start
          // (rows 0) does not start
          if (stopping) throw new Interrupted();
          if (!rows) return;
          done += rows;
          await touch({ done });
          // on SQLite every query completes at once: the terminals and the console are answered between batches
          await setImmediate();
        },
        async (total) => {
          await touch({ total });
        },
      );
      await db
        .updateTable('roster_applies')
        .set({ state: 'done', done, result: JSON.stringify(result), updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
    } catch (e) {
      const interrupted = e instanceof Interrupted;
      if (!interrupted) deps.log?.error({ err: e, apply: id }, 'applying a take-over review failed');
      await db
        .updateTable('roster_applies')
        // a reason code the console translates; the detail is in the server's log
        .set({ state: 'failed', reason: interrupted ? 'interrupted' : 'error', updated_at: nowIso() })
        .where('id', '=', id)
        .execute()
        .catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
    }
  }

  return {
    /** Starts `work` for the company (refused while another apply of theirs runs); answers the apply as it starts. */
    async start(tenant: Tenant, what: { scope: 'device' | 'site'; device_id: number; total: number }, work: ApplyWork): Promise<RosterApplyJob> {
      // the server closing: nothing new starts (another instance takes the request again)
      if (stopping) throw conflict('roster.closing');
      if (await busy(tenant.companyId)) throw conflict('roster.applying');
      const now = nowIso();
      const row = await db
        .insertInto('roster_applies')
        .values({ company_id: tenant.companyId, admin_id: tenant.adminId, ...what, state: 'running', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      // two started at once: the first one goes on, the other is refused
      if ((await busy(tenant.companyId))?.id !== row.id) {
        await db.deleteFrom('roster_applies').where('id', '=', row.id).execute();
        throw conflict('roster.applying');
      }
      const job = run(row.id, work);
      running.add(job);
      void job.finally(() => running.delete(job));
      return present((await load(tenant.companyId, row.id))!);
    },

    async info(tenant: Tenant, id: number): Promise<RosterApplyJob> {
      const r = await load(tenant.companyId, id);
      if (!r) throw notFound();
      return present(r);
    },

    /** The company's apply going on, else its last one (the console picks it up again when a review page opens). */
    async current(tenant: Tenant): Promise<RosterApplyJob | null> {
      const r = await db.selectFrom('roster_applies').selectAll().where('company_id', '=', tenant.companyId).orderBy('id', 'desc').limit(1).executeTakeFirst();
      return r ? present(r) : null;
    },

    /** Applies over for a week are deleted (an hourly job). */
    async sweep(): Promise<number> {
      const r = await db
        .deleteFrom('roster_applies')
        .where('state', '!=', 'running')
        .where('updated_at', '<', new Date(clock.now() - KEEP_MS).toISOString())
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /** The server closing: the applies going on stop after their batch, and are waited for. */
    settle: () => {
      stopping = true;
      return Promise.allSettled([...running]);
    },
  };
}
export type RosterApplies = ReturnType<typeof rosterApplies>;
