import type { LiveEvents, LiveEventType, RightKey } from '@faceadmin/shared';
import { busOf } from '../../db/bus.ts';
import type { Db, Executor } from '../../db/database.ts';
import { dbOf } from '../../db/transaction.ts';

/**
 * What a writer hands the console's live stream (GET /events): the event, the company it belongs to, and who may
 * see it. Published inside the writer's transaction, it reaches consoles only once that commits (on PostgreSQL by
 * a NOTIFY in the same transaction, so every instance hears it in commit order; on SQLite after the commit).
 */
export interface LiveEnvelope<K extends LiveEventType = LiveEventType> {
  companyId: number;
  type: K;
  data: LiveEvents[K];
  /** any of these rights (non-zero) lets an administrator see it; empty: every administrator of the company */
  rights: readonly RightKey[];
  /** only this administrator (messages addressed to one) */
  adminId?: number | null;
}

/** Where published events go; the live module registers one per database. */
export interface LiveSink {
  publish(executor: Executor, event: LiveEnvelope): Promise<void>;
}

const sinks = new WeakMap<Db, LiveSink>();

export function registerLiveSink(db: Db, sink: LiveSink): () => void {
  sinks.set(db, sink);
  return () => {
    if (sinks.get(db) === sink) sinks.delete(db);
  };
}

/**
 * Something else that hears every published event in the writer's transaction (the webhooks' outbox, issue #19): it
 * may write in that transaction and must stay cheap when it has nothing to do (a cached "nobody listens").
 */
export type LiveTap = (executor: Executor, event: LiveEnvelope) => Promise<void>;
/** Whether the tap takes events of this type for this company now (a cached answer; writers skip building them). */
export type LiveTapWants = (executor: Executor, companyId: number, type: LiveEventType) => Promise<boolean>;
const taps = new WeakMap<Db, { tap: LiveTap; wants: LiveTapWants }>();

export function registerLiveTap(db: Db, tap: LiveTap, wants: LiveTapWants = async () => true): () => void {
  const entry = { tap, wants };
  taps.set(db, entry);
  return () => {
    if (taps.get(db) === entry) taps.delete(db);
  };
}

/** Whether an event published only to the tap (`to: 'tap'`) would be taken: false when no tap listens. */
export async function tapWants(executor: Executor, companyId: number, type: LiveEventType): Promise<boolean> {
  const db = dbOf(executor);
  const entry = db && taps.get(db);
  return !!entry && entry.wants(executor, companyId, type);
}

/**
 * Where a published event goes: both the consoles and the tap (the default), or one of them. The consoles' screens
 * take only what is news (a punch taken just now), the tap takes every event of its kind (an integrator needs a
 * terminal's backlog too): a writer sends each event to each exactly once.
 */
export type PublishTo = 'all' | 'live' | 'tap';

/**
 * Publishes one event for the company's consoles, in the caller's transaction (or at once on the database
 * itself). Without a live module (a tool building no server) it does nothing.
 */
export async function publish<K extends LiveEventType>(
  executor: Executor,
  companyId: number,
  type: K,
  data: LiveEvents[K],
  rights: readonly RightKey[] = [],
  adminId: number | null = null,
  to: PublishTo = 'all',
): Promise<void> {
  const db = dbOf(executor);
  if (!db) return;
  const tap = to === 'live' ? undefined : taps.get(db)?.tap;
  const sink = to === 'tap' ? undefined : sinks.get(db);
  if (!tap && !sink) return;
  const event: LiveEnvelope = { companyId, type, data, rights, adminId };
  if (tap) await tap(executor, event);
  if (sink) await sink.publish(executor, event);
}

/** The bus topic of changes to who may keep a stream open (issue #28): every instance's hub acts on them. */
export const STREAMS_TOPIC = 'live.streams';

/**
 * Which open streams no longer stand: the administrator's, narrowed to one session (or all but one) and to one
 * company. They end at once, or by `until` (ms since the epoch) when a session was only shortened (a renewed token's
 * grace). The console reconnects, and the session and rights are checked again (or it is sent to sign in).
 */
export interface StreamsEnd {
  admin: number;
  session?: number;
  except?: number;
  company?: number;
  until?: number;
}

/**
 * Ends streams, in the caller's transaction: sent with the change that ends a session or changes an administrator's
 * rights or membership, so it reaches every instance before any event committed after that change (commit order).
 * Without a server (a tool) there are no streams and it does nothing.
 */
export async function endStreams(executor: Executor, which: StreamsEnd): Promise<void> {
  await busOf(executor)?.send(executor, STREAMS_TOPIC, which);
}
