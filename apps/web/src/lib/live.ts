import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { DEFAULT_LIVE_TOPICS, LIVE_TOPICS, liveApi, RELOGIN_CODES, type LiveEvents, type LiveEventType, type LiveTopic } from '@faceadmin/shared';
import { ApiError, followStream } from './request.ts';
import { createStore, useStore } from './store.ts';
import { tokenStore } from './token.ts';

/**
 * The console's one live stream (GET /events, issue #16), shared by every screen: a screen subscribes to the
 * event types it shows (useLiveEvent); the stream is open while anything subscribes and a session exists, asks
 * for the union of the subscribed topics, and reconnects with Last-Event-ID so nothing is missed across a drop
 * (the server replays its window, or sends `reset` when the gap is too old: subscribers then refetch).
 * While the stream is down, screens fall back to polling (livePoll).
 */

export type LiveState = 'off' | 'connecting' | 'open' | 'down';
export const liveState = createStore<LiveState>('off');

type Handler = (data: unknown, id: string | undefined) => void;
const handlers = new Map<string, Set<Handler>>();
let lastId: string | undefined;
let ctrl: AbortController | null = null;
let openTopics = '';
let retry: ReturnType<typeof setTimeout> | undefined;
let lastToken = tokenStore.get();

const isTopic = (t: string): t is LiveTopic => (LIVE_TOPICS as readonly string[]).includes(t);

/** The topics the subscribers want: the default set unless one asks for a topic outside it (figures). */
function wantedTopics(): string {
  const wanted = new Set<LiveTopic>();
  for (const [type, set] of handlers) if (set.size && isTopic(type)) wanted.add(type);
  if (!wanted.size) return '';
  const extra = [...wanted].filter((t) => !DEFAULT_LIVE_TOPICS.includes(t));
  return extra.length ? [...DEFAULT_LIVE_TOPICS, ...extra].sort().join(',') : 'default';
}

function dispatch(type: string, data: unknown, id: string | undefined) {
  for (const h of handlers.get(type) ?? []) {
    try {
      h(data, id);
    } catch (err) {
      console.error(err);
    }
  }
}

function disconnect() {
  ctrl?.abort();
  ctrl = null;
  openTopics = '';
  if (retry) clearTimeout(retry);
  retry = undefined;
}

/** Opens, re-opens (topics changed) or closes the stream to match the subscribers and the session. */
function reconcile() {
  const token = tokenStore.get();
  if (token !== lastToken) {
    // another session (sign-out, sign-in): nothing of the old stream's position applies
    lastToken = token;
    lastId = undefined;
    disconnect();
  }
  const topics = token ? wantedTopics() : '';
  if (!topics) {
    disconnect();
    liveState.set('off');
    return;
  }
  if (ctrl && topics === openTopics) return;
  disconnect();
  connect(topics);
}

function connect(topics: string) {
  const mine = new AbortController();
  ctrl = mine;
  openTopics = topics;
  liveState.set(liveState.get() === 'open' ? 'open' : 'connecting');
  const started = Date.now();
  void followStream(
    liveApi.events,
    topics === 'default' ? {} : { topics },
    (e) => {
      if (e.id) lastId = e.id;
      else if (e.event === 'reset') lastId = undefined;
      if (liveState.get() !== 'open') liveState.set('open');
      let data: unknown = {};
      try {
        data = JSON.parse(e.data);
      } catch {
        return;
      }
      dispatch(e.event, data, e.id);
    },
    {
      signal: mine.signal,
      // no toast for a refused stream, but a session that ended (signed out elsewhere, expired, password changed,
      // removed: the server ends its streams, issue #28) asks to sign in again like any call
      inline: true,
      onOpen: () => {
        if (ctrl === mine) liveState.set('open');
      },
      ...(lastId ? { lastEventId: lastId } : {}),
    },
  )
    .then(() => 'ended' as const)
    .catch((err: unknown) => {
      if (!(err instanceof ApiError && err.kind === 'api')) return 'dropped' as const;
      return RELOGIN_CODES.includes(err.code) ? ('signedOut' as const) : ('refused' as const);
    })
    .then((how) => {
      if (mine.signal.aborted || ctrl !== mine) return;
      ctrl = null;
      if (how !== 'ended') liveState.set('down');
      // The session is gone and the console asks to sign in again: no reconnecting meanwhile (a new token reconnects).
      if (how === 'signedOut') return;
      // The server ends a stream after a while so the session is checked again: reconnect at once (with
      // Last-Event-ID nothing is lost). A drop or a refusal waits, polling meanwhile.
      const wait = how === 'ended' && Date.now() - started > 5_000 ? 0 : how === 'refused' ? 30_000 : 2_000 + Math.random() * 2_000;
      retry = setTimeout(() => {
        retry = undefined;
        reconcile();
      }, wait);
    });
}

tokenStore.subscribe(() => reconcile());

/** Adds a handler for one event type; returns its removal. Outside React (tests, stores) too. */
export function subscribeLive<K extends LiveEventType>(type: K, handler: (data: LiveEvents[K], id: string | undefined) => void): () => void {
  let set = handlers.get(type);
  if (!set) handlers.set(type, (set = new Set()));
  const h = handler as Handler;
  set.add(h);
  queueMicrotask(reconcile);
  return () => {
    set.delete(h);
    queueMicrotask(reconcile);
  };
}

/** Calls `handler` for every event of this type while the component is mounted (the latest handler is used). */
export function useLiveEvent<K extends LiveEventType>(type: K, handler: (data: LiveEvents[K], id: string | undefined) => void): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => subscribeLive(type, (data, id) => ref.current(data, id)), [type]);
}

/** Whether the live stream is open (screens poll while it is not). */
export const useLiveOpen = (): boolean => useStore(liveState) === 'open';

/** A query's refetchInterval: none while the stream is open, `ms` while it is down. */
export const livePoll = (open: boolean, ms: number): number | false => (open ? false : ms);

/**
 * Refetches the queries under `queryKey` when any of `types` arrives (and on `reset`), at most once per
 * `throttleMs`: for screens that show a server-computed list or figure the events only say has changed.
 */
export function useLiveInvalidate(types: readonly LiveEventType[], queryKey: QueryKey, throttleMs = 500): void {
  const qc = useQueryClient();
  const key = JSON.stringify(queryKey);
  const typesKey = types.join(',');
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const fire = () => {
      timer = undefined;
      last = Date.now();
      void qc.invalidateQueries({ queryKey: JSON.parse(key) as QueryKey });
    };
    const onEvent = () => {
      if (timer) return;
      timer = setTimeout(fire, Math.max(0, last + throttleMs - Date.now()));
    };
    const offs = [...typesKey.split(','), 'reset'].map((t) => subscribeLive(t as LiveEventType, onEvent));
    return () => {
      offs.forEach((off) => off());
      if (timer) clearTimeout(timer);
    };
  }, [qc, key, typesKey, throttleMs]);
}
