import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.ts';
import { DAY_STATUSES } from './attendance.ts';
import { Nullable, StringEnum } from './common.ts';
import { binary, endpoint } from './endpoint.ts';
import { Punch } from './punches.ts';

/**
 * The console's one live stream (GET /events, server-sent events; issue #16). Every event is
 * `id: <id>\nevent: <type>\ndata: <json>`; a reconnect sends `Last-Event-ID` and gets what it missed from a
 * bounded window, or `reset` when that is gone (the console then refetches what it shows).
 *
 * Topics a console may ask for (`?topics=a,b`); without it every topic but `figures` (a breaker's live power,
 * a message a second per reporting breaker, wanted only by the breaker pages).
 */
export const LIVE_TOPICS = ['punch', 'photo', 'day', 'device', 'command', 'sync', 'breaker', 'figures', 'alarm', 'approval', 'messages', 'visitor'] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];
/** Topics a stream carries when it names none. */
export const DEFAULT_LIVE_TOPICS: readonly LiveTopic[] = LIVE_TOPICS.filter((t) => t !== 'figures');

export const LiveQuery = Type.Object({
  /** comma-separated LIVE_TOPICS; unknown names are refused */
  topics: Type.Optional(Type.String({ maxLength: 200, pattern: '^[a-z]+(,[a-z]+)*$' })),
});
export type LiveQuery = Static<typeof LiveQuery>;

/**
 * A recognition or punch as it arrives: the punch record (as /attendance/list lists it) plus what the watchers'
 * screens show beside it. An unknown face has person_id null; a refused person has theirs (and `refused`). The capture photo usually follows a moment later as a
 * `photo` event naming the same id.
 */
export const LivePunch = Type.Object({
  ...Punch.properties,
  /** the registered face (empty when the person has none or is a stranger) */
  face_url: Type.String(),
  /** the person's departments, joined */
  department: Type.String(),
  department_ids: Type.Array(Type.Integer()),
  /** the health-code colour read with the punch (green, yellow, red), null when none */
  health: Nullable(Type.String()),
  /** a registered person the terminal refused (stranger is true too: it is no punch of theirs; the name is theirs) */
  refused: Type.Boolean(),
  /** when the record reached the server (the punch's own instant is `time`) */
  received_at: Type.String(),
  /** it reached the server more than 10 minutes after it was taken (a terminal's backlog after an outage) */
  late: Type.Boolean(),
  /** a visitor's punch: the invitation and who invited them (null for staff and strangers) */
  visitor: Nullable(Type.Object({ id: Type.Integer(), inviter: Type.String() })),
});
export type LivePunch = Static<typeof LivePunch>;

/** `photo`: a punch's capture photo arrived. */
export const LivePhoto = Type.Object({ id: Type.Integer(), pic_url: Type.String() });
export type LivePhoto = Static<typeof LivePhoto>;

/** `day`: a person's day result changed (small recalculations only; a large one sends `days` with no list). */
export const LiveDay = Type.Object({
  person_id: Type.Integer(),
  date: Type.String(),
  status: StringEnum(DAY_STATUSES),
  late_min: Type.Integer(),
  early_min: Type.Integer(),
});
export type LiveDay = Static<typeof LiveDay>;
export const LiveDays = Type.Object({
  /** null: too many to list, refetch */
  days: Nullable(Type.Array(LiveDay)),
});
export type LiveDays = Static<typeof LiveDays>;

/** `device`: a terminal came online or went offline. */
export const LiveDevice = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  online: Type.Boolean(),
  at: Type.String(),
});
export type LiveDevice = Static<typeof LiveDevice>;

/** `command`: a terminal answered a command (door opening, settings, info); ok false with the device's code. */
export const LiveCommand = Type.Object({
  device_id: Type.Integer(),
  kind: Type.String({ maxLength: LIMITS.textMax }),
  ok: Type.Boolean(),
  code: Nullable(Type.Integer()),
});
export type LiveCommand = Static<typeof LiveCommand>;

/** `sync`: people's sync states moved (the person list refetches the named ones). */
export const LiveSync = Type.Object({ person_ids: Type.Array(Type.Integer()), device_id: Nullable(Type.Integer()) });
export type LiveSync = Static<typeof LiveSync>;

/** `breaker`: a breaker came online, went offline, or a line switched / raised or cleared an alarm. */
export const LiveBreaker = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  online: Type.Boolean(),
  /** the lines whose switch state or alarm changed (empty for presence) */
  lines: Type.Array(Type.Object({ id: Type.Integer(), addr: Type.Integer(), oc: Type.Integer(), alarm: Nullable(Type.String()) })),
});
export type LiveBreaker = Static<typeof LiveBreaker>;

/** `figures`: a breaker's lines' latest readings (once a second at most per breaker). */
export const LiveFigures = Type.Object({
  id: Type.Integer(),
  lines: Type.Array(
    Type.Object({
      id: Type.Integer(),
      oc: Type.Integer(),
      power: Type.Number(),
      current: Type.Number(),
      voltage: Type.Number(),
      energy_wh: Type.Number(),
    }),
  ),
});
export type LiveFigures = Static<typeof LiveFigures>;

export const ALARM_SOURCES = ['breaker', 'temperature', 'alcohol', 'health', 'stranger', 'device'] as const;
export type AlarmSource = (typeof ALARM_SOURCES)[number];
/** `alarm`: something a watcher must look at: a breaker alarm, a fever, alcohol over the limit, a red code, a stranger, a device offline. */
export const LiveAlarm = Type.Object({
  source: StringEnum(ALARM_SOURCES),
  /** e.g. a breaker alarm type (overcurrent…), 'offline' */
  kind: Type.String(),
  /** what it concerns, ready to show: a device or breaker name, a person's name */
  subject: Type.String(),
  device_id: Nullable(Type.Integer()),
  breaker_id: Nullable(Type.Integer()),
  punch_id: Nullable(Type.Integer()),
  value: Nullable(Type.Number()),
  at: Type.String(),
});
export type LiveAlarm = Static<typeof LiveAlarm>;

/** `approval`: an application moved (applied, a step decided, withdrawn, cancelled). */
export const LiveApproval = Type.Object({ id: Type.Integer(), status: Type.Integer() });
export type LiveApproval = Static<typeof LiveApproval>;

/** `messages`: the bell's count may have changed (the console refetches /message/count). */
export const LiveMessages = Type.Object({});

/** `visitor`: a visitor arrived (the first door that let them in), for the guard desk (#19). */
export const LiveVisitor = Type.Object({ id: Type.Integer(), name: Type.String(), inviter: Type.String(), at: Type.String() });
export type LiveVisitor = Static<typeof LiveVisitor>;

/** Each event type's data, for the console's typed subscriptions. */
export interface LiveEvents {
  punch: LivePunch;
  photo: LivePhoto;
  day: LiveDays;
  device: LiveDevice;
  command: LiveCommand;
  sync: LiveSync;
  breaker: LiveBreaker;
  figures: LiveFigures;
  alarm: LiveAlarm;
  approval: LiveApproval;
  messages: Record<string, never>;
  visitor: LiveVisitor;
  /** the replay window no longer holds Last-Event-ID: refetch everything shown */
  reset: Record<string, never>;
}
export type LiveEventType = keyof LiveEvents;

export const liveApi = {
  /** Server-sent events for the signed-in console: see LIVE_TOPICS; scoped to the company and the administrator's rights. */
  events: endpoint({ method: 'GET', path: '/events', query: LiveQuery, response: binary('text/event-stream') }),
};
