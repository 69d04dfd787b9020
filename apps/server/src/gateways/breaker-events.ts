/**
 * The breaker seam (issue #12), both directions, free of any wire format. `BreakerEvents` is what a breaker
 * gateway reports (the breakers module implements it: modules/breakers/breaker-events.ts); `BreakerLink` is what
 * the module asks of the wire (the MQTT gateway implements it: gateways/mqtt/). The protocol itself is
 * docs/breaker-protocol.md; app.ts connects the two.
 */

/** The protections a breaker reports (and trips on). */
export type Protection = 'overcurrent' | 'overpower' | 'leakage' | 'overtemp';

/** One line's figures as a breaker reported them; a partial report carries only what changed. */
export interface LineReading {
  /** zero-based switch index (the console's addr - 1) */
  index: number;
  on?: boolean;
  /** W */
  power?: number;
  /** A */
  current?: number;
  /** V */
  voltage?: number;
  /** meter total, Wh */
  energyWh?: number;
  /** °C */
  temperature?: number | null;
  /** residual current, mA */
  leakage?: number;
  /** active protections */
  errors?: Protection[];
  /** W */
  powerLimit?: number;
  /** A */
  currentLimit?: number;
  selfcheck?: boolean;
}

export type BreakerEventKind = Protection | 'alarm_cleared' | 'selfcheck_done' | 'schedule_run';

export interface BreakerEvent {
  kind: BreakerEventKind;
  /** zero-based switch index; null for the whole breaker */
  index: number | null;
  value: number | null;
  /** alarm_cleared: which protection */
  alarm?: Protection;
  /** selfcheck_done: whether the line closed again */
  ok?: boolean;
  /** epoch ms */
  at: number;
}

/** A timer as the breaker holds it (a schedule job): local wall-clock time in the breaker's zone. */
export interface ScheduleJob {
  id?: number;
  enable: boolean;
  hour: number;
  minute: number;
  /** cyclic: 0 Sunday … 6 Saturday; null: every day of the given date */
  weekdays: number[] | null;
  /** single: the day; the job deletes itself after running (`once`) */
  date: { month: number; day: number } | null;
  once: boolean;
  calls: { index: number; on: boolean }[];
}

/** What the module asks a breaker to do. */
export type BreakerOp =
  | { op: 'status' }
  | { op: 'timeZone'; tz: string }
  | { op: 'switch'; index: number; on: boolean; toggleAfter?: number }
  | { op: 'limits'; index: number; powerW: number; currentA: number }
  | { op: 'listSchedules' }
  | { op: 'createSchedule'; job: ScheduleJob }
  | { op: 'updateSchedule'; job: ScheduleJob & { id: number } }
  | { op: 'deleteSchedule'; id: number };

/** The breaker's answer, already parsed by the gateway. */
export type OpResult =
  | { ok: true; lines?: LineReading[]; jobs?: ScheduleJob[]; id?: number; wasOn?: boolean }
  | { ok: false; reason: 'device'; code: number; message: string }
  | { ok: false; reason: 'timeout' | 'offline' };

/** Device error codes the module gives a meaning to (docs/breaker-protocol.md §3). */
export const BREAKER_ERRORS = { invalid: -103, notFound: -105, full: -109, tripped: -114, unknownMethod: -32601 } as const;

/** Inbound: every call resolves once its effect is committed (or deliberately dropped). */
export interface BreakerEvents {
  /** A CONNECT: true when `uuid` is a registered breaker and the password is its own (`alive`: the client is still there). */
  authenticate(uuid: string, password: string, alive?: () => boolean): Promise<boolean>;
  /** The breaker connected (or said `online: true`). */
  connected(uuid: string): Promise<void>;
  /** The breaker is gone (clean disconnect, its last will, or the broker's keep-alive). */
  disconnected(uuid: string): Promise<void>;
  /** Periodic or changed line figures. */
  readings(uuid: string, lines: LineReading[], at: number): void;
  /** Alarms and completions. */
  events(uuid: string, events: BreakerEvent[]): Promise<void>;
  /** Every registered breaker's broker-format hash, for an external broker's password file. */
  credentials(): Promise<BrokerCredential[]>;
}

/** Outbound: what the module asks of whichever broker carries the breakers. */
export interface BreakerLink {
  send(uuid: string, op: BreakerOp, timeoutMs?: number): Promise<OpResult>;
  /** Whether the breaker is connected now (as the broker knows it). */
  isConnected(uuid: string): boolean;
  /** Drops the breaker's connection (deleted, or its password changed). */
  disconnect(uuid: string): void;
  /** A breaker was registered, deleted or got a new password: an external broker's files are rewritten. */
  credentialsChanged(): Promise<void>;
  /** The password in the external broker's hash format, stored beside the server's own hash ('' when none is needed). */
  brokerHash(password: string): string;
}

/** What an external broker's credential files are made of (the module supplies it; never logged). */
export interface BrokerCredential {
  uuid: string;
  /** the password in the broker's own hash format (Mosquitto `$7$…`); empty: not known (set a password) */
  brokerHash: string;
}
