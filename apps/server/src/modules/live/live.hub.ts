import { randomBytes } from 'node:crypto';
import type { LiveEventType, RightKey, Rights } from '@faceadmin/shared';
import type { LiveEnvelope, StreamsEnd } from './publish.ts';

/** An event as it travels between instances (PostgreSQL NOTIFY payload) and sits in the replay window. */
export interface WireEvent {
  /** unique across instances: the publisher draws it (time-ordered, then random) */
  id: string;
  companyId: number;
  type: LiveEventType;
  rights: readonly RightKey[];
  adminId: number | null;
  data: unknown;
}

interface Stored {
  id: string;
  type: LiveEventType;
  rights: readonly RightKey[];
  adminId: number | null;
  at: number;
  data: unknown;
  /**
   * the SSE frame, serialized once for every console that receives it, when the first one does (an instance with no
   * console of the company open, or none that may see it, never serializes: every instance hears every event)
   */
  frame?: string;
}

/** The event's SSE frame (made once). */
function frame(s: Stored): string {
  return (s.frame ??= frameOf(s.id, s.type, s.data));
}

/** A console's open stream. */
export interface Subscriber {
  companyId: number;
  adminId: number;
  /** the session it was opened in (its end ends the stream) */
  sessionId: number;
  rights: Rights;
  topics: ReadonlySet<string>;
  /** writes a frame; returns false when the client is too far behind and was dropped */
  write(frame: string): boolean;
  /** ends the stream (its session ended, or the administrator's rights changed) */
  end(): void;
  /** its session now ends by this instant (ms since the epoch) */
  expireBy(at: number): void;
}

/** How long the hub remembers that an administrator's access changed, for streams still opening (ms). */
const CHANGE_MEMORY_MS = 60_000;

export interface HubOptions {
  /** events kept per company for reconnects (Last-Event-ID) */
  windowSize?: number;
  /** and for at most this long */
  windowMs?: number;
}

let seq = 0;
const instance = randomBytes(3).toString('hex');
/** A new event id: sortable by time within an instance, unique across instances. */
export function newEventId(now = Date.now()): string {
  seq = (seq + 1) % 0x100000;
  return `${now.toString(36)}-${instance}${seq.toString(36)}`;
}

export const frameOf = (id: string, type: string, data: unknown): string => `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

/** Whether this console may see this event: its company (by construction), the addressee, then any of the rights. */
export function visibleTo(sub: Pick<Subscriber, 'adminId' | 'rights' | 'topics'>, e: Pick<Stored, 'type' | 'rights' | 'adminId'>): boolean {
  if (e.adminId !== null && e.adminId !== sub.adminId) return false;
  if (e.type !== 'reset' && !sub.topics.has(e.type)) return false;
  return !e.rights.length || e.rights.some((r) => sub.rights[r] > 0);
}

/**
 * The fan-out of one server instance: events of every company arrive in commit order (from this instance's own
 * commits on SQLite, from NOTIFY on PostgreSQL, which every instance hears in the same order), are kept in a
 * bounded per-company window for reconnects, and are written to the company's open consoles that may see them.
 */
export function createLiveHub(opts: HubOptions = {}) {
  const windowSize = opts.windowSize ?? 1000;
  const windowMs = opts.windowMs ?? 10 * 60_000;
  const windows = new Map<number, Stored[]>();
  const subscribers = new Map<number, Set<Subscriber>>();
  const byAdmin = new Map<number, Set<Subscriber>>();
  /** administrator → when (performance.now()) a change to their access was last heard; oldest first */
  const changed = new Map<number, number>();
  const stats = { delivered: 0, dropped: 0, events: 0 };

  /** Drops what is past the window's size or age (exact: before a replay reads it). */
  function trim(list: Stored[], now: number) {
    let cut = Math.max(0, list.length - windowSize);
    while (cut < list.length && now - list[cut]!.at > windowMs) cut++;
    if (cut) list.splice(0, cut);
  }

  return {
    stats,
    /** One committed event: kept in its company's window and written to every console that may see it. */
    deliver(e: WireEvent) {
      stats.events++;
      const now = Date.now();
      const stored: Stored = { id: e.id, type: e.type, rights: e.rights, adminId: e.adminId, at: now, data: e.data };
      let list = windows.get(e.companyId);
      if (!list) windows.set(e.companyId, (list = []));
      list.push(stored);
      // Trimmed in bulk, once the window holds twice its size or its oldest is too old: cutting one event off the
      // front of a full window at each event moved the whole array each time. A replay trims exactly first.
      if (list.length >= 2 * windowSize || now - list[0]!.at > windowMs) trim(list, now);
      for (const sub of subscribers.get(e.companyId) ?? []) {
        if (!visibleTo(sub, stored)) continue;
        if (sub.write(frame(stored))) stats.delivered++;
        else stats.dropped++;
      }
    },
    /**
     * Adds a console; first replays what it missed since `lastId` (or `reset` when the window no longer holds it).
     * Returns its removal.
     */
    subscribe(sub: Subscriber, lastId?: string): () => void {
      if (lastId) {
        const list = windows.get(sub.companyId) ?? [];
        trim(list, Date.now());
        const at = list.findIndex((s) => s.id === lastId);
        // Too old (or from before a restart): the console refetches what it shows and resumes from the newest
        // event kept here (an empty id when there is none, so it does not ask for the same gap again).
        if (at < 0) sub.write(frameOf(list.at(-1)?.id ?? '', 'reset', {}));
        else for (const s of list.slice(at + 1)) if (visibleTo(sub, s)) sub.write(frame(s));
      }
      let set = subscribers.get(sub.companyId);
      if (!set) subscribers.set(sub.companyId, (set = new Set()));
      set.add(sub);
      let mine = byAdmin.get(sub.adminId);
      if (!mine) byAdmin.set(sub.adminId, (mine = new Set()));
      mine.add(sub);
      return () => {
        set.delete(sub);
        if (!set.size && subscribers.get(sub.companyId) === set) subscribers.delete(sub.companyId);
        mine.delete(sub);
        if (!mine.size && byAdmin.get(sub.adminId) === mine) byAdmin.delete(sub.adminId);
      };
    },
    /**
     * A session ended or an administrator's rights or membership changed (STREAMS_TOPIC, in commit order with the
     * events): the streams it names end now (or by `until`), before any event committed after the change is written.
     */
    endStreams(which: StreamsEnd) {
      const now = performance.now();
      changed.delete(which.admin);
      changed.set(which.admin, now);
      for (const [admin, at] of changed) {
        if (now - at <= CHANGE_MEMORY_MS) break;
        changed.delete(admin);
      }
      for (const sub of [...(byAdmin.get(which.admin) ?? [])]) {
        if (which.session !== undefined && sub.sessionId !== which.session) continue;
        if (which.except !== undefined && sub.sessionId === which.except) continue;
        if (which.company !== undefined && sub.companyId !== which.company) continue;
        if (which.until !== undefined) sub.expireBy(which.until);
        else sub.end();
      }
    },
    /**
     * Whether a change to the administrator's access was heard since `since` (performance.now()): a stream whose
     * session and rights were read before then must not start on them (the change's message came before it subscribed).
     */
    changedSince(adminId: number, since: number): boolean {
      const at = changed.get(adminId);
      // forgotten changes are older than the memory: a stream opening for longer than that is not trusted either
      return (at !== undefined && at >= since) || performance.now() - since > CHANGE_MEMORY_MS;
    },
    /** Events may have been missed (the PostgreSQL listener reconnected): every open console refetches. */
    resetAll() {
      for (const [companyId, set] of subscribers) {
        const frame = frameOf(windows.get(companyId)?.at(-1)?.id ?? '', 'reset', {});
        for (const sub of set) sub.write(frame);
      }
    },
    /** Open consoles (all companies). */
    get size() {
      let n = 0;
      for (const s of subscribers.values()) n += s.size;
      return n;
    },
  };
}
export type LiveHub = ReturnType<typeof createLiveHub>;

/** The envelope a writer published, made a wire event. */
export const wireOf = (e: LiveEnvelope): WireEvent => ({
  id: newEventId(),
  companyId: e.companyId,
  type: e.type,
  rights: e.rights,
  adminId: e.adminId ?? null,
  data: e.data,
});
