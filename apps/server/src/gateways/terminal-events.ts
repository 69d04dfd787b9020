import type { Readable } from 'node:stream';
import type { CommandResult, Planned, Wire } from './driver.ts';

/**
 * The inbound port: what a terminal gateway reports and asks, whatever its wire protocol. The features
 * implement it once (modules/devices/terminal-events.ts); a protocol folder only parses its wire format,
 * calls these, and answers in its own format. Every write resolves only after it is committed, so a
 * gateway acknowledges nothing that could still be lost.
 */

/** A registered terminal as gateways see it (the features' device row satisfies it). */
export interface Terminal {
  readonly id: number;
  readonly company_id: number;
  readonly serial: string;
  readonly name: string;
  readonly protocol: string;
  /** the terminal's clock, in minutes east of UTC */
  readonly tz_offset: number;
  /** resume marks of the terminal's uploads (ZK PUSH stamps) */
  readonly att_stamp: string;
  readonly op_stamp: string;
  readonly photo_stamp: string;
  readonly firmware: string;
  readonly user_count: number;
  /** JSON of what the terminal reported of itself (language, push version, options, INFO) */
  readonly info: string;
}

/** One attendance record as a terminal took it. */
export interface PunchRecord {
  pin: string;
  /** device-local 'YYYY-MM-DD HH:mm:ss' */
  time: string;
  status: number;
  verify: number;
  workcode: string;
  mask: number | null;
  temperature: number | null;
  /** mg/100 mL */
  alcohol: number | null;
}

export type HealthColor = 'green' | 'yellow' | 'red';

/** The health-code check a terminal made with a punch (spec §3 "Health record"). */
export interface HealthRecord {
  pin: string;
  /** device-local 'YYYY-MM-DD HH:mm:ss': the punch's time, with the PIN its key */
  time: string;
  /** as the health-code platform returned it */
  name: string;
  idNumber: string;
  temperature: number | null;
  /** null when the terminal could not read the code */
  color: HealthColor | null;
  /** the terminal's install place */
  place: string;
  /** nucleic-acid test: device-local time ('' when none) and result */
  natTime: string;
  natResult: 'negative' | 'positive' | '';
  /** travel history */
  trip: string;
  vaccineCount: number | null;
  /** 'YYYY-MM-DD' or device-local time of the last dose ('' when none) */
  vaccineTime: string;
}

/** Why a terminal refused a face (ZK PUSH §11.8 photo types 1, 2 and 4; docs/zk-push-protocol.md §5.2). */
export type RefusalReason = 'failed' | 'blacklist' | 'verifyFailed';

/**
 * A face the terminal saw and refused, with its capture photo: a stranger (a face it does not know, PIN `0`) or
 * a registered person it refused. No attendance record comes with it.
 */
export interface StrangerRecord {
  /** device-local 'YYYY-MM-DD HH:mm:ss' */
  time: string;
  /** the user PIN the terminal matched, '0' for an unknown face */
  pin: string;
  reason: RefusalReason;
  jpeg: Buffer;
}

/**
 * One user a terminal holds, as read from it (a take-over, issue #30: docs/zk-push-protocol.md §12.2,
 * docs/isapi-protocol.md §12.2). Recorded as what the terminal holds; never applied to the company's people by itself.
 */
export interface RosterUser {
  /** the user's number on the terminal (ZK PIN, ISAPI employeeNo) */
  pin: string;
  name: string;
  /** the card in decimal ('' none); a user with several keeps the first normal one */
  card: string;
  /** validity, device-local 'YYYY-MM-DD HH:mm:ss'; '' = no bound */
  validFrom: string;
  validTo: string;
  /** an administrator of the terminal itself (ZK Pri 14, ISAPI userType/localUIRight do not say: false) */
  admin: boolean;
  /** staff, or what a terminal keeps apart (ISAPI userType visitor / blackList) */
  kind: 'normal' | 'visitor' | 'blackList';
  /** what the terminal holds of it (ISAPI UserInfo gender; ZK users carry none) */
  gender?: 'male' | 'female';
}

/** What a terminal said of itself: merged into what is kept. */
export interface TerminalInfo {
  firmware?: string;
  userCount?: number;
  /** the door as the terminal reports it (its lock and, where fitted, its contact): open or closed */
  door?: 'open' | 'close';
  /** the users the terminal holds at most, when it says (ISAPI UserInfo capabilities) */
  capacity?: number;
  /** protocol facts to keep (merged into the stored JSON by key) */
  facts?: Record<string, unknown>;
}

export interface TerminalEvents<T extends Terminal = Terminal> {
  /**
   * Any request: the registered terminal with this serial, marked online; undefined when the serial is
   * not registered (remembered, so the console can offer it).
   */
  seen(serial: string, ip: string): Promise<T | undefined>;
  /** A registered terminal by id: what a dialled or published delivery is woken with. */
  terminal(id: number): Promise<T | undefined>;
  /** The registered terminals of a protocol (a dialled delivery calls each now and then). */
  dialled(protocol: string): Promise<T[]>;
  /** The terminal (re)started: commands it had not answered are lost and will be planned again. */
  restarted(terminal: T, facts: Record<string, unknown>): Promise<void>;
  /** Facts the terminal reported (firmware, user count, options). */
  info(terminal: T, info: TerminalInfo): Promise<void>;
  /** A poll: the operations waiting for this terminal, written with the protocol's wire. */
  poll<E>(terminal: T, wire: Wire<E>): Promise<Planned<E>[]>;
  /** Answers to planned operations (files they carry are stored before the answers count). */
  commandResults(terminal: T, results: CommandResult[]): Promise<void>;
  /** A file the terminal fetches (the firmware of an upgrade it was sent); undefined when it has none to fetch. */
  file(terminal: T, url: string): Promise<{ stream: Readable; size: number } | undefined>;
  /** The terminal took an operation but could not use its data (e.g. no face in the photo). */
  commandRejected(terminal: T, commandId: number, code: string): Promise<void>;
  /** Attendance records; idempotent on (terminal, PIN, local time), so a resend is harmless. */
  punches(terminal: T, records: PunchRecord[]): Promise<void>;
  /** Health-code records of punches; idempotent on (terminal, PIN, local time), so a resend is harmless. */
  health(terminal: T, records: HealthRecord[]): Promise<void>;
  /** The capture photo of one punch (it may arrive before or after the punch). */
  punchPhoto(terminal: T, pin: string, localTime: string, jpeg: Buffer): Promise<void>;
  /**
   * A face the terminal refused (a stranger, or a registered person refused), with its photo; idempotent on
   * (terminal, PIN, local time), so a resend is harmless.
   */
  stranger(terminal: T, record: StrangerRecord): Promise<void>;
  /** Users the terminal holds, as a roster read (`readRoster`) or its own uploads bring them: recorded, never applied. */
  roster(terminal: T, users: RosterUser[]): Promise<void>;
  /** A user's enrolment face as the terminal holds it (ZK BIOPHOTO type 9, ISAPI FDSearch picture): a JPEG. */
  rosterFace(terminal: T, pin: string, jpeg: Buffer): Promise<void>;
  /** Users enrolled at the terminal itself (the server's roster is the source of truth). */
  enrolled(terminal: T, pins: string[]): Promise<void>;
  /** Upload resume marks, kept so a restarted terminal resumes where it was. */
  stamp(terminal: T, kind: 'att' | 'op', value: string): Promise<void>;
}
